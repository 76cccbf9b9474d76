/**
 * Careless and hostile input over real sockets (issue 15): a `__proto__` key in an HTTP body,
 * order ids with control characters, an unbounded ETA, pop-up length in characters, and refusals
 * worded as "what to fix" sentences with field paths on every route that takes a body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import type { MessageEntry } from '#core/message-entry';
import { sendTcp, sendTcpRaw } from '../helpers/tcp.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent.close());
beforeEach(() => agent.reset());

const SCREEN = 'kds-1';
const ORDERS = '/integrators/kds-orders';
const PARTIAL = '/integrators/kds-orders/partial';
const CANCEL = '/integrators/kds-orders/cancel';
const ARRIVED = '/integrators/kds-notifications/customer-arrived';
const ETA = '/integrators/kds-notifications/estimated-arrival-update';
const MESSAGE = '/integrators/kds-notifications/send-message';

interface Answer {
	status: number;
	body: { code?: string; message?: string; errors?: Array<{ path: string; message: string }> };
	text: string;
}

/** A request with the three integrator headers; `raw` is sent byte for byte. */
async function call(method: string, path: string, raw?: string): Promise<Answer> {
	const headers: Record<string, string> = {
		'x-integration-token': agent.token,
		'x-location-id': 'loc-1',
		'x-device-ids': SCREEN
	};
	if (raw !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(`${agent.httpUrl}${path}`, { method, headers, body: raw });
	const text = await res.text();
	let body: Answer['body'] = {};
	try {
		body = JSON.parse(text) as Answer['body'];
	} catch {
		// not JSON: the assertions on the body fail with the text in view
	}
	return { status: res.status, body, text };
}

const order = (id: string) => ({
	id,
	name: `Guest ${id}`,
	time: '2026-11-22T18:00:00Z',
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
});
const record = (id: string) => agent.engine.screen(SCREEN)!.state.orders.get(id);
const tcp = () => agent.screens[0].tcp;
const messages = async (): Promise<MessageEntry[]> =>
	(await fetch(`${agent.httpUrl}/api/admin/messages`)).json() as Promise<MessageEntry[]>;

describe('a __proto__ key in an HTTP body', () => {
	// The exact bytes: a JSON.stringify of an object cannot produce an own __proto__ key.
	const create =
		'{"__proto__":{"polluted":"yes","id":"EVIL"},"id":"P1","name":"Ann","time":"2026-11-22T18:00:00Z",' +
		'"mode":"ToGo","items":[{"lineId":"1","name":"Fries","qty":1,"mods":[],"__proto__":{"qty":99}}]}';

	it('is valid JSON: the order is created, the key dropped and reported like any unknown field', async () => {
		const res = await call('POST', ORDERS, create);
		expect([res.status, res.body.code]).toEqual([201, undefined]);
		expect(res.text).toContain('"orderId":"P1"');
		expect(record('P1')?.context.items.map((i) => [i.name, i.qty])).toEqual([['Fries', 1]]);
		expect(record('EVIL')).toBeUndefined();
		// Nothing reached Object.prototype.
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty('polluted');
		await expect.poll(async () => (await messages()).length).toBeGreaterThan(0);
		const [entry] = await messages();
		expect(entry.orderId).toBe('P1');
		expect(entry.raw).toBe(create);
		const unknown = entry.findings.filter((f) => f.code === 'KDS-FIELD-UNKNOWN');
		expect(unknown.map((f) => f.path)).toEqual(['__proto__', 'items[0].__proto__']);
	});

	it('constructor.prototype is data too, on every route that takes a body', async () => {
		const poison = '"constructor":{"prototype":{"polluted":"yes"}}';
		const created = await call(
			'POST',
			ORDERS,
			`{${poison},${JSON.stringify(order('C1')).slice(1)}`
		);
		expect(created.status).toBe(201);
		for (const [path, body, status] of [
			[PARTIAL, `{"__proto__":{"priority":true},${poison},"id":"C1"}`, 200],
			[ETA, `{"__proto__":{"minutes":5},"id":"C1","minutes":7}`, 202],
			[MESSAGE, `{"__proto__":{"x":1},"message":"86 salmon"}`, 202],
			// The id under __proto__ is not the order's: the cancel names "nope", unknown.
			[CANCEL, `{"__proto__":{"id":"C1"},"id":"nope"}`, 404]
		] as const) {
			const res = await call(path === MESSAGE ? 'POST' : path === ETA ? 'POST' : 'PUT', path, body);
			expect([path, res.status]).toEqual([path, status]);
			expect(res.text).not.toMatch(/JSON/);
		}
		expect(record('C1')?.context.fields.priority).toBeUndefined();
		expect(record('C1')?.state).toBe('active');
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		// A simulator API body with the key: the route's own field error, not "not valid JSON".
		const res = await fetch(`${agent.httpUrl}/api/screens/${SCREEN}/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"__proto__":{"action":"bump"},"orderId":"C1"}'
		});
		expect(res.status).toBe(422);
		expect(((await res.json()) as { message: string }).message).toMatch(/^action: expected one of/);
	});
});

describe('an HTTP body nested deeper than 64 levels', () => {
	const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
	const withExtra = (id: string, depth: number) =>
		`${JSON.stringify(order(id)).slice(0, -1)},"extra":${nested(depth)}}`;

	it('is refused 400 before it is parsed, as over TCP; 64 levels are accepted', async () => {
		// The body is level 1: 63 arrays under it are 64 levels in all, 64 arrays one too many.
		const ok = await call('POST', ORDERS, withExtra('N1', 63));
		expect(ok.status).toBe(201);
		for (const depth of [64, 20_000, 400_000]) {
			const res = await call('POST', ORDERS, withExtra(`N${depth}`, depth));
			expect([depth, res.status, res.body]).toEqual([
				depth,
				400,
				{
					code: 'INVALID_JSON',
					message: 'body: nested deeper than 64 levels of objects and arrays; an order needs 5'
				}
			]);
			expect(record(`N${depth}`)).toBeUndefined();
		}
		// The same rule on the simulator's own API.
		const res = await fetch(`${agent.httpUrl}/api/screens/${SCREEN}/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: `{"action":"bump","orderId":"N1","x":${nested(100)}}`
		});
		expect(res.status).toBe(400);
		expect(record('N1')?.state).toBe('active');
		// Over TCP, as the framer refuses it.
		const reply = await sendTcpRaw(tcp().host, tcp().port, [
			`{"command":"create-order","order":${withExtra('T1', 63)}}\n`
		]);
		expect(reply).toBe('Unable to parse data\n');
	});
});

describe('order ids with control characters', () => {
	const why = (id: string) =>
		`expected an id without control characters or line breaks (a TCP reply is the id on one line), got ${JSON.stringify(id)}`;

	it('HTTP: 422 naming id on create, update, partial, cancel and the takeout notifications', async () => {
		for (const [method, path, body] of [
			['POST', ORDERS, order('A\nB')],
			['PUT', ORDERS, order('A\rB')],
			['PUT', PARTIAL, { id: 'A\u2028B' }],
			['PUT', CANCEL, { id: 'A\tB' }],
			['POST', ARRIVED, { id: 'A\u0000' }],
			['POST', ETA, { id: 'A\nB', minutes: 5 }]
		] as const) {
			const res = await call(method, path, JSON.stringify(body));
			expect([path, res.status, res.body]).toEqual([
				path,
				422,
				{
					code: 'VALIDATION_FAILED',
					message: `id: ${why(body.id)}`,
					errors: [{ path: 'id', message: why(body.id) }]
				}
			]);
		}
		expect(agent.engine.screen(SCREEN)!.state.orders.size).toBe(0);
	});

	it('TCP: Unable to parse data, so a line-reading client stays in step', async () => {
		const { host, port } = tcp();
		expect(await sendTcp(host, port, { command: 'create-order', order: order('A\nB') })).toBe(
			'Unable to parse data'
		);
		const lines = [order('A\nB'), order('OK1')]
			.map((o) => JSON.stringify({ command: 'create-order', order: o }))
			.join('\n');
		expect(await sendTcpRaw(host, port, [`${lines}\n`])).toBe('Unable to parse data\nOK1\n');
		expect([...agent.engine.screen(SCREEN)!.state.orders.keys()]).toEqual(['OK1']);
	});
});

describe('bounded numbers and pop-up length', () => {
	it('minutes past a day is 422 naming minutes; a day is accepted', async () => {
		await call('POST', ORDERS, JSON.stringify(order('E1')));
		const huge = await call('POST', ETA, '{"id":"E1","minutes":9007199254740991}');
		expect([huge.status, huge.body.message]).toEqual([
			422,
			'minutes: expected at most 1440 minutes (24 hours); a later arrival is a pickupTime'
		]);
		const day = await call('POST', ETA, '{"id":"E1","minutes":1440}');
		expect(day.status).toBe(202);
	});

	it('send-message counts characters as code points: 1,500 emoji are accepted, 2,001 refused', async () => {
		const ok = await call('POST', MESSAGE, JSON.stringify({ message: '🍔'.repeat(1500) }));
		expect(ok.status).toBe(202);
		const full = await call('POST', MESSAGE, JSON.stringify({ message: '🍟'.repeat(2000) }));
		expect(full.status).toBe(202);
		const over = await call('POST', MESSAGE, JSON.stringify({ message: '🍔'.repeat(2001) }));
		expect([over.status, over.body.message]).toEqual([
			422,
			'message: expected at most 2000 characters'
		]);
	});
});

describe('refusals are "what to fix" sentences with field paths, never zod text', () => {
	const ZOD_TEXT = /Invalid input|Invalid option|received|Too (big|small)|Unrecognized/;
	const bodies = [
		'null',
		'"text"',
		'42',
		'{}',
		'{"id":"A","retry":"soon","itemsToAdd":[5],"costs":5,"items":{},"deliveryService":[]}',
		'{"id":"A","minutes":"5","message":{},"itemsToUpdate":"x","itemsToRemove":[{}]}',
		'{"id":"A","costs":{"additionalFees":{},"promoCodes":[1]},"items":[{"itemGroup":"g"}]}'
	];

	it('on every integrator route that takes a body', async () => {
		let refused = 0;
		for (const [method, path] of [
			['POST', ORDERS],
			['PUT', ORDERS],
			['PUT', PARTIAL],
			['PUT', CANCEL],
			['POST', ARRIVED],
			['POST', ETA],
			['POST', MESSAGE]
		] as const) {
			for (const raw of bodies) {
				const res = await call(method, path, raw);
				const where = `${method} ${path} ${raw}`;
				// A body a route takes as it is (a cancel ignores other fields) is not refused here.
				if (res.status === 404 || res.status === 202) continue;
				refused++;
				expect(res.status, where).toBe(422);
				expect(res.body.code, where).toBe('VALIDATION_FAILED');
				expect(res.body.message, where).not.toMatch(ZOD_TEXT);
				for (const error of res.body.errors ?? []) {
					expect(error.message, where).toMatch(/^(expected|required)\b/);
					expect(res.body.message, where).toContain(
						error.path ? `${error.path}: ${error.message}` : error.message
					);
				}
			}
		}
		expect(refused).toBeGreaterThan(40);
	});

	it('on the simulator and admin APIs: malformed JSON is the one error shape, not a parser message', async () => {
		for (const [path, raw] of [
			[`/api/screens/${SCREEN}/actions`, '{"action":'],
			['/api/admin/messages/1/resend', '{"screen":'],
			[`/api/screens/${SCREEN}/actions`, '[]']
		] as const) {
			const res = await fetch(`${agent.httpUrl}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: raw
			});
			const body = (await res.json()) as { code: string; message: string };
			expect(body.message, `${path} ${raw}`).toMatch(/^(body|action|screen): /);
			expect(body.message).not.toMatch(ZOD_TEXT);
			expect(Object.keys(body).sort()).toEqual(
				res.status === 422 ? ['code', 'errors', 'message'] : ['code', 'message']
			);
		}
	});
});
