/**
 * HTTP benchmark (issue 4): the integrator API under 50 concurrent connections, for create
 * (POST /integrators/kds-orders, one screen, a valid 10-item order, a new id per request) and
 * partial update (PUT /integrators/kds-orders/partial), against a bare node:http server that
 * answers 201 with a fixed body, measured in the same run with the same requests. The figure
 * that counts is the ratio to the durable floor (bench/floor-http-server.ts), create and partial
 * update alike (issue 28's targets, printed with the figures). A read (GET /integrators/kds-orders/active, 20 orders on the
 * screen) is measured too: it shows what the HTTP layer costs without the order core and store.
 *
 * Both servers run in their own processes (autocannon, in this one, would otherwise take CPU
 * from them): the agent as `npm start` runs it, the production bundle dist/agent.js, with its
 * durable SQLite store (WAL, synchronous=NORMAL) in a temporary directory.
 *
 * Run: npx tsx bench/http.bench.ts   (last line: the results as JSON)
 * Env: KDS_BENCH_SECONDS (default 5); KDS_BENCH_NODE_ARGS (V8 flags for the agent, default none,
 *      as npm start); KDS_BENCH_SOURCE=1 (run agent/cli/main.ts through tsx instead of the bundle;
 *      also the fallback when package.json has no build:agent script).
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	compileBenchFile,
	CpuMeter,
	fmt,
	fmtCpu,
	pct,
	ROOT,
	benchOrder,
	median,
	target,
	times,
	type CpuPerRequest
} from './lib.ts';
import { agentFlags } from '../tests/helpers/process.ts';

export const CONNECTIONS = 50;
const SECONDS = Number(process.env.KDS_BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.KDS_BENCH_WARMUP_SECONDS ?? 1);
const TOKEN = 'kds-demo-token';
const AGENT_NODE_ARGS = (process.env.KDS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const HAS_BUNDLE_SCRIPT = Boolean(
	(
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts?: Record<string, string>;
		}
	).scripts?.['build:agent']
);
const FROM_SOURCE = process.env.KDS_BENCH_SOURCE === '1' || !HAS_BUNDLE_SCRIPT;

// autocannon ships no types; this is the part used here.
export interface CannonRequest {
	method?: string;
	path?: string;
	headers?: Record<string, string>;
	body?: string;
	setupRequest?: (req: CannonRequest) => CannonRequest;
}
export interface CannonResult {
	requests: { average: number; total: number };
	latency: { p50: number; p99: number };
	non2xx: number;
	errors: number;
	timeouts: number;
	statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
	url: string;
	connections: number;
	duration: number;
	/** A fixed number of requests instead of a duration. */
	amount?: number;
	requests: CannonRequest[];
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const BARE_SERVER = `
const body = JSON.stringify({ orderId: 'x', deliveryStatuses: [{ device: 'kds-1', status: 'SUCCESS', type: 'android' }] });
const server = require('node:http').createServer((req, res) => {
	req.resume();
	req.on('end', () => {
		res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
		res.end(body);
	});
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '\\n'));
`;

/** Start a child and resolve with the first URL it prints. */
export function startChild(
	args: string[],
	pattern: RegExp
): Promise<{ child: ChildProcess; url: string }> {
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	let started = false;
	return new Promise((resolve, reject) => {
		const fail = (why: string) => reject(new Error(`${args.join(' ')} ${why}:\n${out}`));
		child.stdout!.on('data', (d) => {
			out += d;
			const match = started ? null : pattern.exec(out);
			if (!match) return;
			started = true;
			clearTimeout(timer);
			resolve({ child, url: match[1].replace(/\/$/, '') });
			// From here on an exit is a crash (stop() removes this listener first): say why.
			child.removeAllListeners('exit');
			child.once('exit', (code, signal) =>
				process.stderr.write(
					`${args.join(' ')} exited (${code ?? signal}) during the run:\n${out}\n`
				)
			);
		});
		child.stderr!.on('data', (d) => (out += d));
		child.once('exit', (code) => fail(`exited with ${code}`));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			fail('did not start within 20 s');
		}, 20_000);
	});
}

/** The agent (`entry`: what node runs) on `dataDir`, on ports the OS picks; resolves with its URL. */
export function startAgentChild(
	entry: string[],
	dataDir: string
): Promise<{ child: ChildProcess; url: string }> {
	return startChild([...entry, ...agentFlags(dataDir, 'warn')], /UI and HTTP API\s+(\S+)\n/);
}

export function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.removeAllListeners('exit');
		child.once('exit', () => resolve());
		child.kill('SIGTERM');
	});
}

/** The demo brand's headers for orders to screen kds-1. */
export const ORDER_HEADERS = {
	'content-type': 'application/json',
	'x-integration-token': TOKEN,
	'x-location-id': 'loc-1',
	'x-device-ids': 'kds-1'
};
/** Reads go to the other screen, which holds a realistic 20 orders (kds-1 gets thousands). */
const READ_HEADERS = { ...ORDER_HEADERS, 'x-device-ids': 'kds-2' };

/** A valid 10-item order; the id is spliced in per request without re-serialising. */
let created = 0;
export function createRequests(): CannonRequest[] {
	const [head, tail] = JSON.stringify(benchOrder('\u0000')).split('\\u0000');
	return [
		{
			method: 'POST',
			path: '/integrators/kds-orders',
			headers: ORDER_HEADERS,
			setupRequest: (req) => ({ ...req, body: `${head}B${process.pid}-${++created}${tail}` })
		}
	];
}

/** Partial updates spread over `ids` existing orders. */
export function partialRequests(ids: string[]): CannonRequest[] {
	let n = 0;
	return [
		{
			method: 'PUT',
			path: '/integrators/kds-orders/partial',
			headers: ORDER_HEADERS,
			setupRequest: (req) => {
				n += 1;
				const body = {
					id: ids[n % ids.length],
					priority: n % 2 === 0,
					specialInstructions: `note ${n}`
				};
				return { ...req, body: JSON.stringify(body) };
			}
		}
	];
}

function activeRequests(): CannonRequest[] {
	return [{ method: 'GET', path: '/integrators/kds-orders/active', headers: READ_HEADERS }];
}

export interface Row {
	perSecond: number;
	p50: number;
	p99: number;
	requests: number;
	failed: number;
	/** The agent's CPU per request (Linux), read around its own rounds. */
	cpu?: CpuPerRequest | null;
}

/** `seconds` of requests at CONNECTIONS connections, or `amount` requests when given. */
export async function run(
	url: string,
	requests: CannonRequest[],
	seconds: number,
	amount?: number
): Promise<CannonResult> {
	return autocannon({
		url,
		connections: CONNECTIONS,
		duration: seconds,
		...(amount ? { amount } : {}),
		requests
	});
}

export function summarise(rounds: CannonResult[]): Row {
	const requests = rounds.reduce((sum, r) => sum + r.requests.total, 0);
	return {
		perSecond: requests / rounds.length,
		p50: median(rounds.map((r) => r.latency.p50)),
		p99: median(rounds.map((r) => r.latency.p99)),
		requests,
		failed: rounds.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0)
	};
}

/**
 * Agent and reference servers (the bare one, and for create the durable floor) in alternating
 * one-second rounds, so that load from anything else on the machine falls on all alike;
 * throughput is over all rounds, p50/p99 the median round's.
 */
async function compare(
	agentAt: { url: string; pid: number },
	references: Array<{ url: string; pid: number }>,
	requests: () => CannonRequest[]
): Promise<[Row, ...Row[]]> {
	await run(agentAt.url, requests(), WARMUP_SECONDS);
	for (const { url } of references) await run(url, requests(), WARMUP_SECONDS);
	const agent: CannonResult[] = [];
	const rounds: CannonResult[][] = references.map(() => []);
	const cpu = new CpuMeter(agentAt.pid);
	// Each reference's CPU too: a ratio of CPU per request holds better than one of rates when
	// the machine is busy with other work.
	const referenceCpu = references.map(({ pid }) => new CpuMeter(pid));
	for (let round = 0; round < SECONDS; round++) {
		agent.push(await cpu.measure(() => run(agentAt.url, requests(), 1)));
		for (const [i, { url }] of references.entries())
			rounds[i].push(await referenceCpu[i].measure(() => run(url, requests(), 1)));
	}
	const agentRow = summarise(agent);
	return [
		{ ...agentRow, cpu: cpu.perRequest(agentRow.requests) },
		...rounds.map((r, i) => {
			const row = summarise(r);
			return { ...row, cpu: referenceCpu[i].perRequest(row.requests) };
		})
	];
}

/** `count` orders of 10 items created over HTTP (ids `<prefix>-<n>`), for partial updates to work on. */
export async function seedOrders(
	url: string,
	headers: Record<string, string>,
	prefix: string,
	count: number
): Promise<string[]> {
	const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
	for (const id of ids) {
		const res = await fetch(`${url}/integrators/kds-orders`, {
			method: 'POST',
			headers,
			body: JSON.stringify({
				id,
				name: 'Partial Guest',
				time: '2026-11-22T18:00:00Z',
				mode: 'ToGo',
				items: Array.from({ length: 10 }, (_, i) => ({
					lineId: String(i + 1),
					name: `Item ${i + 1}`,
					qty: 1,
					mods: []
				}))
			})
		});
		if (res.status !== 201) throw new Error(`seeding ${id}: ${res.status} ${await res.text()}`);
	}
	return ids;
}

/** Agent CPU per request over the reference's, all threads ('n/a' where /proc could not be read). */
function cpuRatio(agent: Row, reference: Row): string {
	return agent.cpu && reference.cpu
		? `${fmt(agent.cpu.totalUs / reference.cpu.totalUs, 2)}×`
		: 'n/a';
}

export interface HttpBenchResult {
	lines: string[];
	json: Record<string, unknown>;
}

export async function runHttpBench(): Promise<HttpBenchResult> {
	if (!FROM_SOURCE) execSync('npm run --silent build:agent', { cwd: ROOT, stdio: 'inherit' });
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-http-'));
	const children: ChildProcess[] = [];
	try {
		const started = await startChild(['-e', BARE_SERVER], /^(http:\S+)\n/);
		children.push(started.child);
		const bare = { url: started.url, pid: started.child.pid! };
		const floorChild = await startChild(
			[compileBenchFile('bench/floor-http-server.ts'), dataDir],
			/^(http:\S+)\n/
		);
		children.push(floorChild.child);
		const floor = { url: floorChild.url, pid: floorChild.child.pid! };
		const entry = FROM_SOURCE
			? ['--import', 'tsx', 'agent/cli/main.ts']
			: [...AGENT_NODE_ARGS, 'dist/agent.js'];
		const agent = await startAgentChild(entry, dataDir);
		children.push(agent.child);

		const agentAt = { url: agent.url, pid: agent.child.pid! };
		const [agentCreate, bareCreate, floorCreate] = await compare(
			agentAt,
			[bare, floor],
			createRequests
		);
		const ids = await seedOrders(agent.url, ORDER_HEADERS, 'PARTIAL', 200);
		await seedOrders(floor.url, ORDER_HEADERS, 'PARTIAL', 200);
		const [agentPartial, barePartial, floorPartial] = await compare(agentAt, [bare, floor], () =>
			partialRequests(ids)
		);
		await seedOrders(agent.url, READ_HEADERS, 'READ', 20);
		const [agentActive, bareActive] = await compare(agentAt, [bare], activeRequests);

		const how = FROM_SOURCE
			? 'agent/cli/main.ts through tsx'
			: `dist/agent.js with ${AGENT_NODE_ARGS.join(' ') || 'no V8 flags'}`;
		const row = (name: string, a: Row, b: Row) =>
			`${name.padEnd(32)} ${fmt(a.perSecond).padStart(7)}  ${fmt(a.p99, 1).padStart(6)}  ${fmt(b.perSecond).padStart(7)}  ${fmt(b.p99, 1).padStart(6)}  ${fmt((a.perSecond / b.perSecond) * 100).padStart(4)}%` +
			(a.failed ? `   (${a.failed} agent requests failed!)` : '');
		const vsFloor = (name: string, a: Row, f: Row) => [
			target(
				`${name}, agent/floor`,
				a.perSecond / f.perSecond,
				'>=',
				0.75,
				pct,
				`${fmt(a.perSecond)} / ${fmt(f.perSecond)} per s`
			),
			target(
				`${name}, p99 agent/floor`,
				a.p99 / f.p99,
				'<=',
				1.2,
				times,
				`${fmt(a.p99, 1)} / ${fmt(f.p99, 1)} ms`
			)
		];
		const lines = [
			`HTTP integrator API, ${CONNECTIONS} connections, ${SECONDS} x 1 s rounds each, agent, bare and durable floor alternating (after ${WARMUP_SECONDS} s warm-up); load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`,
			`agent: child process, ${how}; durable SQLite store (WAL, synchronous=NORMAL) in a temp dir`,
			`bare: node:http in a child process, 201 with a fixed body`,
			`durable floor (create, partial): node:http that JSON-parses the body, keeps the order in memory (a partial update merged into it), commits it as one SQLite row (group commit per turn) and answers (bench/floor-http-server.ts)`,
			'',
			`${'scenario'.padEnd(32)} ${'agent/s'.padStart(7)}  ${'p99 ms'.padStart(6)}  ${'bare/s'.padStart(7)}  ${'p99 ms'.padStart(6)}  ratio`,
			row('POST kds-orders (10 items)', agentCreate, bareCreate),
			row('PUT kds-orders/partial', agentPartial, barePartial),
			row('GET kds-orders/active (read)', agentActive, bareActive),
			'',
			`durable floor: POST kds-orders ${fmt(floorCreate.perSecond)}/s, p99 ${fmt(floorCreate.p99, 1)} ms, ${fmt((floorCreate.perSecond / bareCreate.perSecond) * 100)}% of bare; PUT partial ${fmt(floorPartial.perSecond)}/s, p99 ${fmt(floorPartial.p99, 1)} ms, ${fmt((floorPartial.perSecond / barePartial.perSecond) * 100)}% of bare`,
			`agent CPU per request: create ${fmtCpu(agentCreate.cpu ?? null)}; partial ${fmtCpu(agentPartial.cpu ?? null)}; read ${fmtCpu(agentActive.cpu ?? null)}`,
			`durable floor CPU per request: create ${fmtCpu(floorCreate.cpu ?? null)}; partial ${fmtCpu(floorPartial.cpu ?? null)}`,
			`agent / floor CPU per request (all threads): create ${cpuRatio(agentCreate, floorCreate)}, partial ${cpuRatio(agentPartial, floorPartial)}`,
			'',
			'targets (issue 28):',
			...vsFloor('HTTP create (10 items), 50 connections', agentCreate, floorCreate),
			...vsFloor('HTTP partial update, 50 connections', agentPartial, floorPartial)
		];
		const json = {
			bench: 'http',
			agent: FROM_SOURCE ? 'source' : 'bundle',
			connections: CONNECTIONS,
			seconds: SECONDS,
			create: {
				agent: agentCreate,
				bare: bareCreate,
				floor: floorCreate,
				ratio: agentCreate.perSecond / bareCreate.perSecond,
				floorRatio: floorCreate.perSecond / bareCreate.perSecond
			},
			partial: {
				agent: agentPartial,
				bare: barePartial,
				floor: floorPartial,
				ratio: agentPartial.perSecond / barePartial.perSecond,
				floorRatio: floorPartial.perSecond / barePartial.perSecond
			},
			active: {
				agent: agentActive,
				bare: bareActive,
				ratio: agentActive.perSecond / bareActive.perSecond
			}
		};
		return { lines, json };
	} finally {
		await Promise.all(children.map(stop));
		rmSync(dataDir, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines, json } = await runHttpBench();
	console.log(lines.join('\n'));
	console.log(JSON.stringify(json));
}
