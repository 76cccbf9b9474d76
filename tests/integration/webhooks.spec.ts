/**
 * The vendor's webhooks as an integrator's receiver sees them (docs/webhooks.md): a real node:http
 * receiver on loopback gets KDS Order Created once per order at a location, KDS Order Bumped once
 * per screen per bump, Device Updated when a browser opens a screen, every field with the vendor's
 * spellings; retries on the endpoint's schedule against a receiver that fails, hangs or refuses;
 * the delivery log, re-send, and run-time endpoints through the admin API.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningAgent } from '../../agent/app.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { orderHash } from '../../agent/notify/webhooks.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function configWith(webhooks: object[]) {
	const config = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG & {
		brands: Array<{ webhooks?: object[] }>;
	};
	config.brands[0].webhooks = webhooks;
	return config;
}

const receivers: Receiver[] = [];
const agents: RunningAgent[] = [];
async function receiver(): Promise<Receiver> {
	const r = await startReceiver();
	receivers.push(r);
	return r;
}
async function agentWith(webhooks: object[], timeoutMs?: number): Promise<RunningAgent> {
	const agent = await startTestAgent({ config: configWith(webhooks), webhookTimeoutMs: timeoutMs });
	agents.push(agent);
	return agent;
}
afterEach(async () => {
	await Promise.all(agents.splice(0).map((a) => a.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const headers = (agent: RunningAgent, devices = 'all') => ({
	'content-type': 'application/json',
	'x-integration-token': agent.token,
	'x-location-id': 'loc-1',
	'x-device-ids': devices
});

async function create(agent: RunningAgent, order: object, devices = 'all') {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: headers(agent, devices),
		body: JSON.stringify(order)
	});
	expect(res.status, await res.clone().text()).toBe(201);
	return res;
}

async function act(agent: RunningAgent, screen: string, action: string, orderId: string) {
	const res = await fetch(`${agent.httpUrl}/api/screens/${screen}/actions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action, orderId })
	});
	expect(res.status).toBe(200);
}

const ORDER = {
	id: 'A-1001',
	name: 'Maria',
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	terminal: 'Front 2',
	specialInstructions: 'Ring the bell',
	items: [
		{
			lineId: '1',
			name: 'Burger',
			qty: 2,
			mods: ['No onions', { name: 'Bacon', qty: 2 }],
			specialInstructions: 'Well done'
		},
		{ lineId: '2', name: 'Fries', qty: 1, mods: [] }
	]
};

/** Wait until nothing more arrives for a moment (so a count is final). */
const quiet = (ms = 400) => new Promise((r) => setTimeout(r, ms));

describe('KDS Order Created and KDS Order Bumped', () => {
	it('one Created per order however many screens; one Bumped per screen per bump; every field', async () => {
		const r = await receiver();
		const agent = await agentWith([
			{ url: r.url, triggers: ['KDS Order Created', 'KDS Order Bumped'] }
		]);
		await create(agent, ORDER); // fanned out to kds-1 and kds-2
		// The same id over TCP to a screen that already shows it is the same order: no second Created.
		await r.waitFor(1);
		await act(agent, 'kds-1', 'bump', 'A-1001');
		await act(agent, 'kds-2', 'bump', 'A-1001');
		await r.waitFor(3);
		// A recall and a second bump of kds-1 is a second bump of that screen.
		await act(agent, 'kds-1', 'recall', 'A-1001');
		await act(agent, 'kds-1', 'bump', 'A-1001');
		await r.waitFor(4);
		await quiet();
		const events = r.received.map((x) => x.body.triggeredAction);
		expect(events.filter((e) => e === 'KDS Order Created')).toHaveLength(1);
		expect(events.filter((e) => e === 'KDS Order Bumped')).toHaveLength(3);

		const created = r.received.find((x) => x.body.triggeredAction === 'KDS Order Created')!;
		expect(created.headers['content-type']).toBe('application/json');
		expect(created.headers['x-kds-event']).toBe('KDS Order Created');
		expect(created.headers['x-kds-attempt']).toBe('1');
		expect(created.headers['x-kds-delivery']).toMatch(UUID);
		const hash = orderHash('brand-1', 'loc-1', 'A-1001');
		const items = [
			{
				itemId: '1',
				quantity: 2,
				name: 'Burger',
				menuItemId: null,
				categoryIds: null,
				modifiers: [
					{ name: 'No onions', quantity: 1 },
					{ name: 'Bacon', quantity: 2 },
					{ name: 'Well done', quantity: 1 }
				]
			},
			{
				itemId: '2',
				quantity: 1,
				name: 'Fries',
				menuItemId: null,
				categoryIds: null,
				modifiers: []
			},
			{
				itemId: null,
				quantity: 1,
				name: 'Special Instructions',
				menuItemId: null,
				categoryIds: null,
				modifiers: [{ name: 'Ring the bell', quantity: 1 }]
			}
		];
		expect(created.body).toEqual({
			triggeredAction: 'KDS Order Created',
			brand: { id: 'brand-1', name: 'Demo Brand' },
			location: { id: 'loc-1', name: 'Demo Kitchen', number: '1' },
			data: {
				id: expect.stringMatching(UUID),
				source: 'internal',
				name: 'Maria',
				type: 'togo',
				terminal: 'Front 2',
				items,
				locationId: 'loc-1',
				orderId: hash,
				createdOn: expect.stringMatching(ISO),
				supplierOrderId: 'A-1001'
			}
		});

		const bumps = r.received.filter((x) => x.body.triggeredAction === 'KDS Order Bumped');
		expect(bumps.map((b) => b.body.device)).toEqual([
			{ id: 'kds-1', name: 'Grill' },
			{ id: 'kds-2', name: 'Expo' },
			{ id: 'kds-1', name: 'Grill' }
		]);
		const [first] = bumps;
		expect(first.body).toEqual({
			triggeredAction: 'KDS Order Bumped',
			brand: { id: 'brand-1', name: 'Demo Brand' },
			location: { id: 'loc-1', name: 'Demo Kitchen', number: '1' },
			device: { id: 'kds-1', name: 'Grill' },
			kdsOrder: {
				id: created.body.data.id,
				orderId: hash,
				name: 'Maria',
				type: 'togo',
				items,
				supplierOrderId: 'A-1001'
			},
			data: {
				id: expect.stringMatching(UUID),
				items,
				orderId: hash,
				deviceId: 'kds-1',
				startsOn: expect.stringMatching(ISO),
				endsOn: expect.stringMatching(ISO)
			}
		});
		expect(Date.parse(first.body.data.endsOn)).toBeGreaterThanOrEqual(
			Date.parse(first.body.data.startsOn)
		);
		// Each bump is its own record; the order record is the one Created named.
		expect(new Set(bumps.map((b) => b.body.data.id)).size).toBe(3);
		expect(new Set(bumps.map((b) => b.body.kdsOrder.id))).toEqual(new Set([created.body.data.id]));
	});

	it('the same id sent over TCP to each screen is one order: one Created; a type with a space is written together', async () => {
		const r = await receiver();
		const agent = await agentWith([{ url: r.url, triggers: ['KDS Order Created'] }]);
		const tcpOrder = {
			command: 'create-order',
			order: { ...ORDER, id: 'T-7', mode: 'For Here', time: 1795338000000 }
		};
		for (const screen of agent.screens) {
			expect(await sendTcp(screen.tcp.host, screen.tcp.port, tcpOrder)).toBe('T-7');
		}
		await r.waitFor(1);
		await quiet();
		expect(r.received).toHaveLength(1);
		expect(r.received[0].body.data).toMatchObject({ type: 'forhere', supplierOrderId: 'T-7' });
	});

	it('only the triggers and locations an endpoint asked for; a brand with none gets nothing', async () => {
		const created = await receiver();
		const elsewhere = await receiver();
		const agent = await agentWith([
			{ url: created.url, triggers: ['KDS Order Created'] },
			{ url: elsewhere.url, locations: ['loc-1'], triggers: ['Device Deleted'] }
		]);
		await create(agent, { ...ORDER, id: 'B-1' }, 'kds-1');
		await act(agent, 'kds-1', 'bump', 'B-1');
		await created.waitFor(1);
		await quiet();
		expect(created.received.map((x) => x.body.triggeredAction)).toEqual(['KDS Order Created']);
		expect(elsewhere.received).toEqual([]);
	});
});

describe('Device Updated', () => {
	it('a browser opening and closing a screen: online, then offline, with the device record', async () => {
		const r = await receiver();
		const agent = await agentWith([{ url: r.url, triggers: ['Device Updated'] }]);
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-2`);
		await new Promise((resolve, reject) => {
			ws.once('message', resolve);
			ws.once('error', reject);
		});
		await r.waitFor(1);
		ws.close();
		await r.waitFor(2);
		const [online, offline] = r.received.map((x) => x.body);
		expect(online.triggeredAction).toBe('Device Updated');
		expect(online.data).toMatchObject({
			deviceId: 'kds-2',
			friendlyName: 'Expo',
			type: 'android',
			version: '2.21.30',
			locationId: 'loc-1',
			isOnline: true,
			isDeleted: false,
			isBlacklisted: false
		});
		expect(Object.keys(online.data).sort()).toEqual(
			[
				'id',
				'type',
				'version',
				'locationId',
				'toolId',
				'friendlyName',
				'deviceId',
				'deviceName',
				'isBlacklisted',
				'isDeleted',
				'createdOn',
				'updatedOn',
				'updatedBy',
				'deviceOsVersion',
				'deviceSettings',
				'isOnline',
				'onlineUpdatedOn',
				'statusUpdated'
			].sort()
		);
		expect(Object.keys(online.data.deviceSettings).sort()).toEqual(
			['pos', 'display', 'orderTypes', 'takeOut', 'colors', 'orderFeatures', 'orderTracker'].sort()
		);
		expect(Object.keys(online.data.deviceSettings.orderTypes).sort()).toEqual(
			['forHere', 'driveThru', 'curbside', 'toGo', 'delivery', 'pickup'].sort()
		);
		expect(offline.data).toMatchObject({ deviceId: 'kds-2', isOnline: false });
	});
});

describe('Device Deleted', () => {
	it('a screen removed at run time: Device Deleted with its record, and nothing more from it', async () => {
		const r = await receiver();
		const agent = await agentWith([
			{ url: r.url, triggers: ['Device Deleted', 'Device Updated', 'KDS Order Created'] }
		]);
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-2`);
		await new Promise((resolve, reject) => {
			ws.once('message', resolve);
			ws.once('error', reject);
		});
		const closed = new Promise((resolve) => ws.once('close', resolve));
		await r.waitFor(1); // Device Updated: online
		const tcp = agent.screens.find((s) => s.id === 'kds-2')!.tcp;
		const res = await fetch(`${agent.httpUrl}/api/admin/screens/kds-2`, { method: 'DELETE' });
		expect([res.status, await res.json()]).toEqual([200, { removed: 'kds-2' }]);
		await r.waitFor(2);
		const deleted = r.received[1].body;
		expect(deleted).toMatchObject({
			triggeredAction: 'Device Deleted',
			brand: { id: 'brand-1', name: expect.any(String) },
			location: { id: 'loc-1', name: expect.any(String), number: expect.any(String) },
			data: {
				id: expect.stringMatching(UUID),
				deviceId: 'kds-2',
				friendlyName: 'Expo',
				type: 'android',
				locationId: 'loc-1',
				isDeleted: true,
				updatedOn: expect.stringMatching(ISO)
			}
		});
		expect(r.received[1].headers['x-kds-event']).toBe('Device Deleted');
		// Its browser is let go, and cannot come back; its TCP port is closed; the POS no longer
		// sees it; an order to it is refused; its browser leaving sends no Device Updated.
		await closed;
		const again = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-2`);
		const refused = await new Promise<string>((resolve) => {
			again.once('unexpected-response', (_req, response) => resolve(String(response.statusCode)));
			again.once('open', () => resolve('open'));
		});
		expect(refused).toBe('404');
		await expect(sendTcp(tcp.host, tcp.port, { command: 'create-order' })).rejects.toThrow();
		const info = await fetch(
			`${agent.httpUrl}/integrators/kds-information/locations/loc-1/devices`,
			{
				headers: headers(agent)
			}
		);
		expect(((await info.json()) as Array<{ id: string }>).map((d) => d.id)).toEqual(['kds-1']);
		const order = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: headers(agent, 'kds-2'),
			body: JSON.stringify({ ...ORDER, id: 'DEL-1' })
		});
		expect(order.status).toBeGreaterThanOrEqual(400);
		await quiet();
		expect(r.received.map((x) => x.body.triggeredAction)).toEqual([
			'Device Updated',
			'Device Deleted'
		]);
		// Removing it again: 404, and no second Device Deleted.
		const twice = await fetch(`${agent.httpUrl}/api/admin/screens/kds-2`, { method: 'DELETE' });
		expect(twice.status).toBe(404);
		await quiet();
		expect(r.received).toHaveLength(2);
	});
});

describe('delivery', () => {
	it('retries a receiver that fails on the endpoint schedule: 500, 503, then 200; the log shows each', async () => {
		const r = await receiver();
		r.answer((n) =>
			n === 1 ? { status: 500, body: 'boom' } : n === 2 ? { status: 503 } : { status: 204 }
		);
		const agent = await agentWith([
			{ url: r.url, triggers: ['KDS Order Created'], attempts: 3, secondsBetweenAttempts: 0.3 }
		]);
		const started = Date.now();
		await create(agent, { ...ORDER, id: 'R-1' }, 'kds-1');
		// The POS had its answer before the receiver's first failure was even retried.
		expect(Date.now() - started).toBeLessThan(2_000);
		const got = await r.waitFor(3);
		await quiet();
		expect(got).toHaveLength(3);
		expect(got.map((x) => x.headers['x-kds-attempt'])).toEqual(['1', '2', '3']);
		expect(new Set(got.map((x) => x.headers['x-kds-delivery'])).size).toBe(1);
		expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(250);
		const [delivery] = (await (
			await fetch(`${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`)
		).json()) as Array<{ status: string; attempts: number; log: object[]; order: string }>;
		expect(delivery).toMatchObject({
			event: 'KDS Order Created',
			order: 'R-1',
			status: 'delivered',
			attempts: 3,
			maxAttempts: 3,
			nextAt: null
		});
		expect(delivery.log).toEqual([
			{ attempt: 1, at: expect.stringMatching(ISO), status: 500, answer: 'boom', ok: false },
			{ attempt: 2, at: expect.stringMatching(ISO), status: 503, answer: '', ok: false },
			{ attempt: 3, at: expect.stringMatching(ISO), status: 204, answer: '', ok: true }
		]);
	});

	it('gives up after the attempts allowed; a re-send is a new delivery that can succeed', async () => {
		const r = await receiver();
		let failing = true;
		r.answer(() => (failing ? { status: 400, body: 'bad' } : { status: 200, body: 'thanks' }));
		const agent = await agentWith([
			{ url: r.url, triggers: ['KDS Order Created'], attempts: 2, secondsBetweenAttempts: 0.2 }
		]);
		await create(agent, { ...ORDER, id: 'G-1' }, 'kds-1');
		await r.waitFor(2);
		await quiet();
		expect(r.received).toHaveLength(2);
		const list = `${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`;
		const [failed] = await (await fetch(list)).json();
		expect(failed).toMatchObject({ status: 'failed', attempts: 2, nextAt: null });
		failing = false;
		const res = await fetch(`${agent.httpUrl}/api/admin/webhooks/deliveries/${failed.id}/resend`, {
			method: 'POST'
		});
		expect(res.status).toBe(201);
		const resent = await res.json();
		expect(resent).toMatchObject({ resendOf: failed.id, event: 'KDS Order Created', order: 'G-1' });
		await r.waitFor(3);
		expect(r.received[2].raw).toBe(r.received[0].raw);
		expect(r.received[2].headers['x-kds-delivery']).toBe(resent.id);
		await quiet();
		const now = await (await fetch(`${list}?status=delivered`)).json();
		expect(now).toEqual([expect.objectContaining({ id: resent.id, attempts: 1 })]);
		expect(now[0].log[0]).toMatchObject({ status: 200, answer: 'thanks', ok: true });
	});

	it('an endpoint that hangs: the attempt ends at the time-out and is retried; orders are answered meanwhile', async () => {
		const r = await receiver();
		r.answer((n) => (n === 1 ? 'hang' : { status: 200 }));
		const agent = await agentWith(
			[{ url: r.url, triggers: ['KDS Order Created'], secondsBetweenAttempts: 0.2 }],
			400
		);
		await create(agent, { ...ORDER, id: 'H-1' }, 'kds-1');
		await r.waitFor(1);
		// While the receiver hangs, the next order is answered at once.
		const started = Date.now();
		await create(agent, { ...ORDER, id: 'H-2' }, 'kds-1');
		expect(Date.now() - started).toBeLessThan(1_000);
		await r.waitFor(3);
		await quiet(600);
		const deliveries = await (
			await fetch(`${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries?order=H-1`)
		).json();
		expect(deliveries[0].status).toBe('delivered');
		expect(deliveries[0].log[0]).toMatchObject({
			attempt: 1,
			status: null,
			answer: 'no answer within 400 ms',
			ok: false
		});
	});

	it('a refused connection is retried and logged; the URL is redacted in listings', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const url = `http://user:pa55word@127.0.0.1:${port}/hooks/T0KEN-abcdefghijklmnopqrstuvwxyz?key=secret`;
		const agent = await agentWith([
			{ url, triggers: ['KDS Order Created'], attempts: 2, secondsBetweenAttempts: 0.1 }
		]);
		await create(agent, { ...ORDER, id: 'C-1' }, 'kds-1');
		const list = `${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`;
		let deliveries: Array<{ status: string; log: Array<{ answer: string; status: null }> }> = [];
		for (let i = 0; i < 100 && deliveries[0]?.status !== 'failed'; i++) {
			await quiet(50);
			deliveries = await (await fetch(list)).json();
		}
		expect(deliveries[0].status).toBe('failed');
		expect(deliveries[0].log.map((l) => [l.status, l.answer])).toEqual([
			[null, 'ECONNREFUSED'],
			[null, 'ECONNREFUSED']
		]);
		const endpoints = await (await fetch(`${agent.httpUrl}/api/admin/webhooks`)).json();
		expect(endpoints[0].url).toBe(`http://127.0.0.1:${port}/hooks/…`);
		expect(JSON.stringify(endpoints)).not.toMatch(/pa55word|secret|T0KEN/);
	});

	it('signs the body with the endpoint secret: x-kds-signature is the HMAC-SHA256 of the bytes sent', async () => {
		const r = await receiver();
		const agent = await agentWith([
			{ url: r.url, triggers: ['KDS Order Created'], secret: 'shh-its-a-secret' }
		]);
		await create(agent, { ...ORDER, id: 'S-1' }, 'kds-1');
		const [got] = await r.waitFor(1);
		const mac = createHmac('sha256', 'shh-its-a-secret').update(got.raw).digest('hex');
		expect(got.headers['x-kds-signature']).toBe(`sha256=${mac}`);
	});
});

describe('endpoints at run time (admin API)', () => {
	let agent: RunningAgent;
	let r: Receiver;
	beforeAll(async () => {
		agent = await startTestAgent();
		r = await startReceiver();
	});
	afterAll(async () => {
		await agent.close();
		await r.close();
	});

	it('added, listed, used, and removed; bad input answered 422 naming each field', async () => {
		const base = `${agent.httpUrl}/api/admin/webhooks`;
		expect(await (await fetch(base)).json()).toEqual([]);
		const bad = await fetch(base, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				url: 'ftp://x',
				triggers: ['KDS Order Cooked'],
				attempts: 0,
				locations: ['nowhere'],
				brand: 'brand-9'
			})
		});
		expect(bad.status).toBe(422);
		const why = await bad.json();
		expect(why.errors.map((e: { path: string }) => e.path).sort()).toEqual(
			['attempts', 'brand', 'triggers.0', 'url'].sort()
		);
		expect(why.message).toContain('triggers.0: expected one of KDS Order Created');

		const res = await fetch(base, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				url: r.url,
				triggers: ['KDS Order Created'],
				minutesBetweenAttempts: 1
			})
		});
		expect(res.status).toBe(201);
		const endpoint = await res.json();
		expect(endpoint).toMatchObject({
			brand: 'brand-1',
			url: r.url,
			triggers: ['KDS Order Created'],
			locations: [],
			attempts: 3,
			secondsBetweenAttempts: 60,
			signed: false,
			origin: 'runtime'
		});
		expect(await (await fetch(base)).json()).toEqual([endpoint]);
		await create(agent, { ...ORDER, id: 'RT-1' }, 'kds-1');
		await r.waitFor(1);
		const removed = await fetch(`${base}/${endpoint.id}`, { method: 'DELETE' });
		expect(await removed.json()).toEqual({ removed: endpoint.id });
		await create(agent, { ...ORDER, id: 'RT-2' }, 'kds-1');
		await quiet();
		expect(r.received.map((x) => x.body.data.supplierOrderId)).toEqual(['RT-1']);
		expect((await fetch(`${base}/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
		// The removed endpoint's log stays readable.
		const log = await (await fetch(`${base}/${endpoint.id}/deliveries`)).json();
		expect(log.map((d: { order: string }) => d.order)).toEqual(['RT-1']);
	});
});

describe('the self-working cook (docs/testing.md)', () => {
	it('create → bump by itself → KDS Order Bumped at the receiver → the "bumped" text, no browser', async () => {
		const r = await receiver();
		const config = configWith([
			{ url: r.url, triggers: ['KDS Order Created', 'KDS Order Bumped'] }
		]);
		const location = config.brands[0].locations[0] as unknown as Record<string, unknown>;
		location.autoBump = { afterSeconds: 0.5, jitterSeconds: 0 };
		const agent = await startTestAgent({ config });
		agents.push(agent);
		await create(agent, { ...ORDER, id: 'AC-1', phoneNumber: '+15555550123' }, 'kds-1');
		const [created, bumped] = await r.waitFor(2);
		expect([created.body.triggeredAction, bumped.body.triggeredAction]).toEqual([
			'KDS Order Created',
			'KDS Order Bumped'
		]);
		const { startsOn, endsOn } = bumped.body.data;
		expect(Date.parse(endsOn) - Date.parse(startsOn)).toBeGreaterThanOrEqual(500);
		const texts = await (await fetch(`${agent.httpUrl}/api/sms?order=AC-1`)).json();
		expect(texts.map((t: { kind: string }) => t.kind).sort()).toEqual(['bumped', 'received']);
	});
});
