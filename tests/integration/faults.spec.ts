/**
 * Faults on cue (docs/faults.md), each driven by a real client of tests/clients: a Python POS
 * that retries well (tests/clients/retry_pos.py) and a Ruby POS that re-sends under a new id
 * (tests/clients/retry_naive.rb). Each test starts its own simulator; the assertions are what the
 * client read, what the screen then holds, and what the inspector's report says of the client.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../helpers/fixtures.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { readSettings } from '../../agent/cli/settings.ts';
import { FaultListSchema, ResilienceReportSchema } from '../../agent/http/faults-api.ts';
import { ROOT } from '../helpers/process.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const CLIENTS = join(ROOT, 'tests', 'clients');
let sim: Simulator | undefined;

afterEach(async () => {
	sim?.faults.reset();
	await sim?.close();
	sim = undefined;
});

async function start(): Promise<Simulator> {
	sim = await startSimulator({ uiDir: null });
	return sim;
}

function run(command: string, args: string[]): Promise<Array<Record<string, unknown>>> {
	return new Promise((resolve, reject) =>
		execFile(command, args, { cwd: CLIENTS, timeout: 60_000 }, (err, stdout, stderr) =>
			err
				? reject(new Error(`${command} ${args.join(' ')}: ${err.message}\n${stderr}`))
				: resolve(
						stdout
							.trim()
							.split('\n')
							.map((line) => JSON.parse(line) as Record<string, unknown>)
					)
		)
	);
}

const tcpOf = (s: Simulator, id = 'kds-1') => s.screens.find((x) => x.id === id)!.tcp;
const python = (s: Simulator, orderId: string) =>
	run('python3', ['retry_pos.py', 'tcp', tcpOf(s).host, String(tcpOf(s).port), orderId]);
const pythonHttp = (s: Simulator, orderId: string) =>
	run('python3', ['retry_pos.py', 'http', s.httpUrl, s.token, orderId]);
const ruby = (s: Simulator, orderId: string) =>
	run('ruby', ['retry_naive.rb', tcpOf(s).host, String(tcpOf(s).port), orderId]);

async function cardIds(s: Simulator, screen = 'kds-1'): Promise<string[]> {
	return (await s.screenJson(screen)).cards.map((c) => c.id);
}

async function post(s: Simulator, path: string, body: unknown) {
	const res = await fetch(`${s.httpUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const order = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: 'Ana 🌮',
		time: '2026-12-02T12:00:00Z',
		mode: 'ToGo',
		items: [{ lineId: '1', name: 'Tacos al pastor', qty: 3, mods: [{ name: 'No cilantro' }] }]
	}
});

describe('faults through the admin API', () => {
	it('bad input is answered 422 naming every field, and nothing changes', async () => {
		const s = await start();
		await s.addFault({ kind: 'slow-reply', screen: 'kds-1', delayMs: 10 });
		const bad = await post(s, '/api/admin/faults', {
			faults: [
				{ kind: 'lost-reply', screen: 'kds-404', count: -1 },
				{ kind: 'http-status', status: 200, route: 'everything', probability: 1.5 },
				{ kind: 'gremlins' }
			]
		});
		expect(bad.status).toBe(422);
		expect(bad.body.code).toBe('VALIDATION_FAILED');
		expect((bad.body.errors as Array<{ path: string }>).map((e) => e.path).sort()).toEqual([
			'[0].count',
			'[0].screen',
			'[1].probability',
			'[1].route',
			'[1].status',
			'[2].kind'
		]);
		const faults = await s.listFaults();
		expect(faults.map((f) => f.kind)).toEqual(['slow-reply']);
	});

	it('list with fired counts, remove one, reset all; a profile adds its set', async () => {
		const s = await start();
		const lost = await s.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		// The connection closes without a reply: the helper reads nothing.
		expect(await s.sendTcp('kds-1', order('501'))).toBe('');
		expect((await s.listFaults())[0]).toMatchObject({ id: lost.id, fired: 1, active: false });
		const wifi = await s.addFaults({ profile: 'flaky-wifi', screen: 'kds-2' });
		expect(wifi.map((f) => f.kind)).toEqual(['lost-reply', 'slow-reply', 'down']);
		await s.removeFault(lost.id);
		expect((await s.listFaults()).length).toBe(3);
		await expect(s.removeFault(lost.id)).rejects.toThrow(/404 No fault/);
		await s.resetFaults();
		expect(await s.listFaults()).toEqual([]);
		expect(await s.sendTcp('kds-1', order('502'))).toBe('502');
		// The report outlives the faults; it goes with the log (POST /api/admin/reset).
		expect((await s.faultReport()).clients).toHaveLength(1);
		await post(s, '/api/admin/reset', {});
		expect((await s.faultReport()).clients).toEqual([]);
	});
});

describe('TCP faults, with a client that retries well and one that duplicates', () => {
	it('lost reply: committed and shown; the good client re-sends the same id and reads DUPLICATE_ORDER_ID', async () => {
		const s = await start();
		await s.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		const out = await python(s, '1001');
		expect(out.at(-1)).toEqual({ done: 'DUPLICATE_ORDER_ID' });
		expect(out.slice(0, 2)).toEqual([
			{ attempt: 1, reply: '' },
			{ attempt: 1, error: 'ConnectionError' }
		]);
		expect(await cardIds(s)).toEqual(['1001']);
		const report = await s.faultReport();
		expect(report.clients).toEqual([
			expect.objectContaining({
				client: 'tcp 127.0.0.1',
				verdict: 'ok',
				touched: { 'lost-reply': 1 }
			})
		]);
		expect(report.clients[0].findings[0]).toMatchObject({
			rule: 'KDS-FAULT-RESENT-SAME-ID',
			message: expect.stringContaining('DUPLICATE_ORDER_ID')
		});
		// The inspector marks the message the fault touched, and the retry's DUPLICATE_ORDER_ID
		// as expected (info, the fault named): no error, no refusal.
		type Logged = {
			orderId: string;
			result: string;
			fault?: string;
			expected?: string;
			why: string | null;
			findings: Array<{ severity: string; code: string; message: string }>;
		};
		const log = (await (await fetch(`${s.httpUrl}/api/admin/messages`)).json()) as Logged[];
		expect(log.map((e) => [e.result, e.fault, e.expected])).toEqual([
			['DUPLICATE_ORDER_ID', undefined, 'lost-reply (f1)'],
			['1001', 'lost-reply (f1)', undefined]
		]);
		expect(log[0].findings.filter((f) => f.severity !== 'info')).toEqual([]);
		expect(log[0].findings).toContainEqual(
			expect.objectContaining({
				severity: 'info',
				code: 'KDS-FAULT-RETRY-EXPECTED',
				message: expect.stringContaining('after the lost-reply (f1) kept the order')
			})
		);
		expect(log[0].why).toContain('DUPLICATE_ORDER_ID is the expected answer');
		const refused = (await (
			await fetch(`${s.httpUrl}/api/admin/messages?result=refused`)
		).json()) as Logged[];
		expect(refused).toEqual([]);
	});

	it('a duplicate no fault explains stays an error and a refusal', async () => {
		const s = await start();
		expect(await s.sendTcp('kds-1', order('1101'))).toBe('1101');
		expect(await s.sendTcp('kds-1', order('1101'))).toBe('DUPLICATE_ORDER_ID');
		const [dup] = s.messages.list({ result: 'refused' });
		expect(dup.result).toBe('DUPLICATE_ORDER_ID');
		expect(dup.expected).toBeUndefined();
		expect(dup.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([
			'KDS-ORDER-DUPLICATE'
		]);
	});

	it('lost reply: the duplicating client leaves two tickets, and the report names it', async () => {
		const s = await start();
		await s.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		const out = await ruby(s, '2001');
		expect(out.at(-1)).toEqual({ done: '2001-r1' });
		expect((await cardIds(s)).sort()).toEqual(['2001', '2001-r1']);
		const [client] = (await s.faultReport()).clients;
		expect(client.verdict).toBe('error');
		expect(client.findings).toEqual([
			expect.objectContaining({
				rule: 'KDS-FAULT-RESENT-NEW-ID',
				client: 'tcp 127.0.0.1',
				message: expect.stringContaining('re-sent order 2001 as 2001-r1')
			})
		]);
	});

	it('reset before commit: nothing is kept; the retry makes the one order', async () => {
		const s = await start();
		await s.addFault({ kind: 'reset-before-commit', screen: 'kds-1', count: 1 });
		const out = await python(s, '3001');
		// Reset under it: ConnectionResetError, or OSError when the reset beat its half-close.
		expect(out[0]).toMatchObject({
			attempt: 1,
			error: expect.stringMatching(/^(ConnectionResetError|OSError)$/)
		});
		expect(out.at(-1)).toEqual({ done: '3001' });
		expect(await cardIds(s)).toEqual(['3001']);
		expect((await s.faultReport()).clients[0]).toMatchObject({ verdict: 'ok' });
	});

	it('reset before commit, never re-sent: the order is lost for good, an error; a late re-send clears it', async () => {
		const s = await start();
		await s.addFault({ kind: 'reset-before-commit', screen: 'kds-1', count: 1 });
		// A POS that sends once and gives up.
		await expect(s.sendTcp('kds-1', order('3101'))).rejects.toThrow();
		expect(await cardIds(s)).toEqual([]);
		const [client] = (await s.faultReport()).clients;
		expect(client.verdict).toBe('error');
		expect(client.findings).toEqual([
			expect.objectContaining({
				rule: 'KDS-FAULT-ORDER-LOST',
				severity: 'error',
				orderId: '3101',
				kind: 'reset-before-commit'
			})
		]);
		expect(await s.sendTcp('kds-1', order('3101'))).toBe('3101');
		expect((await s.faultReport()).clients[0]).toMatchObject({ verdict: 'ok' });
	});

	it('no answer: the good client times out, re-sends, and learns the order is there', async () => {
		const s = await start();
		await s.addFault({ kind: 'no-answer', screen: 'kds-1', count: 1 });
		const out = await python(s, '4001');
		expect(out[0]).toMatchObject({ attempt: 1, error: 'TimeoutError' });
		expect(out.at(-1)).toEqual({ done: 'DUPLICATE_ORDER_ID' });
		expect(await cardIds(s)).toEqual(['4001']);
	});

	it('down: connections are reset until it comes back; a backing-off client gets through, a hammering one is called a retry storm', async () => {
		const s = await start();
		await s.addFault({ kind: 'down', screen: 'kds-1', count: 2 });
		const good = await python(s, '5001');
		expect(good.slice(0, 2).every((line) => typeof line.error === 'string')).toBe(true);
		expect(good.at(-1)).toEqual({ done: '5001' });
		expect((await s.faultReport()).clients[0].findings).toEqual([]);

		await s.addFault({ kind: 'down', screen: 'kds-1' });
		const bad = await ruby(s, '5002');
		expect(bad.at(-1)).toEqual({ done: null });
		expect(await cardIds(s)).toEqual(['5001']);
		const findings = (await s.faultReport()).clients[0].findings;
		expect(findings.map((f) => f.rule)).toEqual(['KDS-FAULT-RETRY-STORM']);
	});

	it('slow reply and reply in pieces: the same answer, late or cut in writes', async () => {
		const s = await start();
		await s.addFault({ kind: 'slow-reply', screen: 'kds-1', delayMs: 200, count: 1 });
		expect((await python(s, '6001')).at(-1)).toEqual({ done: '6001' });
		await s.addFault({
			kind: 'reply-in-pieces',
			screen: 'kds-1',
			pieces: 4,
			pauseMs: 60,
			count: 1
		});
		const { host, port } = tcpOf(s);
		// An id with emoji (two UTF-16 units each): cut in bytes, the bytes are still the reply's.
		const id = '6002-🍣🍣🍣-寿司';
		const chunks = await new Promise<Buffer[]>((resolve, reject) => {
			const got: Buffer[] = [];
			const socket = connect({ host, port }, () => socket.end(JSON.stringify(order(id))));
			socket
				.on('data', (d: Buffer) => got.push(d))
				.on('close', () => resolve(got))
				.on('error', reject);
		});
		expect(Buffer.concat(chunks).toString('utf8')).toBe(id);
		expect(Buffer.concat(chunks)).toEqual(Buffer.from(id, 'utf8'));
		expect(chunks.length).toBe(4);
	});

	it('reboot: connections are reset while away, and the screen comes back with its orders', async () => {
		const s = await start();
		expect(await s.sendTcp('kds-1', order('7001'))).toBe('7001');
		await s.addFault({ kind: 'reboot', screen: 'kds-1', seconds: 1 });
		await expect(s.sendTcp('kds-1', order('7002'))).rejects.toThrow(/ECONNRESET|ECONNREFUSED/);
		// The good client backs off until the screen is back.
		expect((await python(s, '7002')).at(-1)).toEqual({ done: '7002' });
		expect((await cardIds(s)).sort()).toEqual(['7001', '7002']);
		const [client] = (await s.faultReport()).clients;
		expect(client.touched.reboot).toBeGreaterThan(0);
		expect(client.findings.map((f) => f.rule)).not.toContain('KDS-FAULT-RETRY-STORM');
	});

	it('reboot: a client hammering the rebooting screen is called a retry storm', async () => {
		const s = await start();
		await s.addFault({ kind: 'reboot', screen: 'kds-1', seconds: 3 });
		const bad = await ruby(s, '7101');
		expect(bad.at(-1)).toEqual({ done: null });
		const [client] = (await s.faultReport()).clients;
		expect(client.findings).toEqual([
			expect.objectContaining({
				rule: 'KDS-FAULT-RETRY-STORM',
				kind: 'reboot',
				message: expect.stringContaining('while it was rebooting')
			})
		]);
	});

	it('a probability with a seed fires on the same messages every time', async () => {
		const pattern = async () => {
			const s = await startSimulator({ uiDir: null });
			try {
				await s.addFault({ kind: 'lost-reply', screen: 'kds-1', probability: 0.3, seed: 7 });
				const lost: number[] = [];
				for (let i = 0; i < 20; i++) {
					if ((await s.sendTcp('kds-1', order(`p${i}`))) === '') lost.push(i);
				}
				// Nothing lost: every message was committed, answered or not.
				expect((await cardIds(s)).length).toBe(20);
				return lost;
			} finally {
				await s.close();
			}
		};
		const first = await pattern();
		expect(first.length).toBeGreaterThan(0);
		expect(first.length).toBeLessThan(20);
		expect(await pattern()).toEqual(first);
	});
});

describe('HTTP faults, with a client that retries well', () => {
	it('503 then 429 with Retry-After: the good client waits and gets one order in', async () => {
		const s = await start();
		await s.addFault({ kind: 'http-status', status: 503, route: 'create', count: 1 });
		await s.addFault({
			kind: 'http-status',
			status: 429,
			retryAfter: 1,
			route: 'create',
			count: 1
		});
		const out = await pythonHttp(s, '8001');
		expect(out.map((l) => l.status)).toEqual([503, 429, 201, undefined]);
		expect(await cardIds(s)).toEqual(['8001']);
		const [client] = (await s.faultReport()).clients;
		expect(client.findings.map((f) => f.rule)).not.toContain('KDS-FAULT-RETRY-TOO-SOON');
		expect(client.verdict).toBe('ok');
	});

	it('a 429 retried at once is called out', async () => {
		const s = await start();
		await s.addFault({ kind: 'http-status', status: 429, retryAfter: 30, count: 1 });
		expect((await s.sendHttp('create', order('8101').order)).status).toBe(429);
		expect((await s.sendHttp('create', order('8101').order)).status).toBe(201);
		const [client] = (await s.faultReport()).clients;
		expect(client.findings.map((f) => f.rule)).toContain('KDS-FAULT-RETRY-TOO-SOON');
	});

	it('response lost: committed; the re-send is refused as a duplicate, which means it is there', async () => {
		const s = await start();
		await s.addFault({ kind: 'http-response-lost', route: 'create', count: 1 });
		const out = await pythonHttp(s, '8201');
		expect(out[0]).toMatchObject({ attempt: 1, error: expect.any(String) });
		expect(out.at(-1)).toEqual({ done: 409 });
		expect(await cardIds(s)).toEqual(['8201']);
		// The inspector keeps the request whose response never left, marked, with nothing sent back.
		const lost = s.messages.list({}).find((e) => e.fault !== undefined)!;
		expect(lost).toMatchObject({
			orderId: '8201',
			ok: true,
			reply: '',
			result: '201 taken, then the response was lost (fault f1)',
			fault: 'http-response-lost (f1)'
		});
		const [client] = (await s.faultReport()).clients;
		expect(client.findings.map((f) => f.rule)).toEqual(['KDS-FAULT-RESENT-SAME-ID']);
		// The re-send's 409 is the expected answer, not a refusal.
		const retry = s.messages.list({}).find((e) => e.result.startsWith('409'))!;
		expect(retry).toMatchObject({ ok: false, expected: 'http-response-lost (f1)' });
		expect(retry.findings.filter((f) => f.severity !== 'info')).toEqual([]);
		expect(retry.findings.map((f) => f.code)).toContain('KDS-FAULT-RETRY-EXPECTED');
		expect(s.messages.list({ result: 'refused' })).toEqual([]);
	});

	it.each([
		['http-drop', { kind: 'http-drop', route: 'create', count: 1 }],
		['503', { kind: 'http-status', status: 503, route: 'create', count: 1 }]
	] as const)('%s, never re-sent: the order is lost for good, an error', async (_name, fault) => {
		const s = await start();
		await s.addFault(fault);
		// A POS that sends once and gives up.
		await s.sendHttp('create', order('8401').order).catch(() => undefined);
		expect(await cardIds(s)).toEqual([]);
		const [client] = (await s.faultReport()).clients;
		expect(client).toMatchObject({ verdict: 'error' });
		expect(client.findings.map((f) => [f.rule, f.orderId])).toEqual([
			['KDS-FAULT-ORDER-LOST', '8401']
		]);
	});

	it('dropped: nothing taken; the retry makes the order. Delay: answered late, taken once', async () => {
		const s = await start();
		await s.addFault({ kind: 'http-drop', route: 'create', count: 1 });
		const out = await pythonHttp(s, '8301');
		expect(out[0]).toMatchObject({ attempt: 1, error: expect.any(String) });
		expect(out.at(-1)).toEqual({ done: 201 });
		expect(s.messages.list({}).map((e) => [e.orderId, e.ok, e.fault ?? null])).toEqual([
			['8301', true, null],
			['8301', false, 'http-drop (f1)']
		]);
		await s.addFault({ kind: 'http-delay', route: 'create', delayMs: 300, count: 1 });
		expect((await pythonHttp(s, '8302')).at(-1)).toEqual({ done: 201 });
		expect((await cardIds(s)).sort()).toEqual(['8301', '8302']);
	});

	it('faults compose through the admin API: 400 ms late, then 503; nothing taken', async () => {
		const s = await start();
		await s.addFaults([
			{ kind: 'http-delay', delayMs: 400, route: 'create', count: 1 },
			{ kind: 'http-status', status: 503, retryAfter: 1, route: 'create', count: 1 }
		]);
		const started = Date.now();
		const answer = await s.sendHttp('create', order('8501').order);
		expect(Date.now() - started).toBeGreaterThanOrEqual(350);
		expect(answer.status).toBe(503);
		expect(await cardIds(s)).toEqual([]);
		expect(s.messages.list({})[0]).toMatchObject({
			orderId: '8501',
			fault: 'http-delay (f1), then http-status (f2)'
		});
		// Spent together: the next one goes through at once.
		expect((await s.sendHttp('create', order('8501').order)).status).toBe(201);
	});

	it('per route: information and notifications answer the status, the order routes go on', async () => {
		const s = await start();
		await s.addFaults([
			{ kind: 'http-status', status: 504, route: 'information' },
			{ kind: 'http-status', status: 502, route: 'notifications', location: 'loc-1' }
		]);
		const info = await fetch(`${s.httpUrl}/integrators/kds-information/locations`, {
			headers: { 'x-integration-token': s.token }
		});
		expect(info.status).toBe(504);
		expect(await info.json()).toMatchObject({ code: 'GATEWAY_TIMEOUT' });
		expect((await s.sendHttp('create', order('8501').order)).status).toBe(201);
		const arrived = await s.sendHttp('customer-arrived', { orderId: '8501' });
		expect(arrived.status).toBe(502);
		expect((await s.listFaults()).map((f) => f.fired)).toEqual([1, 1]);
	});

	it('a fault for one screen does not touch orders for another', async () => {
		const s = await start();
		await s.addFault({ kind: 'http-status', status: 500, screen: 'kds-1' });
		expect((await s.sendHttp('create', order('8401').order, { devices: 'kds-2' })).status).toBe(
			201
		);
		expect((await s.sendHttp('create', order('8402').order, { devices: 'kds-1' })).status).toBe(
			500
		);
		expect(await cardIds(s, 'kds-1')).toEqual([]);
	});
});

describe('profiles: the config file and the command line', () => {
	it('the config’s own profile and a built-in one on the command line are on from the start', async () => {
		sim = await startSimulator({
			uiDir: null,
			config: {
				...DEFAULT_CONFIG,
				faults: {
					profiles: { 'lunch-rush': [{ kind: 'slow-reply', screen: 'kds-1', delayMs: 50 }] },
					on: ['lunch-rush']
				}
			},
			faultProfiles: readSettings(['--faults', 'wifi-down@kds-2'], {}).faultProfiles
		});
		const listed = FaultListSchema.parse(
			await (await fetch(`${sim.httpUrl}/api/admin/faults`)).json()
		).faults;
		expect(listed.map((f) => [f.kind, f.screen])).toEqual([
			['slow-reply', 'kds-1'],
			['down', 'kds-2'],
			['cloud-offline', 'kds-2']
		]);
		expect(await sim.sendTcp('kds-1', order('9001'))).toBe('9001');
		await expect(sim.sendTcp('kds-2', order('9002'))).rejects.toThrow(/ECONNRESET|EPIPE/);
	});

	it('the config’s own profile works through the admin API too, as written or on a named screen', async () => {
		sim = await startSimulator({
			uiDir: null,
			config: {
				...DEFAULT_CONFIG,
				faults: {
					profiles: { 'lunch-rush': [{ kind: 'slow-reply', screen: 'kds-1', delayMs: 50 }] }
				}
			}
		});
		const added = await post(sim, '/api/admin/faults', { profile: 'lunch-rush' });
		expect(added.status).toBe(201);
		expect(
			(added.body.added as Array<{ kind: string; screen: string }>).map((f) => [f.kind, f.screen])
		).toEqual([['slow-reply', 'kds-1']]);
		const moved = await post(sim, '/api/admin/faults', { profile: 'lunch-rush', screen: 'kds-2' });
		expect((moved.body.added as Array<{ screen: string }>).map((f) => f.screen)).toEqual(['kds-2']);
		const bad = await post(sim, '/api/admin/faults', { profile: 'dinner-rush', screen: 'kds-1' });
		expect(bad.status).toBe(422);
		expect(bad.body.errors).toEqual([
			{
				path: 'profile',
				message:
					'expected one of lunch-rush, flaky-wifi, wifi-down, cloud-trouble, got "dinner-rush"'
			}
		]);
		expect((await sim.listFaults()).length).toBe(2);
	});

	it('faults compose: a config profile "300 ms late, then the reply lost" on TCP', async () => {
		sim = await startSimulator({
			uiDir: null,
			config: {
				...DEFAULT_CONFIG,
				faults: {
					profiles: {
						'bad-wifi': [
							{ kind: 'slow-reply', screen: 'kds-1', delayMs: 300, count: 1 },
							{ kind: 'lost-reply', screen: 'kds-1', count: 1 }
						]
					},
					on: ['bad-wifi']
				}
			}
		});
		const started = Date.now();
		expect(await sim.sendTcp('kds-1', order('9101'))).toBe('');
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(await cardIds(sim)).toEqual(['9101']);
		expect(sim.messages.list({})[0]).toMatchObject({
			orderId: '9101',
			fault: 'slow-reply (f1), then lost-reply (f2)'
		});
		expect((await sim.listFaults()).map((f) => [f.kind, f.fired])).toEqual([
			['slow-reply', 1],
			['lost-reply', 1]
		]);
		const [client] = (await sim.faultReport()).clients;
		expect(client.touched).toEqual({ 'slow-reply': 1, 'lost-reply': 1 });
	});

	it('an unknown profile stops the start with the profiles there are; a bad --faults is refused', async () => {
		await expect(startSimulator({ uiDir: null, faultProfiles: ['gremlins'] })).rejects.toThrow(
			'Unknown fault profile "gremlins" (profiles: flaky-wifi, wifi-down, cloud-trouble)'
		);
		await expect(
			startSimulator({
				uiDir: null,
				config: {
					...DEFAULT_CONFIG,
					faults: { profiles: { x: [{ kind: 'lost-reply', count: 0 }] } }
				}
			})
		).rejects.toThrow(
			'Invalid config: faults.profiles.x[0].screen: required (a string); faults.profiles.x[0].count: expected at least 1'
		);
		expect(() => readSettings(['--faults', 'flaky wifi'], {})).toThrow(
			/Invalid value for --faults \(KDS_FAULTS\): "flaky wifi"/
		);
		expect(readSettings([], { KDS_FAULTS: 'flaky-wifi,cloud-trouble' }).faultProfiles).toEqual([
			'flaky-wifi',
			'cloud-trouble'
		]);
	});

	it('the OpenAPI document lists the fault routes under their own tag; the report is its schema', async () => {
		const s = await start();
		const doc = (await (await fetch(`${s.httpUrl}/openapi.json`)).json()) as {
			paths: Record<string, Record<string, { tags: string[] }>>;
		};
		const faultOps = Object.entries(doc.paths).flatMap(([path, item]) =>
			Object.entries(item)
				.filter(([, op]) => op.tags[0] === 'Faults')
				.map(([method]) => `${method.toUpperCase()} ${path}`)
		);
		expect(faultOps.sort()).toEqual([
			'DELETE /api/admin/faults/{id}',
			'GET /api/admin/faults',
			'GET /api/admin/faults/report',
			'GET /api/faults',
			'POST /api/admin/faults',
			'POST /api/admin/faults/reset'
		]);
		await s.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		await s.sendTcp('kds-1', order('9101'));
		const report = ResilienceReportSchema.parse(
			await (await fetch(`${s.httpUrl}/api/admin/faults/report`)).json()
		);
		expect(report.clients[0].findings[0].rule).toBe('KDS-FAULT-NEVER-RESENT');
	});
});

describe('a screen offline from the cloud', () => {
	it('fail mode: API orders to it are not delivered, TCP still reaches it, and Device Updated says offline then online', async () => {
		const hooks = await startReceiver();
		try {
			const config = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG & {
				brands: Array<{ webhooks?: object[] }>;
			};
			config.brands[0].webhooks = [{ url: hooks.url, triggers: ['Device Updated'] }];
			const s = (sim = await startSimulator({ uiDir: null, config }));
			// A browser shows the screen: it is online.
			const ws = new WebSocket(`${s.httpUrl.replace('http', 'ws')}/ws?screen=kds-1`);
			await new Promise((resolve) => ws.addEventListener('message', resolve, { once: true }));
			await hooks.waitFor(1);
			const fault = await s.addFault({ kind: 'cloud-offline', screen: 'kds-1' });
			await hooks.waitFor(2);

			const alone = await s.sendHttp('create', order('9501').order, { devices: 'kds-1' });
			expect(alone.status).toBe(502);
			expect(alone.body).toMatchObject({
				code: 'NOT_DELIVERED',
				deliveryStatuses: [{ device: 'kds-1', status: 'UNREACHABLE' }]
			});
			const both = await s.sendHttp('create', order('9502').order, { devices: 'kds-1,kds-2' });
			expect(both.status).toBe(201);
			expect((both.body as { deliveryStatuses: unknown[] }).deliveryStatuses).toEqual([
				expect.objectContaining({ device: 'kds-1', status: 'UNREACHABLE' }),
				{ device: 'kds-2', status: 'SUCCESS', type: 'android' }
			]);
			expect(await s.sendTcp('kds-1', order('9503'))).toBe('9503');
			expect(await cardIds(s, 'kds-1')).toEqual(['9503']);
			expect(await cardIds(s, 'kds-2')).toEqual(['9502']);

			await s.removeFault(fault.id);
			await hooks.waitFor(3);
			expect(hooks.received.map((r) => r.body.data.isOnline)).toEqual([true, false, true]);
			ws.close();
		} finally {
			await hooks.close();
		}
	});

	it('queue mode: accepted as QUEUED, shown when it is back online, in the order sent', async () => {
		const s = await start();
		const fault = await s.addFault({ kind: 'cloud-offline', screen: 'kds-1', mode: 'queue' });
		const created = await s.sendHttp('create', order('9601').order, { devices: 'kds-1' });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			deliveryStatuses: [{ device: 'kds-1', status: 'QUEUED' }]
		});
		// An update to it waits too, behind the create.
		const partial = await s.sendHttp(
			'partial',
			{ id: '9601', priority: true },
			{ devices: 'kds-1' }
		);
		expect(partial).toMatchObject({
			status: 200,
			body: { deliveryStatuses: [{ status: 'QUEUED' }] }
		});
		expect(await cardIds(s)).toEqual([]);
		await s.removeFault(fault.id);
		await s.engine.settled();
		const json = await s.screenJson('kds-1');
		expect(json.cards.map((c) => [c.id, c.title, c.priority])).toEqual([['9601', 'Ana 🌮', true]]);
	});
});
