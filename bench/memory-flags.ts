/**
 * Resident memory holding 10,000 orders (issue 28), for builds and V8 flags side by side: each
 * variant is started on a fresh data directory, filled with 5,000 TCP creates on each of its two
 * screens (20 connections, as bench/tcp.bench.ts), and its VmRSS read 500 ms later and at rest
 * (5.6 s later, then no CPU for 200 ms, as bench/tcp.bench.ts); variants take
 * turns for `rounds` rounds, and the medians are printed.
 *
 *   npx tsx bench/memory-flags.ts <variant> [<variant> …] [rounds]
 *
 * A variant is a build directory holding agent.js (`dist`, `dist/ab/before`), optionally followed
 * by `:` and node flags separated by commas: `dist:--max-semi-space-size=1,--optimize-for-size`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { agentFlags, waitForExit } from '../tests/helpers/process.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { fmt, restingRssMiB, ROOT, rssMiB, tcpCreate } from './lib.ts';

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 3;
const variants = args.map((a) => {
	const [dir, flags = ''] = a.split(':');
	return { name: a, dir: resolve(ROOT, dir), flags: flags.split(',').filter(Boolean) };
});
const unbuilt = variants.filter((v) => !existsSync(join(v.dir, 'agent.js')));
if (variants.length === 0 || unbuilt.length > 0) {
	process.stderr.write(
		variants.length === 0
			? 'bench/memory-flags: name one or more builds (dist, dist/ab/<name>), each optionally with :--flag,--flag\n'
			: `bench/memory-flags: no agent.js in ${unbuilt.map((v) => v.dir).join(', ')} (npm run build, or copy dist there)\n`
	);
	process.exit(1);
}

let counter = 0;
function orderLine(): string {
	return tcpCreate(`M-${process.pid}-${++counter}`, counter);
}

async function fill(host: string, port: number, count: number): Promise<void> {
	const sessions = await Promise.all(Array.from({ length: 20 }, () => TcpSession.open(host, port)));
	let left = count;
	await Promise.all(
		sessions.map(async (s) => {
			while (left-- > 0) await s.request(orderLine());
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
}

async function measure(
	v: (typeof variants)[number]
): Promise<{ idle: number; soon: number; full: number }> {
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-mem-'));
	const child = spawn(
		process.execPath,
		[...v.flags, join(v.dir, 'agent.js'), ...agentFlags(dataDir, 'warn')],
		{
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'inherit']
		}
	);
	let out = '';
	const screens = await new Promise<Array<{ host: string; port: number }>>((done, fail) => {
		child.once('exit', (code) => fail(new Error(`${v.name} exited with ${code}:\n${out}`)));
		child.stdout!.on('data', (d) => {
			out += d;
			const found = [...out.matchAll(/screen (\S+)\s+.*?TCP (\S+):(\d+)/g)];
			if (found.length >= 2 && out.includes('\n', out.lastIndexOf('TCP ')))
				done(found.map((m) => ({ host: m[2], port: Number(m[3]) })));
		});
	});
	child.removeAllListeners('exit');
	const idle = rssMiB(child.pid!);
	await fill(screens[0].host, screens[0].port, 5000);
	await fill(screens[1].host, screens[1].port, 5000);
	await new Promise((r) => setTimeout(r, 500));
	const soon = rssMiB(child.pid!);
	// At rest, as bench/tcp.bench.ts reads agent and floor: 5.6 s after the last order (the agent
	// settles after 5 s without a commit), then no CPU for 200 ms.
	await new Promise((r) => setTimeout(r, 5100));
	const { rss: full } = await restingRssMiB(child.pid!);
	child.kill('SIGTERM');
	await waitForExit(child);
	rmSync(dataDir, { recursive: true, force: true });
	return { idle, soon, full };
}

const results = new Map(
	variants.map((v) => [v.name, [] as Array<{ idle: number; soon: number; full: number }>])
);
const loads: number[] = [];
for (let r = 0; r < rounds; r++) {
	for (const v of variants) {
		loads.push(loadavg()[0]);
		const m = await measure(v);
		results.get(v.name)!.push(m);
		process.stderr.write(
			`  round ${r + 1} ${v.name}: idle ${fmt(m.idle, 1)} MiB, 10,000 orders ${fmt(m.soon, 1)} MiB 500 ms after, ${fmt(m.full, 1)} MiB at rest\n`
		);
	}
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
	`memory with 10,000 orders, ${rounds} rounds, load ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}`
);
for (const [name, ms] of results)
	console.log(
		`  ${name.padEnd(60)} idle ${fmt(median(ms.map((m) => m.idle)), 1).padStart(6)} MiB   500 ms after ${fmt(median(ms.map((m) => m.soon)), 1).padStart(6)} MiB   at rest ${fmt(median(ms.map((m) => m.full)), 1).padStart(6)} MiB`
	);
