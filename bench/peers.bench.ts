/**
 * The peer (issue 28): Stoplight Prism, the usual mock server for an OpenAPI description, mocking
 * kds-sim's own `/openapi.json`, against the agent on the same 10-item create body (the HTTP
 * bench's), 50 connections, in alternating rounds. Prism only validates the request against the
 * description and answers the documented example; the agent validates, decides, commits the
 * order durably and records it for the inspector. Goal: the agent at >= 10x Prism's rate.
 * The durable floor (bench/floor-http-server.ts: parse, keep, commit, answer) runs in the same
 * rotation: its ratio to Prism is the most any durable server reaches on this machine, so it says
 * whether the goal is within reach here at all.
 *
 * Prism is not a dependency of the project: it is installed with npm from the registry into a
 * temporary folder (`$TMPDIR/kds-bench-prism-<version>`, kept for the next run; delete it at
 * will) and run with the Node on the PATH, its log at `warn` (the agent runs at `warn` too).
 *
 * Run: npm run bench -- peers   Env: KDS_BENCH_PEER_SECONDS (per round, default 5),
 * KDS_BENCH_PEER_ROUNDS (default 3), KDS_BENCH_PRISM_VERSION (default 5.14.2).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	createRequests,
	ORDER_HEADERS,
	run,
	startAgentChild,
	startChild,
	stop,
	type CannonResult
} from './http.bench.ts';
import { compileBenchFile, fmt, freePort, ROOT, target, times } from './lib.ts';

const SECONDS = Number(process.env.KDS_BENCH_PEER_SECONDS ?? 5);
const ROUNDS = Number(process.env.KDS_BENCH_PEER_ROUNDS ?? 3);
const PRISM_VERSION = process.env.KDS_BENCH_PRISM_VERSION ?? '5.14.2';

const progress = (text: string) => process.stderr.write(`  peers bench: ${text}\n`);

/** Prism's CLI, installed from the npm registry into a temporary folder (once). */
function installPrism(): string {
	const dir = join(tmpdir(), `kds-bench-prism-${PRISM_VERSION}`);
	const bin = join(dir, 'node_modules/@stoplight/prism-cli/dist/index.js');
	if (!existsSync(bin)) {
		progress(`installing @stoplight/prism-cli@${PRISM_VERSION} into ${dir} (npm registry)`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
		execFileSync(
			'npm',
			[
				'install',
				'--no-audit',
				'--no-fund',
				'--ignore-scripts',
				`@stoplight/prism-cli@${PRISM_VERSION}`
			],
			{ cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] }
		);
	}
	return bin;
}

/** Start Prism mocking `spec` and wait until it answers. */
async function startPrism(
	bin: string,
	spec: string
): Promise<{ child: ChildProcess; url: string }> {
	const port = await freePort();
	const child = spawn(
		process.execPath,
		[bin, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', spec],
		{ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }
	);
	const url = `http://127.0.0.1:${port}`;
	const until = Date.now() + 60_000;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}`);
		try {
			await fetch(url);
			return { child, url };
		} catch {
			if (Date.now() > until) throw new Error('Prism did not start within 60 s');
			await new Promise((r) => setTimeout(r, 200));
		}
	}
}

/** One create with the bench's body: the status and body, to show both serve it. */
async function probe(url: string): Promise<string> {
	const [request] = createRequests();
	const { body } = request.setupRequest!(request);
	const res = await fetch(`${url}/integrators/kds-orders`, {
		method: 'POST',
		headers: ORDER_HEADERS,
		body
	});
	return `${res.status} ${(await res.text()).slice(0, 120)}`;
}

export async function runPeersBench(): Promise<{ lines: string[]; json: object }> {
	const prismBin = installPrism();
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-peers-'));
	const floorDir = mkdtempSync(join(tmpdir(), 'kds-bench-peers-floor-'));
	const children: ChildProcess[] = [];
	try {
		const agent = await startAgentChild(['dist/agent.js'], dataDir);
		children.push(agent.child);
		const spec = join(dataDir, 'openapi.json');
		writeFileSync(spec, await (await fetch(`${agent.url}/openapi.json`)).text());
		const prism = await startPrism(prismBin, spec);
		children.push(prism.child);
		const floor = await startChild(
			[compileBenchFile('bench/floor-http-server.ts'), floorDir],
			/(http:\/\/\S+)\n/
		);
		children.push(floor.child);
		const agentProbe = await probe(agent.url);
		const prismProbe = await probe(prism.url);
		const floorProbe = await probe(floor.url);
		if (![agentProbe, prismProbe, floorProbe].every((p) => p.startsWith('201')))
			throw new Error(
				`the create body is not accepted: agent ${agentProbe}; Prism ${prismProbe}; floor ${floorProbe}`
			);

		progress(`warm-up, then ${ROUNDS} alternating rounds of ${SECONDS} s each`);
		await run(agent.url, createRequests(), 1);
		await run(prism.url, createRequests(), 1);
		await run(floor.url, createRequests(), 1);
		const rounds = {
			agent: [] as CannonResult[],
			prism: [] as CannonResult[],
			floor: [] as CannonResult[]
		};
		const loads: number[] = [];
		for (let i = 0; i < ROUNDS; i++) {
			rounds.agent.push(await run(agent.url, createRequests(), SECONDS));
			rounds.prism.push(await run(prism.url, createRequests(), SECONDS));
			rounds.floor.push(await run(floor.url, createRequests(), SECONDS));
			loads.push(loadavg()[0]);
		}
		const rate = (r: CannonResult) => r.requests.total / SECONDS;
		const total = (list: CannonResult[]) => list.reduce((s, r) => s + r.requests.total, 0);
		const failed = (list: CannonResult[]) =>
			list.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0);
		const agentRate = total(rounds.agent) / (ROUNDS * SECONDS);
		const prismRate = total(rounds.prism) / (ROUNDS * SECONDS);
		const floorRate = total(rounds.floor) / (ROUNDS * SECONDS);
		const perRound = rounds.agent.map((a, i) => rate(a) / rate(rounds.prism[i]));
		const floorPerRound = rounds.floor.map((f, i) => rate(f) / rate(rounds.prism[i]));
		const lines = [
			`The peer: Stoplight Prism ${PRISM_VERSION} mocking kds-sim's /openapi.json (log at warn) against dist/agent.js (durable store), POST /integrators/kds-orders with the same 10-item body, 50 connections, ${ROUNDS} alternating rounds of ${SECONDS} s after 1 s warm-up each; load average ${fmt(Math.min(...loads), 1)}-${fmt(Math.max(...loads), 1)} on this machine`,
			`one create each first: agent ${agentProbe}; Prism ${prismProbe}; durable floor ${floorProbe}`,
			`agent: ${fmt(agentRate)}/s (rounds ${rounds.agent.map((r) => fmt(rate(r))).join(', ')}), ${failed(rounds.agent)} failed`,
			`Prism: ${fmt(prismRate)}/s (rounds ${rounds.prism.map((r) => fmt(rate(r))).join(', ')}), ${failed(rounds.prism)} failed`,
			`durable floor (bench/floor-http-server.ts): ${fmt(floorRate)}/s (rounds ${rounds.floor.map((r) => fmt(rate(r))).join(', ')}), ${failed(rounds.floor)} failed`,
			`agent/Prism per round: ${perRound.map((r) => `${fmt(r, 1)}×`).join(', ')}`,
			`durable floor/Prism per round: ${floorPerRound.map((r) => `${fmt(r, 1)}×`).join(', ')}: the most a server that commits each order can reach here; the agent at 75% of the floor (issue 28's other target) would be ${fmt((0.75 * floorRate) / prismRate, 1)}× Prism`,
			'',
			'targets (issue 28):',
			target(
				'agent / Prism, HTTP create, 50 connections',
				agentRate / prismRate,
				'>=',
				10,
				times,
				`${fmt(agentRate)} / ${fmt(prismRate)} per s`
			)
		];
		return {
			lines,
			json: {
				bench: 'peers',
				prism: PRISM_VERSION,
				seconds: SECONDS,
				rounds: ROUNDS,
				agentPerSecond: agentRate,
				prismPerSecond: prismRate,
				floorPerSecond: floorRate,
				ratio: agentRate / prismRate,
				floorRatio: floorRate / prismRate,
				perRound,
				floorPerRound,
				failed: {
					agent: failed(rounds.agent),
					prism: failed(rounds.prism),
					floor: failed(rounds.floor)
				}
			}
		};
	} finally {
		await Promise.all(children.map(stop));
		rmSync(dataDir, { recursive: true, force: true });
		rmSync(floorDir, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines } = await runPeersBench();
	console.log(lines.join('\n'));
}
