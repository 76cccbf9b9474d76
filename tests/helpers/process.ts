/**
 * Run the simulator as its own process (the CLI), for tests that kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The CLI's flags for a simulator on `dataDir`, on ports the OS picks, logging at `logLevel`. */
export function agentFlags(dataDir: string, logLevel = 'silent'): string[] {
	return ['--data-dir', dataDir, '--http-port', '0', '--tcp-port', '0', '--log-level', logLevel];
}

export interface AgentProcess {
	child: ChildProcess;
	httpUrl: string;
	/** TCP endpoint of each screen, by screen id. */
	tcp: Map<string, { host: string; port: number }>;
	output: () => string;
}

/**
 * Start the simulator's CLI with the given flags and wait for its "ready" banner: from source
 * (agent/cli/main.ts through tsx), or the production bundle (dist/agent.js, made by npm run build),
 * or that of another build directory (`dist`: one holding an agent.js, as the benches' A/B copies).
 */
export function spawnAgent(
	args: string[],
	env: NodeJS.ProcessEnv = {},
	options: { bundle?: boolean; dist?: string; nodeArgs?: string[] } = {}
): Promise<AgentProcess> {
	const entry = options.dist
		? [`${options.dist}/agent.js`]
		: options.bundle
			? ['dist/agent.js']
			: ['--import', 'tsx', 'agent/cli/main.ts'];
	const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...args], {
		cwd: ROOT,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let out = '';
	let err = '';
	child.stdout!.on('data', (d) => (out += d));
	child.stderr!.on('data', (d) => (err += d));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`agent did not start:\n${out}\n${err}`));
		}, 20_000);
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`agent exited with ${code}:\n${out}\n${err}`));
		});
		child.stdout!.on('data', () => {
			const url = /UI and HTTP API\s+(\S+?)\/?\n/.exec(out);
			const screens = [...out.matchAll(/screen (\S+)\s+.*?TCP (\S+):(\d+)/g)];
			if (!url || screens.length === 0 || !out.includes('\n', out.lastIndexOf('TCP '))) return;
			clearTimeout(timer);
			child.removeAllListeners('exit');
			resolve({
				child,
				httpUrl: url[1],
				tcp: new Map(screens.map((m) => [m[1], { host: m[2], port: Number(m[3]) }])),
				output: () => out + err
			});
		});
	});
}

export function waitForExit(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
	return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
