/**
 * TCP benchmark (issue 2): create-order round trips against the agent (durable store on, in a
 * temporary directory, its own process), against a bare Node TCP server answering a fixed
 * string, and against the durable floor (floor-tcp-server.ts: the least a server that commits
 * before it replies must do), measured in the same run, in alternating rounds; the figure that
 * counts is the ratio to the bare server. The CPU per message of all three is read from /proc
 * (Linux), for all their threads and for the one that answers. Also: the resident memory of
 * agent and floor holding 10,000 active orders, and the agent's time from process start to
 * accepting TCP.
 *
 * Run: npm run bench:tcp
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentFlags, spawnAgent, waitForExit } from '../tests/helpers/process.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { execSync } from 'node:child_process';
import {
	CpuMeter,
	freePortPair,
	fmt,
	fmtCpu,
	pct,
	percentile,
	target,
	times,
	ROOT,
	peakRssMiB,
	restingRssMiB,
	rssMiB,
	spawnTs,
	tcpCreate,
	type CpuPerRequest
} from './lib.ts';

/** The agent as npm start runs it: the production bundle (extra V8 flags: KDS_BENCH_NODE_ARGS). */
const AGENT_NODE_ARGS = (process.env.KDS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The low-memory V8 flags docs/configuration.md suggests for a Raspberry Pi. */
const LOW_MEMORY_ARGS = ['--max-semi-space-size=1', '--optimize-for-size'];
const startAgentProcess = (args: string[], nodeArgs = AGENT_NODE_ARGS) =>
	spawnAgent(args, {}, { bundle: true, nodeArgs });

const progress = (text: string) => process.stderr.write(`  tcp bench: ${text}\n`);
/**
 * Bare server, floor and agent take turns, this many rounds each, so load from elsewhere hits
 * all alike. At one connection a round of SEQUENTIAL_REQUESTS lasts 0.1–0.3 s, so one burst of
 * other work moved three rounds' ratio by 20 points (2026-11-26, 12:48 UTC): nine rounds there.
 */
const ROUNDS = 3;
const SEQUENTIAL_ROUNDS = 9;
/**
 * Rounds of SEQUENTIAL_REQUESTS each server answers before anything is measured. On Node 24 (V8
 * 13.6) a function answering once per message reaches Turbofan only after 5,000–17,000 messages
 * (`--trace-opt`; node's own stream and timer functions too): with 4 rounds, the 1-connection
 * rounds measured the agent, whose JavaScript per message is many times the floor's, still half
 * in its unoptimised tiers (docs/performance.md, "TCP path, sixth round").
 * KDS_BENCH_TCP_WARMUP_ROUNDS sets another count (4 gives the earlier rounds' method).
 */
const WARMUP_ROUNDS = Number(process.env.KDS_BENCH_TCP_WARMUP_ROUNDS ?? 20);
const SEQUENTIAL_REQUESTS = 1000;
const CONCURRENT_CONNECTIONS = 50;
const CONCURRENT_SECONDS = 1.5;
/**
 * Memory is read twice: 500 ms after the last order, and at rest, once the agent has settled its
 * young generation (5 s without a commit, agent/memory-settle.ts) and used no CPU for 200 ms.
 * The floor is read the same two ways.
 */
const AT_REST_AFTER_MS = 5600;

let counter = 0;
function orderLine(): string {
	return `${tcpCreate(`B-${process.pid}-${++counter}`, counter)}
`;
}

interface Result {
	requests: number;
	seconds: number;
	perSecond: number;
	p50: number;
	p99: number;
}

interface Run {
	latencies: number[];
	seconds: number;
}

/** Rounds of one side, as one result: all round trips over all the time they took. */
function summarise(runs: Run[]): Result {
	const latencies = runs.flatMap((r) => r.latencies);
	const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
	latencies.sort((a, b) => a - b);
	return {
		requests: latencies.length,
		seconds,
		perSecond: latencies.length / seconds,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99)
	};
}

async function sequential(host: string, port: number): Promise<Run> {
	const session = await TcpSession.open(host, port);
	const latencies: number[] = [];
	const start = performance.now();
	for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
		const line = orderLine();
		const t = performance.now();
		session.write(line);
		await session.nextLine();
		latencies.push(performance.now() - t);
	}
	const seconds = (performance.now() - start) / 1000;
	await session.close();
	return { latencies, seconds };
}

async function concurrent(host: string, port: number): Promise<Run> {
	const sessions = await Promise.all(
		Array.from({ length: CONCURRENT_CONNECTIONS }, () => TcpSession.open(host, port))
	);
	const latencies: number[] = [];
	const start = performance.now();
	const until = start + CONCURRENT_SECONDS * 1000;
	await Promise.all(
		sessions.map(async (session) => {
			while (performance.now() < until) {
				const t = performance.now();
				session.write(orderLine());
				await session.nextLine();
				latencies.push(performance.now() - t);
			}
		})
	);
	const seconds = (performance.now() - start) / 1000;
	await Promise.all(sessions.map((s) => s.close()));
	return { latencies, seconds };
}

interface Endpoint {
	host: string;
	port: number;
	pid: number;
}

/** One server's runs, as one result, with the CPU it spent per request (all threads, answering thread). */
type Measured = Result & { cpu: CpuPerRequest | null };

const SERVERS = ['bare', 'floor', 'agent'] as const;
type ServerName = (typeof SERVERS)[number];

/**
 * Bare server, durable floor and agent in turns, so that load from elsewhere falls on all
 * alike; each one's CPU is read around its own rounds only.
 */
async function compare(
	run: (host: string, port: number) => Promise<Run>,
	servers: Record<ServerName, Endpoint>,
	rounds = ROUNDS
): Promise<Record<ServerName, Measured> & { rounds: string }> {
	const runs = { bare: [] as Run[], floor: [] as Run[], agent: [] as Run[] };
	const meters = {
		bare: new CpuMeter(servers.bare.pid),
		floor: new CpuMeter(servers.floor.pid),
		agent: new CpuMeter(servers.agent.pid)
	};
	for (let round = 0; round < rounds; round++) {
		for (const name of SERVERS) {
			const { host, port } = servers[name];
			runs[name].push(await meters[name].measure(() => run(host, port)));
		}
	}
	const measured = (name: ServerName): Measured => {
		const result = summarise(runs[name]);
		return { ...result, cpu: meters[name].perRequest(result.requests) };
	};
	const rate = (r: Run) => fmt(r.latencies.length / r.seconds);
	return {
		bare: measured('bare'),
		floor: measured('floor'),
		agent: measured('agent'),
		// Each round's rates, bare/floor/agent: how much the figures move from round to round.
		rounds: runs.bare.map((_, i) => SERVERS.map((name) => rate(runs[name][i])).join('/')).join(', ')
	};
}

/** Spawn the CLI and poll its TCP port until it accepts: process start to accepting TCP. */
async function startupMs(dataDir: string): Promise<number> {
	const port = await freePortPair();
	const t0 = performance.now();
	const agent = startAgentProcess([
		'--data-dir',
		dataDir,
		'--http-port',
		'0',
		'--tcp-port',
		String(port),
		'--log-level',
		'silent'
	]);
	for (;;) {
		const ok = await new Promise<boolean>((resolve) => {
			const s = connect({ host: '127.0.0.1', port }, () => {
				s.destroy();
				resolve(true);
			});
			s.on('error', () => resolve(false));
		});
		if (ok) break;
		await new Promise((r) => setTimeout(r, 2));
	}
	const ms = performance.now() - t0;
	const started = await agent;
	started.child.kill('SIGTERM');
	await waitForExit(started.child);
	return ms;
}

interface MemoryReading {
	/** 500 ms after the last order (MiB). */
	soon: number;
	/** At rest: AT_REST_AFTER_MS after the last order, then no CPU for 200 ms. */
	rest: number;
	/** The high-water mark so far (VmHWM). */
	peak: number;
}

/** A process's resident memory after its last order (or its start), read the two ways. */
async function readMemory(pid: number): Promise<MemoryReading> {
	await new Promise((r) => setTimeout(r, 500));
	const soon = rssMiB(pid);
	await new Promise((r) => setTimeout(r, AT_REST_AFTER_MS - 500));
	const { rss: rest } = await restingRssMiB(pid);
	return { soon, rest, peak: peakRssMiB(pid) };
}

/** The durable floor's resident memory holding the same 10,000 orders. */
async function floorMemory(): Promise<MemoryReading> {
	const dir = mkdtempSync(join(tmpdir(), 'kds-bench-floor-'));
	const floor = await spawnTs('bench/floor-tcp-server.ts', [dir]);
	try {
		const port = Number(floor.firstLine);
		await fill('127.0.0.1', port, 10_000);
		return await readMemory(floor.child.pid!);
	} finally {
		floor.child.kill();
		await waitForExit(floor.child);
		rmSync(dir, { recursive: true, force: true });
	}
}

async function fill(host: string, port: number, count: number): Promise<void> {
	const sessions = await Promise.all(Array.from({ length: 20 }, () => TcpSession.open(host, port)));
	let left = count;
	await Promise.all(
		sessions.map(async (s) => {
			while (left-- > 0) await s.request(orderLine().trimEnd());
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
}

export async function runTcpBench() {
	execSync('npm run --silent build:agent', { cwd: ROOT, stdio: 'inherit' });
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-'));
	const lines: string[] = [];
	try {
		const bare = await spawnTs('bench/bare-tcp-server.ts');
		const barePort = Number(bare.firstLine);
		const floorDir = mkdtempSync(join(tmpdir(), 'kds-bench-floor-'));
		const floor = await spawnTs('bench/floor-tcp-server.ts', [floorDir]);
		const floorAt = { host: '127.0.0.1', port: Number(floor.firstLine), pid: floor.child.pid! };
		const agent = await startAgentProcess(agentFlags(dataDir, 'warn'));
		const [first, second] = [...agent.tcp.values()];

		progress('warming up');
		// Warm all up, in turns as they are measured: single-connection round trips keep getting
		// faster for the first 15,000–20,000 messages (V8 tiering up, and the CPUs waking up).
		for (let i = 0; i < WARMUP_ROUNDS; i++) {
			await sequential('127.0.0.1', barePort);
			await sequential(floorAt.host, floorAt.port);
			await sequential(first.host, first.port);
		}

		const bareAt = { host: '127.0.0.1', port: barePort, pid: bare.child.pid! };
		const agentAt = { ...first, pid: agent.child.pid! };
		progress(`1 connection (${SEQUENTIAL_ROUNDS} rounds each)`);
		const seq = await compare(
			sequential,
			{ bare: bareAt, floor: floorAt, agent: agentAt },
			SEQUENTIAL_ROUNDS
		);
		progress(`${CONCURRENT_CONNECTIONS} connections (${ROUNDS} rounds each)`);
		const conc = await compare(concurrent, { bare: bareAt, floor: floorAt, agent: agentAt });
		const [bareSeq, agentSeq, bareConc, agentConc] = [seq.bare, seq.agent, conc.bare, conc.agent];
		bare.child.kill();
		floor.child.kill();
		await waitForExit(floor.child);
		rmSync(floorDir, { recursive: true, force: true });

		progress('memory with 10,000 orders');
		// Memory with 10,000 active orders over two screens (on top of those the load created).
		await agent.child.kill('SIGTERM');
		await waitForExit(agent.child);
		const memoryWith = async (nodeArgs: string[], restart = false) => {
			rmSync(dataDir, { recursive: true, force: true });
			const flags = [
				'--data-dir',
				dataDir,
				'--http-port',
				'0',
				'--tcp-port',
				'0',
				'--log-level',
				'warn'
			];
			const fresh = await startAgentProcess(flags, nodeArgs);
			const idle = rssMiB(fresh.child.pid!);
			const [a, b] = [...fresh.tcp.values()];
			await fill(a.host, a.port, 5000);
			await fill(b.host, b.port, 5000);
			const full = await readMemory(fresh.child.pid!);
			if (!restart) {
				fresh.child.kill('SIGTERM');
				await waitForExit(fresh.child);
				return { idle, full, restored: null };
			}
			// The same 10,000 orders restored from the store after kill -9: what a restart costs.
			fresh.child.kill('SIGKILL');
			await waitForExit(fresh.child);
			const again = await startAgentProcess(flags, nodeArgs);
			const restored = await readMemory(again.child.pid!);
			again.child.kill('SIGTERM');
			await waitForExit(again.child);
			return { idle, full, restored };
		};
		const mem = await memoryWith(AGENT_NODE_ARGS, true);
		const lowMem = await memoryWith(LOW_MEMORY_ARGS);
		const floorRead = await floorMemory();
		const floorMem = floorRead.rest;
		const rss = mem.full.rest;
		const restored = mem.restored!.rest;

		progress('start-up time');
		const startMs = await startupMs(mkdtempSync(join(tmpdir(), 'kds-bench-start-')));
		void second;

		const row = (name: string, r: Result) =>
			`${name.padEnd(34)} ${fmt(r.perSecond).padStart(8)} /s   p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(6)} ms   (${r.requests} round trips)`;
		lines.push(
			`TCP create-order round trips (agent: dist/agent.js with ${AGENT_NODE_ARGS.join(' ') || 'no V8 flags'}; durable SQLite store, WAL, synchronous=NORMAL)`,
			row('bare server, 1 connection', bareSeq),
			row('durable floor, 1 connection', seq.floor),
			row('agent, 1 connection', agentSeq),
			row(`bare server, ${CONCURRENT_CONNECTIONS} connections`, bareConc),
			row(`durable floor, ${CONCURRENT_CONNECTIONS} connections`, conc.floor),
			row(`agent, ${CONCURRENT_CONNECTIONS} connections`, agentConc),
			`durable floor/bare throughput: 1 connection ${fmt((seq.floor.perSecond / bareSeq.perSecond) * 100)}%, ${CONCURRENT_CONNECTIONS} connections ${fmt((conc.floor.perSecond / bareConc.perSecond) * 100)}%; agent/bare: 1 connection ${fmt((agentSeq.perSecond / bareSeq.perSecond) * 100)}%, ${CONCURRENT_CONNECTIONS} connections ${fmt((agentConc.perSecond / bareConc.perSecond) * 100)}%`,
			`rounds, bare/floor/agent per s: 1 connection ${seq.rounds}; ${CONCURRENT_CONNECTIONS} connections ${conc.rounds}`,
			`agent CPU per create: 1 connection ${fmtCpu(seq.agent.cpu)}; ${CONCURRENT_CONNECTIONS} connections ${fmtCpu(conc.agent.cpu)}`,
			`durable floor CPU per create: 1 connection ${fmtCpu(seq.floor.cpu)}; ${CONCURRENT_CONNECTIONS} connections ${fmtCpu(conc.floor.cpu)}`,
			`bare server CPU per message: 1 connection ${fmtCpu(seq.bare.cpu)}; ${CONCURRENT_CONNECTIONS} connections ${fmtCpu(conc.bare.cpu)}`,
			`agent resident memory with 10,000 active orders on two screens: 500 ms after the last ${fmt(mem.full.soon, 1)} MiB, at rest ${fmt(rss, 1)} MiB (idle ${fmt(mem.idle, 1)} MiB, peak while filling ${fmt(mem.full.peak, 1)} MiB); the same orders restored after kill -9 and a restart: ${fmt(mem.restored!.soon, 1)} MiB 500 ms after the start, ${fmt(restored, 1)} MiB at rest`,
			`  same with ${LOW_MEMORY_ARGS.join(' ')}: ${fmt(lowMem.full.soon, 1)} MiB 500 ms after, ${fmt(lowMem.full.rest, 1)} MiB at rest (idle ${fmt(lowMem.idle, 1)} MiB)`,
			`  durable floor holding the same 10,000 orders, read the same ways: ${fmt(floorRead.soon, 1)} MiB 500 ms after, ${fmt(floorMem, 1)} MiB at rest (peak ${fmt(floorRead.peak, 1)} MiB); agent/floor 500 ms after ${times(mem.full.soon / floorRead.soon)}, peak ${times(mem.full.peak / floorRead.peak)}`,
			`  (at rest: ${AT_REST_AFTER_MS / 1000} s after the last order, then no CPU for 200 ms; the agent settles its young generation after 5 s without a commit, agent/memory-settle.ts)`,
			'',
			'targets (issue 28):',
			target(
				`TCP create, ${CONCURRENT_CONNECTIONS} connections, agent/floor`,
				agentConc.perSecond / conc.floor.perSecond,
				'>=',
				0.75,
				pct
			),
			target(
				`TCP create, ${CONCURRENT_CONNECTIONS} connections, p99 agent/floor`,
				agentConc.p99 / conc.floor.p99,
				'<=',
				1.2,
				times,
				`${fmt(agentConc.p99, 1)} / ${fmt(conc.floor.p99, 1)} ms`
			),
			target(
				'TCP create, 1 connection, agent/floor (reported)',
				agentSeq.perSecond / seq.floor.perSecond,
				null,
				0,
				pct
			),
			target(
				'resident memory at rest, 10,000 orders, agent/floor',
				rss / floorMem,
				'<=',
				1.5,
				times,
				`${fmt(rss)} / ${fmt(floorMem)} MiB`
			),
			target(
				'restored (kill -9, restart) / live, 10,000 orders',
				restored / rss,
				'<=',
				1,
				times,
				`${fmt(restored)} / ${fmt(rss)} MiB at rest; per order over idle ${fmt(((restored - mem.idle) * 1024) / 10_000, 2)} / ${fmt(((rss - mem.idle) * 1024) / 10_000, 2)} KiB`
			),
			`process start to accepting TCP: ${fmt(startMs)} ms   (target <= 1000 ms)`
		);
		const json = {
			bench: 'tcp',
			sequentialRatio: agentSeq.perSecond / bareSeq.perSecond,
			concurrentRatio: agentConc.perSecond / bareConc.perSecond,
			floorSequentialRatio: seq.floor.perSecond / bareSeq.perSecond,
			floorConcurrentRatio: conc.floor.perSecond / bareConc.perSecond,
			agentP99ms: agentConc.p99,
			floorP99ms: conc.floor.p99,
			agentPerFloor: {
				sequential: agentSeq.perSecond / seq.floor.perSecond,
				concurrent: agentConc.perSecond / conc.floor.perSecond
			},
			cpuPerCreate: { sequential: seq.agent.cpu, concurrent: conc.agent.cpu },
			floorCpuPerCreate: { sequential: seq.floor.cpu, concurrent: conc.floor.cpu },
			bareCpuPerMessage: { sequential: seq.bare.cpu, concurrent: conc.bare.cpu },
			rssMiB: rss,
			rssSoonMiB: mem.full.soon,
			rssPeakMiB: mem.full.peak,
			rssLowMemoryMiB: lowMem.full.rest,
			rssFloorMiB: floorMem,
			rssFloorSoonMiB: floorRead.soon,
			rssFloorPeakMiB: floorRead.peak,
			rssRestoredMiB: restored,
			startupMs: startMs
		};
		return { lines, json };
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines, json } = await runTcpBench();
	console.log(lines.join('\n'));
	console.log(JSON.stringify(json));
}
