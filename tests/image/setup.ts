/**
 * Before the image tests: the tools (or one sentence naming what is missing), the local base
 * image, the image built from the Containerfile out of the package `npm pack` makes of the built
 * tree (PACKAGE_FROM=tarball: the build installs what a user installs, no Vite build inside),
 * and a Docker API socket for Testcontainers. Prints how long each step took (docs/container.md
 * quotes them).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildArgs, dockerApi, IMAGE, missingTools, PODMAN_ENV, podman, ROOT } from './podman.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		dockerHost: string;
	}
}

function step<T>(name: string, work: () => T): T {
	const started = Date.now();
	const out = work();
	process.stdout.write(
		`image tests: ${name} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`
	);
	return out;
}

export default async function setup(project: TestProject) {
	const missing = missingTools();
	if (missing) throw new Error(missing);
	if ((process.getuid?.() ?? 0) !== 0) {
		throw new Error('The image tests need root (rootful podman): run them as root, as CI does.');
	}
	step('base image (deploy/container/base-image.sh)', () =>
		execFileSync('bash', [`${ROOT}deploy/container/base-image.sh`], {
			env: PODMAN_ENV,
			stdio: 'inherit'
		})
	);
	if (!process.env.KDS_TEST_IMAGE) {
		if (!existsSync(`${ROOT}dist/agent.js`) || !existsSync(`${ROOT}build/handler.js`)) {
			throw new Error('The package is not built: run `npm run build` first (npm test does).');
		}
		// The build context: the tarball and the lockfile, nothing else of the checkout.
		const context = mkdtempSync(join(tmpdir(), 'kds-image-context-'));
		try {
			step('npm pack', () =>
				execFileSync(
					'npm',
					['pack', '--ignore-scripts', '--loglevel=error', '--pack-destination', context],
					{ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }
				)
			);
			copyFileSync(`${ROOT}package-lock.json`, join(context, 'package-lock.json'));
			step(`podman build ${IMAGE} (PACKAGE_FROM=tarball)`, () =>
				execFileSync(
					'podman',
					[
						'build',
						...buildArgs(),
						'--build-arg',
						'PACKAGE_FROM=tarball',
						'-f',
						`${ROOT}Containerfile`,
						'-t',
						IMAGE,
						context
					],
					{ env: PODMAN_ENV, stdio: ['ignore', 'ignore', 'inherit'] }
				)
			);
		} finally {
			rmSync(context, { recursive: true, force: true });
		}
	}
	const size = JSON.parse(podman('image', 'inspect', IMAGE))[0].Size as number;
	process.stdout.write(`image tests: ${IMAGE} is ${(size / 1e6).toFixed(0)} MB uncompressed\n`);

	const dir = mkdtempSync(join(tmpdir(), 'kds-podman-'));
	const socket = join(dir, 'podman.sock');
	const service = dockerApi(socket);
	project.provide('dockerHost', `unix://${socket}`);
	return () => {
		service.kill();
		rmSync(dir, { recursive: true, force: true });
	};
}
