/**
 * The simulator driven by a harness (any language): started on port 0, it says where it listens
 * in a ready file or a JSON line; it stops cleanly on SIGTERM and SIGINT, and with npm when npm
 * started it (npm passes no signal on).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, waitForExit } from '../helpers/process.ts';
import { sendTcp } from '../helpers/tcp.ts';

interface Ready {
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

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kds-ready-'));
});
afterEach(async () => {
	for (const child of children.splice(0)) {
		child.kill('SIGKILL');
		await waitForExit(child);
	}
	rmSync(dir, { recursive: true, force: true });
});

function run(command: string, args: string[]): { child: ChildProcess; out: () => string } {
	const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
	children.push(child);
	let out = '';
	child.stdout!.on('data', (d) => (out += d));
	child.stderr!.on('data', (d) => (out += d));
	return { child, out: () => out };
}

const simulator = (args: string[]) =>
	run(process.execPath, ['--import', 'tsx', 'agent/cli/main.ts', ...args]);

async function until<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

const readyFileOf = (file: string) =>
	until('the ready file', () =>
		existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Ready) : undefined
	);

/** True when nothing listens on the port any more. */
const refused = (host: string, port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, host);
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', () => resolve(true));
	});

const ORDER = {
	command: 'create-order',
	order: {
		id: 'R-1',
		name: 'Zoë 寿司 🍣',
		time: 1795338000000,
		mode: 'For Here',
		items: [{ lineId: '1', name: 'Cheeseburger', qty: 1, mods: [] }]
	}
};

describe('the ready signal', () => {
	it('--ready-file on port 0: every port, a screen that answers, and a clean stop on SIGTERM', async () => {
		const file = join(dir, 'ready.json');
		const dataDir = join(dir, 'data');
		const { child } = simulator([
			...['--data-dir', dataDir, '--http-port', '0', '--tcp-port', '0'],
			...['--ready-file', file, '--log-level', 'warn']
		]);
		const ready = await readyFileOf(file);
		expect(ready).toMatchObject({
			ready: true,
			pid: child.pid,
			storage: join(dataDir, 'kds.sqlite'),
			brands: [{ name: 'Demo Brand', token: 'kds-demo-token' }]
		});
		expect(ready.http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(ready.screens.map((s) => [s.id, s.location])).toEqual([
			['kds-1', 'loc-1'],
			['kds-2', 'loc-1']
		]);
		const [screen] = ready.screens;
		expect(screen.url).toBe(`${ready.http.url}/screens/kds-1`);
		// No temporary file is left beside it.
		expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);

		// The screen acknowledges with the order's id.
		expect((await sendTcp(screen.tcp.host, screen.tcp.port, ORDER)).trim()).toBe('R-1');
		const page = await fetch(screen.url);
		expect(page.status).toBe(200);

		child.kill('SIGTERM');
		expect(await waitForExit(child)).toBe(0);
		expect(await refused(screen.tcp.host, screen.tcp.port)).toBe(true);
		expect(await refused('127.0.0.1', Number(new URL(ready.http.url).port))).toBe(true);
	}, 60_000);

	it('--ready-file - prints it as one JSON line after the banner; SIGINT stops it cleanly', async () => {
		const { child, out } = simulator([
			...['--memory', '--http-port', '0', '--tcp-port', '0', '--ready-file', '-'],
			...['--log-level', 'warn']
		]);
		const line = await until('the JSON line', () =>
			out()
				.split('\n')
				.find((l) => l.startsWith('{') && out().includes(`${l}\n`))
		);
		const ready = JSON.parse(line) as Ready;
		expect(out().indexOf('KDS simulator ready')).toBeLessThan(out().indexOf(line));
		expect(ready.storage).toBeNull();
		expect(ready.screens).toHaveLength(2);
		child.kill('SIGINT');
		expect(await waitForExit(child)).toBe(0);
		expect(await refused(ready.screens[1].tcp.host, ready.screens[1].tcp.port)).toBe(true);
	}, 60_000);

	it('a ready file that cannot be written stops the start with one sentence, exit 2', async () => {
		const file = join(dir, 'no-such-folder', 'ready.json');
		const { child, out } = simulator([
			...['--memory', '--http-port', '0', '--tcp-port', '0', '--ready-file', file]
		]);
		expect(await waitForExit(child)).toBe(2);
		expect(out()).toContain(
			`Cannot write the ready file ${file}: ENOENT: no such file or directory`
		);
		expect(out()).toContain('Give --ready-file a path in a folder this user can write');
	}, 60_000);
});

describe('started by npm', () => {
	it('stops with npm: SIGTERM to `npm run agent` frees every port', async () => {
		const file = join(dir, 'ready.json');
		const npm = run('npm', [
			...['run', 'agent', '--silent', '--', '--memory', '--http-port', '0', '--tcp-port', '0'],
			...['--ready-file', file, '--log-level', 'info']
		]);
		const ready = await readyFileOf(file);
		expect(ready.pid).not.toBe(npm.child.pid);
		npm.child.kill('SIGTERM');
		await waitForExit(npm.child);
		const gone = await until('the simulator to stop', () => {
			try {
				process.kill(ready.pid, 0);
				return undefined;
			} catch {
				return true;
			}
		});
		expect(gone).toBe(true);
		expect(await refused(ready.screens[0].tcp.host, ready.screens[0].tcp.port)).toBe(true);
		expect(await refused('127.0.0.1', Number(new URL(ready.http.url).port))).toBe(true);
	}, 60_000);
});
