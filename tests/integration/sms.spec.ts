/**
 * Customer SMS, simulated (issues 5 and 25): off unless enabled; then "received" on create and
 * "bumped" on bump (each its own trigger setting, per brand or location), to the order's phoneNumber, none with optInForSms false, the customerArrivedUrl appended; an outbox
 * listed at GET /api/sms, and forwarded as JSON to the brand's webhook. Real TCP and HTTP, a
 * ManualClock for the webhook's retries.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../../agent/config.ts';
import { WEBHOOK_BACKOFF_MS, WEBHOOK_TIMEOUT_MS } from '../../agent/notify/webhook.ts';
import type { SmsEntry } from '#core/sms';
import { sendTcp } from '../helpers/tcp.ts';

const T0 = Date.parse('2026-11-22T09:00:00Z');
const PHONE = '+15551234567';
const RECEIVED = 'We have received your order!';
const BUMPED = 'Your order is ready!';

type Json = Record<string, unknown>;
type Brand = { sms?: Json; locations: Array<{ screens: Array<Record<string, unknown>> }> };

/** The demo config (kds-1 auto-holds), with the brand's SMS settings (enabled unless said). */
function smsConfig(sms: Json = {}) {
	const config = structuredClone(DEFAULT_CONFIG) as { brands: Brand[] };
	config.brands[0].sms = { enabled: true, ...sms };
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	return config;
}

let agent: RunningAgent;
let clock: ManualClock;

function start(options: AgentOptions = {}): Promise<RunningAgent> {
	return startTestAgent({
		config: smsConfig(),
		clock,
		...options
	});
}

beforeEach(async () => {
	clock = new ManualClock(T0);
	agent = await start();
});
afterEach(() => agent.close());

const order = (id: string, over: Json = {}): Json => ({
	id,
	name: `Order ${id}`,
	time: new Date(T0).toISOString(),
	mode: 'Pickup',
	phoneNumber: PHONE,
	items: [{ lineId: '1', name: 'Burrito', qty: 1, mods: [] }],
	...over
});

function tcp(screenId: string, command: string, body: Json): Promise<string> {
	const screen = agent.screens.find((s) => s.id === screenId);
	if (!screen) throw new Error(`no screen ${screenId}`);
	return sendTcp(screen.tcp.host, screen.tcp.port, { command, order: body });
}

async function post(path: string, body: unknown, devices = 'kds-1') {
	const res = await fetch(`${agent.httpUrl}${path}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': 'kds-demo-token',
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: JSON.stringify(body)
	});
	return { status: res.status, body: (await res.json()) as Json };
}

async function act(screenId: string, action: string, orderId?: string) {
	const res = await post(`/api/screens/${screenId}/actions`, { action, orderId });
	expect(res.status, `${action} ${orderId}`).toBe(200);
	await agent.engine.settled();
}

async function outbox(query = ''): Promise<SmsEntry[]> {
	await agent.engine.settled();
	const res = await fetch(`${agent.httpUrl}/api/sms${query}`);
	expect(res.status).toBe(200);
	return (await res.json()) as SmsEntry[];
}

/** [kind, text] of every text, oldest first. */
async function texts(query = ''): Promise<string[][]> {
	return (await outbox(query)).reverse().map((s) => [s.kind, s.text]);
}

describe('texts to the customer', () => {
	it('"received" on create, "bumped" on bump, newest first', async () => {
		expect(await tcp('kds-2', 'create-order', order('S1'))).toBe('S1');
		const [received] = await outbox();
		expect(received).toEqual({
			id: expect.any(Number),
			brand: 'brand-1',
			location: 'loc-1',
			orderId: 'S1',
			screen: 'kds-2',
			kind: 'received',
			to: PHONE,
			text: RECEIVED,
			status: 'sent',
			reason: null,
			createdAt: new Date(T0).toISOString(),
			forwarded: null,
			forwardAttempts: 0,
			forwardError: null
		});
		clock.advance(60_000);
		await act('kds-2', 'bump', 'S1');
		const list = await outbox();
		expect(list.map((s) => [s.kind, s.text, s.createdAt])).toEqual([
			['bumped', BUMPED, new Date(T0 + 60_000).toISOString()],
			['received', RECEIVED, new Date(T0).toISOString()]
		]);
	});

	it('none when optInForSms is false, nor without a phone number', async () => {
		expect(await tcp('kds-2', 'create-order', order('S2', { optInForSms: false }))).toBe('S2');
		expect(await tcp('kds-2', 'create-order', order('S3', { phoneNumber: null }))).toBe('S3');
		await act('kds-2', 'bump', 'S2');
		await act('kds-2', 'bump', 'S3');
		expect(await outbox()).toEqual([]);
	});

	it('the customerArrivedUrl is appended to both texts', async () => {
		const url = 'https://example.test/arrived/S4';
		expect(await tcp('kds-2', 'create-order', order('S4', { customerArrivedUrl: url }))).toBe('S4');
		await act('kds-2', 'bump', 'S4');
		expect(await texts()).toEqual([
			['received', `${RECEIVED} ${url}`],
			['bumped', `${BUMPED} ${url}`]
		]);
	});

	it('a number that is not E.164 does not refuse the order: the text is undeliverable', async () => {
		expect(await tcp('kds-2', 'create-order', order('S5', { phoneNumber: '555-0100' }))).toBe('S5');
		const res = await post('/integrators/kds-orders', order('S6', { phoneNumber: '5550101' }));
		expect(res.status).toBe(201);
		expect(agent.engine.queue('kds-2').map((r) => r.context.id)).toEqual(['S5']);
		const list = await outbox();
		expect(list.map((s) => [s.orderId, s.to, s.status, s.reason])).toEqual([
			[
				'S6',
				'5550101',
				'undeliverable',
				'phoneNumber "5550101" is not in E.164 format (expected + then 2-15 digits, e.g. +15551234567)'
			],
			[
				'S5',
				'555-0100',
				'undeliverable',
				'phoneNumber "555-0100" is not in E.164 format (expected + then 2-15 digits, e.g. +15551234567)'
			]
		]);
	});

	it('a held order gets "received" on create, "bumped" once fired and bumped', async () => {
		const held = order('S7', { pickupTime: '2026-11-22T12:30:00Z', prepTimeDuration: 'PT30M' });
		expect(await tcp('kds-1', 'create-order', held)).toBe('S7');
		expect(agent.engine.screen('kds-1')?.state.orders.get('S7')?.state).toBe('held');
		expect(await texts()).toEqual([['received', RECEIVED]]);
		await act('kds-1', 'fire', 'S7');
		await act('kds-1', 'bump', 'S7');
		expect(await texts()).toEqual([
			['received', RECEIVED],
			['bumped', BUMPED]
		]);
	});

	it('a cancelled order bumped off the screen gets no "bumped"', async () => {
		expect(await tcp('kds-2', 'create-order', order('S8'))).toBe('S8');
		expect(await tcp('kds-2', 'cancel-order', { id: 'S8' })).toBe('S8');
		await act('kds-2', 'bump', 'S8');
		expect(await texts()).toEqual([['received', RECEIVED]]);
	});

	it("the brand's own texts", async () => {
		await agent.close();
		agent = await start({
			config: smsConfig({ received: 'Thanks, we got it.', bumped: 'Come and get it.' })
		});
		expect(await tcp('kds-2', 'create-order', order('S9'))).toBe('S9');
		await act('kds-2', 'bump', 'S9');
		expect(await texts()).toEqual([
			['received', 'Thanks, we got it.'],
			['bumped', 'Come and get it.']
		]);
	});
});

describe('SMS settings: off by default, each trigger its own setting', () => {
	async function restart(config: object) {
		await agent.close();
		agent = await start({ config });
	}
	async function createAndBump(id: string) {
		expect(await tcp('kds-2', 'create-order', order(id))).toBe(id);
		await act('kds-2', 'bump', id);
	}

	it('a config that does not enable SMS sends none (the vendor default; an API change)', async () => {
		const config = smsConfig();
		delete (config.brands[0] as Brand).sms;
		await restart(config);
		await createAndBump('T1');
		expect(await outbox()).toEqual([]);
	});

	it('enabled: false with texts and triggers set still sends none', async () => {
		await restart(smsConfig({ enabled: false, triggers: { received: true, bumped: true } }));
		await createAndBump('T2');
		expect(await outbox()).toEqual([]);
	});

	it('"received" only', async () => {
		await restart(smsConfig({ triggers: { bumped: false } }));
		await createAndBump('T3');
		expect(await texts()).toEqual([['received', RECEIVED]]);
	});

	it('"bumped" only', async () => {
		await restart(smsConfig({ triggers: { received: false } }));
		await createAndBump('T4');
		expect(await texts()).toEqual([['bumped', BUMPED]]);
	});

	it('"ready" (Take Out view) on: a kitchen bump sends no "ready" text', async () => {
		await restart(smsConfig({ triggers: { received: false, bumped: false, ready: true } }));
		await createAndBump('T5');
		expect(await outbox()).toEqual([]);
	});

	it('a location turns SMS on, or changes a trigger or text, over its brand', async () => {
		const config = smsConfig({ enabled: false });
		const brand = config.brands[0] as Brand & { locations: Array<Json> };
		brand.locations[0].sms = { enabled: true, triggers: { received: false }, bumped: 'Done ✓' };
		await restart(config);
		await createAndBump('T6');
		expect(await texts('?kind=bumped')).toEqual([['bumped', 'Done ✓']]);
		expect(await texts()).toEqual([['bumped', 'Done ✓']]);
	});

	it('a bad setting is refused with its field path', () => {
		expect(() => parseConfig(smsConfig({ triggers: { bumped: 'yes' } }))).toThrow(
			'brands[0].sms.triggers.bumped'
		);
		expect(() => parseConfig(smsConfig({ triggers: { pickup: true } }))).toThrow(
			'brands[0].sms.triggers'
		);
		expect(() => parseConfig(smsConfig({ enabled: 'true' }))).toThrow('brands[0].sms.enabled');
	});

	it('GET /api/sms takes kind=received|bumped|ready and refuses other kinds', async () => {
		expect((await fetch(`${agent.httpUrl}/api/sms?kind=ready`)).status).toBe(200);
		const bad = await fetch(`${agent.httpUrl}/api/sms?kind=fax`);
		expect(bad.status).toBe(422);
		expect(await bad.text()).toContain('kind');
	});
});

describe('one order, one pair of texts per location', () => {
	it('an order sent over HTTP to 2 screens: one "received"; "bumped" when the last one bumps', async () => {
		const res = await post('/integrators/kds-orders', order('M1'), 'kds-1,kds-2');
		expect(res.status).toBe(201);
		expect(await texts()).toEqual([['received', RECEIVED]]);
		await act('kds-1', 'bump', 'M1');
		expect(await texts()).toEqual([['received', RECEIVED]]);
		await act('kds-2', 'bump', 'M1');
		expect(await texts()).toEqual([
			['received', RECEIVED],
			['bumped', BUMPED]
		]);
		expect((await outbox())[0].screen).toBe('kds-2');
	});

	it('the same id over TCP to a second screen while the first shows it: the same order', async () => {
		expect(await tcp('kds-1', 'create-order', order('M2'))).toBe('M2');
		clock.advance(1000);
		expect(await tcp('kds-2', 'create-order', order('M2'))).toBe('M2');
		expect(await texts()).toEqual([['received', RECEIVED]]);
	});

	it('recalled and bumped again: no second "bumped"', async () => {
		expect(await tcp('kds-2', 'create-order', order('M3'))).toBe('M3');
		await act('kds-2', 'bump', 'M3');
		clock.advance(1000);
		await act('kds-2', 'recall', 'M3');
		await act('kds-2', 'bump', 'M3');
		expect(await texts('?order=M3')).toEqual([
			['received', RECEIVED],
			['bumped', BUMPED]
		]);
	});

	it('an id created again after its order was bumped is a new order: new texts', async () => {
		expect(await tcp('kds-2', 'create-order', order('M4'))).toBe('M4');
		await act('kds-2', 'bump', 'M4');
		clock.advance(60_000);
		expect(await tcp('kds-2', 'create-order', order('M4'))).toBe('M4');
		await act('kds-2', 'bump', 'M4');
		expect(await texts()).toEqual([
			['received', RECEIVED],
			['bumped', BUMPED],
			['received', RECEIVED],
			['bumped', BUMPED]
		]);
	});
});

describe('GET /api/sms', () => {
	it('filters by order, screen and location; refuses a bad limit', async () => {
		expect(await tcp('kds-1', 'create-order', order('F1'))).toBe('F1');
		expect(await tcp('kds-2', 'create-order', order('F2'))).toBe('F2');
		expect((await outbox('?order=F2')).map((s) => s.orderId)).toEqual(['F2']);
		expect((await outbox('?screen=kds-1')).map((s) => s.orderId)).toEqual(['F1']);
		expect((await outbox('?location=loc-1')).map((s) => s.orderId)).toEqual(['F2', 'F1']);
		expect(await outbox('?location=elsewhere')).toEqual([]);
		expect((await outbox('?limit=1')).map((s) => s.orderId)).toEqual(['F2']);
		const bad = await fetch(`${agent.httpUrl}/api/sms?limit=0`);
		expect(bad.status).toBe(422);
	});
});

describe('webhook', () => {
	let server: Server;
	let received: Json[];
	let answer: (req: IncomingMessage, res: ServerResponse) => void;

	beforeEach(async () => {
		received = [];
		answer = (_req, res) => res.writeHead(204).end();
		server = createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				received.push({ ...JSON.parse(body), contentType: req.headers['content-type'] });
				answer(req, res);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});
	afterEach(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	const webhookUrl = () => {
		const address = server.address();
		return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sms`;
	};

	it('gets every text as JSON', async () => {
		await agent.close();
		agent = await start({ config: smsConfig({ webhookUrl: webhookUrl() }) });
		expect(await tcp('kds-2', 'create-order', order('W1'))).toBe('W1');
		await expect.poll(() => received.length).toBe(1);
		expect(received[0]).toEqual({
			id: expect.any(Number),
			brand: 'brand-1',
			location: 'loc-1',
			orderId: 'W1',
			screen: 'kds-2',
			kind: 'received',
			to: PHONE,
			text: RECEIVED,
			status: 'sent',
			reason: null,
			createdAt: new Date(T0).toISOString(),
			contentType: 'application/json'
		});
		await expect.poll(async () => (await outbox())[0].forwarded).toBe('delivered');
	});

	it('down: orders go on; the text is retried a bounded number of times, then marked failed', async () => {
		const url = webhookUrl();
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
		await agent.close();
		agent = await start({ config: smsConfig({ webhookUrl: url }) });

		expect(await tcp('kds-2', 'create-order', order('W2'))).toBe('W2');
		const res = await post('/integrators/kds-orders', order('W3'), 'kds-2');
		expect(res.status).toBe(201);
		await act('kds-2', 'bump', 'W2');
		expect(agent.engine.queue('kds-2').map((r) => r.context.id)).toEqual(['W3']);

		const forwardOf = async (orderId: string) => {
			const sms = (await outbox(`?order=${orderId}&kind=received`))[0];
			return [sms.forwarded, sms.forwardAttempts, sms.forwardError];
		};
		const refused = expect.stringContaining('ECONNREFUSED');
		await expect.poll(() => forwardOf('W2')).toEqual(['pending', 1, refused]);
		// Each retry waits on the engine clock.
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => forwardOf('W2')).toEqual(['pending', 2, refused]);
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => forwardOf('W2')).toEqual(['failed', 3, refused]);
		await expect.poll(() => forwardOf('W3')).toEqual(['failed', 3, refused]);
		clock.advance(60 * 60_000);
		expect(await forwardOf('W2')).toEqual(['failed', 3, refused]);
		expect(await tcp('kds-2', 'create-order', order('W4'))).toBe('W4');
	});

	it('a webhook that does not answer is given up on after the timeout (engine clock)', async () => {
		answer = () => {}; // never answers
		await agent.close();
		agent = await start({ config: smsConfig({ webhookUrl: webhookUrl() }) });
		expect(await tcp('kds-2', 'create-order', order('W5'))).toBe('W5');
		await expect.poll(() => received.length).toBe(1);
		clock.advance(WEBHOOK_TIMEOUT_MS);
		await expect
			.poll(async () => (await outbox())[0].forwardError)
			.toBe(`no answer within ${WEBHOOK_TIMEOUT_MS} ms`);
		answer = (_req, res) => res.writeHead(200).end();
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(async () => (await outbox())[0].forwarded).toBe('delivered');
		expect(received).toHaveLength(2);
	});

	it('only an http(s) webhook URL is accepted in the config', () => {
		const config = smsConfig({ webhookUrl: 'ftp://example.test/sms' });
		expect(() => parseConfig(config)).toThrow(
			'Invalid config: brands[0].sms.webhookUrl: expected an http:// or https:// URL, got "ftp://example.test/sms"'
		);
	});
});
