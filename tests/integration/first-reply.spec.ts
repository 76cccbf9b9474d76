/**
 * Start → first reply (issue 15): the agent accepts TCP only once it can answer, so a POS (or a
 * crash test) that connects the moment the port opens gets its reply without waiting behind the
 * rest of the start-up. The screens' ports open first, the HTTP stack loads after them in steps
 * that let TCP orders through. Asserted as an order of events, not a time: the order sent on the
 * connection that first gets in is answered with its id, and once HTTP is up the screen shows it.
 * (The time is in the bench: npm run bench -- start.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT, waitForExit } from '../helpers/process.ts';

function freePort(): Promise<number> {
	return new Promise((resolve) => {
		const s = createServer().listen(0, '127.0.0.1', () => {
			const address = s.address();
			s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

function tryConnect(port: number): Promise<Socket | null> {
	return new Promise((resolve) => {
		const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
		s.once('error', () => {
			s.destroy();
			resolve(null);
		});
	});
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('the order sent the moment the TCP port first accepts is answered, and shown once HTTP is up', async () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-first-'));
	cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
	const [httpPort, tcpPort] = [await freePort(), await freePort()];
	const child = spawn(
		process.execPath,
		[
			...['--import', 'tsx', 'agent/cli/main.ts', '--data-dir', dataDir, '--log-level', 'silent'],
			...['--http-port', String(httpPort), '--tcp-port', String(tcpPort)]
		],
		{ cwd: ROOT, stdio: 'ignore' }
	);
	cleanups.push(async () => {
		child.kill('SIGTERM');
		await waitForExit(child);
	});

	let socket: Socket | null = null;
	const deadline = Date.now() + 50_000;
	while (!socket && Date.now() < deadline && child.exitCode === null) {
		socket = await tryConnect(tcpPort);
		if (!socket) await new Promise((r) => setTimeout(r, 2));
	}
	if (!socket) throw new Error('the screen port never accepted');

	const reply = await new Promise<string>((resolve, reject) => {
		let text = '';
		socket.on('data', (d) => (text += d));
		socket.once('error', reject);
		socket.once('close', () => resolve(text));
		socket.end(
			JSON.stringify({
				command: 'create-order',
				order: {
					id: 'FIRST',
					name: 'First',
					time: Date.now(),
					mode: 'ToGo',
					items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
				}
			})
		);
	});
	expect(reply).toBe('FIRST');

	// HTTP comes up after the screens' ports (it may be up already): the order is there.
	let records: Array<{ context: { id: string } }> | undefined;
	while (!records && Date.now() < deadline) {
		const res = await fetch(`http://127.0.0.1:${httpPort}/api/screens/kds-1/state`).catch(
			() => null
		);
		if (res?.ok) records = ((await res.json()) as { records: typeof records }).records;
		else await new Promise((r) => setTimeout(r, 20));
	}
	expect(records?.map((r) => r.context.id)).toEqual(['FIRST']);
}, 60_000);

/**
 * Loaded into the agent with --import: at the first TCP port's 'listening', writes which npm
 * packages the process has loaded so far (the CommonJS ones: pino, Fastify, ws) to $KDS_LOADED_AT_LISTEN.
 */
const RECORD_AT_LISTEN = `
import net from 'node:net';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const cache = createRequire(import.meta.url).cache;
const listen = net.Server.prototype.listen;
let first = true;
net.Server.prototype.listen = function (...args) {
	this.once('listening', () => {
		if (!first) return;
		first = false;
		const packages = new Set(Object.keys(cache).flatMap((f) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(f)?.[1] ?? []));
		writeFileSync(process.env.KDS_LOADED_AT_LISTEN, JSON.stringify([...packages].sort()));
	});
	return listen.apply(this, args);
};
`;

it("opens the screens' ports before loading pino, Fastify or ws (the HTTP stack comes after)", async () => {
	const dir = mkdtempSync(join(tmpdir(), 'kds-first-'));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
	const preload = join(dir, 'record.mjs');
	const loadedFile = join(dir, 'loaded.json');
	writeFileSync(preload, RECORD_AT_LISTEN);
	const [httpPort, tcpPort] = [await freePort(), await freePort()];
	const child = spawn(
		process.execPath,
		[
			...['--import', 'tsx', '--import', preload, 'agent/cli/main.ts'],
			...['--data-dir', join(dir, 'data'), '--log-level', 'info'],
			...['--http-port', String(httpPort), '--tcp-port', String(tcpPort)]
		],
		{
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'ignore'],
			env: { ...process.env, KDS_LOADED_AT_LISTEN: loadedFile }
		}
	);
	cleanups.push(async () => {
		child.kill('SIGTERM');
		await waitForExit(child);
	});
	// Ready (HTTP up) means the TCP ports opened a while ago: the record is written by then.
	await new Promise<void>((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (d) => {
			out += d;
			if (out.includes('KDS simulator ready')) resolve();
		});
		child.once('exit', (code) => reject(new Error(`the agent exited with ${code}`)));
	});
	const loaded = JSON.parse(readFileSync(loadedFile, 'utf8')) as string[];
	// The order machine (xstate) is loaded by then: the record sees the packages the agent loads.
	expect(loaded).toContain('xstate');
	expect(
		loaded.filter((name) => /^(pino|fastify|@fastify\/|ws$|find-my-way|avvio)/.test(name))
	).toEqual([]);
}, 60_000);
