/**
 * The inspector and the admin API: every message logged with its findings (never changing the
 * contract's reply), the JSON view of the screens, re-send, reset, retention, the live stream,
 * and the guard that keeps an integration token alone out.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import type { MessageEntry } from '../../agent/inspector/message-log.ts';
import WebSocket from 'ws';
import { sendTcp } from '../helpers/tcp.ts';

const sample = (name: string) =>
	readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), 'utf8');
const HEADERS = {
	'content-type': 'application/json',
	'x-integration-token': 'kds-demo-token',
	'x-location-id': 'loc-1',
	'x-device-ids': 'kds-1'
};

/** An agent in memory on ports the OS picks, no UI, no logs. */
const quietAgent = (options: AgentOptions = {}) => startTestAgent(options);

let agent: RunningAgent;
let tcp: { host: string; port: number };
beforeAll(async () => {
	agent = await quietAgent();
	tcp = agent.screens[0].tcp;
});
afterAll(() => agent.close());
beforeEach(async () => {
	const res = await fetch(`${agent.httpUrl}/api/admin/reset`, { method: 'POST' });
	expect(res.status).toBe(200);
});

const messages = async (query = ''): Promise<MessageEntry[]> =>
	(await fetch(`${agent.httpUrl}/api/admin/messages${query}`)).json() as Promise<MessageEntry[]>;

describe('message log and findings', () => {
	it('logs a TCP message with its findings; the reply is the contract one', async () => {
		expect(await sendTcp(tcp.host, tcp.port, sample('tcp-bare-legacy.json'))).toBe('1003\n');
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry).toMatchObject({
			interface: 'tcp',
			command: 'create-order',
			orderId: '1003',
			result: '1003',
			// The exact bytes: the sample ends with a newline, so the reply did too.
			reply: '1003\n',
			why: null,
			ok: true,
			screenIds: ['kds-1']
		});
		expect(entry.findings.map((f) => f.code).sort()).toEqual([
			'KDS-MODS-PLAIN-STRING',
			'KDS-TCP-BARE-ORDER',
			'KDS-TCP-TIME-STRING'
		]);
		expect(entry.raw).toContain('"Oat milk"');
	});

	it.each(['tcp', 'http'] as const)(
		'%s: a Python isoformat() time (local, microseconds) is taken, read in the location, and named',
		async (iface) => {
			const order = {
				...JSON.parse(sample('http-create-curbside.json')),
				time: '2026-11-24T02:00:59.729233',
				pickupTime: '2026-11-24T02:30:00-0600'
			};
			if (iface === 'tcp') {
				const message = { command: 'create-order', order };
				expect((await sendTcp(tcp.host, tcp.port, message)).trim()).toBe(order.id);
			} else {
				const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
					method: 'POST',
					headers: HEADERS,
					body: JSON.stringify(order)
				});
				expect(res.status).toBe(201);
			}
			const view = await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json();
			// The demo location is America/Chicago: 6 hours behind UTC in November.
			expect(view.cards[0].fields.time).toBe('2026-11-24T02:00:59.729-06:00');
			expect(view.cards[0].fields.pickupTime).toBe('2026-11-24T02:30:00-06:00');
			await expect.poll(async () => (await messages()).length).toBe(1);
			const [entry] = await messages();
			const at = iface === 'tcp' ? 'order.' : '';
			const time = entry.findings.filter((f) => f.code.startsWith('KDS-TIME'));
			expect(time.map((f) => [f.severity, f.code, f.path]).sort()).toEqual([
				['info', 'KDS-TIME-FRACTION', `${at}time`],
				['info', 'KDS-TIME-OFFSET-BASIC', `${at}pickupTime`],
				['warning', 'KDS-TIME-NO-OFFSET', `${at}time`]
			]);
			expect(time.find((f) => f.code === 'KDS-TIME-NO-OFFSET')?.message).toContain(
				'read as 2026-11-24T02:00:59.729-06:00 (America/Chicago)'
			);
		}
	);

	it('a duplicate lineId within one order is refused: HTTP 422 naming the field, TCP Unable to parse data', async () => {
		const order = JSON.parse(sample('http-create-curbside.json'));
		order.items = [order.items[0], { ...order.items[0], name: 'Second' }];
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: HEADERS,
			body: JSON.stringify(order)
		});
		expect(res.status).toBe(422);
		const body = (await res.json()) as { message: string };
		expect(body.message).toBe(
			`items[1].lineId: lineId ${JSON.stringify(order.items[0].lineId)} is also used by items[0]; lineIds must be unique within the order`
		);
		const message = { command: 'create-order', order };
		expect(await sendTcp(tcp.host, tcp.port, message)).toBe('Unable to parse data');
		await expect.poll(async () => (await messages()).length).toBe(2);
		for (const entry of await messages()) {
			const at = entry.interface === 'tcp' ? 'order.' : '';
			expect(entry.ok).toBe(false);
			expect(entry.findings).toContainEqual(
				expect.objectContaining({
					severity: 'error',
					code: 'KDS-LINEID-NOT-UNIQUE',
					path: `${at}items[1].lineId`
				})
			);
		}
		const view = await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json();
		expect(view.cards).toEqual([]);
	});

	it('logs a refused TCP message with the reason and its errors', async () => {
		const bad = {
			command: 'create-order',
			order: { id: 'B1', name: 'x', time: 1, mode: 'Dine In', items: [] }
		};
		expect(await sendTcp(tcp.host, tcp.port, bad)).toBe('Unable to parse data');
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry.ok).toBe(false);
		// The result and the reply are what the client got, byte for byte; why is kept apart.
		expect(entry.result).toBe('Unable to parse data');
		expect(entry.reply).toBe('Unable to parse data');
		expect(entry.why).toMatch(/^order\.mode: expected one of/);
		expect(entry.findings).toContainEqual(
			expect.objectContaining({ severity: 'error', code: 'KDS-MODE-INVALID', path: 'order.mode' })
		);
	});

	it('logs an HTTP request with its status, findings (unknown field) and body as sent', async () => {
		const body = { ...JSON.parse(sample('http-create-combo-groups.json')), tableColour: 'blue' };
		// Pretty-printed, as many POS send it: the log keeps the bytes, not a re-serialisation.
		const sent = JSON.stringify(body, null, 4);
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: HEADERS,
			body: sent
		});
		expect(res.status).toBe(201);
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry).toMatchObject({
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			orderId: 'W-2001',
			result: '201',
			ok: true,
			screenIds: ['kds-1']
		});
		expect(entry.findings).toContainEqual(
			expect.objectContaining({
				severity: 'warning',
				code: 'KDS-FIELD-UNKNOWN',
				path: 'tableColour'
			})
		);
		expect(entry.raw).toBe(sent);
	});

	it('names each HTTP request by its own connection, two requests on one connection alike', async () => {
		// One keep-alive connection sending twice, then another connection: each entry's source
		// is the address and port the client sent it from.
		const send = (id: string, via: Agent) =>
			new Promise<number>((resolve, reject) => {
				const req = request(`${agent.httpUrl}/integrators/kds-orders`, {
					method: 'POST',
					headers: HEADERS,
					agent: via
				});
				req.on('response', (res) => {
					const port = res.socket.localPort!;
					res.resume();
					res.on('end', () => resolve(port));
				});
				req.on('error', reject);
				req.end(JSON.stringify({ ...JSON.parse(sample('http-create-curbside.json')), id }));
			});
		const first = new Agent({ keepAlive: true, maxSockets: 1 });
		const second = new Agent({ keepAlive: true, maxSockets: 1 });
		const ports = [
			await send('SRC-1', first),
			await send('SRC-2', first),
			await send('SRC-3', second)
		];
		first.destroy();
		second.destroy();
		expect(ports[0]).toBe(ports[1]);
		expect(ports[2]).not.toBe(ports[0]);
		await expect.poll(async () => (await messages()).length).toBe(3);
		const sources = new Map((await messages()).map((e) => [e.orderId, e.source]));
		expect([sources.get('SRC-1'), sources.get('SRC-2'), sources.get('SRC-3')]).toEqual(
			ports.map((port) => `127.0.0.1:${port}`)
		);
	});

	it('logs a request refused for its content type with the body as sent', async () => {
		const sent = sample('http-create-curbside.json');
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: { ...HEADERS, 'content-type': 'text/plain' },
			body: sent
		});
		expect(res.status).toBe(415);
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry).toMatchObject({
			command: 'POST /integrators/kds-orders',
			result:
				'415 Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json',
			reply: JSON.stringify({
				code: 'UNSUPPORTED_MEDIA_TYPE',
				message:
					'Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json'
			}),
			why: 'Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json',
			ok: false,
			raw: sent,
			contentType: 'text/plain',
			// Read from the text: filtering by the order finds the refused attempt.
			orderId: 'C-3107'
		});
		const other = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: HEADERS,
			body: sample('http-create-combo-groups.json')
		});
		expect(other.status).toBe(201);
		await expect.poll(async () => (await messages()).length).toBe(2);
		expect((await messages('?order=C-3107')).map((e) => e.id)).toEqual([entry.id]);
		// Re-sent as it came: with its Content-Type, so refused the same way.
		const again = await fetch(`${agent.httpUrl}/api/admin/messages/${entry.id}/resend`, {
			method: 'POST'
		});
		expect(await again.json()).toEqual({
			result: `415 ${JSON.stringify({
				code: 'UNSUPPORTED_MEDIA_TYPE',
				message:
					'Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json'
			})}`
		});
	});

	it('filters by screen, order id and severity', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		await sendTcp(tcp.host, tcp.port, sample('tcp-bare-legacy.json'));
		await sendTcp(
			agent.screens[1].tcp.host,
			agent.screens[1].tcp.port,
			sample('tcp-create-minimal.json')
		);
		await expect.poll(async () => (await messages()).length).toBe(3);
		expect((await messages('?screen=kds-2')).map((e) => e.orderId)).toEqual(['1001']);
		expect((await messages('?order=1003')).map((e) => e.orderId)).toEqual(['1003']);
		expect((await messages('?severity=info')).map((e) => e.orderId)).toEqual(['1003']);
		expect(await messages('?severity=error')).toEqual([]);
	});

	it('re-sends a logged message as it came', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		const res = await fetch(`${agent.httpUrl}/api/admin/messages/${entry.id}/resend`, {
			method: 'POST'
		});
		expect(await res.json()).toEqual({ result: 'DUPLICATE_ORDER_ID' });
		const missing = await fetch(`${agent.httpUrl}/api/admin/messages/99999/resend`, {
			method: 'POST'
		});
		expect(missing.status).toBe(404);
	});

	it('re-sends an HTTP message with its brand headers; the log names the inspector as source', async () => {
		const body = sample('http-create-curbside.json');
		const first = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: HEADERS,
			body
		});
		expect(first.status).toBe(201);
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry.source).toMatch(/^127\.0\.0\.1:\d+$/);
		const res = await fetch(`${agent.httpUrl}/api/admin/messages/${entry.id}/resend`, {
			method: 'POST'
		});
		const { result } = (await res.json()) as { result: string };
		expect(result).toMatch(/^409 /);
		expect(JSON.parse(result.slice(4))).toMatchObject({
			code: 'DUPLICATE_ORDER_ID',
			message: 'Could not create resource. Id already exists'
		});
		await expect.poll(async () => (await messages()).length).toBe(2);
		const [again] = await messages();
		expect(again).toMatchObject({ source: 'inspector re-send', orderId: 'C-3107', ok: false });
		// Why: the core's reason, not the contract's words the body already carries.
		expect(again.reply).toBe(JSON.stringify(JSON.parse(again.reply!)));
		expect(JSON.parse(again.reply!)).toMatchObject({ code: 'DUPLICATE_ORDER_ID' });
		const error = again.findings.find((f) => f.severity === 'error');
		expect(again.why).toBe(error!.message);
	});

	it('logs why a well-formed message was refused apart from the reply the client got', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		// The sample ends with a newline, so the reply does too.
		expect(await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'))).toBe(
			'DUPLICATE_ORDER_ID\n'
		);
		await expect.poll(async () => (await messages()).length).toBe(2);
		const [duplicate] = await messages();
		expect(duplicate).toMatchObject({
			ok: false,
			result: 'DUPLICATE_ORDER_ID',
			reply: 'DUPLICATE_ORDER_ID\n'
		});
		// The core's error finding, in words the client never received.
		const error = duplicate.findings.find((f) => f.severity === 'error');
		expect(error).toBeDefined();
		expect(duplicate.why).toBe(error!.message);
	});

	it('sends an edited copy of a logged message, logged as an edit of it', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		const edited = JSON.parse(entry.raw);
		edited.order.id = 'E-1';
		const res = await fetch(`${agent.httpUrl}/api/admin/messages/${entry.id}/resend`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ payload: JSON.stringify(edited) })
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ result: 'E-1' });
		await expect.poll(async () => (await messages()).length).toBe(2);
		const [copy] = await messages();
		expect(copy).toMatchObject({
			orderId: 'E-1',
			result: 'E-1',
			source: `inspector edit of #${entry.id}`,
			editedFrom: entry.id,
			raw: JSON.stringify(edited)
		});
		expect(entry.editedFrom).toBeUndefined();

		// HTTP: the edit goes with the brand's headers, and the request log names it too.
		const body = sample('http-create-curbside.json');
		expect(
			(
				await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
					method: 'POST',
					headers: HEADERS,
					body
				})
			).status
		).toBe(201);
		await expect.poll(async () => (await messages()).length).toBe(3);
		const [http] = await messages();
		const changed = body.replace('"C-3107"', '"C-9"');
		const again = await fetch(`${agent.httpUrl}/api/admin/messages/${http.id}/resend`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ payload: changed })
		});
		expect(((await again.json()) as { result: string }).result).toMatch(/^201 /);
		await expect.poll(async () => (await messages()).length).toBe(4);
		expect((await messages())[0]).toMatchObject({
			orderId: 'C-9',
			source: `inspector edit of #${http.id}`,
			editedFrom: http.id,
			raw: changed
		});

		// A payload that is not a string is refused, naming the field.
		const bad = await fetch(`${agent.httpUrl}/api/admin/messages/${entry.id}/resend`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ payload: { order: {} } })
		});
		expect(bad.status).toBe(400);
		expect((await bad.json()).message).toMatch(/^payload: expected/);
	});

	it('ignores the edit header on requests from the network', async () => {
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: { ...HEADERS, 'x-kds-inspector-edit': '7' },
			body: sample('http-create-curbside.json')
		});
		expect(res.status).toBe(201);
		await expect.poll(async () => (await messages()).length).toBe(1);
		const [entry] = await messages();
		expect(entry.source).toMatch(/^127\.0\.0\.1:\d+$/);
		expect(entry.editedFrom).toBeUndefined();
	});

	it('refuses a list query it cannot read, naming each parameter (422, as a body)', async () => {
		const limit = await fetch(`${agent.httpUrl}/api/admin/messages?limit=abc`);
		expect(limit.status).toBe(422);
		expect(await limit.json()).toEqual({
			code: 'VALIDATION_FAILED',
			message: 'limit: expected a whole number from 1 to 999999, got "abc"',
			errors: [{ path: 'limit', message: 'expected a whole number from 1 to 999999, got "abc"' }]
		});
		const both = await fetch(`${agent.httpUrl}/api/admin/messages?severity=fatal&limit=0`);
		expect(both.status).toBe(422);
		expect(await both.json()).toMatchObject({
			message:
				'severity: expected error, warning or info, got "fatal"; limit: expected a whole number from 1 to 999999, got "0"',
			errors: [{ path: 'severity' }, { path: 'limit' }]
		});
		const twice = await fetch(`${agent.httpUrl}/api/admin/messages?screen=kds-1&screen=kds-2`);
		expect((await twice.json()).message).toBe('screen: expected a string, got an array');
		const fine = await fetch(`${agent.httpUrl}/api/admin/messages?severity=info&limit=999999`);
		expect(fine.status).toBe(200);
	});

	it('streams new entries as server-sent events', async () => {
		const received = new Promise<MessageEntry>((resolve, reject) => {
			const req = request(`${agent.httpUrl}/api/admin/messages/stream`, (res) => {
				expect(res.headers['content-type']).toBe('text/event-stream');
				let buffer = '';
				res.on('data', (chunk) => {
					buffer += chunk;
					// The first entry event (a connection opens with a `ready` event, then entries).
					const match = /(?:^|\n\n)id: \d+\ndata: (.*)\n\n/.exec(buffer);
					if (match) {
						resolve(JSON.parse(match[1]));
						req.destroy();
					}
				});
			});
			req.on('error', reject);
			req.end();
		});
		await new Promise((r) => setTimeout(r, 100));
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		expect(await received).toMatchObject({ orderId: '1001', result: '1001' });
	});
});

describe('JSON view of the screens', () => {
	it('shows the cards in display order with items flagged, groups, courses and the recall list', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-iso-time.json'));
		await sendTcp(tcp.host, tcp.port, sample('tcp-update-full.json'));
		await sendTcp(tcp.host, tcp.port, sample('tcp-update-partial.json'));
		await sendTcp(tcp.host, tcp.port, sample('tcp-bare-legacy.json'));
		agent.engine.runAction('kds-1', 'bump', '1003');
		await agent.engine.settled();
		const view = await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json();
		expect(
			view.cards.map((c: { position: number; title: string }) => [c.position, c.title])
		).toEqual([
			[1, 'Table 12 #88'],
			[2, 'Maria']
		]);
		const [table12, maria] = view.cards;
		expect(table12.priority).toBe(true);
		const labels = table12.sections.map((s: { label: string }) => s.label);
		expect(labels).toEqual(['Items', 'Course 1 — cooking', 'Course 2', 'Course 3']);
		const tiramisu = table12.sections[3].entries[0].item;
		expect(tiramisu).toMatchObject({ name: 'Tiramisu', deleted: true });
		const water = table12.sections[0].entries[0].item;
		expect(water).toMatchObject({ name: 'Sparkling Water', highlighted: 'added' });
		expect(
			maria.sections[0].entries.map(
				(e: { item: { label: string; highlighted: string | null } }) => [
					e.item.label,
					e.item.highlighted
				]
			)
		).toEqual([
			['2 × Cheeseburger (No pickles)', 'updated'],
			['1 × Onion Rings', 'added']
		]);
		expect(view.recall).toEqual([expect.objectContaining({ id: '1003', title: 'Walk-in' })]);
		const all = await (await fetch(`${agent.httpUrl}/api/admin/screens`)).json();
		expect(all.map((s: { id: string }) => s.id)).toEqual(['kds-1', 'kds-2']);
	});

	it('resets one screen, or everything', async () => {
		await sendTcp(tcp.host, tcp.port, sample('tcp-create-minimal.json'));
		await sendTcp(
			agent.screens[1].tcp.host,
			agent.screens[1].tcp.port,
			sample('tcp-create-minimal.json')
		);
		await fetch(`${agent.httpUrl}/api/admin/reset`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ screen: 'kds-1' })
		});
		expect(agent.engine.queue('kds-1')).toEqual([]);
		expect(agent.engine.queue('kds-2').map((r) => r.context.id)).toEqual(['1001']);
		const unknown = await fetch(`${agent.httpUrl}/api/admin/reset`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ screen: 'nope' })
		});
		expect(unknown.status).toBe(404);
		await fetch(`${agent.httpUrl}/api/admin/reset`, { method: 'POST' });
		expect(agent.engine.queue('kds-2')).toEqual([]);
		expect(await messages()).toEqual([]);
	});
});

describe('JSON view: takeout, pop-ups, texts and findings', () => {
	it("shows what the takeout view and pop-ups show, the texts sent and each card's findings", async () => {
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-1`);
		await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
		await expect.poll(() => agent.relay.connected('kds-1')).toBe(1);
		try {
			const post = (path: string, body: object) =>
				fetch(`${agent.httpUrl}${path}`, {
					method: 'POST',
					headers: HEADERS,
					body: JSON.stringify(body)
				});
			const curbside = JSON.parse(sample('http-create-curbside.json'));
			expect((await post('/integrators/kds-orders', curbside)).status).toBe(201);
			// A drive-thru order with an ETA, and a to-go order with neither: last.
			const eta = { ...curbside, id: 'D-1', name: 'Robin', mode: 'DriveThru', optInForSms: false };
			expect((await post('/integrators/kds-orders', eta)).status).toBe(201);
			expect(await sendTcp(tcp.host, tcp.port, sample('tcp-bare-legacy.json'))).toBe('1003\n');
			const notify = (kind: string, body: object) =>
				post(`/integrators/kds-notifications/${kind}`, body);
			expect((await notify('customer-arrived', { id: 'C-3107' })).status).toBe(200);
			expect((await notify('estimated-arrival-update', { id: 'D-1', minutes: 6 })).status).toBe(
				200
			);
			expect((await notify('send-message', { message: '86 the salmon' })).status).toBe(200);

			const view = await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json();
			expect(
				view.takeout.map((t: { id: string; arrived: boolean; vehicle: string | null }) => [
					t.id,
					t.arrived,
					t.vehicle
				])
			).toEqual([
				['C-3107', true, 'Silver Toyota Prius'],
				['D-1', false, 'Silver Toyota Prius'],
				['1003', false, null]
			]);
			expect(view.takeout[1].etaInMs).toBe(view.takeout[1].etaAt - view.now);
			expect(view.takeout[1].etaInMs).toBeGreaterThan(5 * 60_000);
			expect(view.popups).toEqual([
				{ id: expect.any(String), message: '86 the salmon', at: expect.any(Number) }
			]);
			expect(
				view.sms.map((t: { orderId: string; kind: string; text: string }) => [
					t.orderId,
					t.kind,
					t.text
				])
			).toEqual([
				['C-3107', 'received', 'We have received your order! https://example.com/arrived/C-3107']
			]);
			const findings = (id: string) =>
				view.cards
					.find((c: { id: string }) => c.id === id)
					.findings.map((f: { code: string }) => f.code)
					.sort();
			expect(findings('1003')).toEqual([
				'KDS-MODS-PLAIN-STRING',
				'KDS-TCP-BARE-ORDER',
				'KDS-TCP-TIME-STRING'
			]);
			expect(findings('C-3107')).toEqual([]);
		} finally {
			ws.close();
		}
	});
});

describe('retention', () => {
	it('keeps the newest entries only, never touching the orders', async () => {
		const small = await quietAgent({ inspectorRetention: 3 });
		try {
			const { host, port } = small.screens[0].tcp;
			for (const id of ['a', 'b', 'c', 'd', 'e']) {
				await sendTcp(host, port, { order: { id, name: id, time: 1, mode: 'ToGo', items: [] } });
			}
			await new Promise((r) => setTimeout(r, 50));
			const list = (await (
				await fetch(`${small.httpUrl}/api/admin/messages`)
			).json()) as MessageEntry[];
			expect(list.map((e) => e.orderId)).toEqual(['e', 'd', 'c']);
			expect(small.engine.queue('kds-1')).toHaveLength(5);
		} finally {
			await small.close();
		}
	});
});

describe('admin guard', () => {
	it('refuses an integration token alone when the caller is not trusted, and takes the admin token', async () => {
		const guarded = await quietAgent({ trustLoopback: false, adminToken: 'admin-secret-1' });
		try {
			const url = `${guarded.httpUrl}/api/admin/screens`;
			const onlyIntegration = await fetch(url, {
				headers: { 'x-integration-token': 'kds-demo-token' }
			});
			expect(onlyIntegration.status).toBe(403);
			expect(await onlyIntegration.json()).toMatchObject({ code: 'ADMIN_ONLY' });
			const wrong = await fetch(url, { headers: { 'x-admin-token': 'nope' } });
			expect(wrong.status).toBe(403);
			expect(await wrong.json()).toMatchObject({ message: 'x-admin-token: not the admin token' });
			const right = await fetch(url, { headers: { 'x-admin-token': 'admin-secret-1' } });
			expect(right.status).toBe(200);
			const reset = await fetch(`${guarded.httpUrl}/api/admin/reset`, {
				method: 'POST',
				headers: { 'x-integration-token': 'kds-demo-token' }
			});
			expect(reset.status).toBe(403);
		} finally {
			await guarded.close();
		}
	});

	it('says so when an admin token is sent to a simulator that has none, even from loopback', async () => {
		const open = await quietAgent();
		try {
			const url = `${open.httpUrl}/api/admin/screens`;
			expect((await fetch(url)).status).toBe(200);
			const res = await fetch(url, { headers: { 'x-admin-token': 'admin-secret-3' } });
			expect(res.status).toBe(403);
			expect(await res.json()).toEqual({
				code: 'ADMIN_ONLY',
				message:
					'x-admin-token: this simulator has no admin token (start it with --admin-token or KDS_ADMIN_TOKEN); from the simulator host, leave the header out'
			});
		} finally {
			await open.close();
		}
	});

	it('every admin route refuses a missing admin token and an integration token alone; nothing changes', async () => {
		// trustLoopback: false makes this loopback caller count as any other host on the network.
		const guarded = await quietAgent({ trustLoopback: false, adminToken: 'admin-secret-2' });
		try {
			const { host, port } = guarded.screens[0].tcp;
			expect(await sendTcp(host, port, sample('tcp-create-minimal.json'))).toBe('1001\n');
			const integration = {
				'x-integration-token': 'kds-demo-token',
				'x-location-id': 'loc-1',
				'x-device-ids': 'all'
			};
			const routes: Array<[string, string, object?]> = [
				['GET', '/api/admin/screens'],
				['GET', '/api/admin/screens/kds-1'],
				['GET', '/api/admin/messages'],
				['GET', '/api/admin/messages?order=1001'],
				['GET', '/api/admin/messages/stream'],
				['GET', '/api/admin/messages/session'],
				['POST', '/api/admin/messages/1/resend'],
				['POST', '/api/admin/reset', {}],
				['POST', '/api/admin/reset', { screen: 'kds-1' }]
			];
			const callers: Array<[string, Record<string, string>, string]> = [
				['no token at all', {}, 'An integration token is not enough'],
				['the integration headers only', integration, 'An integration token is not enough'],
				[
					'an integration token sent as the admin token',
					{ 'x-admin-token': 'kds-demo-token' },
					'x-admin-token: not the admin token'
				],
				['an empty admin token', { 'x-admin-token': '' }, 'x-admin-token: not the admin token']
			];
			for (const [method, path, body] of routes) {
				for (const [who, headers, message] of callers) {
					const res = await fetch(`${guarded.httpUrl}${path}`, {
						method,
						headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
						body: body ? JSON.stringify(body) : undefined
					});
					const answer = (await res.json()) as { code: string; message: string };
					expect([method, path, who, res.status, answer.code]).toEqual([
						method,
						path,
						who,
						403,
						'ADMIN_ONLY'
					]);
					expect(answer.message).toContain(message);
				}
			}

			// Nothing was reset or re-sent; the admin token sees the order and the one message.
			const admin = { 'x-admin-token': 'admin-secret-2' };
			const view = await fetch(`${guarded.httpUrl}/api/admin/screens/kds-1`, { headers: admin });
			expect(view.status).toBe(200);
			expect(((await view.json()) as { cards: Array<{ id: string }> }).cards).toEqual([
				expect.objectContaining({ id: '1001', title: 'Maria' })
			]);
			const logged = async () => {
				const log = await fetch(`${guarded.httpUrl}/api/admin/messages`, { headers: admin });
				return ((await log.json()) as MessageEntry[]).map((e) => e.result);
			};
			await expect.poll(logged).toEqual(['1001']);

			// The integration token still works where it belongs.
			const active = await fetch(`${guarded.httpUrl}/integrators/kds-orders/active`, {
				headers: integration
			});
			expect(active.status).toBe(200);
			expect(((await active.json()) as Array<{ orderCount: number }>)[0].orderCount).toBe(1);
		} finally {
			await guarded.close();
		}
	});

	it('with no admin token configured, only loopback callers get in', async () => {
		const closed = await quietAgent({ trustLoopback: false });
		try {
			const res = await fetch(`${closed.httpUrl}/api/admin/messages`, {
				headers: { 'x-admin-token': 'anything' }
			});
			expect(res.status).toBe(403);
			const plain = await fetch(`${closed.httpUrl}/api/admin/messages`);
			expect(plain.status).toBe(403);
		} finally {
			await closed.close();
		}
	});
});

describe('the log on disk', () => {
	const inDataDir = (dataDir: string) =>
		startTestAgent({
			dataDir,
			inspectorRetention: 2
		});

	it('is there after a restart, bounded by the retention; a reset empties it for good', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-inspector-'));
		try {
			let running = await inDataDir(dataDir);
			let { host, port } = running.screens[0].tcp;
			for (const id of ['D-1', 'D-2', 'D-3']) {
				const order = { id, name: id, time: 1795338000000, mode: 'ToGo', items: [] };
				expect(await sendTcp(host, port, { command: 'create-order', order })).toBe(id);
			}
			await running.close();

			running = await inDataDir(dataDir);
			const listed = async () =>
				(
					(await (await fetch(`${running.httpUrl}/api/admin/messages`)).json()) as MessageEntry[]
				).map((e) => e.orderId);
			expect(await listed()).toEqual(['D-3', 'D-2']);
			({ host, port } = running.screens[0].tcp);
			expect(
				await sendTcp(host, port, {
					command: 'cancel-order',
					order: { id: 'D-3' }
				})
			).toBe('D-3');
			await expect.poll(listed).toEqual(['D-3', 'D-3']);
			expect((await fetch(`${running.httpUrl}/api/admin/reset`, { method: 'POST' })).status).toBe(
				200
			);
			await running.close();

			running = await inDataDir(dataDir);
			expect(await listed()).toEqual([]);
			await running.close();
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it('when its files cannot be written, every order is still committed and the log is kept in memory', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-inspector-'));
		try {
			// Directories where the log's files go: no write can succeed.
			mkdirSync(join(dataDir, 'inspector-1.jsonl'));
			mkdirSync(join(dataDir, 'inspector-2.jsonl'));
			const order = (id: string) => ({
				command: 'create-order',
				order: { id, name: id, time: 1795338000000, mode: 'ToGo', items: [] }
			});
			let running = await inDataDir(dataDir);
			try {
				const { host, port } = running.screens[0].tcp;
				expect(await sendTcp(host, port, order('M-1'))).toBe('M-1');
				expect(await sendTcp(host, port, order('M-2'))).toBe('M-2');
				await expect
					.poll(async () =>
						(
							(await (
								await fetch(`${running.httpUrl}/api/admin/messages`)
							).json()) as MessageEntry[]
						).map((e) => e.orderId)
					)
					.toEqual(['M-2', 'M-1']);
			} finally {
				await running.close();
			}
			running = await inDataDir(dataDir);
			try {
				const { host, port } = running.screens[0].tcp;
				expect(await sendTcp(host, port, order('M-1'))).toBe('DUPLICATE_ORDER_ID');
				expect(await sendTcp(host, port, order('M-2'))).toBe('DUPLICATE_ORDER_ID');
			} finally {
				await running.close();
			}
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it("moves an earlier version's log (messages.sqlite) into its files at the first start", async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-inspector-'));
		try {
			const legacy = join(dataDir, 'messages.sqlite');
			const db = new DatabaseSync(legacy);
			db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)');
			const put = db.prepare('INSERT INTO messages (id, entry) VALUES (?, ?)');
			for (const id of [1, 2, 3]) {
				const entry = {
					id,
					at: 1795338000000 + id,
					interface: 'tcp',
					source: '127.0.0.1:5000',
					screenIds: ['kds-1'],
					command: 'create-order',
					orderId: `L-${id}`,
					result: `L-${id}`,
					ok: true,
					raw: `{"command":"create-order","order":{"id":"L-${id}","name":"Zoë 🍔"}}`,
					findings: []
				};
				put.run(id, JSON.stringify(entry));
			}
			db.close();
			const listed = async (running: RunningAgent) =>
				(
					(await (await fetch(`${running.httpUrl}/api/admin/messages`)).json()) as MessageEntry[]
				).map((e) => [e.id, e.orderId, e.raw]);
			let running = await inDataDir(dataDir);
			try {
				// The retention (2) holds the newest two.
				expect(await listed(running)).toEqual([
					[3, 'L-3', '{"command":"create-order","order":{"id":"L-3","name":"Zoë 🍔"}}'],
					[2, 'L-2', '{"command":"create-order","order":{"id":"L-2","name":"Zoë 🍔"}}']
				]);
				expect(existsSync(legacy)).toBe(false);
			} finally {
				await running.close();
			}
			running = await inDataDir(dataDir);
			try {
				expect((await listed(running)).map(([id]) => id)).toEqual([3, 2]);
			} finally {
				await running.close();
			}
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
