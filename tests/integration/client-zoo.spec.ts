/**
 * The client zoo: small POS clients under tests/clients/, written the way each ecosystem does it
 * by default (Python's standard library, Node's net and fetch, curl, Java's HttpClient, Perl),
 * run against the built agent (dist/agent.js, the CLI as a user starts it). Each sends its
 * natural defaults: local times without an offset, trailing slashes, fields the contract does not
 * name, nulls, a body over the limit, a write followed by an immediate close. Each test asserts
 * what the client read and what the screen then holds.
 *
 * A runtime missing on the machine fails its test with the package to install: nothing is
 * skipped. The bundle is rebuilt first when it is older than its sources (see builtAgent), so the
 * zoo always runs the code under test.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderRecord } from '#core/order-machine';
import { agentFlags, ROOT, spawnAgent, type AgentProcess } from '../helpers/process.ts';

const CLIENTS = join(ROOT, 'tests', 'clients');
/** The demo location's zone: a POS in that kitchen has its clock there. */
const KITCHEN_TZ = 'America/Chicago';
const TOKEN = 'kds-demo-token';
/** A client's whole run: a JVM compiling Client.java on a busy machine takes a while. */
const CLIENT_TIMEOUT_MS = 120_000;

/** Each runtime the zoo needs, with the command that shows it is there and how to get it. */
const RUNTIMES = {
	python3: { check: ['--version'], install: 'apt-get install python3' },
	// `java Client.java` compiles the file in memory: that takes the JDK, not only the JRE.
	javac: { check: ['-version'], install: 'apt-get install openjdk-17-jdk-headless' },
	curl: { check: ['--version'], install: 'apt-get install curl' },
	perl: { check: ['-v'], install: 'apt-get install perl' },
	bash: { check: ['--version'], install: 'apt-get install bash' }
} as const;

function requireRuntime(
	name: string,
	runtime: { check: readonly string[]; install: string } = RUNTIMES[name as keyof typeof RUNTIMES]
): void {
	try {
		execFileSync(name, runtime.check, { stdio: 'ignore' });
	} catch {
		throw new Error(
			`${name} is not installed: the client zoo needs it to run its ${name} client (${runtime.install}; .ci/run installs it on CI)`
		);
	}
}

function run(command: string, args: string[]): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(
			command,
			args,
			{ cwd: CLIENTS, timeout: 90_000, env: { ...process.env, TZ: KITCHEN_TZ } },
			(err, stdout, stderr) =>
				err
					? reject(new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${stderr}`))
					: resolve(stdout)
		);
	});
}

const jsonLines = (out: string) =>
	out
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as Record<string, unknown>);

/** "step status body" lines (curl, Java). */
const steps = (out: string) =>
	Object.fromEntries(
		out
			.trim()
			.split('\n')
			.map((line) => {
				const [step, status, ...rest] = line.split(' ');
				return [step, { status, body: rest.join(' ') }];
			})
	);

let agent: AgentProcess;
let dataDir: string;
let base: string;
let tcp: { host: string; port: number };

/** Newest modification time (ms) of the files under `dir` that go into the agent's bundle. */
function newest(dir: string): number {
	let latest = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile() && /\.(ts|js|json)$/.test(entry.name) && !entry.name.endsWith('.spec.ts'))
			latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
	}
	return latest;
}

/**
 * dist/agent.js as `npm run build` makes it, rebuilt (npm run build:agent, a second or two) when
 * missing or older than its sources: `npm test` runs Vitest before its build step.
 */
function builtAgent(): void {
	const bundle = join(ROOT, 'dist', 'agent.js');
	const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
	const sources = Math.max(newest(join(ROOT, 'agent')), newest(join(ROOT, 'src', 'lib')));
	if (built < sources) {
		execFileSync('npm', ['run', '--silent', 'build:agent'], { cwd: ROOT, stdio: 'pipe' });
	}
}

beforeAll(async () => {
	builtAgent();
	dataDir = mkdtempSync(join(tmpdir(), 'kds-zoo-'));
	agent = await spawnAgent(agentFlags(dataDir, 'info'), {}, { bundle: true });
	base = agent.httpUrl;
	tcp = agent.tcp.get('kds-1')!;
}, 120_000);

afterAll(async () => {
	agent?.child.kill('SIGTERM');
	await new Promise((resolve) => agent?.child.once('exit', resolve));
	rmSync(dataDir, { recursive: true, force: true });
});

async function card(id: string): Promise<OrderRecord | undefined> {
	const res = await fetch(`${base}/api/screens/kds-1/state`);
	const { records } = (await res.json()) as { records: OrderRecord[] };
	return records.find((r) => r.context.id === id);
}

/** The instant the card's time stands for, in ms. */
const shownAt = (record: OrderRecord | undefined) =>
	Date.parse(String(record?.context.fields.time));

/** Errors the agent logged (pino level 50 and up). */
const loggedErrors = () =>
	agent
		.output()
		.split('\n')
		.filter((line) => /"level":(50|60)/.test(line));

describe('Python 3 standard library', () => {
	it(
		'socket: send, shutdown(SHUT_WR), one recv(4096): reads the bare id; the card shows its local isoformat() time',
		async () => {
			requireRuntime('python3');
			const out = jsonLines(
				await run('python3', ['tcp_socket.py', tcp.host, String(tcp.port), 'py-sock-1', 'read'])
			)[0];
			expect(out.reply).toBe('py-sock-1');
			expect(out.sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
			const record = await card('py-sock-1');
			expect(record?.state).toBe('active');
			expect(record?.context.fields.name).toBe('Python socket');
			// The local wall time read in the location's zone is the instant the client took (to the ms).
			expect(shownAt(record)).toBe(Math.floor(out.epochMs as number));
		},
		CLIENT_TIMEOUT_MS
	);

	it(
		'socket: send, then close() at once without reading: the order is stored and shown, nothing logged as an error',
		async () => {
			requireRuntime('python3');
			await Promise.all(
				['py-close-1', 'py-close-2', 'py-close-3'].map((id) =>
					run('python3', ['tcp_socket.py', tcp.host, String(tcp.port), id, 'close'])
				)
			);
			await expect.poll(async () => (await card('py-close-3'))?.state).toBe('active');
			expect((await card('py-close-1'))?.state).toBe('active');
			expect((await card('py-close-2'))?.state).toBe('active');
			expect(loggedErrors()).toEqual([]);
		},
		CLIENT_TIMEOUT_MS
	);

	it(
		'urllib.request: health, create and partial with isoformat() times, nulls and extra fields, a 413 it reads',
		async () => {
			requireRuntime('python3');
			const out = jsonLines(
				await run('python3', ['http_urllib.py', `${base}/`, TOKEN, 'py-http-1'])
			);
			const by = Object.fromEntries(out.map((line) => [line.step, line]));
			expect(by.health).toMatchObject({ status: 200, body: { status: 'ok' } });
			expect(by.create).toMatchObject({ status: 201, body: { orderId: 'py-http-1' } });
			expect(by.partial).toMatchObject({ status: 200, body: { orderId: 'py-http-1' } });
			expect(by.devices.status).toBe(200);
			expect(by['too-large']).toEqual({
				step: 'too-large',
				status: 413,
				body: { code: 'PAYLOAD_TOO_LARGE', message: 'body: larger than the limit of 1048576 bytes' }
			});
			expect(by.after.body).toEqual([
				expect.objectContaining({
					// The name given at create (contract 2.9); the card shows the partial's rename.
					orders: expect.arrayContaining([{ orderId: 'py-http-1', orderName: 'Python urllib' }])
				})
			]);
			const record = await card('py-http-1');
			expect(record?.context.fields.name).toBe('Python urllib 2');
			expect(record?.context.items).toEqual([
				expect.objectContaining({ lineId: '1', name: 'Soup', qty: 2, price: '$4.50' })
			]);
			expect(shownAt(record)).toBe(Math.floor(by.time.epochMs as number));
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('Node', () => {
	it(
		'net: one persistent connection, one object per line: one reply line each',
		async () => {
			const out = jsonLines(
				await run(process.execPath, [
					'net_persistent.mjs',
					tcp.host,
					String(tcp.port),
					'node-net-1'
				])
			)[0];
			expect(out.replies).toEqual(['node-net-1', 'node-net-1', 'ORDER_DOES_NOT_EXIST']);
			const record = await card('node-net-1');
			expect(record?.context.fields).toMatchObject({ name: 'Node net', priority: true });
			expect(shownAt(record)).toBe(Date.parse(out.sent as string));
		},
		CLIENT_TIMEOUT_MS
	);

	it(
		'fetch: trailing slashes, a null, an extra field; the 413 is read, not "fetch failed"',
		async () => {
			const out = jsonLines(
				await run(process.execPath, ['fetch.mjs', `${base}/`, TOKEN, 'node-fetch-1'])
			);
			const by = Object.fromEntries(out.map((line) => [line.step, line]));
			expect(by.health).toMatchObject({ status: 200, body: { status: 'ok' } });
			expect(by.create).toMatchObject({ status: 201, body: { orderId: 'node-fetch-1' } });
			expect(by.devices).toMatchObject({ status: 200, body: [{ id: 'kds-1' }, { id: 'kds-2' }] });
			expect(by['too-large']).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
			expect(by.cancel).toMatchObject({ status: 200 });
			const record = await card('node-fetch-1');
			expect(record?.state).toBe('cancelled');
			expect(shownAt(record)).toBe(Date.parse(by.time.sent as string));
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('curl', () => {
	it(
		'health, a create with a trailing slash, an 8 MiB body (Expect: 100-continue) answered 413',
		async () => {
			requireRuntime('bash');
			requireRuntime('curl');
			const out = steps(await run('bash', ['curl.sh', base, TOKEN, 'curl-1']));
			expect(out.health.status).toBe('200');
			expect(out.create).toEqual({
				status: '201',
				body: '{"orderId":"curl-1","deliveryStatuses":[{"device":"kds-1","status":"SUCCESS","type":"android"}]}'
			});
			expect(out['too-large'].status).toBe('413');
			expect(out.active.body).toContain('{"orderId":"curl-1","orderName":"curl"}');
			expect(shownAt(await card('curl-1'))).toBe(Date.parse(out.time.body));
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('Java 17 (java Client.java, java.net.http.HttpClient defaults)', () => {
	it(
		'asks for h2c on every request and is answered in HTTP/1.1; LocalDateTime times; reads its 413',
		async () => {
			requireRuntime('javac');
			const out = steps(await run('java', ['java/Client.java', base, TOKEN, 'java-1']));
			expect(out.health.status).toBe('200');
			expect(out.create.status).toBe('201');
			expect(out.partial.status).toBe('200');
			expect(out['too-large'].status).toBe('413');
			// The name given at create (contract 2.9); the card shows the partial's rename.
			expect(out.active.body).toContain('{"orderId":"java-1","orderName":"Java"}');
			expect((await card('java-1'))?.context.fields.name).toBe('Java 2');
			// "time <LocalDateTime.toString()> <epoch ms>"
			const { status: local, body: epochMs } = out.time;
			expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
			expect(shownAt(await card('java-1'))).toBe(Number(epochMs));
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('Perl 5 (core modules)', () => {
	it(
		'IO::Socket::INET: print, close at once; strftime %z offset (+hhmm): stored and shown',
		async () => {
			requireRuntime('perl');
			const out = jsonLines(
				await run('perl', ['tcp_close.pl', tcp.host, String(tcp.port), 'perl-1'])
			)[0];
			expect(out.sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/);
			await expect.poll(async () => (await card('perl-1'))?.state).toBe('active');
			expect(shownAt(await card('perl-1'))).toBe((out.epoch as number) * 1000);
			expect(loggedErrors()).toEqual([]);
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('a runtime missing on this machine', () => {
	it(
		'fails its client test with what to install, rather than skipping it',
		() => {
			expect(() =>
				requireRuntime('kds-sim-no-such-runtime', {
					check: ['--version'],
					install: 'apt-get install x'
				})
			).toThrow(
				'kds-sim-no-such-runtime is not installed: the client zoo needs it to run its kds-sim-no-such-runtime client (apt-get install x; .ci/run installs it on CI)'
			);
		},
		CLIENT_TIMEOUT_MS
	);
});
