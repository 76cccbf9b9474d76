/**
 * Two builds of the agent side by side (issue 28): the CPU each spends per operation, in
 * alternating rounds of the same load, so that whatever else runs on the machine falls on both
 * alike. A change is measured against the build before it: copy dist/ away first
 * (`mkdir -p dist/ab/before && cp dist/agent.js dist/part-*.js dist/ab/before/`: inside the project, so that its packages resolve), rebuild, then
 *
 *   npx tsx bench/ab.bench.ts dist/ab/before dist [more builds…] [tcp|tcp1|create|partial] [rounds]
 *
 * Prints, per build, the median over rounds of the CPU per operation (all threads, and the thread
 * that answers, from /proc), of the rate and of each round's 99th percentile latency, and the ratio of each to the first build's. Each round is a fixed
 * number of operations at 50 connections, or one for tcp1 (KDS_AB_OPS, default 4000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { agentFlags, waitForExit } from '../tests/helpers/process.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import {
	createRequests,
	ORDER_HEADERS,
	partialRequests,
	run,
	seedOrders,
	type CannonRequest
} from './http.bench.ts';
import { CpuMeter, fmt, percentile, ROOT, spawnTs, tcpCreate } from './lib.ts';

// Builds first (two or more directories holding an agent.js, each optionally followed by `:` and
// node flags separated by commas: `dist:--max-semi-space-size=4`, and by `@` and the node binary
// to run it with: `../old/dist@/usr/bin/node`, a build of another runtime), then the scenario and
// rounds. A durable floor may stand among them: a floor server's source
// (`bench/floor-tcp-server.ts` for tcp and tcp1, `bench/floor-http-server.ts` for create and
// partial; `../old/bench/floor-tcp-server.ts@/usr/bin/node`, another tree's floor on its runtime),
// compiled into its own tree's dist/bench so that its packages resolve from that tree (lib.ts).
const args = process.argv.slice(2);
const nodeBinary = (a: string) => a.split('@')[1] ?? process.execPath;
const buildDir = (a: string) => a.split('@')[0].split(':')[0];
const nodeFlags = (a: string) => (a.split('@')[0].split(':')[1] ?? '').split(',').filter(Boolean);
const isFloor = (a: string) => /floor-(tcp|http)-server\.ts$/.test(buildDir(a));
const dirs = args.filter((a) =>
	isFloor(a)
		? existsSync(resolve(ROOT, buildDir(a)))
		: existsSync(join(resolve(ROOT, buildDir(a)), 'agent.js'))
);
const [scenario = 'tcp', roundsArg = '7'] = args.slice(dirs.length);
if (dirs.length < 2) throw new Error('bench/ab: name two or more builds or floors first');
const ROUNDS = Number(roundsArg);
const OPS = Number(process.env.KDS_AB_OPS ?? 4000);
interface Agent {
	child: ChildProcess;
	http: string;
	tcp: { host: string; port: number };
	dataDir: string;
	ids: string[];
}

/** A floor server (see above): its first line on stdout is its port (TCP) or its URL (HTTP). */
async function startFloor(entry: string): Promise<Agent> {
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-ab-floor-'));
	const { child, firstLine } = await spawnTs(
		buildDir(entry),
		[dataDir],
		nodeFlags(entry),
		nodeBinary(entry)
	);
	const http = firstLine.startsWith('http') ? firstLine.trim() : '';
	return {
		child,
		http,
		tcp: { host: '127.0.0.1', port: http ? 0 : Number(firstLine) },
		dataDir,
		ids: []
	};
}

function start(dist: string): Promise<Agent> {
	if (isFloor(dist)) return startFloor(dist);
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-ab-'));
	const child = spawn(
		nodeBinary(dist),
		[
			...nodeFlags(dist),
			join(resolve(ROOT, buildDir(dist)), 'agent.js'),
			...agentFlags(dataDir, 'warn')
		],
		{
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'inherit']
		}
	);
	let out = '';
	return new Promise((done, fail) => {
		child.once('exit', (code) => fail(new Error(`${dist} exited with ${code}:\n${out}`)));
		child.stdout!.on('data', (d) => {
			out += d;
			const http = /UI and HTTP API\s+(\S+?)\/?\n/.exec(out);
			const tcp = /screen \S+\s+.*?TCP (\S+):(\d+)/.exec(out);
			if (!http || !tcp) return;
			child.stdout!.removeAllListeners('data');
			child.stdout!.resume();
			child.removeAllListeners('exit');
			done({ child, http: http[1], tcp: { host: tcp[1], port: Number(tcp[2]) }, dataDir, ids: [] });
		});
	});
}

let n = 0;
/** The round just run's 99th percentile latency, in ms. */
let lastP99 = NaN;
async function tcpRound(agent: Agent, connections = 50): Promise<number> {
	const sessions = await Promise.all(
		Array.from({ length: connections }, () => TcpSession.open(agent.tcp.host, agent.tcp.port))
	);
	let left = OPS;
	const latencies: number[] = [];
	await Promise.all(
		sessions.map(async (session) => {
			while (left-- > 0) {
				n++;
				const sent = performance.now();
				session.write(
					`${tcpCreate(`AB-${n}`, n)}
`
				);
				await session.nextLine();
				latencies.push(performance.now() - sent);
			}
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
	lastP99 = percentile(
		latencies.sort((a, b) => a - b),
		99
	);
	return OPS;
}

/** autocannon with a fixed count of requests. */
async function httpRound(agent: Agent, requests: CannonRequest[]): Promise<number> {
	const result = await run(agent.http, requests, 0, OPS);
	lastP99 = result.latency.p99;
	return result.requests.total;
}

function round(agent: Agent): Promise<number> {
	if (scenario === 'tcp') return tcpRound(agent);
	// One connection, one message at a time: nothing to group, each commit and reply on its own.
	if (scenario === 'tcp1') return tcpRound(agent, 1);
	if (scenario === 'create') return httpRound(agent, createRequests());
	if (scenario === 'partial') return httpRound(agent, partialRequests(agent.ids));
	throw new Error(`unknown scenario ${scenario}: tcp, tcp1, create or partial`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const agents: Agent[] = [];
for (const dir of dirs) agents.push(await start(dir));
try {
	if (scenario === 'partial')
		for (const a of agents)
			a.ids.push(...(await seedOrders(a.http, ORDER_HEADERS, 'AB-SEED', 200)));
	// Warm-up: TCP's per-message functions reach Turbofan only after 5,000–17,000 messages on Node
	// 24 (bench/tcp.bench.ts, WARMUP_ROUNDS), so TCP rounds start after 20,000 at least.
	const warmups = scenario.startsWith('tcp') ? Math.max(1, Math.ceil(20_000 / OPS)) : 1;
	for (let w = 0; w < warmups; w++) for (const a of agents) await round(a);
	const per = agents.map(() => ({
		total: [] as number[],
		main: [] as number[],
		rate: [] as number[],
		p99: [] as number[]
	}));
	const loads: number[] = [];
	for (let r = 0; r < ROUNDS; r++) {
		// Alternate which goes first, so none always meets another's leftovers.
		const order = agents.map((_, i) => i);
		if (r % 2 === 1) order.reverse();
		for (const i of order) {
			const meter = new CpuMeter(agents[i].child.pid!);
			const t = performance.now();
			const ops = await meter.measure(() => round(agents[i]));
			const seconds = (performance.now() - t) / 1000;
			const cpu = meter.perRequest(ops)!;
			per[i].total.push(cpu.totalUs);
			per[i].main.push(cpu.mainUs);
			per[i].rate.push(ops / seconds);
			per[i].p99.push(lastP99);
		}
		loads.push(loadavg()[0]);
	}
	const medians = per.map((p) => ({
		total: median(p.total),
		main: median(p.main),
		rate: median(p.rate),
		p99: median(p.p99)
	}));
	console.log(
		`${scenario}, ${ROUNDS} alternating rounds of ${OPS} operations at ${scenario === 'tcp1' ? 1 : 50} connection(s); load average ${fmt(Math.min(...loads), 1)}-${fmt(Math.max(...loads), 1)}`
	);
	const a = medians[0];
	medians.forEach((x, i) => {
		const name = `${String.fromCharCode(65 + i)} ${dirs[i]}`;
		console.log(
			`${name}: CPU/op ${fmt(x.total, 1)} µs (answering thread ${fmt(x.main, 1)} µs), ${fmt(x.rate)}/s, p99 ${fmt(x.p99, 1)} ms   rounds CPU/op ${per[i].total.map((v) => fmt(v)).join(' ')}`
		);
		if (i > 0) {
			// Each round's ratio to A's in the same round: the machine's load, which moves both
			// alike within a round, cancels out better than in the ratio of medians.
			const paired = median(per[i].total.map((v, r) => v / per[0].total[r]));
			console.log(
				`  ${String.fromCharCode(65 + i)}/A: CPU/op ${fmt((x.total / a.total) * 100, 1)}% (median of the rounds' ratios ${fmt(paired * 100, 1)}%), answering thread ${fmt((x.main / a.main) * 100, 1)}%, rate ${fmt((x.rate / a.rate) * 100, 1)}%, p99 ${fmt((x.p99 / a.p99) * 100, 1)}%`
			);
		}
	});
} finally {
	for (const a of agents) {
		a.child.kill('SIGTERM');
		await waitForExit(a.child);
		rmSync(a.dataDir, { recursive: true, force: true });
	}
}
