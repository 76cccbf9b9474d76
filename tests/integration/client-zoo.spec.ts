/**
 * The client zoo: small POS clients under tests/clients/, written the way each ecosystem does it
 * by default (Python's standard library, Node's net and fetch, curl, Java's HttpClient and
 * HttpURLConnection, Perl, PHP's cURL and fsockopen, Ruby's Net::HTTP and TCPSocket),
 * run against the built agent (dist/agent.js, the CLI as a user starts it). Each sends its
 * natural defaults: local times without an offset, trailing slashes, fields the contract does not
 * name, nulls, a body over the limit, a write followed by an immediate close, a forgotten
 * Content-Type, json_encode's escapes and its [] for an empty object, unicode and emoji, a
 * duplicated id, a huge special instruction. Each test asserts
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
	bash: { check: ['--version'], install: 'apt-get install bash' },
	// php-cli alone has no curl_init: the check fails without the extension too.
	php: {
		check: ['-r', 'exit(function_exists("curl_init") ? 0 : 1);'],
		install: 'apt-get install php-cli php-curl'
	},
	ruby: { check: ['--version'], install: 'apt-get install ruby' }
} as const;

function requireRuntime(
	name: string,
	runtime: { check: readonly string[]; install: string } = RUNTIMES[name as keyof typeof RUNTIMES]
): void {
	try {
		execFileSync(name, runtime.check, { stdio: 'ignore' });
	} catch {
		throw new Error(
			`${name} is not installed: the client zoo needs it to run its ${name} client (${runtime.install}; npm test installs it first: scripts/setup.sh)`
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
	// core/ too: the agent bundles the shared core (a change to its messages went unseen before).
	const sources = Math.max(
		...['agent', 'core', join('src', 'lib')].map((dir) => newest(join(ROOT, dir)))
	);
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
			// A string body without the header: fetch labels it text/plain;charset=UTF-8.
			expect(by['no-header']).toEqual({
				step: 'no-header',
				status: 415,
				body: {
					code: 'UNSUPPORTED_MEDIA_TYPE',
					message:
						'Content-Type: expected application/json, got "text/plain;charset=UTF-8" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json'
				}
			});
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

describe('Java 17 (java Legacy.java, java.net.HttpURLConnection defaults)', () => {
	it(
		'no Content-Type: reads the 415 from getErrorStream(); then created, 409 for the same id, cancelled; JSON answers to its Accept "text/html, …"',
		async () => {
			requireRuntime('javac');
			const out = steps(
				await run('java', ['java/Legacy.java', `${base}/`, TOKEN, 'java-legacy-1'])
			);
			// "step status threw|read <Content-Type> <body>"
			const reply = (step: string) => {
				const [how, type, ...body] = out[step].body.split(' ');
				return { status: out[step].status, how, type, body: JSON.parse(body.join(' ')) };
			};
			expect(reply('health')).toMatchObject({
				status: '200',
				how: 'read',
				type: 'application/json;charset=utf-8',
				body: { status: 'ok' }
			});
			expect(reply('no-content-type')).toEqual({
				status: '415',
				how: 'threw',
				type: 'application/json;charset=utf-8',
				body: {
					code: 'UNSUPPORTED_MEDIA_TYPE',
					message:
						'Content-Type: expected application/json, got "application/x-www-form-urlencoded" (what curl -d, PHP\'s curl and Java\'s HttpURLConnection send unless told otherwise); add the header Content-Type: application/json'
				}
			});
			expect(reply('create')).toMatchObject({ status: '201', how: 'read' });
			expect(reply('duplicate')).toMatchObject({
				status: '409',
				how: 'threw',
				type: 'application/json;charset=utf-8',
				body: { code: 'DUPLICATE_ORDER_ID', errors: [{ path: 'id' }] }
			});
			expect(reply('cancel-post')).toMatchObject({
				status: '405',
				body: { message: 'POST is not allowed on /integrators/kds-orders/cancel; use PUT' }
			});
			expect(reply('cancel-unknown')).toMatchObject({
				status: '404',
				how: 'threw',
				body: { code: 'ORDER_DOES_NOT_EXIST', errors: [{ path: 'id' }] }
			});
			expect(reply('cancel')).toMatchObject({ status: '200', how: 'read' });
			const record = await card('java-legacy-1');
			expect(record?.state).toBe('cancelled');
			expect(record?.context.fields).toMatchObject({
				name: 'Müller ça va 🍟',
				checkNumber: '0042'
			});
			expect(record?.context.items).toEqual([
				expect.objectContaining({ name: 'Pommes', price: '€3,50', mods: [{ name: 'Mayo' }] })
			]);
			// "time <OffsetDateTime.toString()> <epoch ms>": nanoseconds and the offset, kept to the ms.
			const { status: sent, body: epochMs } = out.time;
			expect(sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?[+-]\d\d:\d\d$/);
			expect(shownAt(record)).toBe(Number(epochMs));
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

describe('PHP (php-cli, the cURL extension, fsockopen)', () => {
	it(
		'cURL with CURLOPT_POSTFIELDS json_encode(): the form type it sends without the header is answered 415 and read; with it, \\u escapes, \\/ and an 88 KB note arrive as written; a float price, [] for costs and items after unset() are refused naming the field and the PHP fix',
		async () => {
			requireRuntime('php');
			const out = jsonLines(await run('php', ['http_curl.php', `${base}/`, TOKEN, 'php-http-1']));
			const by = Object.fromEntries(out.map((line) => [line.step, line]));
			// What the plugin sent: json_encode's defaults, and curl's form type when no header is set.
			expect(by['no-header'].sentType).toBe('application/x-www-form-urlencoded');
			expect(by['no-header'].sent).toContain(
				'"name":"Zo\\u00eb \\u00d1\\u00fa\\u00f1ez \\ud83c\\udf54"'
			);
			expect(by['no-header'].sent).toContain('https:\\/\\/shop.example\\/allergens');
			expect(by['no-header']).toMatchObject({
				status: 415,
				body: {
					code: 'UNSUPPORTED_MEDIA_TYPE',
					message: expect.stringContaining(
						"PHP's curl and Java's HttpURLConnection send unless told otherwise); add the header Content-Type: application/json"
					)
				}
			});
			// The order array itself as CURLOPT_POSTFIELDS: a multipart form.
			expect(by['postfields-array'].sentType).toMatch(/^multipart\/form-data; boundary=/);
			expect(by['postfields-array']).toMatchObject({
				status: 415,
				body: {
					code: 'UNSUPPORTED_MEDIA_TYPE',
					message: expect.stringMatching(
						/^Content-Type: expected application\/json, got "multipart\/form-data; boundary=-+[0-9a-f]+" \(what PHP's curl sends when CURLOPT_POSTFIELDS is given an array\); send json_encode\(\) of the order as the body with the header Content-Type: application\/json$/
					)
				}
			});
			expect(await card('php-http-1-form')).toBeUndefined();
			// Nothing of the refused request was kept: the create that follows is a create.
			expect(by.create).toMatchObject({ status: 201, sentType: 'application/json' });
			expect(by.duplicate).toMatchObject({
				status: 409,
				body: { code: 'DUPLICATE_ORDER_ID', errors: [{ path: 'id' }] }
			});
			expect(by['price-float'].body).toMatchObject({
				code: 'VALIDATION_FAILED',
				message: 'items[0].price: expected a string, got 12.5'
			});
			expect(by['costs-empty']).toMatchObject({
				status: 422,
				body: {
					message:
						"costs: expected an object, got an array (PHP's json_encode writes an empty array as []: send {}, e.g. new stdClass(), or leave the field out)"
				}
			});
			expect(by['items-gaps']).toMatchObject({
				status: 422,
				body: {
					message:
						'items: expected an array of items, got an object (keys "1": PHP\'s json_encode writes an array whose keys are not 0, 1, 2… as an object; send array_values() of it)'
				}
			});
			expect(by.partial).toMatchObject({ status: 200, body: { orderId: 'php-http-1' } });
			expect(by.active.body).toEqual([
				expect.objectContaining({
					orders: expect.arrayContaining([{ orderId: 'php-http-1', orderName: 'Zoë Ñúñez 🍔' }])
				})
			]);
			const record = await card('php-http-1');
			expect(record?.state).toBe('active');
			expect(record?.context.fields).toMatchObject({ name: 'Zoë Ñúñez 🍔', priority: true });
			const note = String(record?.context.fields.specialInstructions);
			expect(note.startsWith('Alergia: nueces/sésamo, see https://shop.example/allergens ')).toBe(
				true
			);
			expect(note).toHaveLength(59 + 21 * 4200);
			expect(record?.context.items.map((item) => [item.lineId, item.name, item.qty])).toEqual([
				['1', 'Crème brûlée', 2],
				['2', 'Café con leche ☕', 1],
				['3', 'Agua con gas', 1]
			]);
			expect(record?.context.items[0].mods).toEqual([
				{ name: 'Piña 🍍', qty: 2 },
				{ name: 'Sin azúcar' }
			]);
			for (const id of ['php-http-1-float', 'php-http-1-costs', 'php-http-1-gaps'])
				expect(await card(id)).toBeUndefined();
			// date('c') in the shop's zone: "2026-11-26T09:40:00-06:00".
			expect(by.time.sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
			expect(shownAt(record)).toBe((by.time.epoch as number) * 1000);
		},
		CLIENT_TIMEOUT_MS
	);

	it(
		'fsockopen, fwrite json_encode() with no newline, one fread per reply on one connection: the bare id, DUPLICATE_ORDER_ID, Unable to parse data for [] costs',
		async () => {
			requireRuntime('php');
			const out = jsonLines(
				await run('php', ['tcp_fsockopen.php', tcp.host, String(tcp.port), 'php-tcp-1'])
			)[0];
			expect(out.replies).toEqual([
				'php-tcp-1',
				'DUPLICATE_ORDER_ID',
				'php-tcp-1',
				'Unable to parse data'
			]);
			const record = await card('php-tcp-1');
			expect(record?.context.fields).toMatchObject({ name: 'Ñandú 🍕 / PHP', priority: true });
			expect(record?.context.items.map((item) => item.name)).toEqual([
				'Pizza Margherita',
				'Tiramisù'
			]);
			expect(record?.context.items[0].mods).toEqual([
				{ name: 'Extra basilico' },
				{ name: 'Sin gluten' }
			]);
			expect(shownAt(record)).toBe(out.sent);
			expect(await card('php-tcp-1-costs')).toBeUndefined();
			expect(loggedErrors()).toEqual([]);
		},
		CLIENT_TIMEOUT_MS
	);
});

describe('Ruby (standard library)', () => {
	it(
		'Net::HTTP.post with to_json and symbol keys, Time.now.iso8601: created, 409, a Time object and a Float price refused naming the field, a partial without an item name refused, then applied',
		async () => {
			requireRuntime('ruby');
			const out = jsonLines(
				await run('ruby', ['http_net_http.rb', `${base}/`, TOKEN, 'rb-http-1'])
			);
			const by = Object.fromEntries(out.map((line) => [line.step, line]));
			expect(by.create).toMatchObject({ status: 201, body: { orderId: 'rb-http-1' } });
			expect(by.duplicate).toMatchObject({ status: 409, body: { code: 'DUPLICATE_ORDER_ID' } });
			// Time#to_s: "2026-11-26 09:40:00 -0600", not ISO 8601.
			expect(by['time-object']).toMatchObject({
				status: 422,
				body: {
					errors: [
						{
							path: 'time',
							message: expect.stringMatching(
								/^expected an ISO 8601 date-time string, e\.g\. 2026-11-22T18:04:00Z, got "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}"$/
							)
						}
					]
				}
			});
			expect(by['price-float'].body).toMatchObject({
				message: 'items[0].price: expected a string, got 12.5'
			});
			expect(by['partial-short']).toMatchObject({
				status: 422,
				body: {
					message:
						'itemsToUpdate[0].name: required (a string); itemsToUpdate[0].mods: required (an array of modifiers)'
				}
			});
			expect(by.partial).toMatchObject({ status: 200, body: { orderId: 'rb-http-1' } });
			expect(by.active.body).toEqual([
				expect.objectContaining({
					orders: expect.arrayContaining([{ orderId: 'rb-http-1', orderName: 'José 😀 Müller' }])
				})
			]);
			const record = await card('rb-http-1');
			expect(record?.context.fields).toMatchObject({
				name: 'José 😀 Müller',
				mode: 'Delivery',
				deliveryService: { name: 'Rápido', orderId: 'R-77' },
				costs: { subtotal: '$21.00', total: '$23.10' }
			});
			expect(record?.context.items).toEqual([
				expect.objectContaining({ lineId: '1', name: 'Bratwurst', qty: 3, change: 'updated' }),
				expect.objectContaining({
					lineId: '2',
					name: 'Brezel 🥨',
					deleted: true,
					specialInstructions: 'x'.repeat(20_000)
				})
			]);
			expect(await card('rb-http-1-t')).toBeUndefined();
			// iso8601: the local offset, "-06:00" in Chicago.
			expect(by.time.sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
			expect(shownAt(record)).toBe((by.time.epoch as number) * 1000);
		},
		CLIENT_TIMEOUT_MS
	);

	it(
		'TCPSocket with puts (a newline after each object) and gets: one reply line each, a symbol value read as its name',
		async () => {
			requireRuntime('ruby');
			const out = jsonLines(
				await run('ruby', ['tcp_puts.rb', tcp.host, String(tcp.port), 'rb-tcp-1'])
			)[0];
			expect(out.replies).toEqual([
				'rb-tcp-1\n',
				'rb-tcp-1\n',
				'rb-tcp-1-sym\n',
				'ORDER_DOES_NOT_EXIST\n'
			]);
			const record = await card('rb-tcp-1');
			expect(record?.context.fields).toMatchObject({ name: 'Ruby ✓ 🍣', mode: 'Curbside' });
			expect(record?.context.items.map((item) => [item.name, item.change])).toEqual([
				['Sushi', 'updated'],
				['Miso', 'added']
			]);
			expect((await card('rb-tcp-1-sym'))?.context.fields.mode).toBe('Pickup');
			expect(shownAt(record)).toBe(out.sent);
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
				'kds-sim-no-such-runtime is not installed: the client zoo needs it to run its kds-sim-no-such-runtime client (apt-get install x; npm test installs it first: scripts/setup.sh)'
			);
		},
		CLIENT_TIMEOUT_MS
	);
});
