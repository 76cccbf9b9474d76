/**
 * The Take Out view's "Ready for pickup" step (issue 25, field notes "What a screen shows", SMS),
 * agent side: a browser (a WebSocket client) taps Ready, every browser of every screen of the
 * location that shows the order is told, the "ready" text goes to the outbox and to the brand's
 * SMS webhook (a node:http receiver on loopback) when that trigger is on, once per order; the
 * mark survives a restart; an order not on the screen is refused with a message. The field notes
 * name no webhook event for this step, so no KDS webhook is expected (asserted below).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { Database } from '../../agent/store/sqlite.ts';
import { prepareNotificationTables } from '../../agent/store/notification-store.ts';
import type { NotificationState, ServerMessage, TakeoutStatus } from '#core/relay';
import type { SmsEntry } from '#core/sms';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

const T0 = Date.parse('2026-11-25T18:00:00Z');
const PHONE = '+15551234567';
type Json = Record<string, unknown>;

function config(sms: Json | undefined, webhooks?: Json[]) {
	const c = structuredClone(DEFAULT_CONFIG) as { brands: Json[] };
	if (sms) c.brands[0].sms = sms;
	if (webhooks) c.brands[0].webhooks = webhooks;
	return c;
}
const READY_ON = { enabled: true, triggers: { received: false, bumped: false, ready: true } };

let clock: ManualClock;
const running = new Set<RunningAgent>();
const sockets = new Set<WebSocket>();
const receivers = new Set<Receiver>();
const dirs: string[] = [];

async function start(options: AgentOptions = {}): Promise<RunningAgent> {
	const agent = await startTestAgent({ clock, config: config(READY_ON), ...options });
	running.add(agent);
	return agent;
}
async function stop(agent: RunningAgent) {
	running.delete(agent);
	await agent.close();
}
async function receiver() {
	const r = await startReceiver();
	receivers.add(r);
	return r;
}

beforeEach(() => {
	clock = new ManualClock(T0);
});
afterEach(async () => {
	for (const ws of sockets) ws.terminate();
	sockets.clear();
	for (const a of [...running]) await stop(a);
	for (const r of receivers) await r.close();
	receivers.clear();
});
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function createOrder(agent: RunningAgent, id: string, devices: string, over: Json = {}) {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: JSON.stringify({
			id,
			name: `Order ${id}`,
			time: new Date(T0).toISOString(),
			mode: 'Pickup',
			phoneNumber: PHONE,
			items: [{ lineId: '1', name: 'Burrito', qty: 1, mods: [] }],
			...over
		})
	});
	expect(res.status).toBe(201);
	await agent.engine.settled();
}

/** A browser showing a screen: every message it got, and what its Take Out view has. */
async function browser(agent: RunningAgent, screen: string) {
	const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=${screen}`);
	sockets.add(ws);
	const messages: ServerMessage[] = [];
	ws.on('message', (data) => messages.push(JSON.parse(String(data))));
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
	await expect.poll(() => messages.length).toBeGreaterThan(0);
	return {
		messages,
		takeout(): TakeoutStatus[] | undefined {
			for (let i = messages.length - 1; i >= 0; i--) {
				const m = messages[i];
				if (m.type === 'notifications') return m.takeout;
				if (m.type === 'snapshot') return m.notifications?.takeout;
			}
			return undefined;
		},
		errors: () => messages.filter((m) => m.type === 'error'),
		ready: (orderId: unknown) => ws.send(JSON.stringify({ type: 'takeout.ready', orderId }))
	};
}

async function outbox(agent: RunningAgent): Promise<SmsEntry[]> {
	const res = await fetch(`${agent.httpUrl}/api/sms`);
	expect(res.status).toBe(200);
	return (await res.json()) as SmsEntry[];
}

async function stateOf(agent: RunningAgent, screen: string): Promise<NotificationState> {
	const res = await fetch(`${agent.httpUrl}/api/screens/${screen}/notifications`);
	expect(res.status).toBe(200);
	return (await res.json()) as NotificationState;
}

describe('Ready for pickup', () => {
	it('a tap tells every browser of every screen showing the order, and sends one "ready" text', async () => {
		const sms = await receiver();
		const agent = await start({ config: config({ ...READY_ON, webhookUrl: sms.url }) });
		await createOrder(agent, 'P1', 'kds-1,kds-2');
		const [cook, other, expo] = await Promise.all([
			browser(agent, 'kds-1'),
			browser(agent, 'kds-1'),
			browser(agent, 'kds-2')
		]);
		expect(cook.takeout()).toEqual([]);
		clock.advance(90_000);
		cook.ready('P1');
		const ready = [{ orderId: 'P1', readyAt: T0 + 90_000 }];
		for (const b of [cook, other, expo]) await expect.poll(() => b.takeout()).toEqual(ready);
		// A second tap, here or on the other screen, changes nothing and sends no second text.
		clock.advance(5_000);
		cook.ready('P1');
		expo.ready('P1');
		await sms.waitFor(1);
		const texts = await outbox(agent);
		expect(texts).toMatchObject([
			{
				orderId: 'P1',
				screen: 'kds-1',
				kind: 'ready',
				to: PHONE,
				text: 'Your order is ready for pickup!',
				status: 'sent',
				createdAt: new Date(T0 + 90_000).toISOString()
			}
		]);
		expect(sms.received[0].body).toMatchObject({ orderId: 'P1', kind: 'ready', to: PHONE });
		expect((await stateOf(agent, 'kds-2')).takeout).toEqual(ready);
		expect(cook.errors()).toEqual([]);
		expect(sms.received).toHaveLength(1);
	});

	it('the brand text and the customerArrivedUrl; none with optInForSms false', async () => {
		const agent = await start({
			config: config({ ...READY_ON, ready: 'Come get it 🌯 — counter 3' })
		});
		await createOrder(agent, 'P2', 'kds-1', { customerArrivedUrl: 'https://x.test/here?o=P2' });
		await createOrder(agent, 'P3', 'kds-1', { optInForSms: false });
		const cook = await browser(agent, 'kds-1');
		cook.ready('P2');
		cook.ready('P3');
		await expect.poll(() => cook.takeout()?.length).toBe(2);
		expect((await outbox(agent)).map((t) => [t.orderId, t.text])).toEqual([
			['P2', 'Come get it 🌯 — counter 3 https://x.test/here?o=P2']
		]);
	});

	it('with the trigger off (the default) the order is marked ready and no text goes', async () => {
		const agent = await start({ config: config({ enabled: true }) });
		await createOrder(agent, 'P4', 'kds-1');
		const cook = await browser(agent, 'kds-1');
		cook.ready('P4');
		await expect.poll(() => cook.takeout()).toEqual([{ orderId: 'P4', readyAt: T0 }]);
		expect((await outbox(agent)).map((t) => t.kind)).toEqual(['received']);
	});

	it('no KDS webhook: the vendor names no event for this step', async () => {
		const hooks = await receiver();
		const agent = await start({
			config: config(READY_ON, [
				{
					url: hooks.url,
					triggers: ['KDS Order Created', 'KDS Order Bumped'],
					secondsBetweenAttempts: 1
				}
			])
		});
		await createOrder(agent, 'P5', 'kds-1');
		await hooks.waitFor(1);
		const cook = await browser(agent, 'kds-1');
		cook.ready('P5');
		await expect.poll(() => cook.takeout()).toEqual([{ orderId: 'P5', readyAt: T0 }]);
		await fetch(`${agent.httpUrl}/api/screens/kds-1/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'bump', orderId: 'P5' })
		});
		await hooks.waitFor(2);
		expect(hooks.received.map((r) => r.body.triggeredAction)).toEqual([
			'KDS Order Created',
			'KDS Order Bumped'
		]);
	});

	it('an order the screen does not show is refused with a message; bad messages name the field', async () => {
		const agent = await start();
		await createOrder(agent, 'P6', 'kds-2');
		const cook = await browser(agent, 'kds-1');
		cook.ready('P6');
		cook.ready(null);
		await expect.poll(() => cook.errors().length).toBe(2);
		expect(cook.errors()).toEqual([
			{
				type: 'error',
				code: 'ACTION_REFUSED',
				message: 'ready: order P6 is not on this screen'
			},
			{ type: 'error', code: 'BAD_MESSAGE', message: expect.stringContaining('orderId') }
		]);
		expect(await outbox(agent)).toEqual([]);
		expect((await stateOf(agent, 'kds-2')).takeout).toEqual([]);
	});

	it('over HTTP without a browser (CI): the same mark and text', async () => {
		const agent = await start();
		await createOrder(agent, 'P7', 'kds-1');
		const res = await fetch(`${agent.httpUrl}/api/screens/kds-1/orders/P7/ready`, {
			method: 'POST'
		});
		expect([res.status, await res.json()]).toEqual([200, { ok: true }]);
		expect((await stateOf(agent, 'kds-1')).takeout).toEqual([{ orderId: 'P7', readyAt: T0 }]);
		expect((await outbox(agent)).map((t) => [t.orderId, t.kind])).toEqual([['P7', 'ready']]);
	});

	it('survives a restart; a bumped order is gone from the view, its id sent again starts afresh', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-ready-'));
		dirs.push(dataDir);
		const first = await start({ memory: false, dataDir });
		await createOrder(first, 'P8', 'kds-1');
		await createOrder(first, 'P9', 'kds-1');
		const cook = await browser(first, 'kds-1');
		cook.ready('P8');
		cook.ready('P9');
		await expect.poll(() => cook.takeout()?.length).toBe(2);
		await stop(first);

		clock.advance(60_000);
		const second = await start({ memory: false, dataDir });
		const again = await browser(second, 'kds-1');
		expect(again.takeout()).toEqual([
			{ orderId: 'P8', readyAt: T0 },
			{ orderId: 'P9', readyAt: T0 }
		]);
		expect(second.engine.runAction('kds-1', 'bump', 'P9')).toBe(true);
		await second.engine.settled();
		expect((await stateOf(second, 'kds-1')).takeout).toEqual([{ orderId: 'P8', readyAt: T0 }]);
		clock.advance(1_000);
		await createOrder(second, 'P9', 'kds-1');
		expect((await stateOf(second, 'kds-1')).takeout).toEqual([{ orderId: 'P8', readyAt: T0 }]);
		expect((await outbox(second)).map((t) => t.orderId)).toEqual(['P9', 'P8']);
	});
});

describe('the takeout table of an older database', () => {
	it('gets its ready_at column, its rows kept', () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-ready-old-'));
		dirs.push(dataDir);
		const db = new Database(join(dataDir, 'old.db'));
		db.exec(`CREATE TABLE takeout_status (
			screen_id TEXT NOT NULL, order_id TEXT NOT NULL, arrived_at INTEGER, eta_at INTEGER,
			updated_at INTEGER NOT NULL, PRIMARY KEY (screen_id, order_id)) WITHOUT ROWID`);
		db.prepare('INSERT INTO takeout_status VALUES (?, ?, ?, ?, ?)').run('kds-1', 'O1', 5, null, 5);
		const sql = prepareNotificationTables(db);
		expect(sql.takeoutOf.all('kds-1')).toEqual([
			{ order_id: 'O1', arrived_at: 5, eta_at: null, ready_at: null, updated_at: 5 }
		]);
		db.close();
	});
});
