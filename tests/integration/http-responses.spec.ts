/**
 * Every JSON route answers what it declares: each route of the integrator API, the simulator API,
 * the admin API and /health is driven through its successes and its refusals over real HTTP, and
 * every real body is checked against the schema the route declares for that status
 * (agent/http/responses.ts, the routes' Fastify response schemas). The last test fails when a
 * declared status was never seen, so a new route or status needs a case here. The OpenAPI
 * document (valid per http-openapi.spec.ts) is checked to give each status of each integrator
 * route the same schema.
 */
import Fastify from 'fastify';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type * as z from 'zod';
import type { RunningAgent } from '../../agent/app.ts';
import { registerHealth } from '../../agent/http/health.ts';
import { METHODS } from '../../agent/http/integrators/paths.ts';
import { CallbackSchema } from '../../agent/http/integrators/openapi.ts';
import { COMPONENTS } from '../../agent/http/openapi-document.ts';
import { ROUTE_RESPONSES, type RouteKey } from '../../agent/http/responses.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const ADMIN = 'admin-token-responses';
const start = startTestAgent;

let agent: RunningAgent;
/** Off loopback in effect: loopback is not trusted, so a caller without the token is refused. */
let guarded: RunningAgent;
const sockets: WebSocket[] = [];
beforeAll(async () => {
	[agent, guarded] = await Promise.all([
		start(),
		start({ trustLoopback: false, adminToken: ADMIN })
	]);
});
afterAll(async () => {
	for (const ws of sockets) ws.terminate();
	await Promise.all([agent.close(), guarded.close()]);
});

/** `METHOD route` → the statuses seen, each checked against its declared schema. */
const seen = new Map<RouteKey, Set<number>>();

function check(route: RouteKey, status: number, body: unknown): void {
	const declared = (ROUTE_RESPONSES[route] as Record<number, z.ZodType>)[status];
	expect(declared, `${route} answered ${status}, which it does not declare`).toBeDefined();
	const result = declared.safeParse(body);
	expect(
		result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
		`${route} ${status}: ${JSON.stringify(body).slice(0, 400)}`
	).toEqual([]);
	let statuses = seen.get(route);
	if (!statuses) seen.set(route, (statuses = new Set()));
	statuses.add(status);
}

interface Call {
	/** The path as sent; default: the route's own path. */
	url?: string;
	body?: unknown;
	/** A body sent as is. */
	raw?: string;
	contentType?: string;
	headers?: Record<string, string>;
	on?: RunningAgent;
}

/** A JSON body, read freely: call() has checked it against its route's schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Call `route`, check the answer against its declaration for the status, return the status. */
async function call(route: RouteKey, options: Call = {}): Promise<{ status: number; body: Json }> {
	const [method, path] = route.split(' ');
	const on = options.on ?? agent;
	const text =
		options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	const res = await fetch(`${on.httpUrl}${options.url ?? path}`, {
		method,
		headers: {
			...(text === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
			...options.headers
		},
		body: text
	});
	const raw = await res.text();
	const body = raw === '' ? undefined : JSON.parse(raw);
	if (res.status !== 204) check(route, res.status, body);
	return { status: res.status, body };
}

const TOKEN = () => ({
	'x-integration-token': agent.token,
	'x-location-id': 'loc-1',
	'x-device-ids': 'kds-1'
});
const order = (id: string, extra: object = {}) => ({
	id,
	name: 'Maria',
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	phoneNumber: '+15555550123',
	items: [
		{ lineId: '1', name: 'Burger', qty: 1, mods: ['No onions'], course: '1' },
		{
			lineId: '2',
			name: 'Fries',
			qty: 2,
			mods: [],
			itemGroup: { id: 'g1', name: 'Combo', note: 'large' }
		}
	],
	...extra
});

async function browser(screen: string): Promise<void> {
	const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=${screen}`);
	sockets.push(ws);
	await new Promise((resolve, reject) => ws.once('message', resolve).once('error', reject));
}

const ORDERS = 'POST /integrators/kds-orders';
const UPDATE = 'PUT /integrators/kds-orders';
const PARTIAL = 'PUT /integrators/kds-orders/partial';
const CANCEL = 'PUT /integrators/kds-orders/cancel';
const ACTIVE = 'GET /integrators/kds-orders/active';
const ARRIVED = 'POST /integrators/kds-notifications/customer-arrived';
const ETA = 'POST /integrators/kds-notifications/estimated-arrival-update';
const MESSAGE = 'POST /integrators/kds-notifications/send-message';
const WRITES = [ORDERS, UPDATE, PARTIAL, CANCEL, ARRIVED, ETA, MESSAGE] as const;

describe('integrator API', () => {
	it('order writes: created, updated, partly updated, cancelled', async () => {
		const headers = { ...TOKEN(), 'x-device-ids': 'all' };
		expect((await call(ORDERS, { headers, body: order('R-1') })).status).toBe(201);
		expect((await call(UPDATE, { headers, body: order('R-1', { name: 'Mia' }) })).status).toBe(200);
		expect((await call(PARTIAL, { headers, body: { id: 'R-1', priority: true } })).status).toBe(
			200
		);
		expect((await call(ORDERS, { headers, body: order('R-2') })).status).toBe(201);
		expect((await call(CANCEL, { headers, body: { id: 'R-2' } })).status).toBe(200);
	});

	it('every write refuses: no token, missing header, bad JSON, wrong type, too large, bad body, unknown screen', async () => {
		for (const route of WRITES) {
			const body = route === MESSAGE ? { message: 'hi' } : { id: 'R-1', minutes: 5 };
			const headers = TOKEN();
			expect((await call(route, { body })).status).toBe(401);
			const noDevices = { ...headers, 'x-device-ids': '' };
			expect((await call(route, { body, headers: noDevices })).status).toBe(400);
			expect((await call(route, { raw: '{"id":', headers })).status).toBe(400);
			expect((await call(route, { raw: 'id=1', contentType: 'text/plain', headers })).status).toBe(
				415
			);
			const large = JSON.stringify({ id: 'x'.repeat(1024 * 1024) });
			expect((await call(route, { raw: large, headers })).status).toBe(413);
			expect((await call(route, { body: { id: 7, message: 7 }, headers })).status).toBe(422);
			const unknown = { ...headers, 'x-device-ids': 'kds-9' };
			expect((await call(route, { body, headers: unknown })).status).toBe(404);
		}
	});

	it('a duplicate create is 409; an update of an order on no screen is 404', async () => {
		const headers = TOKEN();
		await call(ORDERS, { headers, body: order('D-1') });
		expect((await call(ORDERS, { headers, body: order('D-1') })).status).toBe(409);
		for (const route of [UPDATE, PARTIAL, CANCEL] as const) {
			const body = route === UPDATE ? order('NONE') : { id: 'NONE' };
			expect((await call(route, { headers, body })).status).toBe(404);
		}
	});

	it('active orders: the cards, and every refusal', async () => {
		const headers = { ...TOKEN(), 'x-device-ids': 'kds-1,kds-2' };
		const { status, body } = await call(ACTIVE, { headers });
		expect(status).toBe(200);
		expect(body[0].orderCount).toBeGreaterThan(0);
		expect((await call(ACTIVE)).status).toBe(401);
		expect((await call(ACTIVE, { headers: { ...headers, 'x-location-id': '' } })).status).toBe(400);
		expect((await call(ACTIVE, { headers: { ...headers, 'x-location-id': 'loc-9' } })).status).toBe(
			404
		);
	});

	it('information: locations with screens, locations, screens of one; 401 and 404', async () => {
		const headers = { 'x-integration-token': agent.token };
		const info = await call('GET /integrators/kds-information', { headers });
		expect(info.body[0].devices).toHaveLength(2);
		expect((await call('GET /integrators/kds-information')).status).toBe(401);
		expect((await call('GET /integrators/kds-information/locations', { headers })).status).toBe(
			200
		);
		expect((await call('GET /integrators/kds-information/locations')).status).toBe(401);
		const devices = 'GET /integrators/kds-information/locations/:locationId/devices';
		const url = '/integrators/kds-information/locations/loc-1/devices';
		expect((await call(devices, { url, headers })).status).toBe(200);
		expect((await call(devices, { url })).status).toBe(401);
		expect((await call(devices, { url: url.replace('loc-1', 'loc-9'), headers })).status).toBe(404);
	});

	it('notifications: 200 where a browser shows the screen, 202 queued, 404 where the order is not', async () => {
		const headers = { ...TOKEN(), 'x-device-ids': 'kds-1,kds-2' };
		await call(ORDERS, { headers, body: order('N-1') });
		await call(ORDERS, { headers: TOKEN(), body: order('N-2') });
		// No browser: queued on both screens; the outcome is posted once a browser opens one.
		const receiver = await startReceiver('/outcome');
		const retry = { notificationUrl: receiver.url };
		expect((await call(ARRIVED, { headers, body: { id: 'N-1', retry } })).status).toBe(202);
		expect((await call(ETA, { headers, body: { id: 'N-1', minutes: 5 } })).status).toBe(202);
		expect((await call(MESSAGE, { headers, body: { message: 'Rush' } })).status).toBe(202);
		await browser('kds-1');
		await browser('kds-2');
		const callbacks = (await receiver.waitFor(2)).map((r) => r.body);
		await receiver.close();
		for (const body of callbacks) {
			const result = CallbackSchema.safeParse(body);
			expect(result.success ? [] : result.error.issues).toEqual([]);
		}
		expect(callbacks).toMatchObject([{ outcome: 'delivered' }, { outcome: 'delivered' }]);
		// N-2 is on kds-1 only: SUCCESS there, ORDER_DOES_NOT_EXIST on kds-2.
		const partly = await call(ARRIVED, { headers, body: { id: 'N-2' } });
		expect(partly.status).toBe(200);
		expect(partly.body.deliveryStatuses.map((s: { status: string }) => s.status)).toEqual([
			'SUCCESS',
			'ORDER_DOES_NOT_EXIST'
		]);
		expect((await call(ETA, { headers, body: { id: 'N-1', minutes: 3 } })).status).toBe(200);
		expect((await call(MESSAGE, { headers, body: { message: 'Eighty-six fries' } })).status).toBe(
			200
		);
		expect((await call(ARRIVED, { headers, body: { id: 'NONE' } })).status).toBe(404);
		expect((await call(ETA, { headers, body: { id: 'NONE', minutes: 1 } })).status).toBe(404);
	});
});

describe('simulator API', () => {
	it('locations, a screen, its state, its notifications', async () => {
		expect((await call('GET /api/locations')).body[0].screens).toHaveLength(2);
		const screen = 'GET /api/screens/:id';
		expect((await call(screen, { url: '/api/screens/kds-1' })).status).toBe(200);
		expect((await call(screen, { url: '/api/screens/nope' })).status).toBe(404);
		const state = 'GET /api/screens/:id/state';
		const snapshot = await call(state, { url: '/api/screens/kds-1/state' });
		expect(snapshot.body.records.length).toBeGreaterThan(0);
		expect((await call(state, { url: '/api/screens/nope/state' })).status).toBe(404);
		const notes = 'GET /api/screens/:id/notifications';
		const got = await call(notes, { url: '/api/screens/kds-1/notifications' });
		expect(got.body.popups.length).toBeGreaterThan(0);
		expect((await call(notes, { url: '/api/screens/nope/notifications' })).status).toBe(404);
	});

	it('actions: done, refused, malformed, unknown screen', async () => {
		const route = 'POST /api/screens/:id/actions';
		const url = '/api/screens/kds-1/actions';
		expect((await call(route, { url, body: { action: 'bump', orderId: 'R-1' } })).status).toBe(200);
		expect((await call(route, { url, body: { action: 'bump', orderId: 'R-1' } })).status).toBe(409);
		expect((await call(route, { url, body: { action: 'dance' } })).status).toBe(422);
		expect((await call(route, { url, raw: '{"action":' })).status).toBe(400);
		const unknown = { url: '/api/screens/nope/actions', body: { action: 'recall' } };
		expect((await call(route, unknown)).status).toBe(404);
	});

	it('removing a screen: done, then unknown', async () => {
		const route = 'DELETE /api/admin/screens/:id';
		const removable = await start({
			config: {
				brands: [
					{
						id: 'b',
						name: 'Brand',
						token: 'remove-token-1',
						locations: [
							{
								id: 'loc-1',
								name: 'Kitchen',
								screens: [{ id: 'x-1', name: 'Fryer', tcp: { port: 0 } }]
							}
						]
					}
				]
			}
		});
		try {
			const url = '/api/admin/screens/x-1';
			expect((await call(route, { url, on: removable })).body).toEqual({ removed: 'x-1' });
			expect((await call(route, { url, on: removable })).status).toBe(404);
		} finally {
			await removable.close();
		}
	});

	it('rush: started, refused while running, invalid, stopped (on an agent of its own)', async () => {
		const own = await start({});
		try {
			const post = 'POST /api/admin/rush';
			const body = { rate: 1, duration: 600, seed: 5 };
			expect((await call(post, { body, on: own })).body).toEqual({ running: true, seed: 5 });
			expect((await call(post, { body, on: own })).status).toBe(409);
			expect((await call(post, { body: { rate: 'fast' }, on: own })).status).toBe(422);
			const stopped = await call('DELETE /api/admin/rush', { on: own });
			expect(stopped.body.stopped).toBe(true);
			expect(stopped.body.summary.orders).toBe(1);
		} finally {
			await own.close();
		}
	});

	it('clear now: a location (on an agent of its own), an unknown one', async () => {
		const route = 'POST /api/admin/locations/:id/clear';
		const own = await start({});
		try {
			const url = '/api/admin/locations/loc-1/clear';
			expect((await call(route, { url, on: own })).body).toEqual({
				location: 'loc-1',
				cleared: 0,
				nextAutoClear: null
			});
			expect((await call(route, { url: '/api/admin/locations/nope/clear', on: own })).status).toBe(
				404
			);
		} finally {
			await own.close();
		}
	});

	it('order tracker: a location, an unknown one', async () => {
		const route = 'GET /api/tracker/:location';
		const board = await call(route, { url: '/api/tracker/loc-1' });
		expect(board.body.location).toEqual({
			id: 'loc-1',
			name: 'Demo Kitchen',
			timezone: 'America/Chicago'
		});
		expect((await call(route, { url: '/api/tracker/nope' })).status).toBe(404);
	});

	it('communication rules: set, refused, invalid, unknown screen (then set back)', async () => {
		const route = 'PUT /api/admin/screens/:id/communication';
		const put = (id: string, body: object) =>
			call(route, { url: `/api/admin/screens/${id}/communication`, body });
		const expo = await put('kds-2', { role: 'expo', reconnectSeconds: 0 });
		expect(expo.body).toEqual({ id: 'kds-2', role: 'expo', bumpsTo: [], reconnectingUntil: null });
		expect(
			(await put('kds-1', { role: 'station', bumpsTo: ['kds-2'], reconnectSeconds: 0 })).status
		).toBe(200);
		expect((await put('kds-1', { role: 'station', bumpsTo: ['kds-1'] })).status).toBe(409);
		expect((await put('kds-1', { role: 'pass' })).status).toBe(422);
		expect((await put('nope', { role: 'station' })).status).toBe(404);
		expect((await put('kds-1', { role: 'station', reconnectSeconds: 0 })).status).toBe(200);
		expect((await put('kds-2', { role: 'station', reconnectSeconds: 0 })).status).toBe(200);
	});

	it('pop-up acknowledgement: done, not open, unknown screen', async () => {
		const route = 'POST /api/screens/:id/popups/:popupId/ack';
		const notes = await call('GET /api/screens/:id/notifications', {
			url: '/api/screens/kds-2/notifications'
		});
		const id = notes.body.popups[0].id;
		expect((await call(route, { url: `/api/screens/kds-2/popups/${id}/ack` })).status).toBe(200);
		expect((await call(route, { url: `/api/screens/kds-2/popups/${id}/ack` })).status).toBe(404);
		expect((await call(route, { url: `/api/screens/nope/popups/${id}/ack` })).status).toBe(404);
	});

	it('ready for pickup: done (again too), an order not on the screen, unknown screen', async () => {
		const route = 'POST /api/screens/:id/orders/:orderId/ready';
		await call(ORDERS, { headers: TOKEN(), body: order('P-1') });
		const url = '/api/screens/kds-1/orders/P-1/ready';
		expect((await call(route, { url })).status).toBe(200);
		expect((await call(route, { url })).status).toBe(200);
		expect((await call(route, { url: '/api/screens/kds-2/orders/P-1/ready' })).status).toBe(409);
		expect((await call(route, { url: '/api/screens/nope/orders/P-1/ready' })).status).toBe(404);
	});

	it('texts: the outbox, and a bad filter', async () => {
		const { body } = await call('GET /api/sms');
		expect(body.length).toBeGreaterThan(0);
		const bad = await call('GET /api/sms', { url: '/api/sms?kind=fax&limit=0' });
		expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['kind', 'limit']);
	});

	it('sign-in: whether this browser passes, a wrong token, no token', async () => {
		expect((await call('GET /api/access')).body).toEqual({ granted: true });
		const signIn = 'POST /api/access';
		expect((await call(signIn, { body: { token: 'wrong' }, on: guarded })).status).toBe(403);
		expect((await call(signIn, { body: {}, on: guarded })).status).toBe(422);
		expect((await call(signIn, { body: { token: ADMIN }, on: guarded })).status).toBe(204);
	});
});

describe('admin API', () => {
	it('integration: each brand with its token, locations and TCP ports', async () => {
		const { body } = await call('GET /api/admin/integration');
		expect(body.brands[0]).toMatchObject({ token: 'kds-demo-token' });
		const screens = body.brands[0].locations[0].screens;
		expect(screens[0]).toMatchObject({ id: 'kds-1', tcp: agent.screens[0].tcp });
	});

	it('screens as JSON: all, one, unknown', async () => {
		const all = await call('GET /api/admin/screens');
		expect(all.body[0].cards.length).toBeGreaterThan(0);
		const one = 'GET /api/admin/screens/:id';
		expect((await call(one, { url: '/api/admin/screens/kds-1' })).body.sms.length).toBeGreaterThan(
			0
		);
		expect((await call(one, { url: '/api/admin/screens/nope' })).status).toBe(404);
	});

	it('the log: filtered, and a bad query', async () => {
		const route = 'GET /api/admin/messages';
		const { body } = await call(route, { url: '/api/admin/messages?screen=kds-1&limit=50' });
		expect(body.length).toBeGreaterThan(0);
		const bad = await call(route, { url: '/api/admin/messages?severity=loud' });
		expect(bad.status).toBe(422);
	});

	it('re-send: as it came, edited, a bad body, not in the log', async () => {
		const route = 'POST /api/admin/messages/:id/resend';
		const [entry] = (await call('GET /api/admin/messages', { url: '/api/admin/messages?limit=1' }))
			.body;
		const url = `/api/admin/messages/${entry.id}/resend`;
		expect((await call(route, { url })).status).toBe(200);
		expect((await call(route, { url, body: { payload: '{}' } })).status).toBe(200);
		expect((await call(route, { url, body: { payload: 7 } })).status).toBe(400);
		expect((await call(route, { url: '/api/admin/messages/999999/resend' })).status).toBe(404);
	});

	it('reset: one screen, an unknown screen, all', async () => {
		const route = 'POST /api/admin/reset';
		expect((await call(route, { body: { screen: 'kds-2' } })).body).toEqual({ reset: 'kds-2' });
		expect((await call(route, { body: { screen: 'nope' } })).status).toBe(404);
		expect((await call(route)).body).toEqual({ reset: 'all' });
	});
});

describe('admin API: webhooks (docs/webhooks.md)', () => {
	it('endpoints added, listed, their deliveries listed and re-sent, removed; the refusals', async () => {
		const receiver = await startReceiver('/hook');
		try {
			const add = 'POST /api/admin/webhooks';
			const added = await call(add, {
				body: { url: receiver.url, secondsBetweenAttempts: 1 }
			});
			expect(added.status).toBe(201);
			expect((await call(add, { body: { url: 'nope' } })).status).toBe(422);
			expect((await call(add, { raw: '{', contentType: 'application/json' })).status).toBe(400);
			const list = 'GET /api/admin/webhooks';
			expect((await call(list)).body.map((e: Json) => e.id)).toContain(added.body.id);
			expect((await call(list, { url: '/api/admin/webhooks?brand=a&brand=b' })).status).toBe(422);

			await call(ORDERS, { body: order('WH-1'), headers: TOKEN() });
			const deliveries = 'GET /api/admin/webhooks/:id/deliveries';
			const url = `/api/admin/webhooks/${added.body.id}/deliveries`;
			let log: Json[] = [];
			for (let i = 0; i < 100 && log[0]?.status !== 'delivered'; i++) {
				await new Promise((r) => setTimeout(r, 30));
				log = (await call(deliveries, { url })).body;
			}
			expect(log[0]).toMatchObject({
				event: 'KDS Order Created',
				order: 'WH-1',
				status: 'delivered'
			});
			expect((await call(deliveries, { url: `${url}?status=sent` })).status).toBe(422);
			expect((await call(deliveries, { url: '/api/admin/webhooks/nope/deliveries' })).status).toBe(
				404
			);
			const resend = 'POST /api/admin/webhooks/deliveries/:id/resend';
			const again = await call(resend, {
				url: `/api/admin/webhooks/deliveries/${log[0].id}/resend`
			});
			expect(again.status).toBe(201);
			expect(
				(await call(resend, { url: '/api/admin/webhooks/deliveries/nope/resend' })).status
			).toBe(404);
			await agent.webhooks.idle();
			const remove = 'DELETE /api/admin/webhooks/:id';
			const gone = await call(remove, { url: `/api/admin/webhooks/${added.body.id}` });
			expect(gone.body).toEqual({ removed: added.body.id });
			expect((await call(remove, { url: `/api/admin/webhooks/${added.body.id}` })).status).toBe(
				404
			);
		} finally {
			await receiver.close();
		}
	});
});

describe('guarded routes', () => {
	it('refuse a caller without access with the declared error', async () => {
		const routes = Object.keys(ROUTE_RESPONSES).filter(
			(route) => 403 in ROUTE_RESPONSES[route as RouteKey] && route !== 'POST /api/access'
		) as RouteKey[];
		expect(routes.length).toBeGreaterThan(5);
		for (const route of routes) {
			const url = route
				.split(' ')[1]
				.replace(':id', 'kds-1')
				.replace(':popupId', 'p')
				.replace(':orderId', 'o');
			expect([
				route,
				(await call(route, { url, on: guarded, body: route.startsWith('POST') ? {} : undefined }))
					.status
			]).toEqual([route, 403]);
		}
	});
});

describe('GET /health', () => {
	it('200 while every screen listens, with no token or a valid one', async () => {
		expect((await call('GET /health')).body.status).toBe('ok');
		const withToken = await call('GET /health', {
			headers: { 'x-integration-token': agent.token }
		});
		expect(withToken.status).toBe(200);
	});

	it('401 for a token that is present but not valid', async () => {
		const res = await call('GET /health', { headers: { 'x-integration-token': 'not-a-token' } });
		expect(res).toEqual({
			status: 401,
			body: { code: 'UNAUTHORIZED', message: 'x-integration-token: not a valid integration token' }
		});
	});

	it('503 when a listener is closed (the route as the agent registers it)', async () => {
		const app = Fastify();
		registerHealth(app, () => [
			{
				id: 'kds-1',
				name: 'Grill',
				locationId: 'loc-1',
				tcp: { host: '::1', port: 1 },
				listening: false
			}
		]);
		const res = await app.inject({ method: 'GET', url: '/health' });
		await app.close();
		expect(res.statusCode).toBe(503);
		check('GET /health', 503, res.json());
	});
});

describe('remote screens (docs/fleet.md)', () => {
	it('an order write no screen took: 502 with every screen status; the screen marked remote', async () => {
		// A remote screen whose simulator is not there: nothing listens on its endpoint.
		const closed = await new Promise<number>((resolve) => {
			const probe = createTcpServer().listen(0, '127.0.0.1', () => {
				const { port } = probe.address() as { port: number };
				probe.close(() => resolve(port));
			});
		});
		const fleet = await start({
			remoteLink: { retryMs: 100, maxRetryMs: 200, connectTimeoutMs: 500 },
			discoveryListen: { bind: '127.0.0.1', port: 0 },
			config: {
				brands: [
					{
						id: 'b',
						name: 'Brand',
						token: 'fleet-token-1',
						locations: [
							{
								id: 'loc-1',
								name: 'Kitchen',
								screens: [
									{
										id: 'pi-1',
										name: 'Fryer',
										tcp: { host: '127.0.0.1', port: closed },
										remote: { url: `http://127.0.0.1:${closed}` }
									}
								]
							}
						]
					}
				]
			}
		});
		try {
			const headers = {
				'x-integration-token': 'fleet-token-1',
				'x-location-id': 'loc-1',
				'x-device-ids': 'pi-1'
			};
			const routes = [
				['POST /integrators/kds-orders', order('R-1')],
				['PUT /integrators/kds-orders', order('R-1')],
				['PUT /integrators/kds-orders/partial', { id: 'R-1', name: 'Kim' }],
				['PUT /integrators/kds-orders/cancel', { id: 'R-1' }]
			] as const;
			for (const [route, body] of routes) {
				const res = await call(route, { on: fleet, headers, body });
				expect(res.status, route).toBe(502);
				expect(res.body.code).toBe('NOT_DELIVERED');
				expect(res.body.deliveryStatuses[0]).toMatchObject({
					device: 'pi-1',
					status: 'UNREACHABLE'
				});
			}
			const [location] = (await call('GET /api/locations', { on: fleet })).body;
			expect(location.screens[0].remote).toEqual({
				url: `http://127.0.0.1:${closed}`,
				state: expect.stringMatching(/^(connecting|unreachable)$/)
			});
			const heard = await call('GET /api/discovered', { on: fleet });
			expect(heard.body).toEqual({ listening: true, adoptingInto: null, screens: [] });
			const remove = 'DELETE /api/admin/screens/:id';
			expect((await call(remove, { url: '/api/admin/screens/pi-1', on: fleet })).status).toBe(409);
		} finally {
			await fleet.close();
		}
	});
});

describe('declarations', () => {
	it('every declared status of every route was answered above', () => {
		const missing = Object.entries(ROUTE_RESPONSES).flatMap(([route, responses]) =>
			Object.keys(responses)
				.map(Number)
				.filter((status) => !seen.get(route as RouteKey)?.has(status))
				.map((status) => `${route} ${status}`)
		);
		expect(missing).toEqual([]);
	});

	it('every integrator route is declared, and the OpenAPI document gives each status the same schema (the simulator and admin routes too)', async () => {
		const doc = (await (await fetch(`${agent.httpUrl}/openapi.json`)).json()) as {
			paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
			components: { responses: Record<string, Json> };
		};
		const byId = new Map(COMPONENTS.map(([id, schema]) => [id, schema]));
		const documentedAdmin = Object.entries(doc.paths).flatMap(([path, item]) =>
			Object.entries(item)
				.filter(([, op]) =>
					['Simulator', 'Admin'].includes((op as unknown as { tags: string[] }).tags[0])
				)
				.filter(
					([method]) =>
						!['get /api/admin/messages/stream', 'get /api/admin/messages/session'].includes(
							`${method} ${path}`
						)
				)
				.map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)
		);
		expect(documentedAdmin.length).toBe(16);
		const routes = [
			'GET /health',
			...Object.entries(METHODS).flatMap(([path, methods]) => methods.map((m) => `${m} ${path}`)),
			...documentedAdmin
		];
		for (const route of routes) {
			const declared = ROUTE_RESPONSES[route as RouteKey] as Record<number, z.ZodType>;
			expect(declared, route).toBeDefined();
			const [method, path] = route.split(' ');
			const operation = doc.paths[path.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()];
			expect([route, Object.keys(operation.responses).sort()]).toEqual([
				route,
				Object.keys(declared).sort()
			]);
			for (const [status, answer] of Object.entries(operation.responses)) {
				const response = answer.$ref
					? doc.components.responses[answer.$ref.split('/').pop()]
					: answer;
				const schema = response.content['application/json'].schema;
				const id = (schema.$ref ?? schema.items.$ref).split('/').pop();
				const zod = declared[Number(status)];
				const expected = schema.items ? (zod as z.ZodArray).element : zod;
				expect([route, status, byId.get(id) === expected]).toEqual([route, status, true]);
			}
		}
	});
});
