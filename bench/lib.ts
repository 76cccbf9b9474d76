/** Small shared pieces of the benchmarks: percentiles, RSS, child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The HTTP benches' create body (10 items, two modifiers each, costs, a phone number for the
 * customer's SMS), with `id` as given: the HTTP bench, the peer, the findings bench and the floor
 * all judge this one order.
 */
export function benchOrder(id: string): Record<string, unknown> {
	return {
		id,
		name: 'Bench Guest',
		time: '2026-11-22T18:00:00Z',
		mode: 'ToGo',
		phoneNumber: '+14155550123',
		items: Array.from({ length: 10 }, (_, i) => ({
			lineId: String(i + 1),
			name: `Item ${i + 1}`,
			qty: 1 + (i % 3),
			price: '$4.50',
			mods: [{ name: 'No onion' }, { name: 'Extra cheese', qty: 2 }]
		})),
		costs: { subtotal: '$45.00', tax: '$3.60', total: '$48.60' }
	};
}

/** The middle value (the upper of the two middle ones for an even count). */
export function median(values: number[]): number {
	return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/**
 * CPU time (µs) and heap bytes per call of each of `runs`, `calls` calls a round, over `rounds`
 * rounds alternating their order, in this one process, so that the machine's load falls on all
 * alike (the in-process micro-benches: findings, parse). Each is warmed up first; a call that
 * returns false is an error.
 */
export function inProcessRounds(
	runs: Array<(k: number) => boolean>,
	calls: number,
	rounds: number
): Array<{ us: number[]; bytes: number[] }> {
	const samples = runs.map(() => ({ us: [] as number[], bytes: [] as number[] }));
	for (const run of runs) for (let k = 0; k < calls; k++) run(k);
	for (let r = 0; r < rounds; r++) {
		const order = runs.map((_, i) => i);
		if (r % 2) order.reverse();
		for (const i of order) {
			globalThis.gc?.();
			const heap = process.memoryUsage().heapUsed;
			const cpu = process.cpuUsage();
			let ok = 0;
			for (let k = 0; k < calls; k++) if (runs[i](k)) ok++;
			const used = process.cpuUsage(cpu);
			samples[i].us.push((used.user + used.system) / calls);
			samples[i].bytes.push((process.memoryUsage().heapUsed - heap) / calls);
			if (ok !== calls) throw new Error(`bench: ${calls - ok} of ${calls} calls failed`);
		}
	}
	return samples;
}

/**
 * The TCP benches' create-order message (5 items, a modifier each), as one JSON text without the
 * newline: every TCP bench, the floor and the agent alike, sends this same body.
 */
export function tcpCreate(id: string, n: number): string {
	return JSON.stringify({
		command: 'create-order',
		order: {
			id,
			name: `Bench ${n}`,
			time: Date.now(),
			mode: 'ToGo',
			items: Array.from({ length: 5 }, (_, i) => ({
				lineId: String(i + 1),
				name: `Item ${i + 1}`,
				qty: 1,
				mods: [{ name: 'No onion' }]
			}))
		}
	});
}

export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[i];
}

/** Resident memory of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
	return kb / 1024;
}

/** CPU time of a process so far, all threads, in clock ticks (Linux /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resident memory of a process once it is at rest: read when it has used no CPU for `quietMs`
 * (all threads; /proc ticks are 10 ms), or after `maxMs` at the latest, whichever comes first.
 * The memory benches read agent and floor alike this way, 500 ms after their last order: a
 * process still collecting garbage or writing its WAL is not at rest (docs/performance.md).
 */
export async function restingRssMiB(
	pid: number,
	{ quietMs = 200, maxMs = 5000 } = {}
): Promise<{ rss: number; waitedMs: number }> {
	const start = performance.now();
	let ticks = cpuTicks(pid);
	let quietSince = start;
	while (performance.now() - start < maxMs) {
		await new Promise((r) => setTimeout(r, 50));
		const now = cpuTicks(pid);
		if (now !== ticks) {
			ticks = now;
			quietSince = performance.now();
		} else if (performance.now() - quietSince >= quietMs) break;
	}
	return { rss: rssMiB(pid), waitedMs: performance.now() - start };
}

/** Peak resident memory of a process so far in MiB (Linux VmHWM: the high-water mark). */
export function peakRssMiB(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
	return kb / 1024;
}

/** CPU time of a process so far, in ns: its main thread (the one that answers) and the others. */
interface CpuTime {
	main: number;
	others: number;
}

/**
 * Read from /proc/<pid>/task/<tid>/schedstat (Linux; null where it is missing). The agent's main
 * thread answers every request, so its share is the figure that limits throughput.
 */
function cpuTime(pid: number): CpuTime | null {
	try {
		const time: CpuTime = { main: 0, others: 0 };
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
			if (Number(tid) === pid) time.main += ns;
			else time.others += ns;
		}
		return time;
	} catch {
		return null;
	}
}

/** CPU per request in µs: all threads, and the main thread alone. */
export interface CpuPerRequest {
	totalUs: number;
	mainUs: number;
}

/** The CPU a process spends during the runs it is asked to measure, added up. */
export class CpuMeter {
	private main = 0;
	private others = 0;
	private readable = true;

	constructor(private pid: number) {}

	async measure<T>(run: () => Promise<T>): Promise<T> {
		const before = cpuTime(this.pid);
		const result = await run();
		const after = cpuTime(this.pid);
		if (!before || !after) this.readable = false;
		else {
			this.main += after.main - before.main;
			this.others += after.others - before.others;
		}
		return result;
	}

	/** Null where /proc cannot be read, or nothing was measured. */
	perRequest(requests: number): CpuPerRequest | null {
		if (!this.readable || requests === 0) return null;
		const us = (ns: number) => ns / 1000 / requests;
		return { totalUs: us(this.main + this.others), mainUs: us(this.main) };
	}
}

export function fmtCpu(cpu: CpuPerRequest | null): string {
	return cpu ? `${fmt(cpu.totalUs)} µs (answering thread ${fmt(cpu.mainUs)} µs)` : 'n/a';
}

/** Files compiled by this run already. */
const compiled = new Set<string>();

/**
 * A TypeScript file of the bench as plain JavaScript, compiled with esbuild into dist/bench/ (as
 * the agent runs from its bundle, so that neither tsx's loader nor its memory is measured) of the
 * tree the file belongs to, the folder above its bench/: this project's for `bench/…`, another
 * checkout's for `../old/bench/floor-tcp-server.ts`, so that its packages resolve from that tree.
 * Returns the compiled file's path.
 */
export function compileBenchFile(file: string): string {
	return compileInTree(file).outfile;
}

function compileInTree(file: string): { outfile: string; tree: string } {
	const source = resolve(ROOT, file);
	const tree = dirname(dirname(source));
	const outfile = join(tree, 'dist/bench', basename(source).replace(/\.ts$/, '.js'));
	if (compiled.has(source)) return { outfile, tree };
	compiled.add(source);
	buildSync({
		entryPoints: [source],
		outfile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		packages: 'external',
		target: 'node20',
		logLevel: 'warning'
	});
	return { outfile, tree };
}

/**
 * Start a TypeScript file of the bench, compiled, in its tree (with `node`, another runtime's
 * binary, when given); resolves with the child and its first stdout line.
 */
export function spawnTs(
	file: string,
	args: string[] = [],
	nodeArgs: string[] = [],
	node = process.execPath
): Promise<{ child: ChildProcess; firstLine: string }> {
	const { outfile, tree } = compileInTree(file);
	const child = spawn(node, [...nodeArgs, outfile, ...args], {
		cwd: tree,
		stdio: ['ignore', 'pipe', 'inherit']
	});
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (d) => {
			out += d;
			const nl = out.indexOf('\n');
			if (nl >= 0) resolve({ child, firstLine: out.slice(0, nl) });
		});
		child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
	});
}

export function fmt(n: number, digits = 0): string {
	return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

export const pct = (ratio: number) => `${fmt(ratio * 100)}%`;
export const times = (ratio: number) => `${fmt(ratio, 2)}×`;

/**
 * One line of a bench's targets: the figure, what it measured (and the two figures it is the
 * ratio of), the target and whether it is met. `op` null: reported, no target.
 */
export function target(
	name: string,
	value: number,
	op: '>=' | '<=' | null,
	goal: number,
	show: (v: number) => string,
	of = ''
): string {
	const figure = `${show(value)}${of ? ` (${of})` : ''}`;
	if (op === null) return `  ${name.padEnd(58)} ${figure}`;
	const met = op === '>=' ? value >= goal : value <= goal;
	return `  ${name.padEnd(58)} ${figure.padEnd(28)} target ${op === '>=' ? '≥' : '≤'} ${show(goal)}  ${met ? 'MET' : 'NOT MET'}`;
}

/** A free TCP port on loopback, as the OS chooses one. */
export function freePort(): Promise<number> {
	return new Promise((resolve) => {
		const s = createServer().listen(0, '127.0.0.1', () => {
			const address = s.address();
			s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/**
 * A free port whose next port is free too: the agent's second screen listens one above the
 * first's `--tcp-port`, and a port taken there stopped a bench run (EADDRINUSE, 2026-12-01).
 */
export async function freePortPair(): Promise<number> {
	for (;;) {
		const port = await freePort();
		const next = await new Promise<boolean>((resolve) => {
			const s = createServer()
				.once('error', () => resolve(false))
				.listen(port + 1, '127.0.0.1', () => s.close(() => resolve(true)));
		});
		if (next) return port;
	}
}
