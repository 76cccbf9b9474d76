/**
 * Holds (issue 5): a screen with "auto hold future orders" puts an order whose start time
 * (pickupTime − prepTimeDuration) is ahead in its holds list; there it counts for duplicates,
 * takes updates and cancels, and fires onto the end of the queue at its start time, or when fired
 * by hand. Courses on hold are fired from the screen. Driven over real TCP, HTTP and WebSocket,
 * with a ManualClock: no test waits for the time to come.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import type { ServerMessage } from '#core/relay';
import { sendTcp } from '../helpers/tcp.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-11-22T09:00:00Z');
/** Pickup at 12:30 with 45 minutes of prep: starts at 11:45, 2 h 45 min after T0. */
const PICKUP = '2026-11-22T12:30:00Z';
const START = Date.parse(PICKUP) - 45 * MIN;

/** The demo config, with auto hold on for kds-1 only. */
function holdConfig() {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	return config;
}

let agent: RunningAgent;
let clock: ManualClock;

async function start(options: AgentOptions = {}): Promise<RunningAgent> {
	return startTestAgent({
		config: holdConfig(),
		clock,
		...options
	});
}

beforeEach(async () => {
	clock = new ManualClock(T0);
	agent = await start();
});
afterEach(() => agent.close());

type Json = Record<string, unknown>;

const order = (id: string, over: Json = {}): Json => ({
	id,
	name: `Order ${id}`,
	time: new Date(T0).toISOString(),
	mode: 'Pickup',
	items: [{ lineId: '1', name: 'Sandwich Platter', qty: 3, mods: [] }],
	...over
});
const future = (id: string, over: Json = {}) =>
	order(id, { pickupTime: PICKUP, prepTimeDuration: 'PT45M', ...over });

function tcp(screenId: string, command: string, body: Json): Promise<string> {
	const screen = agent.screens.find((s) => s.id === screenId);
	if (!screen) throw new Error(`no screen ${screenId}`);
	return sendTcp(screen.tcp.host, screen.tcp.port, { command, order: body });
}

async function http(method: string, path: string, body?: unknown, devices = 'kds-1') {
	const res = await fetch(`${agent.httpUrl}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-integration-token': 'kds-demo-token',
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	return { status: res.status, body: (await res.json()) as Json };
}

const action = (screenId: string, body: Json) =>
	http('POST', `/api/screens/${screenId}/actions`, body);

function record(id: string, screenId = 'kds-1') {
	return agent.engine.screen(screenId)?.state.orders.get(id);
}
const queueIds = (screenId = 'kds-1') => agent.engine.queue(screenId).map((r) => r.context.id);
const scheduled = () => agent.holds.scheduled().map(({ orderId, at }) => [orderId, at]);

/** Move the clock and wait until what the timers did is committed. */
async function advanceTo(time: number): Promise<void> {
	clock.set(time);
	await agent.engine.settled();
}

describe('auto hold on create', () => {
	it('an order whose start is ahead goes to the holds list, not the queue', async () => {
		expect(await tcp('kds-1', 'create-order', future('F1'))).toBe('F1');
		expect(record('F1')?.state).toBe('held');
		expect(queueIds()).toEqual([]);
		expect(scheduled()).toEqual([['F1', START]]);
		const state = await fetch(`${agent.httpUrl}/api/screens/kds-1/state`).then((r) => r.json());
		expect(state.records).toEqual([expect.objectContaining({ state: 'held' })]);
		const active = await http('GET', '/integrators/kds-orders/active');
		expect(active.body).toEqual([expect.objectContaining({ deviceId: 'kds-1', orderCount: 0 })]);
	});

	it('over HTTP too: held on the auto-hold screen, queued on the other', async () => {
		const res = await http('POST', '/integrators/kds-orders', future('F2'), 'kds-1,kds-2');
		expect(res.status).toBe(201);
		expect(record('F2', 'kds-1')?.state).toBe('held');
		expect(record('F2', 'kds-2')?.state).toBe('active');
	});

	it.each([
		['auto hold is off on the screen', 'kds-2', future('N1')],
		['its start is past', 'kds-1', future('N1', { pickupTime: '2026-11-22T09:30:00Z' })],
		['its start is now', 'kds-1', future('N1', { pickupTime: '2026-11-22T09:45:00Z' })],
		['it has no prepTimeDuration', 'kds-1', order('N1', { pickupTime: PICKUP })],
		['it has no pickupTime', 'kds-1', order('N1', { prepTimeDuration: 'PT45M' })],
		['its prep time is in months', 'kds-1', future('N1', { prepTimeDuration: 'P1M' })]
	])('not held when %s', async (_label, screenId, body) => {
		expect(await tcp(screenId, 'create-order', body)).toBe('N1');
		expect(record('N1', screenId)?.state).toBe('active');
		expect(queueIds(screenId)).toEqual(['N1']);
		expect(scheduled()).toEqual([]);
	});

	it('an invalid prepTimeDuration is a field error', async () => {
		expect(await tcp('kds-1', 'create-order', future('X1', { prepTimeDuration: '45 min' }))).toBe(
			'Unable to parse data'
		);
		const res = await http(
			'POST',
			'/integrators/kds-orders',
			future('X1', { prepTimeDuration: 'PT' })
		);
		expect(res.status).toBe(422);
		expect(res.body.message).toMatch(/^prepTimeDuration: expected an ISO 8601 duration/);
	});
});

describe('a held order', () => {
	beforeEach(async () => {
		expect(await tcp('kds-1', 'create-order', future('H1'))).toBe('H1');
	});

	it('counts for duplicates: TCP DUPLICATE_ORDER_ID, HTTP 409 on any screen of the location', async () => {
		expect(await tcp('kds-1', 'create-order', future('H1'))).toBe('DUPLICATE_ORDER_ID');
		expect(await tcp('kds-1', 'create-order', order('H1'))).toBe('DUPLICATE_ORDER_ID');
		for (const devices of ['kds-1', 'kds-2']) {
			const res = await http('POST', '/integrators/kds-orders', order('H1'), devices);
			expect(res.status).toBe(409);
			expect(res.body.message).toBe('Could not create resource. Id already exists');
		}
		expect(record('H1')?.state).toBe('held');
		expect(record('H1', 'kds-2')).toBeUndefined();
	});

	it('takes full and partial updates and stays held, on the same release time', async () => {
		const items = [{ lineId: '2', name: 'Cookie Box', qty: 2, mods: [] }];
		expect(await tcp('kds-1', 'update-order', future('H1', { name: 'Acme', items }))).toBe('H1');
		const res = await http('PUT', '/integrators/kds-orders/partial', { id: 'H1', covers: 20 });
		expect(res.status).toBe(200);
		const held = record('H1');
		expect(held?.state).toBe('held');
		expect(held?.context.fields).toMatchObject({ name: 'Acme', covers: 20 });
		expect(held?.context.items.map((i) => [i.lineId, i.deleted ?? false])).toEqual([
			['1', true],
			['2', false]
		]);
		expect(scheduled()).toEqual([['H1', START]]);
	});

	it('an update that moves the pickup time moves the release', async () => {
		await http('PUT', '/integrators/kds-orders/partial', {
			id: 'H1',
			pickupTime: '2026-11-22T13:30:00Z'
		});
		expect(scheduled()).toEqual([['H1', START + 60 * MIN]]);
		await advanceTo(START);
		expect(record('H1')?.state).toBe('held');
		await advanceTo(START + 60 * MIN);
		expect(record('H1')?.state).toBe('active');
		expect(record('H1')?.context.queuedAt).toBe(START + 60 * MIN);
	});

	it('an update whose start is now past fires it at once', async () => {
		await http('PUT', '/integrators/kds-orders/partial', { id: 'H1', prepTimeDuration: 'PT4H' });
		await agent.engine.settled();
		expect(record('H1')?.state).toBe('active');
		expect(record('H1')?.context.queuedAt).toBe(T0);
		expect(scheduled()).toEqual([]);
	});

	it('a full update without pickupTime (no start time any more) fires it at once', async () => {
		expect(await tcp('kds-1', 'update-order', order('H1'))).toBe('H1');
		await agent.engine.settled();
		expect(record('H1')?.state).toBe('active');
		expect(scheduled()).toEqual([]);
	});

	it('cancelled: leaves the holds list for the screen, red, and is never released', async () => {
		const res = await http('PUT', '/integrators/kds-orders/cancel', { id: 'H1' });
		expect(res.status).toBe(200);
		expect(record('H1')?.state).toBe('cancelled');
		expect(queueIds()).toEqual(['H1']);
		expect(scheduled()).toEqual([]);
		await advanceTo(START + MIN);
		expect(record('H1')?.state).toBe('cancelled');
	});

	it('fires at its start time, to the end of the queue, its timer starting then', async () => {
		expect(await tcp('kds-1', 'create-order', order('A1'))).toBe('A1');
		await advanceTo(START - 1);
		expect(record('H1')?.state).toBe('held');
		// Created long after H1, but before its release: ahead of it in the queue.
		expect(await tcp('kds-1', 'create-order', order('A2'))).toBe('A2');
		await advanceTo(START + MIN);
		const fired = record('H1');
		expect(fired?.state).toBe('active');
		expect(fired?.context.queuedAt).toBe(START);
		expect(fired?.context.receivedAt).toBe(T0);
		expect(queueIds()).toEqual(['A1', 'A2', 'H1']);
		expect(scheduled()).toEqual([]);
	});

	it('fired by hand (simulator API): on the queue now, and its timer is cancelled', async () => {
		clock.advance(10 * MIN);
		const res = await action('kds-1', { action: 'fire', orderId: 'H1' });
		expect(res).toEqual({ status: 200, body: { ok: true } });
		await agent.engine.settled();
		expect(record('H1')?.state).toBe('active');
		expect(record('H1')?.context.queuedAt).toBe(T0 + 10 * MIN);
		expect(scheduled()).toEqual([]);
		await advanceTo(START + MIN);
		expect(record('H1')?.context.queuedAt).toBe(T0 + 10 * MIN);
		expect((await action('kds-1', { action: 'fire', orderId: 'H1' })).status).toBe(409);
	});

	it('fired by hand from a browser (WebSocket action): every browser sees it', async () => {
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-1`);
		const messages: ServerMessage[] = [];
		ws.on('message', (data) => messages.push(JSON.parse(String(data))));
		await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
		try {
			await expect.poll(() => messages.length).toBe(1);
			ws.send(JSON.stringify({ type: 'action', action: 'fire', orderId: 'H1' }));
			await expect.poll(() => record('H1')?.state).toBe('active');
			await expect
				.poll(() => messages.at(-1))
				.toMatchObject({
					type: 'change',
					change: { type: 'order.event', id: 'H1', event: { type: 'order.fired', at: T0 } }
				});
			expect(scheduled()).toEqual([]);
		} finally {
			ws.close();
		}
	});
});

describe('what the screen shows (admin JSON view over HTTP)', () => {
	interface View {
		cards: Array<{ position: number; id: string; title: string; state: string; elapsedMs: number }>;
		holds: Array<{ id: string; title: string; state: string }>;
	}
	const view = async (screenId = 'kds-1'): Promise<View> => {
		const res = await fetch(`${agent.httpUrl}/api/admin/screens/${screenId}`);
		expect(res.status).toBe(200);
		return (await res.json()) as View;
	};
	const cards = (v: View) => v.cards.map((c) => [c.position, c.title, c.elapsedMs]);
	const holds = (v: View) => v.holds.map((h) => [h.title, h.state]);

	it('held: in the holds list, not among the cards; at its start time, the last card, its timer at 0', async () => {
		expect((await http('POST', '/integrators/kds-orders', future('V1'))).status).toBe(201);
		expect(await tcp('kds-1', 'create-order', order('V2'))).toBe('V2');
		expect(cards(await view())).toEqual([[1, 'Order V2', 0]]);
		expect(holds(await view())).toEqual([['Order V1', 'held']]);

		await advanceTo(START - 1);
		expect(holds(await view())).toEqual([['Order V1', 'held']]);
		expect(await tcp('kds-1', 'create-order', order('V3'))).toBe('V3');

		await advanceTo(START);
		const fired = await view();
		expect(cards(fired)).toEqual([
			[1, 'Order V2', START - T0],
			[2, 'Order V3', 1],
			[3, 'Order V1', 0]
		]);
		expect(holds(fired)).toEqual([]);
		const active = await http('GET', '/integrators/kds-orders/active');
		expect(active.body).toEqual([
			expect.objectContaining({
				deviceId: 'kds-1',
				orderCount: 3,
				orders: ['V2', 'V3', 'V1'].map((id) => ({ orderId: id, orderName: `Order ${id}` }))
			})
		]);
	});

	it('held over HTTP: the same id is refused over TCP and HTTP, and the held order is unchanged', async () => {
		expect((await http('POST', '/integrators/kds-orders', future('V4'))).status).toBe(201);
		const again = order('V4', { name: 'Impostor' });
		expect(await tcp('kds-1', 'create-order', again)).toBe('DUPLICATE_ORDER_ID');
		for (const devices of ['kds-1', 'kds-2', 'all']) {
			const res = await http('POST', '/integrators/kds-orders', again, devices);
			expect([devices, res.status, res.body.message]).toEqual([
				devices,
				409,
				'Could not create resource. Id already exists'
			]);
		}
		expect(holds(await view())).toEqual([['Order V4', 'held']]);
		expect((await view()).cards).toEqual([]);
		expect((await view('kds-2')).cards).toEqual([]);
	});
});

describe('restart', () => {
	let dataDir: string;
	beforeEach(async () => {
		dataDir = await mkdtemp(join(tmpdir(), 'kds-holds-'));
	});
	afterEach(() => rm(dataDir, { recursive: true, force: true }));

	it('a held order survives a restart and is still released on time', async () => {
		await agent.close();
		agent = await start({ memory: false, dataDir });
		expect(await tcp('kds-1', 'create-order', future('R1'))).toBe('R1');
		await agent.close();

		clock = new ManualClock(T0 + 30 * MIN);
		agent = await start({ memory: false, dataDir });
		expect(record('R1')?.state).toBe('held');
		expect(scheduled()).toEqual([['R1', START]]);
		await advanceTo(START);
		expect(record('R1')?.state).toBe('active');
		expect(record('R1')?.context.queuedAt).toBe(START);
	});

	it('a release that fell due while the agent was down happens at start-up', async () => {
		await agent.close();
		agent = await start({ memory: false, dataDir });
		expect(await tcp('kds-1', 'create-order', future('R2'))).toBe('R2');
		await agent.close();

		clock = new ManualClock(START + 5 * MIN);
		agent = await start({ memory: false, dataDir });
		await agent.engine.settled();
		expect(record('R2')?.state).toBe('active');
		expect(queueIds()).toEqual(['R2']);
	});
});

describe('course fire', () => {
	const coursed = (id: string) =>
		order(id, {
			items: [
				{ lineId: '1', name: 'Soup', qty: 1, mods: [], course: '1', courseStatus: 'fire' },
				{ lineId: '2', name: 'Steak', qty: 1, mods: [], course: '2', courseStatus: 'hold' },
				{ lineId: '3', name: 'Fries', qty: 1, mods: [], course: '2', courseStatus: 'hold' }
			]
		});

	it('a course on hold is fired from the screen: its items turn fire, marked changed', async () => {
		expect(await tcp('kds-2', 'create-order', coursed('C1'))).toBe('C1');
		clock.advance(5 * MIN);
		const res = await action('kds-2', { action: 'fire-course', orderId: 'C1', course: '2' });
		expect(res).toEqual({ status: 200, body: { ok: true } });
		await agent.engine.settled();
		expect(
			record('C1', 'kds-2')?.context.items.map((i) => [i.name, i.courseStatus, i.change ?? null])
		).toEqual([
			['Soup', 'fire', null],
			['Steak', 'fire', 'updated'],
			['Fries', 'fire', 'updated']
		]);
		expect(record('C1', 'kds-2')?.context.items[1].changedAt).toBe(T0 + 5 * MIN);
	});

	it('refused (409) when nothing of that course is on hold; 422 without a course', async () => {
		expect(await tcp('kds-2', 'create-order', coursed('C2'))).toBe('C2');
		const again = { action: 'fire-course', orderId: 'C2', course: '1' };
		expect(await action('kds-2', again)).toEqual({
			status: 409,
			body: {
				code: 'ACTION_REFUSED',
				message: 'fire-course: course "1" of order C2 cannot be changed so'
			}
		});
		const missing = await action('kds-2', { action: 'fire-course', orderId: 'C2' });
		expect(missing.status).toBe(422);
		expect(missing.body.errors).toEqual([{ path: 'course', message: expect.any(String) }]);
	});
});
