/**
 * Where an HTTP create's allocations go (issue 28): the built agent under the HTTP bench's create
 * load (50 connections, the 10-item body), with V8's sampling heap profiler running over a fixed
 * number of creates after a warm-up, counting every sampled allocation, also those the garbage
 * collector has taken since (what the young generation must scavenge). Prints bytes per create in
 * all, by function, and by the agent's function that the allocation happened under (the nearest
 * frame of dist/). The .heapprofile stays in dist/bench/profiles/alloc/ (Chrome DevTools, Memory).
 *
 *   npx tsx bench/alloc.bench.ts [dist] [operations] [create|partial|tcp]
 *
 * `partial`: partial updates (the profile bench's bodies) of 200 orders created first. `tcp`: the
 * TCP bench's 5-item creates over 50 connections, one at a time on each.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequests, partialRequests, run } from './http.bench.ts';
import { fmt, ROOT, tcpCreate } from './lib.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { agentFlags, waitForExit } from '../tests/helpers/process.ts';

const [dist = 'dist', opsArg = '4000', scenario = 'create'] = process.argv.slice(2);
if (scenario !== 'create' && scenario !== 'partial' && scenario !== 'tcp')
	throw new Error(`bench/alloc: unknown scenario ${scenario}: create, partial or tcp`);
const OPS = Number(opsArg);
const dir = join(ROOT, 'dist/bench/profiles/alloc');
mkdirSync(dir, { recursive: true });
const out = join(dir, `${scenario}.heapprofile`);
const preload = join(dir, 'sampler.mjs');
// SIGUSR2 starts the sampler, the next one writes the profile (no flag of node's does both).
writeFileSync(
	preload,
	`import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
const post = (method, params = {}) =>
	new Promise((done, fail) => session.post(method, params, (err, res) => (err ? fail(err) : done(res))));
let sampling = false;
process.on('SIGUSR2', async () => {
	if (!sampling) {
		sampling = true;
		await post('HeapProfiler.enable');
		await post('HeapProfiler.startSampling', {
			samplingInterval: 4096,
			includeObjectsCollectedByMajorGC: true,
			includeObjectsCollectedByMinorGC: true
		});
		process.stderr.write('sampling\\n');
	} else {
		const { profile } = await post('HeapProfiler.stopSampling');
		writeFileSync(${JSON.stringify(out)}, JSON.stringify(profile));
		process.stderr.write('written\\n');
	}
});
`
);

interface Node {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: Node[];
}

const dataDir = mkdtempSync(join(tmpdir(), 'kds-alloc-'));
const child = spawn(
	process.execPath,
	['--import', preload, join(resolve(ROOT, dist), 'agent.js'), ...agentFlags(dataDir, 'warn')],
	{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
);
try {
	let text = '';
	let err = '';
	child.stderr!.on('data', (d) => (err += d));
	const [url, tcpHost, tcpPort] = await new Promise<[string, string, number]>((done, fail) => {
		child.once('exit', (code) => fail(new Error(`the agent exited (${code}):\n${text}${err}`)));
		child.stdout!.on('data', (d) => {
			text += d;
			const m = /UI and HTTP API\s+(\S+?)\/?\n/.exec(text);
			const tcp = /screen \S+\s+.*?TCP (\S+):(\d+)/.exec(text);
			if (m && tcp) done([m[1], tcp[1], Number(tcp[2])]);
		});
	});
	const until = async (word: string) => {
		for (let i = 0; i < 200 && !err.includes(word); i++)
			await new Promise((r) => setTimeout(r, 50));
		if (!err.includes(word)) throw new Error(`the agent's sampler did not say "${word}":\n${err}`);
	};
	const ids: string[] = [];
	if (scenario === 'partial') {
		for (let i = 0; i < 200; i++) {
			const id = `ALLOC-${i}`;
			const res = await fetch(`${url}/integrators/kds-orders`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-integration-token': 'kds-demo-token',
					'x-location-id': 'loc-1',
					'x-device-ids': 'kds-1'
				},
				body: JSON.stringify({
					id,
					name: 'Partial Guest',
					time: '2026-11-22T18:00:00Z',
					mode: 'ToGo',
					items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
				})
			});
			if (res.status !== 201) throw new Error(`bench/alloc: seeding answered ${res.status}`);
			ids.push(id);
		}
	}
	const requests = () => (scenario === 'partial' ? partialRequests(ids) : createRequests());
	let sent = 0;
	/** OPS TCP creates over 50 connections, each waiting for its reply (as bench/ab.bench.ts). */
	const tcpRun = async (): Promise<number> => {
		const sessions = await Promise.all(
			Array.from({ length: 50 }, () => TcpSession.open(tcpHost, tcpPort))
		);
		let left = OPS;
		await Promise.all(
			sessions.map(async (session) => {
				while (left-- > 0) {
					sent++;
					session.write(`${tcpCreate(`ALLOC-${sent}`, sent)}\n`);
					await session.nextLine();
				}
			})
		);
		await Promise.all(sessions.map((s) => s.close()));
		return OPS;
	};
	const load = async () =>
		scenario === 'tcp' ? tcpRun() : (await run(url, requests(), 0, OPS)).requests.total;
	await load(); // warm-up
	child.kill('SIGUSR2');
	await until('sampling');
	const ops = await load();
	child.kill('SIGUSR2');
	await until('written');
	const profile = JSON.parse(readFileSync(out, 'utf8')) as { head: Node };
	const byFunction = new Map<string, number>();
	const byAgentFrame = new Map<string, number>();
	let total = 0;
	const name = (n: Node) =>
		`${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
	const walk = (n: Node, ours: string) => {
		const here = n.callFrame.url.includes('/dist/') ? name(n) : ours;
		total += n.selfSize;
		byFunction.set(name(n), (byFunction.get(name(n)) ?? 0) + n.selfSize);
		byAgentFrame.set(here, (byAgentFrame.get(here) ?? 0) + n.selfSize);
		for (const c of n.children) walk(c, here);
	};
	walk(profile.head, '(outside the agent: Node, packages)');
	const top = (m: Map<string, number>) =>
		[...m]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 25)
			.map(([k, v]) => `  ${fmt(v / ops).padStart(7)}  ${k}`)
			.join('\n');
	console.log(
		`${scenario === 'tcp' ? 'TCP create' : `HTTP ${scenario}`}, ${ops} ${scenario === 'tcp' ? 'messages' : 'requests'} at 50 connections, load average ${fmt(loadavg()[0], 1)}: ${fmt(total / ops)} bytes allocated per ${scenario === 'partial' ? 'partial update' : 'create'} (sampled every 4 KiB)`
	);
	console.log(`bytes per create, by function (self):\n${top(byFunction)}`);
	console.log(
		`bytes per create, by the agent's function they were allocated under:\n${top(byAgentFrame)}`
	);
	console.log(`profile: ${out}`);
} finally {
	child.kill('SIGTERM');
	await waitForExit(child);
	rmSync(dataDir, { recursive: true, force: true });
}
