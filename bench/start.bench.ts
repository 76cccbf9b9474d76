/**
 * Start-up benchmark (issue 15): how soon a freshly started agent serves a POS. For each of
 * several starts of the production bundle (dist/agent.js, durable store in a new temporary
 * directory), from the spawn:
 * - start → TCP accepting: the first moment a connect to the screen's port succeeds;
 * - start → first reply: a client that connects as soon as the port opens and sends one
 *   create-order (write, half-close, read until close) gets its order id back.
 * Medians of the starts are the figures; the first reply's target is ≤ 300 ms. Two baselines in
 * the same rounds, met by the same client: a bare `node -e` that listens on TCP and answers at
 * once (what any Node process pays before it can answer), and the durable floor
 * (floor-start-server.ts: loads SQLite, opens a new store, commits the order before answering;
 * what any server that keeps its promise of durability pays). Agent minus floor is the agent's
 * own start-up work.
 *
 * Run: npm run bench -- start   (or npm run bench:start)
 * With KDS_BENCH_START_DATA=<dir>, a data directory filled by bench/fill-orders.ts, the agent (and
 * KDS_BENCH_START_COMPARE's) starts on a fresh copy of it each time: a restart with those orders
 * to restore.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForExit } from '../tests/helpers/process.ts';
import { compileBenchFile, fmt, freePort, freePortPair, ROOT } from './lib.ts';

const STARTS = Number(process.env.KDS_BENCH_STARTS ?? 7);
/** Another build's agent.js (e.g. of an earlier commit) to start in the same rounds, for an A/B. */
const COMPARE = process.env.KDS_BENCH_START_COMPARE;
/** A filled data directory each agent start gets a fresh copy of (bench/fill-orders.ts). */
const DATA = process.env.KDS_BENCH_START_DATA;
const TARGET_FIRST_REPLY_MS = 300;
const progress = (text: string) => process.stderr.write(`  start bench: ${text}\n`);

/** Connect as soon as the port accepts (retrying every millisecond); resolves with the socket. */
async function connectWhenOpen(port: number, child: ChildProcess): Promise<Socket> {
	for (;;) {
		if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode}`);
		const socket = await new Promise<Socket | null>((resolve) => {
			const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
			s.once('error', () => {
				s.destroy();
				resolve(null);
			});
		});
		if (socket) return socket;
		await new Promise((r) => setTimeout(r, 1));
	}
}

/** One-shot on an open socket: write, half-close, read until close. */
function oneShot(socket: Socket, text: string): Promise<string> {
	return new Promise((resolve, reject) => {
		let reply = '';
		socket.on('data', (d) => (reply += d));
		socket.once('error', reject);
		socket.once('close', () => resolve(reply));
		socket.end(text);
	});
}

interface Start {
	acceptMs: number;
	replyMs: number;
	/**
	 * The agent only: orders sent one after another (connect, send, read the reply) from the first
	 * reply until the agent prints its ready banner (HTTP up): how many, and the slowest, in ms.
	 */
	whileLoading?: { orders: number; slowestMs: number };
	/** The agent only: start → the ready banner (HTTP up, the whole start). */
	readyMs?: number;
}

const orderText = (id: string) =>
	JSON.stringify({
		command: 'create-order',
		order: {
			id,
			name: 'First',
			time: Date.now(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
		}
	});

/**
 * Spawn `args` with node, connect when the port opens, send one order; both times from spawn.
 * With `untilReady`, then keep sending orders until the process prints the agent's ready banner.
 */
async function measure(
	args: string[],
	port: number,
	expect: string,
	untilReady = false
): Promise<Start> {
	const t0 = performance.now();
	const child = spawn(process.execPath, args, {
		cwd: ROOT,
		stdio: ['ignore', untilReady ? 'pipe' : 'ignore', 'pipe']
	});
	let stderr = '';
	let stdout = '';
	child.stderr!.on('data', (d) => (stderr += d));
	let readyMs: number | undefined;
	child.stdout?.on('data', (d) => {
		stdout += d;
		if (readyMs === undefined && stdout.includes('KDS simulator ready'))
			readyMs = performance.now() - t0;
	});
	try {
		const socket = await connectWhenOpen(port, child);
		const acceptMs = performance.now() - t0;
		const reply = await oneShot(socket, orderText(expect));
		const replyMs = performance.now() - t0;
		if (reply !== expect)
			throw new Error(`expected the reply ${expect}, got ${JSON.stringify(reply)}`);
		if (!untilReady) return { acceptMs, replyMs };
		let orders = 0;
		let slowestMs = 0;
		while (!stdout.includes('KDS simulator ready')) {
			const id = `${expect}-${++orders}`;
			const sent = performance.now();
			const answer = await oneShot(await connectWhenOpen(port, child), orderText(id));
			slowestMs = Math.max(slowestMs, performance.now() - sent);
			if (answer !== id) throw new Error(`expected the reply ${id}, got ${JSON.stringify(answer)}`);
		}
		return { acceptMs, replyMs, whileLoading: { orders, slowestMs }, readyMs };
	} catch (err) {
		throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
	} finally {
		child.kill('SIGTERM');
		await waitForExit(child);
	}
}

const BARE_SERVER = `require('node:net').createServer((s) => { let t = ''; s.on('data', (d) => (t += d)); s.on('end', () => s.end(JSON.parse(t).order.id)); }).listen(Number(process.argv[1]), '127.0.0.1');`;

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export async function runStartBench(): Promise<{ lines: string[]; json: object }> {
	const agent: Start[] = [];
	const bare: Start[] = [];
	const floor: Start[] = [];
	const compare: Start[] = [];
	const floorServer = compileBenchFile('bench/floor-start-server.ts');
	for (let i = 0; i < STARTS; i++) {
		progress(`start ${i + 1} of ${STARTS}`);
		const barePort = await freePort();
		bare.push(await measure(['-e', BARE_SERVER, String(barePort)], barePort, `BARE-${i}`));
		const floorPort = await freePort();
		const floorDir = mkdtempSync(join(tmpdir(), 'kds-bench-start-floor-'));
		try {
			floor.push(
				await measure([floorServer, String(floorPort), floorDir], floorPort, `FLOOR-${i}`)
			);
		} finally {
			rmSync(floorDir, { recursive: true, force: true });
		}
		// The agent's first screen listens here, the second on the next port: both must be free.
		const port = await freePortPair();
		const startAgentAt = async (entry: string, into: Start[]) => {
			const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-start-'));
			if (DATA) cpSync(DATA, dataDir, { recursive: true });
			try {
				const flags = ['--data-dir', dataDir, '--http-port', '0', '--tcp-port', String(port)];
				into.push(
					await measure([entry, ...flags, '--log-level', 'silent'], port, `FIRST-${i}`, true)
				);
			} finally {
				rmSync(dataDir, { recursive: true, force: true });
			}
		};
		await startAgentAt('dist/agent.js', agent);
		if (COMPARE) await startAgentAt(COMPARE, compare);
	}
	const acceptMs = median(agent.map((s) => s.acceptMs));
	const replyMs = median(agent.map((s) => s.replyMs));
	const bareReplyMs = median(bare.map((s) => s.replyMs));
	const floorReplyMs = median(floor.map((s) => s.replyMs));
	const loading = agent.map((s) => s.whileLoading!);
	const loadingOf = (starts: Start[]) =>
		`ready ${fmt(median(starts.map((s) => s.readyMs!)))} ms, slowest order while loading ${fmt(median(starts.map((s) => s.whileLoading!.slowestMs)))} ms (worst ${fmt(Math.max(...starts.map((s) => s.whileLoading!.slowestMs)))} ms)`;
	const each = (starts: Start[]) =>
		starts.map((s) => `${fmt(s.acceptMs)}/${fmt(s.replyMs)}`).join(', ');
	return {
		lines: [
			`Start of dist/agent.js (durable store in ${DATA ? `a copy of ${DATA}` : 'a new directory'}), median of ${STARTS} starts:`,
			`process start to accepting TCP: ${fmt(acceptMs)} ms`,
			`process start to the first order answered: ${fmt(replyMs)} ms   (target <= ${TARGET_FIRST_REPLY_MS} ms)`,
			`  bare node -e TCP server, same client: ${fmt(bareReplyMs)} ms to its first reply`,
			`  durable floor (bench/floor-start-server.ts: SQLite store, parse, commit, reply): ${fmt(floorReplyMs)} ms to its first reply`,
			`  the agent's own start-up work: ${fmt(replyMs - floorReplyMs)} ms over the floor (the floor's over bare: ${fmt(floorReplyMs - bareReplyMs)} ms)`,
			`while the HTTP stack loads (first reply to ready banner), orders sent one after another: slowest ${fmt(median(loading.map((l) => l.slowestMs)))} ms (median over the starts; worst ${fmt(Math.max(...loading.map((l) => l.slowestMs)))} ms; ${fmt(median(loading.map((l) => l.orders)))} orders per start)`,
			`process start to the ready banner (HTTP up): ${fmt(median(agent.map((s) => s.readyMs!)))} ms`,
			`  each start, accepting/first reply in ms: agent ${each(agent)}; bare ${each(bare)}; floor ${each(floor)}`,
			...(COMPARE
				? [
						`  ${COMPARE} in the same rounds: accepting ${fmt(median(compare.map((s) => s.acceptMs)))} ms, first reply ${fmt(median(compare.map((s) => s.replyMs)))} ms (${each(compare)})`,
						`  ${loadingOf(compare)}; dist/agent.js: ${loadingOf(agent)}`
					]
				: [])
		],
		json: {
			bench: 'start',
			starts: STARTS,
			...(DATA ? { data: DATA } : {}),
			acceptMs,
			firstReplyMs: replyMs,
			bareFirstReplyMs: bareReplyMs,
			floorFirstReplyMs: floorReplyMs,
			whileLoadingSlowestMs: median(loading.map((l) => l.slowestMs)),
			readyMs: median(agent.map((s) => s.readyMs!)),
			targetFirstReplyMs: TARGET_FIRST_REPLY_MS,
			agent,
			bare,
			floor,
			...(COMPARE ? { compare: { entry: COMPARE, starts: compare } } : {})
		}
	};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines, json } = await runStartBench();
	console.log(lines.join('\n'));
	console.log(JSON.stringify(json));
}
