/**
 * The notification routes over real HTTP (contract 2.13, 4.4, 6, 8): the takeout state and
 * pop-ups that reach the browsers (simulated with WebSocket clients), the answers and refusals,
 * tenancy, the retry queue for screens no browser shows, the callback with its outcome (and
 * callback receivers that fail, hang or are not there), and the queue across a restart. Time is
 * a ManualClock: nothing here waits for minutes.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { ManualClock } from '../../agent/clock.ts';
import {
	DEFAULT_EXPIRATION_MS,
	RETRY_INTERVAL_MS,
	type CallbackBody
} from '../../agent/notify/notification-state.ts';
import { WEBHOOK_BACKOFF_MS, WEBHOOK_TIMEOUT_MS } from '../../agent/notify/webhook.ts';
import type { NotificationState, ServerMessage } from '#core/relay';
import { sendTcp } from '../helpers/tcp.ts';

const ALPHA = 'alpha-token-0001';
const BETA = 'beta-token-0002';
const T0 = Date.parse('2026-11-22T18:00:00Z');

const address = { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', zip: '62701' };
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
						{ id: 'a1-grill', name: 'Grill', tcp: { port: 0 } },
						{ id: 'a1-expo', name: 'Expo', tcp: { port: 0 } }
					]
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
					screens: [{ id: 'b1-line', name: 'Line', tcp: { port: 0 } }]
				}
			]
		}
	]
};

const ARRIVED = '/integrators/kds-notifications/customer-arrived';
const ETA = '/integrators/kds-notifications/estimated-arrival-update';
const MESSAGE = '/integrators/kds-notifications/send-message';

// ---- agents ----------------------------------------------------------------------------------

const running = new Set<RunningAgent>();
let agent: RunningAgent;
let clock: ManualClock;
/** Log lines of the current agent (info and up). */
let logs: string[];

async function start(options: AgentOptions = {}): Promise<RunningAgent> {
	logs = [];
	const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
	const started = await startTestAgent({
		config: CONFIG,
		logger,
		clock,
		...options
	});
	running.add(started);
	return started;
}

async function stop(which: RunningAgent): Promise<void> {
	running.delete(which);
	await which.close();
}

beforeEach(async () => {
	clock = new ManualClock(T0);
	agent = await start();
});
afterEach(async () => {
	for (const a of [...running]) await stop(a);
	for (const ws of sockets) ws.terminate();
	sockets.clear();
});

// ---- HTTP ------------------------------------------------------------------------------------

interface Answer {
	status: number;
	body: {
		code: string;
		message: string;
		errors: Array<{ path: string; message: string }>;
		notificationId: string;
		orderId?: string;
		deliveryStatuses: Array<{ device: string; status: string }>;
	};
}

async function post(
	path: string,
	body: unknown,
	headers: { token?: string; location?: string; devices?: string } = {},
	on: RunningAgent = agent
): Promise<Answer> {
	const res = await fetch(`${on.httpUrl}${path}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': headers.token ?? ALPHA,
			'x-location-id': headers.location ?? 'loc-a1',
			'x-device-ids': headers.devices ?? 'a1-grill'
		},
		body: JSON.stringify(body)
	});
	return { status: res.status, body: await res.json() };
}

const curbside = (id: string) => ({
	id,
	name: `Guest ${id}`,
	time: new Date(T0).toISOString(),
	mode: 'Curbside',
	vehicleModel: 'Toyota Prius',
	vehicleColor: 'Silver',
	items: [{ lineId: '1', name: 'Family Meal', qty: 1, mods: [] }]
});

async function createOrder(id: string, devices = 'a1-grill', on: RunningAgent = agent) {
	const res = await post('/integrators/kds-orders', curbside(id), { devices }, on);
	expect(res.status).toBe(201);
}

async function stateOf(screen: string, on: RunningAgent = agent) {
	const res = await fetch(`${on.httpUrl}/api/screens/${screen}/notifications`);
	return (await res.json()) as NotificationState & { deliveries: unknown[] };
}

// ---- browsers --------------------------------------------------------------------------------

const sockets = new Set<WebSocket>();
type Browser = Awaited<ReturnType<typeof browser>>;

/** A browser showing a screen: every message it got, and its latest notification state. */
async function browser(screen: string, on: RunningAgent = agent) {
	const ws = new WebSocket(`${on.httpUrl.replace('http', 'ws')}/ws?screen=${screen}`);
	sockets.add(ws);
	const messages: ServerMessage[] = [];
	ws.on('message', (data) => messages.push(JSON.parse(String(data))));
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
	await expect.poll(() => messages.length).toBeGreaterThan(0);
	return {
		ws,
		messages,
		/** What this browser shows: the last notifications message, or its snapshot's. */
		shows(): NotificationState | undefined {
			for (let i = messages.length - 1; i >= 0; i--) {
				const m = messages[i];
				if (m.type === 'notifications') return { takeout: m.takeout, popups: m.popups };
				if (m.type === 'snapshot') return m.notifications;
			}
			return undefined;
		},
		send: (message: object) => ws.send(JSON.stringify(message)),
		close: async () => {
			ws.close();
			await new Promise((resolve) => ws.once('close', resolve));
		}
	};
}

// ---- callback receivers ------------------------------------------------------------------------

type Mode = 'ok' | 'fail' | 'hang' | 'redirect-file';

interface Receiver {
	url: string;
	bodies: CallbackBody[];
	mode: Mode;
	/** Callbacks received in 'hang' mode and not answered yet. */
	readonly open: number;
	/** Answer every hanging callback with `status`. */
	release(status: number): void;
	close(): Promise<void>;
}

const receivers = new Set<Server>();
afterEach(async () => {
	for (const server of receivers) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
	receivers.clear();
});

async function receiver(mode: Mode = 'ok'): Promise<Receiver> {
	const bodies: CallbackBody[] = [];
	const hanging: ServerResponse[] = [];
	const state = { mode };
	const server = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			bodies.push(JSON.parse(text));
			if (state.mode === 'hang') return void hanging.push(res);
			if (state.mode === 'redirect-file') {
				res.writeHead(307, { location: 'file:///etc/passwd' }).end();
				return;
			}
			res.writeHead(state.mode === 'ok' ? 204 : 500).end();
		});
	});
	receivers.add(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/kds-callback?secret=s3cret`,
		bodies,
		get mode() {
			return state.mode;
		},
		set mode(m: Mode) {
			state.mode = m;
		},
		get open() {
			return hanging.filter((res) => !res.writableEnded && !res.destroyed).length;
		},
		release(status: number) {
			for (const res of hanging.splice(0)) if (!res.destroyed) res.writeHead(status).end();
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
			receivers.delete(server);
		}
	};
}

/** A URL where nothing listens. */
async function deadUrl(): Promise<string> {
	const r = await receiver();
	await r.close();
	return r.url;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Let what the clock set off run to its end, without sleeping: a callback that fell due starts
 * on the next turn of the event loop; then wait until no callback is in flight, so any callback
 * that was sent has reached its receiver.
 */
async function settle(on: RunningAgent = agent): Promise<void> {
	await new Promise((resolve) => setImmediate(resolve));
	await on.notifications.idle();
}

// ---- tests -----------------------------------------------------------------------------------

describe('customer arrived and estimated arrival update', () => {
	it('reach the browsers of a connected screen at once: 200 SUCCESS', async () => {
		await createOrder('C-1');
		const grill = await browser('a1-grill');

		const arrived = await post(ARRIVED, { id: 'C-1' });
		expect(arrived.status).toBe(200);
		expect(arrived.body).toEqual({
			notificationId: expect.any(String),
			orderId: 'C-1',
			deliveryStatuses: [{ device: 'a1-grill', status: 'SUCCESS' }]
		});
		await expect.poll(() => grill.shows()?.takeout).toEqual([{ orderId: 'C-1', arrivedAt: T0 }]);

		clock.advance(1000);
		const eta = await post(ETA, { id: 'C-1', minutes: 6 });
		expect(eta.status).toBe(200);
		await expect
			.poll(() => grill.shows()?.takeout)
			.toEqual([{ orderId: 'C-1', arrivedAt: T0, etaAt: T0 + 1000 + 6 * 60_000 }]);
	});

	it('a browser that opens later gets the takeout state in its snapshot', async () => {
		await createOrder('C-2');
		const first = await browser('a1-grill');
		expect((await post(ETA, { id: 'C-2', minutes: 0 })).status).toBe(200);
		await first.close();
		const later = await browser('a1-grill');
		const snapshot = later.messages[0];
		expect(snapshot.type).toBe('snapshot');
		expect(snapshot.type === 'snapshot' && snapshot.notifications?.takeout).toEqual([
			{ orderId: 'C-2', etaAt: T0 }
		]);
		expect((await stateOf('a1-grill')).takeout).toEqual([{ orderId: 'C-2', etaAt: T0 }]);
	});

	it('the shared samples are accepted', async () => {
		await createOrder('C-3107');
		await browser('a1-grill');
		const arrived = (await import('../fixtures/samples/http-notification-customer-arrived.json'))
			.default;
		const eta = (await import('../fixtures/samples/http-notification-eta.json')).default;
		const r = await receiver();
		const res = await post(ARRIVED, {
			...arrived,
			retry: { ...arrived.retry, notificationUrl: r.url }
		});
		expect(res.status).toBe(200);
		expect((await post(ETA, eta)).status).toBe(200);
		expect(r.bodies).toEqual([]); // delivered at once: the answer is the outcome, no callback
	});

	it('goes only to the named screens that have the order; 404 when none has it', async () => {
		await createOrder('C-3', 'a1-grill');
		await browser('a1-grill');
		await browser('a1-expo');
		const res = await post(ARRIVED, { id: 'C-3' }, { devices: 'all' });
		expect(res.status).toBe(200);
		expect(res.body.deliveryStatuses).toEqual([
			{ device: 'a1-grill', status: 'SUCCESS' },
			{ device: 'a1-expo', status: 'ORDER_DOES_NOT_EXIST' }
		]);
		expect((await stateOf('a1-expo')).takeout).toEqual([]);

		const missing = await post(ARRIVED, { id: 'nope' }, { devices: 'a1-grill,a1-expo' });
		expect(missing.status).toBe(404);
		expect(missing.body).toEqual({
			code: 'ORDER_DOES_NOT_EXIST',
			message: 'Could not update. No resource found',
			errors: [
				{ path: 'id', message: 'order "nope" is not on screen a1-grill' },
				{ path: 'id', message: 'order "nope" is not on screen a1-expo' }
			]
		});
		expect((await post(ETA, { id: 'nope', minutes: 3 })).status).toBe(404);
	});

	it('a bumped order is not live: 404', async () => {
		await createOrder('C-4');
		agent.engine.runAction('a1-grill', 'bump', 'C-4');
		await agent.engine.settled();
		expect((await post(ARRIVED, { id: 'C-4' })).status).toBe(404);
	});

	it('refuses bodies that break the schema with 422 naming each field', async () => {
		await createOrder('C-5');
		const cases: Array<[string, unknown, string[]]> = [
			[ARRIVED, {}, ['id']],
			[ARRIVED, { id: '' }, ['id']],
			[
				ARRIVED,
				{ id: 'C-5', retry: { notificationUrl: 'ftp://example.com/x' } },
				['retry.notificationUrl']
			],
			[
				ARRIVED,
				{ id: 'C-5', retry: { notificationUrl: 'javascript:alert(1)' } },
				['retry.notificationUrl']
			],
			[ARRIVED, { id: 'C-5', retry: { notificationUrl: '/relative' } }, ['retry.notificationUrl']],
			[ARRIVED, { id: 'C-5', retry: { expiration: 'tomorrow' } }, ['retry.expiration']],
			[ARRIVED, { id: 'C-5', retry: 'soon' }, ['retry']],
			[ETA, { id: 'C-5' }, ['minutes']],
			[ETA, { id: 'C-5', minutes: '6' }, ['minutes']],
			[ETA, { id: 'C-5', minutes: -1 }, ['minutes']],
			[ETA, { id: 'C-5', minutes: 1.5 }, ['minutes']],
			[MESSAGE, {}, ['message']],
			[MESSAGE, { message: '' }, ['message']],
			[MESSAGE, { message: '   ' }, ['message']],
			[MESSAGE, { message: 'x'.repeat(2001) }, ['message']],
			[MESSAGE, [], ['']]
		];
		for (const [path, body, fields] of cases) {
			const res = await post(path, body);
			expect([path, body, res.status]).toEqual([path, body, 422]);
			expect(res.body.code).toBe('VALIDATION_FAILED');
			expect(res.body.errors.map((e) => e.path)).toEqual(fields);
		}
		const url = await post(ARRIVED, { id: 'C-5', retry: { notificationUrl: 'ftp://x/y' } });
		expect(url.body.message).toBe(
			'retry.notificationUrl: expected an http:// or https:// URL, got "ftp://x/y"'
		);
	});

	it('keeps tenancy: another brand can neither notify nor learn about the order', async () => {
		await createOrder('C-6');
		const other = await post(ARRIVED, { id: 'C-6' }, { token: BETA });
		expect(other.status).toBe(404);
		expect(other.body.code).toBe('LOCATION_NOT_FOUND');
		const own = await post(
			ARRIVED,
			{ id: 'C-6' },
			{ token: BETA, location: 'loc-b1', devices: 'b1-line' }
		);
		expect(own.status).toBe(404);
		expect(own.body.code).toBe('ORDER_DOES_NOT_EXIST');
		const screen = await post(
			MESSAGE,
			{ message: 'hi' },
			{ token: BETA, location: 'loc-b1', devices: 'a1-grill' }
		);
		expect(screen.status).toBe(404);
		expect(screen.body.code).toBe('DEVICE_NOT_FOUND');
		const res = await fetch(`${agent.httpUrl}${ARRIVED}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"id":"C-6"}'
		});
		expect(res.status).toBe(401);
		expect((await stateOf('a1-grill')).takeout).toEqual([]);
		expect((await stateOf('a1-grill')).popups).toEqual([]);
	});

	it('answers 405 with Allow for another method', async () => {
		const res = await fetch(`${agent.httpUrl}${MESSAGE}`, {
			headers: { 'x-integration-token': ALPHA }
		});
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST, OPTIONS');
	});
});

describe('retry when no browser shows the screen', () => {
	it('queues (202 QUEUED); a browser opening within the expiration gets it; callback: delivered', async () => {
		const r = await receiver();
		await createOrder('R-1', 'a1-grill,a1-expo');
		await browser('a1-expo');
		const res = await post(
			ARRIVED,
			{ id: 'R-1', retry: { notificationUrl: r.url } },
			{ devices: 'a1-grill,a1-expo' }
		);
		expect(res.status).toBe(202);
		expect(res.body.deliveryStatuses).toEqual([
			{ device: 'a1-grill', status: 'QUEUED' },
			{ device: 'a1-expo', status: 'SUCCESS' }
		]);
		expect((await stateOf('a1-grill')).takeout).toEqual([]);
		expect((await stateOf('a1-grill')).deliveries).toHaveLength(1);

		clock.advance(3 * RETRY_INTERVAL_MS); // three retries, still nobody there
		expect(r.bodies).toEqual([]);
		const grill = await browser('a1-grill');
		expect(grill.shows()?.takeout).toEqual([{ orderId: 'R-1', arrivedAt: T0 }]);

		await expect.poll(() => r.bodies.length).toBe(1);
		expect(r.bodies[0]).toEqual({
			notificationId: res.body.notificationId,
			notification: 'customer-arrived',
			orderId: 'R-1',
			locationId: 'loc-a1',
			deviceId: 'a1-grill',
			outcome: 'delivered',
			attempts: 5,
			submittedAt: iso(T0),
			finishedAt: iso(T0 + 3 * RETRY_INTERVAL_MS),
			expiration: iso(T0 + DEFAULT_EXPIRATION_MS)
		});
		await expect.poll(() => agent.notifications.deliveries()).toEqual([]);
		clock.advance(DEFAULT_EXPIRATION_MS);
		await agent.notifications.idle();
		expect(r.bodies).toHaveLength(1);
	});

	it('the ETA of a late delivery still counts from when it was sent', async () => {
		await createOrder('R-2');
		expect((await post(ETA, { id: 'R-2', minutes: 5 })).status).toBe(202);
		clock.advance(60_000);
		const grill = await browser('a1-grill');
		expect(grill.shows()?.takeout).toEqual([{ orderId: 'R-2', etaAt: T0 + 5 * 60_000 }]);
	});

	it('never connected: callback "expired" two minutes after submission by default', async () => {
		const TWO_MINUTES = 2 * 60_000; // contract 8, not the constant: the test pins the default
		const r = await receiver();
		await createOrder('R-3');
		const res = await post(ETA, { id: 'R-3', minutes: 4, retry: { notificationUrl: r.url } });
		expect(res.status).toBe(202);
		clock.advance(TWO_MINUTES - 1);
		await settle();
		expect(r.bodies).toEqual([]);
		expect((await stateOf('a1-grill')).deliveries).toEqual([
			expect.objectContaining({ orderId: 'R-3', status: 'pending', expiresAt: T0 + TWO_MINUTES })
		]);
		clock.advance(1);
		await settle();
		expect(r.bodies).toEqual([
			{
				notificationId: res.body.notificationId,
				notification: 'estimated-arrival-update',
				orderId: 'R-3',
				locationId: 'loc-a1',
				deviceId: 'a1-grill',
				outcome: 'expired',
				attempts: TWO_MINUTES / RETRY_INTERVAL_MS,
				submittedAt: iso(T0),
				finishedAt: iso(T0 + TWO_MINUTES),
				expiration: iso(T0 + TWO_MINUTES),
				minutes: 4
			}
		]);
		// An expired notification is not delivered to a browser that comes later.
		const grill = await browser('a1-grill');
		expect(grill.shows()?.takeout).toEqual([]);
		expect(logs.join('')).toMatch(/expired: no browser showed screen a1-grill/);
	});

	it('never connected: callback "expired" at the given retry.expiration', async () => {
		const r = await receiver();
		await createOrder('R-4');
		const expiration = iso(T0 + 45_000);
		const res = await post(ARRIVED, { id: 'R-4', retry: { notificationUrl: r.url, expiration } });
		expect(res.status).toBe(202);
		clock.advance(44_999);
		await settle();
		expect(r.bodies).toEqual([]);
		clock.advance(1);
		await settle();
		expect(r.bodies).toEqual([
			expect.objectContaining({
				notificationId: res.body.notificationId,
				orderId: 'R-4',
				outcome: 'expired',
				expiration,
				finishedAt: expiration
			})
		]);
		expect((await stateOf('a1-grill')).deliveries).toEqual([]);
	});

	it('a given retry.expiration later than two minutes keeps retrying past the default', async () => {
		const r = await receiver();
		await createOrder('R-7');
		const expiration = iso(T0 + 10 * 60_000);
		const res = await post(ETA, {
			id: 'R-7',
			minutes: 15,
			retry: { notificationUrl: r.url, expiration }
		});
		expect(res.status).toBe(202);
		clock.advance(5 * 60_000); // well past the default two minutes
		await settle();
		expect(r.bodies).toEqual([]);
		expect((await stateOf('a1-grill')).deliveries).toEqual([
			expect.objectContaining({ orderId: 'R-7', status: 'pending' })
		]);
		const grill = await browser('a1-grill'); // within the given expiration: delivered
		expect(grill.shows()?.takeout).toEqual([{ orderId: 'R-7', etaAt: T0 + 15 * 60_000 }]);
		await settle();
		expect(r.bodies).toEqual([
			expect.objectContaining({
				notificationId: res.body.notificationId,
				outcome: 'delivered',
				finishedAt: iso(T0 + 5 * 60_000),
				expiration
			})
		]);
	});

	it('an expiration already past: delivered where a browser is, expired at once elsewhere', async () => {
		const r = await receiver();
		await createOrder('R-5', 'a1-grill,a1-expo');
		await browser('a1-expo');
		const res = await post(
			ARRIVED,
			{ id: 'R-5', retry: { notificationUrl: r.url, expiration: iso(T0 - 1000) } },
			{ devices: 'all' }
		);
		expect(res.status).toBe(202);
		await expect
			.poll(() => r.bodies.map((b) => [b.deviceId, b.outcome]))
			.toEqual([['a1-grill', 'expired']]);
	});

	it('without notificationUrl nothing is posted and the queue is emptied all the same', async () => {
		await createOrder('R-6');
		expect((await post(ARRIVED, { id: 'R-6' })).status).toBe(202);
		clock.advance(DEFAULT_EXPIRATION_MS);
		expect(agent.notifications.deliveries()).toEqual([]);
	});
});

describe('callbacks that fail', () => {
	it('a receiver answering 500 is tried 3 times with backoff, then given up and logged', async () => {
		const r = await receiver('fail');
		await createOrder('F-1');
		await post(ARRIVED, { id: 'F-1', retry: { notificationUrl: r.url } });
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => r.bodies.length).toBe(1);
		await expect.poll(() => logs.join('')).toMatch(/callback failed \(HTTP 500\)/);
		clock.advance(WEBHOOK_BACKOFF_MS[0] - 1);
		await settle();
		expect(r.bodies).toHaveLength(1);
		clock.advance(1);
		await expect.poll(() => r.bodies.length).toBe(2);
		await expect.poll(() => logs.filter((l) => l.includes('callback failed')).length).toBe(2);
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => r.bodies.length).toBe(3);
		await expect.poll(() => logs.join('')).toMatch(/given up after 3 tries: HTTP 500/);
		clock.advance(10 * 60_000);
		await agent.notifications.idle();
		expect(r.bodies).toHaveLength(3);
		expect(agent.notifications.deliveries()).toEqual([]);
		// The secret in the URL's query is not logged.
		expect(logs.join('')).not.toContain('s3cret');
	});

	it('a receiver that hangs is timed out and never holds up the agent', async () => {
		const r = await receiver('hang');
		await createOrder('F-2');
		await createOrder('F-3');
		await post(ARRIVED, { id: 'F-2', retry: { notificationUrl: r.url } });
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => r.bodies.length).toBe(1);

		// While the callback hangs (no clock tick: it cannot time out), everything else is answered.
		const grill = await browser('a1-grill');
		expect((await post(ARRIVED, { id: 'F-3' })).status).toBe(200);
		await createOrder('F-4');
		expect(r.open).toBe(1);
		await expect
			.poll(() => grill.shows()?.takeout)
			.toEqual([{ orderId: 'F-3', arrivedAt: T0 + DEFAULT_EXPIRATION_MS }]);

		clock.advance(WEBHOOK_TIMEOUT_MS);
		await expect.poll(() => logs.join('')).toMatch(/callback failed \(no answer within 5000 ms\)/);
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => r.bodies.length).toBe(2);
		r.mode = 'ok';
		clock.advance(WEBHOOK_TIMEOUT_MS); // the second try hangs too (it was sent while hanging)
		await expect.poll(() => logs.filter((l) => l.includes('callback failed')).length).toBe(2);
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => r.bodies.length).toBe(3);
		await expect.poll(() => logs.join('')).toMatch(/callback sent \(expired\)/);
	});

	/**
	 * What a POS and the kitchen do while a callback is owed, all on a1-expo: an order over TCP
	 * (its reply bytes), one over HTTP (201), a takeout notification (200) and a pop-up (200), and
	 * the active orders route; the screen's browser gets the orders, the arrival and the pop-up.
	 */
	async function worksAsUsual(expo: Browser, n: number): Promise<void> {
		const { host, port } = agent.screens.find((s) => s.id === 'a1-expo')!.tcp;
		const byTcp = `W-${n}-tcp`;
		const byHttp = `W-${n}-http`;
		const tcpOrder = { command: 'create-order', order: { ...curbside(byTcp), time: T0 } };
		expect(await sendTcp(host, port, tcpOrder)).toBe(byTcp);
		await createOrder(byHttp, 'a1-expo');
		expect((await post(ARRIVED, { id: byHttp }, { devices: 'a1-expo' })).status).toBe(200);
		const message = `Still working ${n}`;
		expect((await post(MESSAGE, { message }, { devices: 'a1-expo' })).status).toBe(200);
		const active = await fetch(`${agent.httpUrl}/integrators/kds-orders/active`, {
			headers: {
				'x-integration-token': ALPHA,
				'x-location-id': 'loc-a1',
				'x-device-ids': 'a1-expo'
			}
		});
		expect(active.status).toBe(200);
		const [entry] = (await active.json()) as Array<{ orders: Array<{ orderId: string }> }>;
		expect(entry.orders.map((o) => o.orderId).slice(-2)).toEqual([byTcp, byHttp]);

		const created = () =>
			expo.messages.flatMap((m) =>
				m.type === 'change' && m.change.type === 'order.created' ? [m.change.id] : []
			);
		await expect.poll(created).toEqual(expect.arrayContaining([byTcp, byHttp]));
		await expect
			.poll(() => expo.shows()?.takeout.find((t) => t.orderId === byHttp))
			.toEqual({ orderId: byHttp, arrivedAt: clock.now() });
		await expect
			.poll(() => expo.shows()?.popups.map((p) => p.message))
			.toEqual(expect.arrayContaining([message]));
	}

	it('a slow receiver: while its callback is open, TCP, HTTP and browsers are answered as usual', async () => {
		const r = await receiver('hang');
		await createOrder('G-1');
		expect((await post(ARRIVED, { id: 'G-1', retry: { notificationUrl: r.url } })).status).toBe(
			202
		);
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => r.open).toBe(1);

		// The clock stands still, so the callback can neither time out nor be tried again: it stays
		// open through all of this, and every answer comes while it is.
		const expo = await browser('a1-expo');
		await worksAsUsual(expo, 1);
		expect(r.open).toBe(1);
		expect(logs.join('')).not.toMatch(/notification callback (failed|sent|given up)/);

		// Answered at last: logged as sent, and never posted again.
		r.release(204);
		await expect.poll(() => logs.join('')).toMatch(/notification callback sent \(expired\)/);
		clock.advance(WEBHOOK_TIMEOUT_MS + WEBHOOK_BACKOFF_MS[0] + WEBHOOK_BACKOFF_MS[1]);
		await settle();
		expect(r.bodies.map((b) => [b.orderId, b.outcome])).toEqual([['G-1', 'expired']]);
		expect(agent.notifications.deliveries()).toEqual([]);
	});

	it('a receiver that is down: before, between and after its tries the agent works as usual', async () => {
		const url = await deadUrl();
		await createOrder('G-2');
		expect((await post(ARRIVED, { id: 'G-2', retry: { notificationUrl: url } })).status).toBe(202);
		const expo = await browser('a1-expo');
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => logs.join('')).toMatch(/callback failed \(ECONNREFUSED\)/);
		await worksAsUsual(expo, 1);

		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => logs.filter((l) => l.includes('callback failed')).length).toBe(2);
		await worksAsUsual(expo, 2);

		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => logs.join('')).toMatch(/given up after 3 tries: ECONNREFUSED/);
		await worksAsUsual(expo, 3);
		expect(agent.notifications.deliveries()).toEqual([]);
	});

	it('a receiver that is not there is logged and given up after 3 tries', async () => {
		const url = await deadUrl();
		await createOrder('F-5');
		await post(ARRIVED, { id: 'F-5', retry: { notificationUrl: url } });
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => logs.join('')).toMatch(/callback failed \(ECONNREFUSED\)/);
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => logs.filter((l) => l.includes('callback failed')).length).toBe(2);
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => logs.join('')).toMatch(/given up after 3 tries: ECONNREFUSED/);
		expect(agent.notifications.deliveries()).toEqual([]);
	});

	it('a redirect to anything but http(s) is not followed', async () => {
		const r = await receiver('redirect-file');
		await createOrder('F-6');
		await post(ARRIVED, { id: 'F-6', retry: { notificationUrl: r.url } });
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => logs.join('')).toMatch(/notification callback failed/);
		expect(r.bodies).toHaveLength(1);
	});
});

describe('send-message pop-ups', () => {
	it('appear on every named screen and clear on every browser of a screen on acknowledge', async () => {
		const grillA = await browser('a1-grill');
		const grillB = await browser('a1-grill');
		const expo = await browser('a1-expo');
		const res = await post(MESSAGE, { message: '86 the salmon: out of stock' }, { devices: 'all' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			notificationId: expect.any(String),
			deliveryStatuses: [
				{ device: 'a1-grill', status: 'SUCCESS' },
				{ device: 'a1-expo', status: 'SUCCESS' }
			]
		});
		const popup = { id: res.body.notificationId, message: '86 the salmon: out of stock', at: T0 };
		for (const b of [grillA, grillB, expo]) {
			await expect.poll(() => b.shows()?.popups).toEqual([popup]);
		}

		grillA.send({ type: 'popup.ack', id: popup.id });
		for (const b of [grillA, grillB]) await expect.poll(() => b.shows()?.popups).toEqual([]);
		expect(expo.shows()?.popups).toEqual([popup]);

		// Acknowledging again (a second browser at the same moment) changes nothing.
		grillB.send({ type: 'popup.ack', id: popup.id });
		const ack = await fetch(`${agent.httpUrl}/api/screens/a1-expo/popups/${popup.id}/ack`, {
			method: 'POST'
		});
		expect(ack.status).toBe(200);
		await expect.poll(() => expo.shows()?.popups).toEqual([]);
		const again = await fetch(`${agent.httpUrl}/api/screens/a1-expo/popups/${popup.id}/ack`, {
			method: 'POST'
		});
		expect(again.status).toBe(404);
	});

	it('a screen no browser shows gets it when one opens (202 QUEUED); it stays until acknowledged', async () => {
		const res = await post(MESSAGE, { message: 'Fryer 2 down' });
		expect(res.status).toBe(202);
		expect(res.body.deliveryStatuses).toEqual([{ device: 'a1-grill', status: 'QUEUED' }]);
		clock.advance(60 * 60_000); // pop-ups do not expire
		const grill = await browser('a1-grill');
		expect(grill.shows()?.popups.map((p) => p.message)).toEqual(['Fryer 2 down']);
		const another = await browser('a1-grill');
		expect(another.shows()?.popups).toHaveLength(1);
	});

	it('keeps the newest pop-ups when a screen has too many open', async () => {
		for (let i = 1; i <= 55; i++) await post(MESSAGE, { message: `Message ${i}` });
		const { popups } = await stateOf('a1-grill');
		expect(popups).toHaveLength(50);
		expect(popups[0].message).toBe('Message 6');
		expect(popups.at(-1)?.message).toBe('Message 55');
	});
});

describe('restart', () => {
	async function durable(dataDir: string) {
		return start({ memory: false, dataDir });
	}

	it('keeps the queue: a browser opening after the restart gets it; callback: delivered', async () => {
		const dataDir = tempDir('kds-notify-');
		await stop(agent);
		const r = await receiver();
		const first = await durable(dataDir);
		await createOrder('S-1', 'a1-grill', first);
		const res = await post(ARRIVED, { id: 'S-1', retry: { notificationUrl: r.url } }, {}, first);
		expect(res.status).toBe(202);
		await post(MESSAGE, { message: 'Still here after a restart' }, {}, first);
		await stop(first);

		clock.advance(30_000);
		const second = await durable(dataDir);
		expect(second.notifications.deliveries()).toHaveLength(1);
		const grill = await browser('a1-grill', second);
		expect(grill.shows()?.takeout).toEqual([{ orderId: 'S-1', arrivedAt: T0 }]);
		expect(grill.shows()?.popups.map((p) => p.message)).toEqual(['Still here after a restart']);
		await expect.poll(() => r.bodies.length).toBe(1);
		expect(r.bodies[0]).toMatchObject({
			notificationId: res.body.notificationId,
			outcome: 'delivered',
			finishedAt: iso(T0 + 30_000)
		});
	});

	it('keeps the expiration: still expires on time after a restart, or at once if it passed', async () => {
		const dataDir = tempDir('kds-notify-');
		await stop(agent);
		const r = await receiver();
		const first = await durable(dataDir);
		await createOrder('S-2', 'a1-grill', first);
		await createOrder('S-3', 'a1-grill', first);
		await post(ARRIVED, { id: 'S-2', retry: { notificationUrl: r.url } }, {}, first);
		await post(
			ARRIVED,
			{ id: 'S-3', retry: { notificationUrl: r.url, expiration: iso(T0 + 10 * 60_000) } },
			{},
			first
		);
		await stop(first);

		clock.advance(5 * 60_000); // the agent was down past S-2's expiration
		const second = await durable(dataDir);
		await expect
			.poll(() => r.bodies.map((b) => [b.orderId, b.outcome]))
			.toEqual([['S-2', 'expired']]);
		expect(r.bodies[0].finishedAt).toBe(iso(T0 + 5 * 60_000));
		clock.advance(5 * 60_000);
		await expect
			.poll(() => r.bodies.map((b) => [b.orderId, b.outcome]))
			.toEqual([
				['S-2', 'expired'],
				['S-3', 'expired']
			]);
		expect(r.bodies[1].finishedAt).toBe(iso(T0 + 10 * 60_000));
		expect(second.notifications.deliveries()).toEqual([]);
	});

	it('keeps a callback still owed when the agent stops mid-retry', async () => {
		const dataDir = tempDir('kds-notify-');
		await stop(agent);
		const r = await receiver('fail');
		const first = await durable(dataDir);
		await createOrder('S-4', 'a1-grill', first);
		await post(ARRIVED, { id: 'S-4', retry: { notificationUrl: r.url } }, {}, first);
		clock.advance(DEFAULT_EXPIRATION_MS);
		await expect.poll(() => r.bodies.length).toBe(1);
		await expect.poll(() => first.notifications.deliveries()[0]?.callbackAttempts).toBe(1);
		await stop(first);

		r.mode = 'ok';
		clock.advance(60_000);
		await durable(dataDir);
		await expect.poll(() => r.bodies.length).toBe(2);
		expect(r.bodies[1]).toMatchObject({ orderId: 'S-4', outcome: 'expired' });
	});
});
