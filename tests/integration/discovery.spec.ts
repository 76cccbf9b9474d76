/**
 * Discovery over loopback, as a POS meets it: the simulator started with --discovery to a
 * loopback target, `kds-sim discover` listing what it hears, and the start-up report naming the
 * screens that cannot be announced.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startDiscoverable } from '../helpers/discovery.ts';
import { ROOT, spawnAgent, waitForExit, type AgentProcess } from '../helpers/process.ts';

/** Run `kds-sim discover` with `args`; `onPort` learns the UDP port it listens on. */
function runDiscover(
	args: string[],
	onPort: (port: number) => void = () => {}
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', 'agent/cli/cli.ts', 'discover', ...args],
		{
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe']
		}
	);
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d) => (stdout += d));
	child.stderr.on('data', (d) => {
		stderr += d;
		const m = /Listening on UDP [\d.]+:(\d+)/.exec(stderr);
		if (m) onPort(Number(m[1]));
	});
	return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

let agent: RunningAgent | undefined;
let proc: AgentProcess | undefined;
afterEach(async () => {
	await agent?.close();
	agent = undefined;
	if (proc) {
		proc.child.kill('SIGTERM');
		await waitForExit(proc.child);
		proc = undefined;
	}
});

describe('kds-sim discover', () => {
	it('lists every screen it hears once: name, address, version, identifier', async () => {
		const result = runDiscover(['--port', '0', '--bind', '127.0.0.1', '--seconds', '5'], (port) => {
			void startDiscoverable(['Grill', 'Expo – Küche'], {
				discovery: { targets: [{ host: '127.0.0.1', port }], intervalMs: 200 }
			}).then((a) => (agent = a));
		});
		const { code, stdout } = await result;
		expect(code).toBe(0);
		const [header, ...rows] = stdout.trimEnd().split('\n');
		expect(header.split(/\s{2,}/)).toEqual(['NAME', 'ADDRESS', 'VERSION', 'IDENTIFIER']);
		const expected = agent!.screens.map((s) => [s.name, s.tcp.host, '2.21.30', s.id]);
		expect(rows.map((r) => r.split(/\s{2,}/)).sort()).toEqual(expected.sort());
	});

	it('--json prints one object per screen for scripts', async () => {
		const { code, stdout } = await runDiscover(
			['--port', '0', '--bind', '127.0.0.1', '--seconds', '5', '--json'],
			(port) => {
				void startDiscoverable(['Grill'], {
					discovery: { targets: [{ host: '127.0.0.1', port }], intervalMs: 200 }
				}).then((a) => (agent = a));
			}
		);
		expect(code).toBe(0);
		const screens = JSON.parse(stdout);
		expect(screens).toEqual([
			{
				name: 'Grill',
				address: agent!.screens[0].tcp.host,
				version: '2.21.30',
				identifier: 'kds-1',
				from: expect.stringMatching(/^127\.0\.0\.1:\d+$/)
			}
		]);
	});

	it('hearing nothing says so; a bad flag is refused with one sentence', async () => {
		const quiet = await runDiscover(['--port', '0', '--bind', '127.0.0.1', '--seconds', '0.3']);
		expect(quiet).toMatchObject({ code: 0, stdout: 'No screen heard.\n' });
		const bad = await runDiscover(['--seconds', 'soon']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toBe(
			'kds-sim discover: invalid --seconds "soon" (expected a number of seconds, up to 3600)\n'
		);
	});
});

describe('start-up report', () => {
	it('names the screens announced, and says why one on its own port is not', async () => {
		proc = await spawnAgent([
			'--memory',
			'--http-port',
			'0',
			'--tcp-host',
			'127.0.0.1',
			'--tcp-port',
			'0',
			'--log-level',
			'silent',
			'--discovery',
			'--discovery-to',
			'127.0.0.1:9'
		]);
		const out = proc.output();
		const ports = [...proc.tcp.values()].map((t) => t.port);
		expect(out).toContain(
			'discovery        every 2 s on UDP; a POS sends to each address on TCP 9104'
		);
		expect(out).toContain(
			`screen kds-1 (Grill) is not announced: it listens on TCP port ${ports[0]}, and a POS that discovers a screen sends to port 9104; give it an address of its own on port 9104 to announce it.`
		);
		expect(out).toContain(
			`screen kds-2 (Expo) is not announced: it listens on TCP port ${ports[1]}`
		);
	});

	it('off loopback with the demo token, start-up stops with one sentence', async () => {
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'agent/cli/main.ts',
				'--memory',
				'--host',
				'198.51.100.7',
				'--tcp-port',
				'0'
			],
			{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
		);
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		expect(await waitForExit(child)).toBe(2);
		expect(stderr).toBe(
			'Refusing to serve the demo integration token kds-demo-token on 198.51.100.7, where other hosts can use it: set a token of your own with --token <at least 8 characters> (KDS_TOKEN) or in the config file (brands[].token).\n'
		);
	});
});
