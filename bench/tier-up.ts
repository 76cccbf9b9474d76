/**
 * When V8 optimises the code that answers a TCP create (docs/performance.md, "TCP path, sixth
 * round"): the built agent, or the durable floor, under `--trace-opt`, fed the TCP bench's creates
 * one at a time on one connection. Prints how many functions Maglev and Turbofan compiled in each
 * stretch of 2,000 messages answered; with `--list`, the functions Turbofan compiled after the
 * first 2,000. On Node 24 a function that runs once per message gets there after thousands of
 * messages, which is why the TCP benches warm up 20,000 before they measure.
 *
 *   npx tsx bench/tier-up.ts [dist|floor] [messages] [--list]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { agentFlags } from '../tests/helpers/process.ts';
import { compileBenchFile, ROOT, tcpCreate } from './lib.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const list = process.argv.includes('--list');
const [target = 'dist', messagesArg = '24000'] = args;
const MESSAGES = Number(messagesArg);
const STEP = 500;
const BUCKET = 2000;

const dataDir = mkdtempSync(join(tmpdir(), 'kds-tier-'));
const floor = target === 'floor';
const child = spawn(
	process.execPath,
	floor
		? ['--trace-opt', compileBenchFile('bench/floor-tcp-server.ts'), dataDir]
		: ['--trace-opt', join(resolve(ROOT, target), 'agent.js'), ...agentFlags(dataDir, 'warn')],
	{ cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
);
let out = '';
child.stdout!.on('data', (d) => (out += d));
const exited = new Promise<void>((done) => child.once('exit', () => done()));
const endpoint = await new Promise<{ host: string; port: number }>((done, fail) => {
	const early = (code: number | null) => fail(new Error(`${target} exited with ${code}:\n${out}`));
	child.once('exit', early);
	child.stdout!.on('data', () => {
		const port = floor ? /^(\d+)\n/m.exec(out) : /screen \S+\s+.*?TCP (\S+):(\d+)/.exec(out);
		if (!port) return;
		child.off('exit', early);
		done(
			floor
				? { host: '127.0.0.1', port: Number(port[1]) }
				: { host: port[1], port: Number(port[2]) }
		);
	});
});

// Where the trace stood after every STEP messages answered.
const marks: Array<[number, number]> = [];
try {
	const session = await TcpSession.open(endpoint.host, endpoint.port);
	for (let n = 1; n <= MESSAGES; n++) {
		session.write(`${tcpCreate(`TIER-${n}`, n)}\n`);
		await session.nextLine();
		if (n % STEP === 0) marks.push([n, out.length]);
	}
	await session.close();
	await new Promise((r) => setTimeout(r, 300));
} finally {
	child.kill('SIGKILL');
	await exited;
	rmSync(dataDir, { recursive: true, force: true });
}

const answeredBy = (offset: number) => marks.find(([, length]) => offset < length)?.[0] ?? Infinity;
const compiled = [
	...out.matchAll(
		/\[completed compiling 0x[0-9a-f]+ <JSFunction ?(\S*) \(sfi[^>]*> \(target (TURBOFAN_JS|MAGLEV)\)/g
	)
].map((m) => ({ at: answeredBy(m.index), name: m[1] || '(anonymous)', tier: m[2] }));
const buckets = new Map<string, { maglev: number; turbofan: number }>();
for (const c of compiled) {
	const key =
		c.at === Infinity
			? `after ${MESSAGES}`
			: `${Math.max(0, Math.ceil(c.at / BUCKET) - 1) * BUCKET}–${Math.ceil(c.at / BUCKET) * BUCKET}`;
	const b = buckets.get(key) ?? { maglev: 0, turbofan: 0 };
	if (c.tier === 'MAGLEV') b.maglev++;
	else b.turbofan++;
	buckets.set(key, b);
}
console.log(
	`${floor ? 'durable floor' : target}: ${compiled.length} functions compiled over ${MESSAGES} creates at one connection; by messages answered:`
);
for (const [key, b] of buckets) {
	console.log(
		`  ${key.padEnd(14)} Maglev ${String(b.maglev).padStart(4)}   Turbofan ${String(b.turbofan).padStart(4)}`
	);
}
if (list) {
	console.log(`Turbofan after the first ${BUCKET} messages (messages answered, function):`);
	for (const c of compiled.filter((c) => c.tier === 'TURBOFAN_JS' && c.at > BUCKET)) {
		console.log(`  ${(c.at === Infinity ? `>${MESSAGES}` : String(c.at)).padStart(6)}  ${c.name}`);
	}
}
