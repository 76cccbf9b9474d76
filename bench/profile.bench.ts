/**
 * Where the time goes (issue 28): the agent's built bundle under one bench load at a time, with
 * V8's sampling profiler on (`node --cpu-prof`), the samples' self time attributed through the
 * bundle's source maps to the source file that ran, and each file to a stage of the hot path
 * (framer, decode/validate, order step, apply, store commit, fan-out, inspector, reply, HTTP
 * layer, Node's own I/O, GC). Also the CPU per operation of all the agent's threads (/proc).
 *
 * Run: npm run bench -- profile   (or KDS_PROFILE_SCENARIOS=tcp,create,partial, _SECONDS=6;
 * `tcp1` is TCP creates on one connection, not in the default list; `floor-create`,
 * `floor-partial`, `floor-tcp`, `floor-tcp1` profile the durable floor, bench/floor-*-server.ts,
 * under the same client, so the two can be read stage by stage)
 * The .cpuprofile files stay in dist/bench/profiles/ (open them in Chrome's DevTools).
 */
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnAgent, waitForExit } from '../tests/helpers/process.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import {
	createRequests,
	ORDER_HEADERS,
	partialRequests,
	run,
	seedOrders,
	type CannonRequest
} from './http.bench.ts';
import { CpuMeter, fmt, ROOT, spawnTs, tcpCreate } from './lib.ts';

const SECONDS = Number(process.env.KDS_PROFILE_SECONDS ?? 6);
const SCENARIOS = (process.env.KDS_PROFILE_SCENARIOS ?? 'tcp,create,partial').split(',');
const PROFILE_DIR = join(ROOT, 'dist/bench/profiles');

/** The stage a source file belongs to: the first pattern that matches its path. */
const STAGES: Array<[string, RegExp]> = [
	// The durable floors' own code (scenarios floor-create, floor-partial, floor-tcp).
	['floor: its route and store', /bench\/floor-/],
	['TCP framer', /agent\/tcp\/framer|core\/json-depth/],
	['TCP connection, messages, reply', /agent\/tcp\//],
	[
		'decode/validate (zod, schemas)',
		/zod|core\/(schema|order-schema|field-schemas|parse|tcp-message|notification-schema)/
	],
	['order step (core)', /core\/order-step|core\/order-machine|core\/rules|core\/times|core\/holds/],
	['findings (core)', /core\/(message-findings|outcome|schema-findings|conformance)/],
	['apply/engine', /agent\/engine\/engine|agent\/engine\/(?!browser)|core\/screen|core\/content/],
	['store commit (node:sqlite, JSON)', /agent\/store\/|\bsqlite/],
	['fan-out to browsers', /browser-fanout|agent\/ws\/|core\/relay|core\/view|\/ws\//],
	['inspector recording', /agent\/inspector\//],
	['HTTP layer (Fastify, routes, tenancy)', /fastify|find-my-way|light-my-request|agent\/http\//],
	['notify/SMS', /agent\/notify\//],
	['logging (pino)', /pino|agent\/log/],
	['other agent code', /agent\/|core\//],
	['Node: net/http/streams/timers', /^node:/]
];

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
	children?: number[];
}
interface Profile {
	startTime: number;
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const maps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
	if (!maps.has(url)) {
		let map: SourceMap | null;
		try {
			const file = fileURLToPath(url);
			map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
		} catch {
			map = null;
		}
		maps.set(url, map);
	}
	return maps.get(url)!;
}

/** A frame's source file, relative to the project (node_modules/<package> for packages). */
function sourceOf(frame: ProfileNode['callFrame']): string {
	const { url, functionName } = frame;
	if (!url) {
		if (functionName === '(garbage collector)') return '(GC)';
		if (functionName === '(idle)' || functionName === '(program)') return functionName;
		return `(native) ${functionName}`;
	}
	if (url.startsWith('node:')) return url;
	if (url.startsWith('file:')) {
		const map = url.includes('/dist/') ? sourceMapOf(url) : null;
		const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
		const original = entry && 'originalSource' in entry ? entry.originalSource : fileURLToPath(url);
		const path = original.replace(/^file:\/\//, '');
		const rel = relative(ROOT, path.startsWith('/') ? path : join(ROOT, 'dist', path));
		const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
		return pkg ? `node_modules/${pkg[1]}` : rel;
	}
	return url;
}

function stageOf(source: string, functionName: string): string {
	if (source === '(GC)') return 'GC';
	if (source === '(idle)') return 'idle';
	if (source === '(program)') return 'V8/native, unattributed';
	// node:sqlite's native calls show as native frames named after the method.
	if (source.startsWith('(native)')) {
		return /^(run|all|get|iterate|exec|prepare|transaction)$/.test(functionName)
			? 'store commit (node:sqlite, JSON)'
			: 'Node: net/http/streams/timers';
	}
	for (const [stage, pattern] of STAGES) if (pattern.test(source)) return stage;
	return 'other packages';
}

interface Summary {
	totalMs: number;
	busyMs: number;
	stages: Array<[string, number]>;
	files: Array<[string, number]>;
}

/** Now on the clock V8's profiles use (CLOCK_MONOTONIC, µs), the same in every process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Self time per node of the samples taken between `from` and `to` (monotonic µs). */
function summarise(profile: Profile, from: number, to: number): Summary {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const self = new Map<number, number>();
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		const delta = profile.timeDeltas[i] ?? 0;
		at += delta;
		if (at < from || at > to) continue;
		const id = profile.samples[i];
		self.set(id, (self.get(id) ?? 0) + delta);
	}
	const stages = new Map<string, number>();
	const files = new Map<string, number>();
	let total = 0;
	for (const [id, us] of self) {
		const frame = byId.get(id)!.callFrame;
		const source = sourceOf(frame);
		const stage = stageOf(source, frame.functionName);
		total += us;
		stages.set(stage, (stages.get(stage) ?? 0) + us);
		const key = source.startsWith('(native)') ? `${source}` : source;
		files.set(key, (files.get(key) ?? 0) + us);
	}
	const idle = stages.get('idle') ?? 0;
	const sorted = (m: Map<string, number>) =>
		[...m].filter(([k]) => k !== 'idle' && k !== '(idle)').sort((a, b) => b[1] - a[1]);
	return {
		totalMs: total / 1000,
		busyMs: (total - idle) / 1000,
		stages: sorted(stages),
		files: sorted(files)
	};
}

/** `connections` connections of TCP creates for `seconds`; resolves with the number answered. */
async function tcpLoad(
	host: string,
	port: number,
	seconds: number,
	connections = 50
): Promise<number> {
	const sessions = await Promise.all(
		Array.from({ length: connections }, () => TcpSession.open(host, port))
	);
	const until = performance.now() + seconds * 1000;
	let answered = 0;
	let n = 0;
	await Promise.all(
		sessions.map(async (session) => {
			while (performance.now() < until) {
				const id = `P-${process.pid}-${++n}`;
				session.write(
					`${tcpCreate(id, n)}
`
				);
				await session.nextLine();
				answered++;
			}
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
	return answered;
}

async function httpLoad(url: string, requests: CannonRequest[], seconds: number): Promise<number> {
	const result = await run(url, requests, seconds);
	return result.requests.total;
}

async function profileScenario(name: string): Promise<{ lines: string[]; json: object }> {
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-profile-'));
	const dir = join(PROFILE_DIR, name);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	let child: ChildProcess | undefined;
	try {
		let load: (seconds: number) => Promise<number>;
		// floor-<scenario>: the durable floor under the same client, profiled the same way, so the
		// two can be compared stage by stage (the floor's stages are Node's, JSON, node:sqlite, GC).
		const floorOf = /^floor-(.+)$/.exec(name)?.[1];
		const scenario = floorOf ?? name;
		let httpUrl: string;
		let tcpAt: { host: string; port: number };
		if (floorOf) {
			const tcp = floorOf.startsWith('tcp');
			const started = await spawnTs(
				tcp ? 'bench/floor-tcp-server.ts' : 'bench/floor-http-server.ts',
				[dataDir],
				['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200']
			);
			child = started.child;
			httpUrl = started.firstLine.trim();
			tcpAt = { host: '127.0.0.1', port: Number(started.firstLine) };
		} else {
			const agent = await spawnAgent(
				['--data-dir', dataDir, '--http-port', '0', '--tcp-port', '0', '--log-level', 'warn'],
				{},
				{
					bundle: true,
					// V8's sampling profiler; more V8 flags for the agent: KDS_BENCH_NODE_ARGS.
					nodeArgs: [
						...(process.env.KDS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
						'--cpu-prof',
						`--cpu-prof-dir=${dir}`,
						'--cpu-prof-interval=200'
					]
				}
			);
			child = agent.child;
			httpUrl = agent.httpUrl;
			tcpAt = [...agent.tcp.values()][0];
		}
		const meter = new CpuMeter(child.pid!);
		if (scenario === 'tcp') load = (s) => tcpLoad(tcpAt.host, tcpAt.port, s);
		else if (scenario === 'tcp1') load = (s) => tcpLoad(tcpAt.host, tcpAt.port, s, 1);
		else if (scenario === 'create') load = (s) => httpLoad(httpUrl, createRequests(), s);
		else if (scenario === 'partial') {
			const ids = await seedOrders(httpUrl, ORDER_HEADERS, 'PROFILE', 200);
			load = (s) => httpLoad(httpUrl, partialRequests(ids), s);
		} else throw new Error(`unknown scenario ${name}`);
		// Warm-up, outside the window the profile is read for: TCP, 20,000 messages or more (4 s at one
		// connection, 2 s at 50: its per-message functions reach Turbofan after 5,000–17,000 on Node 24).
		const warmup = scenario === 'tcp1' ? 4 : scenario === 'tcp' ? 2 : 1;
		await load(warmup);
		const from = monotonicUs();
		const ops = await meter.measure(() => load(SECONDS));
		const to = monotonicUs();
		const cpu = meter.perRequest(ops);
		child.kill('SIGTERM');
		await waitForExit(child);
		// The main thread's profile (thread id 0); the store's worker writes its own.
		const file = readdirSync(dir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
		if (!file) throw new Error(`no profile written in ${dir}`);
		const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
		const summary = summarise(profile, from, to);
		const perOp = (ms: number) => (ms * 1000) / ops;
		const lines = [
			`${name}: ${ops} operations in ${SECONDS} s (after ${warmup} s of warm-up), load average ${loadavg()[0].toFixed(1)}; CPU per operation ${cpu ? `${fmt(cpu.totalUs)} µs, answering thread ${fmt(cpu.mainUs)} µs` : 'n/a'}; main thread busy ${fmt(summary.busyMs)} ms of ${fmt(summary.totalMs)} ms sampled`,
			`  stage (self time of the main thread)            µs/op   share`,
			...summary.stages.map(
				([stage, us]) =>
					`  ${stage.padEnd(46)} ${fmt(perOp(us / 1000), 1).padStart(6)}  ${fmt((us / 1000 / summary.busyMs) * 100).padStart(4)}%`
			),
			`  top files:`,
			...summary.files
				.slice(0, 14)
				.map(
					([file, us]) => `    ${file.padEnd(50)} ${fmt(perOp(us / 1000), 1).padStart(6)} µs/op`
				),
			`  profile: ${relative(ROOT, join(dir, file))}`
		];
		return {
			lines,
			json: {
				ops,
				seconds: SECONDS,
				cpu,
				stagesUsPerOp: Object.fromEntries(summary.stages.map(([s, us]) => [s, perOp(us / 1000)]))
			}
		};
	} finally {
		if (child && child.exitCode === null) {
			child.kill('SIGKILL');
			await waitForExit(child);
		}
		rmSync(dataDir, { recursive: true, force: true });
	}
}

export async function runProfileBench(): Promise<{ lines: string[]; json: object }> {
	const lines: string[] = [];
	const json: Record<string, object> = {};
	for (const name of SCENARIOS) {
		process.stderr.write(`  profile bench: ${name}\n`);
		const result = await profileScenario(name);
		lines.push(...result.lines, '');
		json[name] = result.json;
	}
	return { lines, json };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines } = await runProfileBench();
	console.log(lines.join('\n'));
}
