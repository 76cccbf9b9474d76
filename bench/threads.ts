/**
 * CPU per operation by thread (issue 28): the agent (a build directory) and the durable floor
 * under the same HTTP create load, each thread of each process named from /proc/<pid>/task/<tid>/comm.
 *
 *   npx tsx bench/threads.ts [dist] [create|partial] [rounds]
 *
 * With `fastify-floor` in place of the build directory, the pair is the durable floor served
 * through a bare Fastify (bench/floor-fastify-server.ts) and the node:http floor: what the
 * framework itself costs per request. Each process's rate (requests over its rounds' wall time)
 * and median p99 are printed beside its CPU.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileBenchFile, fmt, ROOT } from './lib.ts';
import {
	createRequests,
	ORDER_HEADERS,
	partialRequests,
	run,
	seedOrders,
	startAgentChild,
	startChild,
	stop
} from './http.bench.ts';

const [dist = 'dist', scenario = 'create', roundsArg = '3'] = process.argv.slice(2);
const OPS = Number(process.env.KDS_AB_OPS ?? 4000);
const TICK_NS = 1e9 / 100;

function threads(pid: number): Map<string, number> {
	const out = new Map<string, number>();
	for (const tid of readdirSync(`/proc/${pid}/task`)) {
		try {
			const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const ns = (Number(f[11]) + Number(f[12])) * TICK_NS;
			const key = tid === String(pid) ? 'main' : comm;
			out.set(key, (out.get(key) ?? 0) + ns);
		} catch {
			/* gone */
		}
	}
	return out;
}

const dirs = [mkdtempSync(join(tmpdir(), 'kds-th-a-')), mkdtempSync(join(tmpdir(), 'kds-th-f-'))];
const NODE_ARGS = (process.env.KDS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const FASTIFY_FLOOR = dist === 'fastify-floor';
const agent = FASTIFY_FLOOR
	? await startChild(
			[compileBenchFile('bench/floor-fastify-server.ts'), dirs[0]],
			/(http:\/\/\S+)\n/
		)
	: await startAgentChild([...NODE_ARGS, join(resolve(ROOT, dist), 'agent.js')], dirs[0]);
const floor = await startChild(
	[compileBenchFile('bench/floor-http-server.ts'), dirs[1]],
	/(http:\/\/\S+)\n/
);
const procs = [
	{ name: FASTIFY_FLOOR ? 'fastify floor' : 'agent', ...agent },
	{ name: 'floor', ...floor }
];
try {
	const ids =
		scenario === 'partial'
			? await Promise.all(procs.map((p) => seedOrders(p.url, ORDER_HEADERS, 'TH-SEED', 200)))
			: [];
	const reqs = (i: number) => (scenario === 'partial' ? partialRequests(ids[i]) : createRequests());
	for (let i = 0; i < 2; i++) await run(procs[i].url, reqs(i), 0, OPS);
	const totals = procs.map(() => new Map<string, number>());
	const ops = [0, 0];
	const wallMs = [0, 0];
	const p99s: number[][] = [[], []];
	for (let r = 0; r < Number(roundsArg); r++) {
		for (const i of r % 2 ? [1, 0] : [0, 1]) {
			const before = threads(procs[i].child.pid!);
			const t0 = performance.now();
			const res = await run(procs[i].url, reqs(i), 0, OPS);
			wallMs[i] += performance.now() - t0;
			p99s[i].push(res.latency.p99);
			if (res.non2xx || res.errors)
				throw new Error(`${procs[i].name}: ${res.non2xx} non-2xx, ${res.errors} errors`);
			const after = threads(procs[i].child.pid!);
			ops[i] += res.requests.total;
			for (const [k, v] of after)
				totals[i].set(k, (totals[i].get(k) ?? 0) + v - (before.get(k) ?? 0));
		}
	}
	console.log(`${scenario}, ${roundsArg} rounds of ${OPS}, load ${fmt(loadavg()[0], 1)}`);
	procs.forEach((p, i) => {
		const rows = [...totals[i]].sort((a, b) => b[1] - a[1]);
		const sum = rows.reduce((s, [, v]) => s + v, 0);
		const p99 = [...p99s[i]].sort((a, b) => a - b)[Math.floor(p99s[i].length / 2)];
		console.log(
			`${p.name}: ${fmt(sum / 1000 / ops[i], 1)} µs/op total, ${fmt((ops[i] * 1000) / wallMs[i])}/s, p99 ${p99} ms (median of rounds)`
		);
		for (const [k, v] of rows)
			if (v > 0) console.log(`   ${k.padEnd(20)} ${fmt(v / 1000 / ops[i], 1)} µs/op`);
	});
} finally {
	for (const p of procs) await stop(p.child);
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
