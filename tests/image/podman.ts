/**
 * The image tests' engine: rootful podman with the project's containers.conf (no file under /etc
 * is written), the base image made locally when missing (deploy/container/base-image.sh) and
 * the Containerfile built as a user would build it. docs/container.md says why each setting.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const IMAGE = process.env.KDS_TEST_IMAGE ?? 'localhost/kds-sim:test';

/** podman's environment: the project's containers.conf unless the caller gives one. */
export const PODMAN_ENV = {
	...process.env,
	CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? `${ROOT}deploy/container/containers.conf`
};

/** A sentence naming each tool the image tests need that this machine lacks; null: none. */
export function missingTools(): string | null {
	const missing = ['podman', 'runc', 'mmdebstrap', 'python3', 'docker-compose'].filter(
		(tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0
	);
	if (missing.length === 0) return null;
	return `The image tests need ${missing.join(', ')}: apt-get install podman runc mmdebstrap python3 python3-yaml docker-compose as root (npm test does it itself, as root on Debian/Ubuntu).`;
}

/** Run podman; its stdout, trimmed. Throws with podman's stderr when it fails. */
export function podman(...args: string[]): string {
	try {
		return execFileSync('podman', args, {
			env: PODMAN_ENV,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe']
		}).trim();
	} catch (err) {
		const e = err as { stderr?: string; status?: number };
		throw new Error(`podman ${args.join(' ')} exited ${e.status}: ${e.stderr ?? ''}`, {
			cause: err
		});
	}
}

/** Build options for a machine whose TLS authority the build must trust (platform notes). */
export function buildArgs(): string[] {
	const args = ['--format', 'docker', '--pull=never', '--network', 'host'];
	const ca = process.env.NODE_EXTRA_CA_CERTS;
	if (ca && existsSync(ca)) {
		args.push('-v', `${ca}:/etc/ssl/certs/build-ca.crt:ro`);
		args.push('--build-arg', 'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/build-ca.crt');
	}
	// The machine's npm cache (npm install filled it): the build's npm ci reads it instead of the
	// registry. Only a speed-up; the recipe builds without it.
	const cache = process.env.npm_config_cache ?? `${homedir()}/.npm`;
	if (existsSync(cache)) {
		args.push('-v', `${cache}:/host-npm-cache`, '--build-arg', 'npm_config_cache=/host-npm-cache');
	}
	return args;
}

/** Serve the Docker API on a unix socket (for Testcontainers); stop it with .kill(). */
export function dockerApi(socket: string): ChildProcess {
	return spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
		env: PODMAN_ENV,
		stdio: 'ignore'
	});
}

/** Resolves when GET url answers 200; rejects after `ms`. */
export async function waitFor200(url: string, ms = 60_000): Promise<Response> {
	const until = Date.now() + ms;
	let last = 'no answer';
	while (Date.now() < until) {
		try {
			const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
			if (res.status === 200) return res;
			last = `status ${res.status}`;
			await res.arrayBuffer();
		} catch (err) {
			last = (err as Error).message;
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`${url}: no 200 within ${ms} ms (${last})`);
}

/** The host port podman mapped a container port to (published on 127.0.0.1 only). */
export function hostPort(container: string, port: number): number {
	const out = podman('port', container, `${port}/tcp`);
	const match = /^127\.0\.0\.1:(\d+)$/m.exec(out);
	if (!match) throw new Error(`port ${port} of ${container} is not published on 127.0.0.1: ${out}`);
	return Number(match[1]);
}
