/**
 * The HTTP integrator API over real HTTP (contract 4.1-4.3, 5, 7): every route's success, every
 * refusal with its status and body, tenancy between two brands, fan-out to screens, nothing
 * half-applied, and one order store shared with the TCP interface.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { createRecord } from '#core/screen';
import type { Order } from '#core/order-schema';
import { sendTcp } from '../helpers/tcp.ts';
import { failNextCommit } from './store-faults.ts';

const ALPHA = 'alpha-token-0001';
const BETA = 'beta-token-0002';

const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', zip: '62701' };
const screen = (id: string, extra: object = {}) => ({
	id,
	name: `Screen ${id}`,
	tcp: { port: 0 },
	...extra
});

/** Two brands; alpha has an inactive location and a deleted screen. */
const CONFIG = {
	brands: [
		{
			id: 'alpha',
			name: 'Alpha Burgers',
			token: ALPHA,
			locations: [
				{
					id: 'loc-a1',
					number: '101',
					name: 'Alpha Downtown',
					address,
					timezone: 'America/Chicago',
					screens: [
						screen('a1-grill', { name: 'Grill', type: 'android', version: '2.21.30' }),
						screen('a1-expo', { name: 'Expo', type: 'ios', version: '2.22.1' }),
						screen('a1-old', { name: 'Old', deleted: true })
					]
				},
				{
					id: 'loc-a2',
					number: '102',
					name: 'Alpha Airport',
					address: { ...address, line2: 'Terminal B' },
					timezone: 'America/New_York',
					screens: [screen('a2-line', { type: 'firetv' })]
				},
				{
					id: 'loc-a3',
					number: '103',
					name: 'Alpha Closed',
					address,
					timezone: 'America/Chicago',
					activeSubscription: false,
					screens: [screen('a3-bar')]
				}
			]
		},
		{
			id: 'beta',
			name: 'Beta Tacos',
			token: BETA,
			locations: [
				{
					id: 'loc-b1',
					number: '1',
					name: 'Beta Central',
					address,
					timezone: 'Europe/London',
					screens: [screen('b1-line')]
				}
			]
		}
	]
};

const sample = (name: string) =>
	JSON.parse(readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), 'utf8'));

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent({
		config: CONFIG
	});
});
afterAll(() => agent.close());
beforeEach(() => agent.engine.reset());

interface Call {
	token?: string | null;
	location?: string | null;
	devices?: string | null;
	body?: unknown;
	/** Raw body text, sent as is. */
	raw?: string;
	contentType?: string | null;
	headers?: Record<string, string>;
}

interface FieldError {
	path: string;
	message: string;
}
/** Every answer's fields, loosely: an order response or an error. */
interface Body {
	code: string;
	message: string;
	errors: FieldError[];
	orderId: string;
	deliveryStatuses: Array<{ device: string; status: string; type?: string }>;
}
interface ActiveEntry {
	deviceId: string;
	orderCount: number;
	orders: Array<{ orderId: string; orderName: string }>;
}
interface LocationEntry {
	id: string;
	devices: Array<{ id: string }>;
}

interface Answer<T> {
	status: number;
	headers: Headers;
	body: T;
}

async function call<T = Body>(
	method: string,
	path: string,
	options: Call = {}
): Promise<Answer<T>> {
	const headers: Record<string, string> = { ...options.headers };
	const set = (name: string, value: string | null | undefined, fallback: string) => {
		if (value !== null) headers[name] = value ?? fallback;
	};
	set('x-integration-token', options.token, ALPHA);
	set('x-location-id', options.location, 'loc-a1');
	set('x-device-ids', options.devices, 'a1-grill');
	let body: string | undefined = options.raw;
	if (options.body !== undefined) body = JSON.stringify(options.body);
	if (body !== undefined && options.contentType !== null) {
		headers['content-type'] = options.contentType ?? 'application/json';
	}
	const res = await fetch(`${agent.httpUrl}${path}`, { method, headers, body });
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : null;
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, headers: res.headers, body: parsed as T };
}

const ORDERS = '/integrators/kds-orders';
const PARTIAL = '/integrators/kds-orders/partial';
const CANCEL = '/integrators/kds-orders/cancel';
const ACTIVE = '/integrators/kds-orders/active';
const INFO = '/integrators/kds-information';
const LOCATIONS = '/integrators/kds-information/locations';
const devicesOf = (location: string) =>
	`/integrators/kds-information/locations/${location}/devices`;

const item = (lineId: string, name = `Item ${lineId}`, qty = 1) => ({
	lineId,
	name,
	qty,
	mods: []
});
const order = (id: string, extra: object = {}) => ({
	id,
	name: `Guest ${id}`,
	time: '2026-11-22T18:00:00Z',
	mode: 'ToGo',
	items: [item('1', 'Burger'), item('2', 'Fries')],
	...extra
});

const record = (screenId: string, id: string) =>
	agent.engine.screen(screenId)!.state.orders.get(id);
const tcpOf = (screenId: string) => agent.screens.find((s) => s.id === screenId)!.tcp;
const tcp = (screenId: string, command: string, body: object) =>
	sendTcp(tcpOf(screenId).host, tcpOf(screenId).port, { command, order: body });

const DUPLICATE = 'Could not create resource. Id already exists';
const NOT_FOUND = 'Could not update. No resource found';

describe('POST /integrators/kds-orders (create)', () => {
	it('answers 201 {orderId, deliveryStatuses} with device, status and type per screen', async () => {
		const res = await call('POST', ORDERS, {
			devices: 'a1-grill,a1-expo',
			body: sample('http-create-delivery-handoff.json')
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			orderId: 'DD-88412',
			deliveryStatuses: [
				{ device: 'a1-grill', status: 'SUCCESS', type: 'android' },
				{ device: 'a1-expo', status: 'SUCCESS', type: 'ios' }
			]
		});
		for (const id of ['a1-grill', 'a1-expo']) {
			expect(record(id, 'DD-88412')?.state).toBe('active');
			expect(record(id, 'DD-88412')?.context.fields.deliveryService?.orderId).toBe('DD-88412');
		}
	});

	it('shows the order only on the screens named', async () => {
		expect((await call('POST', ORDERS, { devices: 'a1-expo', body: order('O1') })).status).toBe(
			201
		);
		expect(record('a1-expo', 'O1')?.state).toBe('active');
		expect(record('a1-grill', 'O1')).toBeUndefined();
		const active = await call<ActiveEntry[]>('GET', ACTIVE, { devices: 'all' });
		expect(active.body.map((e) => [e.deviceId, e.orderCount])).toEqual([
			['a1-grill', 0],
			['a1-expo', 1]
		]);
	});

	it('accepts every sample order of the vendor documentation', async () => {
		for (const name of [
			'http-create-combo-groups.json',
			'http-create-curbside.json',
			'http-create-delivery-handoff.json',
			'http-create-future-hold.json'
		]) {
			const res = await call('POST', ORDERS, { body: sample(name) });
			expect(res.status, name).toBe(201);
		}
		expect(agent.engine.queue('a1-grill')).toHaveLength(4);
	});

	it('x-device-ids all: every active screen of the location, not the deleted one', async () => {
		const res = await call('POST', ORDERS, { devices: 'all', body: order('ALL1') });
		expect(res.status).toBe(201);
		expect(res.body.deliveryStatuses.map((s) => s.device)).toEqual(['a1-grill', 'a1-expo']);
		expect(record('a1-old', 'ALL1')).toBeUndefined();
		expect(record('a2-line', 'ALL1')).toBeUndefined();
	});

	it('x-device-ids list: spaces around commas and repeated ids are tolerated', async () => {
		const res = await call('POST', ORDERS, {
			devices: ' a1-expo , a1-grill,a1-expo ',
			body: order('L1')
		});
		expect(res.status).toBe(201);
		expect(res.body.deliveryStatuses.map((s) => s.device)).toEqual(['a1-expo', 'a1-grill']);
	});

	it('409 with the contract text when the id is already on the screen', async () => {
		await call('POST', ORDERS, { body: order('D1') });
		const res = await call('POST', ORDERS, { body: order('D1', { name: 'Other' }) });
		expect(res.status).toBe(409);
		expect(res.body).toMatchObject({ code: 'DUPLICATE_ORDER_ID', message: DUPLICATE });
		expect(record('a1-grill', 'D1')?.context.fields.name).toBe('Guest D1');
	});

	it('409 when the id is on another screen of the location (unique per location)', async () => {
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('D2') });
		const res = await call('POST', ORDERS, { devices: 'a1-expo', body: order('D2') });
		expect(res.status).toBe(409);
		expect(res.body.message).toBe(DUPLICATE);
		expect(res.body.errors).toEqual([{ path: 'id', message: expect.stringContaining('a1-grill') }]);
		expect(record('a1-expo', 'D2')).toBeUndefined();
	});

	it('409 when the id is on hold at the location', async () => {
		const input = { order: order('H1') as Order, at: 1, seq: 1, held: true };
		await agent.engine.commit([
			{
				screenId: 'a1-expo',
				changes: [{ type: 'order.created', input, record: createRecord(input) }]
			}
		]);
		expect(record('a1-expo', 'H1')?.state).toBe('held');
		const res = await call('POST', ORDERS, { devices: 'a1-grill', body: order('H1') });
		expect(res.status).toBe(409);
		expect(res.body.message).toBe(DUPLICATE);
	});

	it('nothing half-applied: kds-2 already has the id, so kds-1 stays unchanged', async () => {
		await call('POST', ORDERS, { devices: 'a1-expo', body: order('N1') });
		const res = await call('POST', ORDERS, { devices: 'a1-grill,a1-expo', body: order('N1') });
		expect(res.status).toBe(409);
		expect(record('a1-grill', 'N1')).toBeUndefined();
		expect(agent.engine.queue('a1-grill')).toHaveLength(0);
	});

	it('a commit the store refuses answers 500, acknowledges nothing, and the retry succeeds', async () => {
		failNextCommit(agent);
		const res = await call('POST', ORDERS, { devices: 'a1-grill,a1-expo', body: order('F1') });
		expect(res.status).toBe(500);
		expect(res.body).toEqual({
			code: 'INTERNAL_ERROR',
			message: 'Internal error: the request changed nothing; try again'
		});
		expect(record('a1-grill', 'F1')).toBeUndefined();
		expect(record('a1-expo', 'F1')).toBeUndefined();
		const retry = await call('POST', ORDERS, { devices: 'a1-grill,a1-expo', body: order('F1') });
		expect(retry.status).toBe(201);
		expect(record('a1-expo', 'F1')?.state).toBe('active');
	});

	it('the same id at another location, or at another brand, is a different order', async () => {
		expect((await call('POST', ORDERS, { body: order('S1') })).status).toBe(201);
		expect(
			(await call('POST', ORDERS, { location: 'loc-a2', devices: 'a2-line', body: order('S1') }))
				.status
		).toBe(201);
		const beta = await call('POST', ORDERS, {
			token: BETA,
			location: 'loc-b1',
			devices: 'b1-line',
			body: order('S1')
		});
		expect(beta.status).toBe(201);
		expect(record('a1-grill', 'S1')?.context.fields.name).toBe('Guest S1');
	});

	it('an id whose order was bumped can be created again', async () => {
		await call('POST', ORDERS, { body: order('B1') });
		expect(agent.engine.runAction('a1-grill', 'bump', 'B1')).toBe(true);
		const res = await call('POST', ORDERS, { body: order('B1', { name: 'Again' }) });
		expect(res.status).toBe(201);
		expect(record('a1-grill', 'B1')?.state).toBe('active');
	});
});

describe('PUT /integrators/kds-orders (full update)', () => {
	it('answers 200 {orderId, deliveryStatuses} without type, and replaces the content', async () => {
		await call('POST', ORDERS, { devices: 'all', body: order('U1') });
		const res = await call('PUT', ORDERS, {
			devices: 'all',
			body: order('U1', { name: 'Renamed', items: [item('1', 'Burger', 2), item('3', 'Shake')] })
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			orderId: 'U1',
			deliveryStatuses: [
				{ device: 'a1-grill', status: 'SUCCESS' },
				{ device: 'a1-expo', status: 'SUCCESS' }
			]
		});
		const items = record('a1-expo', 'U1')!.context.items;
		expect(items.map((i) => [i.lineId, i.qty, i.deleted ?? false])).toEqual([
			['1', 2, false],
			['2', 1, true],
			['3', 1, false]
		]);
		expect(record('a1-grill', 'U1')?.context.fields.name).toBe('Renamed');
	});

	it('404 with the contract text for an unknown id', async () => {
		const res = await call('PUT', ORDERS, { body: order('nope') });
		expect(res.status).toBe(404);
		expect(res.body).toMatchObject({ code: 'ORDER_DOES_NOT_EXIST', message: NOT_FOUND });
	});

	it('nothing half-applied: the order is on one of the two screens only, so neither changes', async () => {
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('U2') });
		const res = await call('PUT', ORDERS, {
			devices: 'a1-grill,a1-expo',
			body: order('U2', { name: 'New' })
		});
		expect(res.status).toBe(404);
		expect(res.body.message).toBe(NOT_FOUND);
		expect(res.body.errors).toEqual([{ path: 'id', message: expect.stringContaining('a1-expo') }]);
		expect(record('a1-grill', 'U2')?.context.fields.name).toBe('Guest U2');
	});
});

describe('PUT /integrators/kds-orders/partial', () => {
	it('applies the vendor sample: nulls leave fields, items added and removed by lineId', async () => {
		await call('POST', ORDERS, { body: sample('http-create-combo-groups.json') });
		const res = await call('PUT', PARTIAL, { body: sample('http-partial-nulls.json') });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			orderId: 'W-2001',
			deliveryStatuses: [{ device: 'a1-grill', status: 'SUCCESS' }]
		});
		const { fields, items } = record('a1-grill', 'W-2001')!.context;
		expect([fields.name, fields.mode, fields.priority]).toEqual(['Sam', 'DriveThru', true]);
		expect(items.find((i) => i.lineId === '4')?.deleted).toBe(true);
		expect(items.find((i) => i.lineId === '5')?.name).toBe('Milkshake');
	});

	it('404 with the contract text for an unknown id', async () => {
		const res = await call('PUT', PARTIAL, { body: { id: 'nope', name: 'x' } });
		expect(res.status).toBe(404);
		expect(res.body).toMatchObject({ code: 'ORDER_DOES_NOT_EXIST', message: NOT_FOUND });
	});
});

describe('PUT /integrators/kds-orders/cancel', () => {
	it('answers 200 {orderId, deliveryStatuses}; the card stays with the cancelled look', async () => {
		await call('POST', ORDERS, { devices: 'all', body: order('C1') });
		const res = await call('PUT', CANCEL, { devices: 'all', body: { id: 'C1' } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			orderId: 'C1',
			deliveryStatuses: [
				{ device: 'a1-grill', status: 'SUCCESS' },
				{ device: 'a1-expo', status: 'SUCCESS' }
			]
		});
		expect(record('a1-grill', 'C1')?.state).toBe('cancelled');
		const active = await call<ActiveEntry[]>('GET', ACTIVE);
		expect(active.body[0].orders).toEqual([{ orderId: 'C1', orderName: 'Guest C1' }]);
	});

	it('cancelling again, or after a bump, changes nothing and still answers 200', async () => {
		await call('POST', ORDERS, { body: order('C2') });
		await call('PUT', CANCEL, { body: { id: 'C2' } });
		expect((await call('PUT', CANCEL, { body: { id: 'C2' } })).status).toBe(200);
		agent.engine.runAction('a1-grill', 'bump', 'C2');
		expect((await call('PUT', CANCEL, { body: { id: 'C2' } })).status).toBe(200);
		expect(record('a1-grill', 'C2')?.state).toBe('bumped');
	});

	it('404 with the update text for an unknown id, as update and partial update', async () => {
		const res = await call('PUT', CANCEL, { body: { id: 'nope' } });
		expect(res.status).toBe(404);
		expect(res.body).toMatchObject({ code: 'ORDER_DOES_NOT_EXIST', message: NOT_FOUND });
	});

	it('nothing half-applied: unknown on one screen, so not cancelled on the other', async () => {
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('C3') });
		expect((await call('PUT', CANCEL, { devices: 'all', body: { id: 'C3' } })).status).toBe(404);
		expect(record('a1-grill', 'C3')?.state).toBe('active');
	});
});

describe('GET /integrators/kds-orders/active', () => {
	it('200 with one entry per requested screen: the cards in display order, names given at create', async () => {
		await call('POST', ORDERS, { devices: 'all', body: order('A1') });
		await call('POST', ORDERS, { devices: 'all', body: order('A2') });
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('A3', { priority: true }) });
		await call('PUT', PARTIAL, { devices: 'a1-grill', body: { id: 'A1', name: 'Renamed' } });
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('A4') });
		agent.engine.runAction('a1-grill', 'bump', 'A4');

		const res = await call('GET', ACTIVE, { devices: 'a1-grill,a1-expo' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([
			{
				deviceId: 'a1-grill',
				deviceName: 'Grill',
				orderCount: 3,
				orders: [
					{ orderId: 'A3', orderName: 'Guest A3' },
					// Contract 2.9: orderName is the name given at create, not the one updated since.
					{ orderId: 'A1', orderName: 'Guest A1' },
					{ orderId: 'A2', orderName: 'Guest A2' }
				]
			},
			{
				deviceId: 'a1-expo',
				deviceName: 'Expo',
				orderCount: 2,
				orders: [
					{ orderId: 'A1', orderName: 'Guest A1' },
					{ orderId: 'A2', orderName: 'Guest A2' }
				]
			}
		]);
	});

	it('one screen, and all', async () => {
		const one = await call('GET', ACTIVE, { devices: 'a1-expo' });
		expect(one.body).toEqual([
			{ deviceId: 'a1-expo', deviceName: 'Expo', orderCount: 0, orders: [] }
		]);
		const all = await call<ActiveEntry[]>('GET', ACTIVE, { devices: 'ALL' });
		expect(all.body.map((e) => e.deviceId)).toEqual(['a1-grill', 'a1-expo']);
	});
});

describe('one store with the TCP interface', () => {
	it('created over HTTP, then updated, cancelled over TCP', async () => {
		await call('POST', ORDERS, { devices: 'a1-grill', body: order('T1') });
		const updated = { ...order('T1', { name: 'By TCP' }), time: 1795338000000 };
		expect(await tcp('a1-grill', 'update-order', updated)).toBe('T1');
		expect(await tcp('a1-grill', 'create-order', updated)).toBe('DUPLICATE_ORDER_ID');
		expect(await tcp('a1-grill', 'cancel-order', { id: 'T1' })).toBe('T1');
		const active = await call<ActiveEntry[]>('GET', ACTIVE);
		// The card shows the new name; the active list keeps the one given at create (2.9).
		expect(active.body[0].orders).toEqual([{ orderId: 'T1', orderName: 'Guest T1' }]);
		expect(record('a1-grill', 'T1')?.context.fields.name).toBe('By TCP');
		expect(record('a1-grill', 'T1')?.state).toBe('cancelled');
	});

	it('created over TCP, then updated, cancelled over HTTP, and bumped on the screen', async () => {
		expect(await tcp('a1-expo', 'create-order', { ...order('T2'), time: 1795338000000 })).toBe(
			'T2'
		);
		expect((await call('POST', ORDERS, { devices: 'a1-grill', body: order('T2') })).status).toBe(
			409
		);
		const patched = await call('PUT', PARTIAL, {
			devices: 'a1-expo',
			body: { id: 'T2', itemsToRemove: ['2'] }
		});
		expect(patched.status).toBe(200);
		expect(record('a1-expo', 'T2')!.context.items.find((i) => i.lineId === '2')?.deleted).toBe(
			true
		);
		expect((await call('PUT', CANCEL, { devices: 'a1-expo', body: { id: 'T2' } })).status).toBe(
			200
		);
		expect(agent.engine.runAction('a1-expo', 'bump', 'T2')).toBe(true);
		expect(
			(await call<ActiveEntry[]>('GET', ACTIVE, { devices: 'a1-expo' })).body[0].orderCount
		).toBe(0);
	});
});

describe('one store with the TCP interface, as the screen shows it (admin JSON view)', () => {
	interface Shown {
		cards: Array<{
			title: string;
			state: string;
			sections: Array<{
				entries: Array<{ item: { label: string; deleted: boolean; highlighted: string | null } }>;
			}>;
		}>;
	}
	/** [title, state, [label, deleted, highlighted] of every item] of each card, in order. */
	async function shown(screenId: string) {
		const res = await fetch(`${agent.httpUrl}/api/admin/screens/${screenId}`);
		expect(res.status).toBe(200);
		const { cards } = (await res.json()) as Shown;
		return cards.map((c) => [
			c.title,
			c.state,
			c.sections.flatMap((s) =>
				s.entries.map((e) => [e.item.label, e.item.deleted, e.item.highlighted])
			)
		]);
	}
	const TIME = 1795338000000;

	it('created over HTTP, fully updated over TCP, partially over HTTP, cancelled over TCP', async () => {
		expect((await call('POST', ORDERS, { body: order('X1') })).status).toBe(201);
		expect(await shown('a1-grill')).toEqual([
			[
				'Guest X1',
				'active',
				[
					['1 × Burger', false, null],
					['1 × Fries', false, null]
				]
			]
		]);
		const full = order('X1', { items: [item('1', 'Burger', 2), item('3', 'Shake')] });
		expect(await tcp('a1-grill', 'update-order', { ...full, time: TIME })).toBe('X1');
		const partial = await call('PUT', PARTIAL, { body: { id: 'X1', name: 'Renamed' } });
		expect(partial.status).toBe(200);
		expect(await shown('a1-grill')).toEqual([
			[
				'Renamed',
				'active',
				[
					['2 × Burger', false, 'updated'],
					['Deleted: 1 × Fries', true, null],
					['1 × Shake', false, 'added']
				]
			]
		]);
		expect(await tcp('a1-grill', 'cancel-order', { id: 'X1' })).toBe('X1');
		expect((await shown('a1-grill'))[0].slice(0, 2)).toEqual(['Renamed', 'cancelled']);
		expect(await shown('a1-expo')).toEqual([]);
	});

	it('created over TCP, fully updated and cancelled over HTTP, partially updated over TCP', async () => {
		expect(await tcp('a1-expo', 'create-order', { ...order('X2'), time: TIME })).toBe('X2');
		const full = await call('PUT', ORDERS, {
			devices: 'a1-expo',
			body: order('X2', { name: 'By HTTP', items: [item('2', 'Fries', 3)] })
		});
		expect(full.status).toBe(200);
		expect(full.body).toEqual({
			orderId: 'X2',
			deliveryStatuses: [{ device: 'a1-expo', status: 'SUCCESS' }]
		});
		expect(
			await tcp('a1-expo', 'partial-update-order', {
				id: 'X2',
				itemsToAdd: [item('4', 'Cola')]
			})
		).toBe('X2');
		expect(await shown('a1-expo')).toEqual([
			[
				'By HTTP',
				'active',
				[
					['Deleted: 1 × Burger', true, null],
					['3 × Fries', false, 'updated'],
					['1 × Cola', false, 'added']
				]
			]
		]);
		expect((await call('PUT', CANCEL, { devices: 'a1-expo', body: { id: 'X2' } })).status).toBe(
			200
		);
		expect((await shown('a1-expo'))[0].slice(0, 2)).toEqual(['By HTTP', 'cancelled']);
		expect(await tcp('a1-expo', 'update-order', { ...order('X2'), time: TIME })).toBe('X2');
		expect(await shown('a1-grill')).toEqual([]);
	});
});

describe('tenancy: brands, locations and screens', () => {
	const orderRoutes: Array<[string, string, object | undefined]> = [
		['GET', ACTIVE, undefined],
		['POST', ORDERS, order('X1')],
		['PUT', ORDERS, order('X1')],
		['PUT', PARTIAL, { id: 'X1' }],
		['PUT', CANCEL, { id: 'X1' }]
	];

	it('401 without a token, or with a wrong one, on every route', async () => {
		const infoRoutes: Array<[string, string, object | undefined]> = [
			['GET', INFO, undefined],
			['GET', LOCATIONS, undefined],
			['GET', devicesOf('loc-a1'), undefined]
		];
		for (const [method, path, body] of [...orderRoutes, ...infoRoutes]) {
			const missing = await call(method, path, { token: null, body });
			expect([path, missing.status, missing.body]).toEqual([
				path,
				401,
				{ code: 'UNAUTHORIZED', message: expect.stringMatching(/^x-integration-token: required/) }
			]);
			const wrong = await call(method, path, { token: `${ALPHA}x`, body });
			expect([path, wrong.status, wrong.body]).toEqual([
				path,
				401,
				{ code: 'UNAUTHORIZED', message: 'x-integration-token: not a valid integration token' }
			]);
		}
	});

	it('the token is checked before the body: a stranger gets 401 whatever the body', async () => {
		const res = await call('POST', ORDERS, {
			token: 'wrong-token-123',
			raw: '{"id":',
			devices: 'all'
		});
		expect(res.status).toBe(401);
	});

	it('400 naming the header when x-location-id or x-device-ids is missing', async () => {
		for (const [method, path, body] of orderRoutes) {
			const noLocation = await call(method, path, { location: null, body });
			expect([path, noLocation.status, noLocation.body.code]).toEqual([
				path,
				400,
				'MISSING_HEADER'
			]);
			expect(noLocation.body.message).toMatch(/^x-location-id: required/);
			const noDevices = await call(method, path, { devices: null, body });
			expect([path, noDevices.status, noDevices.body.code]).toEqual([path, 400, 'MISSING_HEADER']);
			expect(noDevices.body.message).toMatch(/^x-device-ids: required/);
			expect((await call(method, path, { devices: ' , ', body })).status).toBe(400);
		}
	});

	it("404 LOCATION_NOT_FOUND for an inactive, unknown or other brand's location, on every route", async () => {
		for (const [method, path, body] of orderRoutes) {
			for (const [location, devices] of [
				['loc-a3', 'a3-bar'],
				['loc-zz', 'all'],
				['loc-b1', 'b1-line']
			]) {
				const res = await call(method, path, { location, devices, body });
				expect([path, location, res.status, res.body.code]).toEqual([
					path,
					location,
					404,
					'LOCATION_NOT_FOUND'
				]);
				expect(res.body.message).toBe(
					`x-location-id: "${location}" is not an active location of this brand (see GET /integrators/kds-information/locations)`
				);
			}
		}
		expect(record('a3-bar', 'X1')).toBeUndefined();
	});

	it("404 DEVICE_NOT_FOUND for an unknown, deleted, other location's or other brand's screen", async () => {
		for (const [method, path, body] of orderRoutes) {
			for (const devices of ['a1-zz', 'a1-old', 'a2-line', 'b1-line', 'a1-grill,a3-bar']) {
				const res = await call(method, path, { devices, body });
				expect([path, devices, res.status, res.body.code]).toEqual([
					path,
					devices,
					404,
					'DEVICE_NOT_FOUND'
				]);
			}
		}
		const res = await call('POST', ORDERS, { devices: 'a1-grill,a1-zz,a1-old', body: order('X2') });
		expect(res.body.message).toBe(
			'x-device-ids: "a1-zz", "a1-old" are not active screens of location "loc-a1" (see GET /integrators/kds-information/locations/loc-a1/devices)'
		);
		expect(record('a1-grill', 'X2')).toBeUndefined();
	});

	it("a second brand's token sees none of the first brand's data and cannot touch its orders", async () => {
		await call('POST', ORDERS, { devices: 'all', body: order('P1') });
		const asBeta = { token: BETA, location: 'loc-a1', devices: 'all' };
		expect((await call('GET', ACTIVE, asBeta)).status).toBe(404);
		expect(
			(await call('PUT', ORDERS, { ...asBeta, body: order('P1', { name: 'Hijack' }) })).status
		).toBe(404);
		expect(
			(await call('PUT', PARTIAL, { ...asBeta, body: { id: 'P1', name: 'Hijack' } })).status
		).toBe(404);
		expect((await call('PUT', CANCEL, { ...asBeta, body: { id: 'P1' } })).status).toBe(404);
		// Its own location with the other brand's screen ids: still nothing.
		const own = { token: BETA, location: 'loc-b1' };
		expect(
			(await call('PUT', CANCEL, { ...own, devices: 'a1-grill', body: { id: 'P1' } })).status
		).toBe(404);
		expect((await call('GET', ACTIVE, { ...own, devices: 'a1-grill' })).status).toBe(404);
		// Against its own screen, the id is simply unknown.
		expect((await call('PUT', CANCEL, { ...own, devices: 'all', body: { id: 'P1' } })).status).toBe(
			404
		);
		expect((await call('GET', devicesOf('loc-a1'), { token: BETA })).status).toBe(404);

		const info = await call('GET', INFO, { token: BETA });
		expect(JSON.stringify(info.body)).not.toMatch(/loc-a|a1-|a2-|a3-|Alpha/);
		expect(record('a1-grill', 'P1')?.state).toBe('active');
		expect(record('a1-grill', 'P1')?.context.fields.name).toBe('Guest P1');
	});
});

describe('information routes', () => {
	const device = (id: string, name: string, type: string, version: string) => ({
		id,
		name,
		type,
		version,
		ipAddress: tcpOf(id).host,
		tcpPort: tcpOf(id).port
	});
	const locA1 = {
		id: 'loc-a1',
		number: '101',
		name: 'Alpha Downtown',
		address: { zip: '62701', city: 'Springfield', line1: '1 Main St', line2: null, state: 'IL' },
		timezone: 'America/Chicago'
	};
	const locA2 = {
		id: 'loc-a2',
		number: '102',
		name: 'Alpha Airport',
		address: {
			zip: '62701',
			city: 'Springfield',
			line1: '1 Main St',
			line2: 'Terminal B',
			state: 'IL'
		},
		timezone: 'America/New_York'
	};

	it('GET kds-information: 200, the active locations with their active screens', async () => {
		const res = await call('GET', INFO, { location: null, devices: null });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([
			{
				...locA1,
				devices: [
					device('a1-grill', 'Grill', 'android', '2.21.30'),
					device('a1-expo', 'Expo', 'ios', '2.22.1')
				]
			},
			{ ...locA2, devices: [device('a2-line', 'Screen a2-line', 'firetv', '2.21.30')] }
		]);
	});

	it('GET locations: 200, the active locations without devices', async () => {
		const res = await call('GET', LOCATIONS, { location: null, devices: null });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([locA1, locA2]);
	});

	it('GET locations/{id}/devices: 200, the active screens of that location', async () => {
		const res = await call('GET', devicesOf('loc-a1'), { location: null, devices: null });
		expect(res.status).toBe(200);
		expect(res.body).toEqual([
			device('a1-grill', 'Grill', 'android', '2.21.30'),
			device('a1-expo', 'Expo', 'ios', '2.22.1')
		]);
	});

	it("devices of an inactive, unknown or other brand's location: 404 LOCATION_NOT_FOUND", async () => {
		for (const location of ['loc-a3', 'loc-zz', 'loc-b1']) {
			const res = await call('GET', devicesOf(location));
			expect(res.status).toBe(404);
			expect(res.body).toEqual({
				code: 'LOCATION_NOT_FOUND',
				message: `locationId: "${location}" is not an active location of this brand (see GET /integrators/kds-information/locations)`
			});
		}
	});

	it('the second brand sees only its own location', async () => {
		const res = await call<LocationEntry[]>('GET', INFO, { token: BETA });
		expect(res.body.map((l) => [l.id, l.devices.map((d) => d.id)])).toEqual([
			['loc-b1', ['b1-line']]
		]);
	});
});

describe('request errors: one shape, the same status on every route', () => {
	const writes: Array<[string, string]> = [
		['POST', ORDERS],
		['PUT', ORDERS],
		['PUT', PARTIAL],
		['PUT', CANCEL]
	];

	it('400 INVALID_JSON for malformed or empty JSON', async () => {
		for (const [method, path] of writes) {
			for (const raw of ['{"id":', '', '{"id": "x",}']) {
				const res = await call(method, path, { raw });
				expect([path, raw, res.status, res.body.code]).toEqual([path, raw, 400, 'INVALID_JSON']);
				expect(res.body.message).toMatch(/^body: /);
			}
			const none = await call(method, path, {});
			expect([path, none.status, none.body.code]).toEqual([path, 400, 'INVALID_JSON']);
		}
	});

	it('422 VALIDATION_FAILED naming every offending field', async () => {
		const res = await call('POST', ORDERS, {
			body: {
				...order('V1'),
				mode: 'Teleport',
				deliveryService: { name: 'DoorDash' },
				items: [{ lineId: '1', name: 'A', qty: '2x', mods: [] }]
			}
		});
		expect(res.status).toBe(422);
		expect(res.body.code).toBe('VALIDATION_FAILED');
		expect(res.body.errors).toEqual([
			{
				path: 'mode',
				message:
					'expected one of For Here, ToGo, Pickup, DriveThru, Delivery, Curbside, got "Teleport"'
			},
			{ path: 'items[0].qty', message: 'expected an integer, got "2x"' },
			{ path: 'deliveryService.orderId', message: 'required (a string)' }
		]);
		expect(res.body.message).toBe(res.body.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
		expect(record('a1-grill', 'V1')).toBeUndefined();
	});

	it('422 on every write route for a body that breaks its schema', async () => {
		for (const [method, path] of writes) {
			const res = await call(method, path, { body: { name: 5 } });
			expect([path, res.status, res.body.code]).toEqual([path, 422, 'VALIDATION_FAILED']);
			expect(res.body.errors).toContainEqual({
				path: 'id',
				message: 'required (a non-empty string)'
			});
			const array = await call(method, path, { body: [order('V2')] });
			expect([path, array.status, array.body.message]).toEqual([
				path,
				422,
				'body: expected a JSON object, got an array'
			]);
		}
	});

	it('413 PAYLOAD_TOO_LARGE over the 1 MiB body limit', async () => {
		const big = order('BIG', { specialInstructions: 'x'.repeat(1024 * 1024) });
		for (const [method, path] of writes) {
			const res = await call(method, path, { body: big });
			expect([path, res.status, res.body]).toEqual([
				path,
				413,
				{ code: 'PAYLOAD_TOO_LARGE', message: 'body: larger than the limit of 1048576 bytes' }
			]);
		}
	});

	it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not sent as JSON, with what to do where the cause is known', async () => {
		const addHeader = 'add the header Content-Type: application/json';
		for (const [method, path] of writes) {
			for (const [contentType, message] of [
				[
					'text/plain;charset=UTF-8',
					`Content-Type: expected application/json, got "text/plain;charset=UTF-8" (what fetch and XMLHttpRequest send with a string body unless told otherwise); ${addHeader}`
				],
				[
					'application/x-www-form-urlencoded',
					`Content-Type: expected application/json, got "application/x-www-form-urlencoded" (what curl -d, PHP's curl and Java's HttpURLConnection send unless told otherwise); ${addHeader}`
				],
				[
					'multipart/form-data; boundary=x',
					`Content-Type: expected application/json, got "multipart/form-data; boundary=x" (what PHP's curl sends when CURLOPT_POSTFIELDS is given an array); send json_encode() of the order as the body with the header Content-Type: application/json`
				],
				[
					'application/xml',
					'Content-Type: expected application/json, got "application/xml"; send the body as JSON with the header Content-Type: application/json'
				]
			]) {
				const res = await call(method, path, { raw: JSON.stringify(order('M1')), contentType });
				expect([path, contentType, res.status, res.body]).toEqual([
					path,
					contentType,
					415,
					{ code: 'UNSUPPORTED_MEDIA_TYPE', message }
				]);
			}
		}
		// No Content-Type at all (fetch always sends one with a string body; node:http does not).
		const none = await new Promise<{ status: number; body: string }>((done, fail) => {
			const req = request(`${agent.httpUrl}${ORDERS}`, {
				method: 'POST',
				headers: {
					'x-integration-token': ALPHA,
					'x-location-id': 'loc-a1',
					'x-device-ids': 'a1-grill'
				}
			});
			req.on('error', fail);
			req.on('response', (res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (text += chunk));
				res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
			});
			req.end(JSON.stringify(order('M1')));
		});
		expect([none.status, JSON.parse(none.body)]).toEqual([
			415,
			{
				code: 'UNSUPPORTED_MEDIA_TYPE',
				message: `Content-Type: expected application/json, got none; ${addHeader}`
			}
		]);
		const charset = await call('POST', ORDERS, {
			body: order('M2'),
			contentType: 'application/json; charset=utf-8'
		});
		expect(charset.status).toBe(201);
	});

	it('outside the integrator API a body of another content type is left alone (404, not 415)', async () => {
		const res = await fetch(`${agent.httpUrl}/api/nope`, {
			method: 'POST',
			headers: { 'content-type': 'application/xml' },
			body: '<order id="M3"/>'
		});
		expect([res.status, await res.json()]).toEqual([
			404,
			{ code: 'NOT_FOUND', message: 'No route POST /api/nope' }
		]);
	});

	it('405 METHOD_NOT_ALLOWED with an Allow header for a wrong method on a known path', async () => {
		const cases: Array<[string, string, string]> = [
			['DELETE', ORDERS, 'POST, PUT, OPTIONS'],
			['GET', ORDERS, 'POST, PUT, OPTIONS'],
			['PATCH', PARTIAL, 'PUT, OPTIONS'],
			['POST', CANCEL, 'PUT, OPTIONS'],
			['POST', ACTIVE, 'GET, HEAD, OPTIONS'],
			['PUT', INFO, 'GET, HEAD, OPTIONS'],
			['DELETE', LOCATIONS, 'GET, HEAD, OPTIONS'],
			['POST', devicesOf('loc-a1'), 'GET, HEAD, OPTIONS']
		];
		for (const [method, path, allow] of cases) {
			// A body that would be refused (415) shows the method is judged first.
			const body = method === 'GET' ? {} : { raw: 'not even json', contentType: 'text/plain' };
			const res = await call(method, path, body);
			expect([method, path, res.status, res.headers.get('allow'), res.body.code]).toEqual([
				method,
				path,
				405,
				allow,
				'METHOD_NOT_ALLOWED'
			]);
		}
		const res = await call('DELETE', ORDERS);
		expect(res.body.message).toBe(
			'DELETE is not allowed on /integrators/kds-orders; use POST or PUT'
		);
		const options = await call('OPTIONS', ORDERS);
		expect([options.status, options.headers.get('allow')]).toEqual([204, 'POST, PUT, OPTIONS']);
	});

	it('404 in the same shape for an unknown integrator path', async () => {
		const res = await call('GET', '/integrators/kds-orders/nope');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			code: 'NOT_FOUND',
			message: 'No route GET /integrators/kds-orders/nope'
		});
	});
});
