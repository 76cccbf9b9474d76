/**
 * The simulator as a child process, for a test runner whose Node is older than the simulator needs
 * (engines: node:sqlite, SvelteKit 3). It starts the package's own `kds-sim` command
 * (bin/kds-sim.js) with the test runner's Node, so the same bootstrap as the command
 * (bin/ensure-node.js) re-runs it on Node 24 (fetched once into the user cache) or says in one
 * sentence why it cannot. Orders in memory, ports the OS picks, and where it listens read from the
 * ready line (`--ready-file -`: one JSON object on stdout), never from the human banner.
 *
 * Nothing here imports the agent: on Node 20 this file loads, and the agent runs elsewhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentOptions } from '../../agent/app.ts';

/** What `--ready-file -` prints (agent/cli/ready.ts), as far as the fixture reads it. */
export interface ReadyLine {
	ready: true;
	pid: number;
	http: { url: string };
	storage: string | null;
	brands: Array<{ name: string; token: string }>;
	screens: Array<{
		id: string;
		name: string;
		location: string;
		tcp: { host: string; port: number };
		url: string;
	}>;
}

export interface ChildSimulator {
	ready: ReadyLine;
	child: ChildProcess;
	/** SIGTERM (bin/kds-sim.js passes it on to the Node it re-ran on), then wait for the exit. */
	stop(): Promise<void>;
}

/** The options a child process can be given, each as its `kds-sim` flag. */
const FLAGS: Partial<Record<keyof AgentOptions, (value: never) => string[]>> = {
	httpPort: (v: number) => ['--http-port', String(v)],
	tcpPort: (v: number) => ['--tcp-port', String(v)],
	httpHost: (v: string) => ['--host', v],
	tcpHost: (v: string) => ['--tcp-host', v],
	token: (v: string) => ['--token', v],
	adminToken: (v: string) => ['--admin-token', v],
	dataDir: (v: string) => ['--data-dir', v],
	logLevel: (v: string) => ['--log-level', v],
	inspectorRetention: (v: number) => ['--inspector-retention', String(v)],
	faultProfiles: (v: string[]) => (v.length ? ['--faults', v.join(',')] : [])
};

/** The package's root: the folder above this file's (dist/testing.js, or tests/helpers/…). */
export function packageRoot(from: string = import.meta.url): string {
	let dir = dirname(fileURLToPath(from));
	for (;;) {
		const manifest = join(dir, 'package.json');
		if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'kds-sim')
			return dir;
		const up = dirname(dir);
		if (up === dir) throw new Error(`kds-sim/testing: no kds-sim package.json above ${from}`);
		dir = up;
	}
}

/** The `kds-sim` arguments for `options`; throws, naming the option, for one a process cannot take. */
export function childArguments(options: AgentOptions, configFile: string | null): string[] {
	const args = ['--ready-file', '-'];
	const { memory = true, config, uiDir, ...rest } = options;
	if (memory && options.dataDir === undefined) args.push('--memory');
	if (configFile) args.push('--config', configFile);
	else if (config !== undefined) throw new Error('kds-sim/testing: config without a file');
	if (uiDir !== undefined && uiDir !== null)
		throw notInChild('uiDir', 'the package serves its own built UI');
	const withDefaults: AgentOptions = { httpPort: 0, tcpPort: 0, ...rest };
	for (const [key, value] of Object.entries(withDefaults)) {
		if (value === undefined) continue;
		const flag = FLAGS[key as keyof AgentOptions];
		if (!flag) throw notInChild(key);
		args.push(...flag(value as never));
	}
	return args;
}

function notInChild(option: string, why = 'it is an object of the test process') {
	return new Error(
		`kds-sim/testing: simulatorOptions.${option} needs the simulator inside the test's own process (${why}), which needs Node 22.17 or newer; ${process.env.KDS_SIM_RUN === 'child' ? 'KDS_SIM_RUN=child' : `this test runs on Node ${process.versions.node}, so the simulator`} runs as a child process: run Playwright on Node 22.17+ (docs/testing.md#any-node) or leave ${option} out.`
	);
}

/** Settings of the test runner's environment that must not reconfigure the simulator. */
function childEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env))
		if (!/^KDS_(?!NODE_)/.test(name)) env[name] = value;
	return env;
}

const running = new Set<ChildProcess>();
let exitHook = false;

/** Start `kds-sim` as a child process and wait for its ready line. */
export async function startChild(
	options: AgentOptions,
	startMs = 120_000
): Promise<ChildSimulator> {
	const root = packageRoot();
	const bin = join(root, 'bin', 'kds-sim.js');
	let tmp: string | null = null;
	let configFile: string | null = null;
	if (options.config !== undefined) {
		tmp = mkdtempSync(join(tmpdir(), 'kds-sim-config-'));
		configFile = join(tmp, 'kds.json');
		writeFileSync(configFile, JSON.stringify(options.config));
	}
	const cleanTmp = () => tmp && rmSync(tmp, { recursive: true, force: true });
	let args: string[];
	try {
		args = childArguments(options, configFile);
	} catch (err) {
		cleanTmp();
		throw err;
	}
	const child = spawn(process.execPath, [bin, ...args], {
		cwd: tmpdir(),
		env: childEnv(),
		stdio: ['ignore', 'pipe', 'pipe']
	});
	running.add(child);
	if (!exitHook) {
		exitHook = true;
		// A test runner that ends without closing its simulators does not leave them running.
		process.once('exit', () => running.forEach((c) => c.kill('SIGTERM')));
	}
	const exited = new Promise<number | null>((resolve) =>
		child.once('exit', (code) => {
			running.delete(child);
			cleanTmp();
			resolve(code);
		})
	);
	let stderr = '';
	child.stderr!.setEncoding('utf8').on('data', (d: string) => {
		stderr = (stderr + d).slice(-4000);
	});
	const ready = await new Promise<ReadyLine>((resolve, reject) => {
		let out = '';
		const timer = setTimeout(() => {
			child.kill('SIGTERM');
			reject(
				new Error(
					`kds-sim/testing: the simulator (${bin}) printed no ready line in ${startMs / 1000} s${stderr ? `: ${stderr.trim()}` : ''}`
				)
			);
		}, startMs);
		child.stdout!.setEncoding('utf8').on('data', (d: string) => {
			out += d;
			const lines = out.split('\n');
			for (const line of lines.slice(0, -1)) {
				if (!line.startsWith('{"ready":true')) continue;
				clearTimeout(timer);
				child.stdout!.resume();
				resolve(JSON.parse(line) as ReadyLine);
				return;
			}
			out = lines[lines.length - 1];
		});
		child.once('error', (err) => {
			clearTimeout(timer);
			reject(new Error(`kds-sim/testing: cannot run ${process.execPath} ${bin}: ${err.message}`));
		});
		void exited.then((code) => {
			clearTimeout(timer);
			reject(
				new Error(
					`kds-sim/testing: the simulator exited (code ${code}) before it was ready${stderr ? `: ${stderr.trim()}` : ''}`
				)
			);
		});
	});
	return {
		ready,
		child,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		}
	};
}
