/**
 * Auto Clear (docs/screens.md#auto-clear) through the real interfaces: a location's daily clear at
 * 01:00 in its time zone (on a ManualClock), orders sent over TCP and HTTP, one bumped into the
 * recall list and one held, a webhook receiver on loopback that gets nothing from the clear; the
 * clear caught up at the next start when the simulator was stopped through 01:00; "clear now" in
 * the admin API; and a bad time refused with its field path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { ManualClock } from '../../agent/clock.ts';
import { ConfigError, DEFAULT_CONFIG, parseConfig } from '../../agent/config.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

/** 00:50 in Chicago (CST, UTC-6) on 2026-12-02. */
const T0 = Date.parse('2026-12-02T06:50:00Z');
const MIN = 60_000;

const agents: RunningAgent[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(agents.splice(0).map((a) => a.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

function config(autoClear: object | undefined, webhookUrl?: string) {
	const c = structuredClone(DEFAULT_CONFIG) as unknown as {
		brands: Array<{ webhooks?: object[]; locations: Array<Record<string, unknown>> }>;
	};
	if (autoClear) c.brands[0].locations[0].autoClear = autoClear;
	if (webhookUrl) c.brands[0].webhooks = [{ url: webhookUrl, secondsBetweenAttempts: 1 }];
	(c.brands[0] as Record<string, unknown>).sms = {
		enabled: true,
		triggers: { received: true, bumped: true, ready: true }
	};
	return c;
}
async function start(options: Parameters<typeof startTestAgent>[0]) {
	const agent = await startTestAgent(options);
	agents.push(agent);
	return agent;
}

const order = (id: string, extra: object = {}) => ({
	id,
	name: `Guest ${id} 🍔`,
	time: new Date(T0).toISOString(),
	mode: 'ToGo',
	phoneNumber: '+15551234567',
	items: [{ lineId: '1', name: 'Burger', qty: 1, mods: ['No onion'] }],
	...extra
});
async function tcp(agent: RunningAgent, screen: string, id: string, extra: object = {}) {
	const { host, port } = agent.screens.find((s) => s.id === screen)!.tcp;
	return sendTcp(host, port, { command: 'create-order', order: order(id, extra) });
}
async function http(agent: RunningAgent, id: string) {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'all'
		},
		body: JSON.stringify(order(id))
	});
	expect(res.status).toBe(201);
}
/** Every order id each screen holds (cards, holds, recall list), from the admin JSON view. */
async function held(agent: RunningAgent) {
	const views = (await (await fetch(`${agent.httpUrl}/api/admin/screens`)).json()) as Array<{
		id: string;
		cards: Array<{ id: string }>;
		holds: Array<{ id: string }>;
		recall: Array<{ id: string }>;
	}>;
	return Object.fromEntries(
		views.map((v) => [v.id, [...v.cards, ...v.holds, ...v.recall].map((c) => c.id).sort()])
	);
}

describe('Auto Clear', () => {
	it('clears every ticket at 01:00 in the location’s zone, sending no webhook', async () => {
		const receiver = await startReceiver();
		receivers.push(receiver);
		const clock = new ManualClock(T0);
		const agent = await start({ config: config({ at: '01:00' }, receiver.url), clock });
		expect(await tcp(agent, 'kds-1', 'A-1')).toBe('A-1');
		await tcp(agent, 'kds-1', 'H-1', {
			pickupTime: new Date(T0 + 3 * 60 * MIN).toISOString(),
			prepTimeDuration: 'PT20M'
		});
		await http(agent, 'B-2');
		const bump = await fetch(`${agent.httpUrl}/api/screens/kds-2/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'bump', orderId: 'B-2' })
		});
		expect(bump.status).toBe(200);
		expect(await held(agent)).toEqual({ 'kds-1': ['A-1', 'B-2', 'H-1'], 'kds-2': ['B-2'] });
		// Three created, one bumped.
		await receiver.waitFor(4);
		const textsNow = async () =>
			((await (await fetch(`${agent.httpUrl}/api/sms`)).json()) as Array<{ kind: string }>).map(
				(t) => t.kind
			);
		const before = await textsNow();
		expect(before.length).toBeGreaterThan(0);

		clock.advance(9 * MIN); // 00:59: not yet
		await agent.engine.settled();
		expect((await held(agent))['kds-1']).toHaveLength(3);
		clock.advance(2 * MIN); // 01:01
		await expect.poll(() => held(agent)).toEqual({ 'kds-1': [], 'kds-2': [] });

		// An order after the clear stays; the next clear is tomorrow at 01:00 CST.
		expect(await tcp(agent, 'kds-1', 'C-3')).toBe('C-3');
		expect(agent.autoClear.next('loc-1')).toBe(Date.parse('2026-12-03T07:00:00Z'));
		await receiver.waitFor(5);
		const deliveries = (await (
			await fetch(`${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`)
		).json()) as Array<{ event: string; orderId?: string }>;
		expect(deliveries).toHaveLength(5);
		expect(receiver.received).toHaveLength(5);
		// No SMS for the cleared orders either: only C-3's "received" came since (newest first).
		expect(await textsNow()).toEqual(['received', ...before]);
	});

	it('clears at the next start what a clear time passed while stopped would have cleared', async () => {
		const dataDir = tempDir();
		const first = await start({
			config: config({ at: '01:00' }),
			clock: new ManualClock(T0),
			dataDir,
			memory: false
		});
		await tcp(first, 'kds-1', 'OLD-1');
		await first.close();
		agents.splice(agents.indexOf(first), 1);

		// Started again at 01:30: OLD-1 came before 01:00 and goes; a new one stays.
		const clock = new ManualClock(T0 + 40 * MIN);
		const second = await start({ config: config({ at: '01:00' }), clock, dataDir, memory: false });
		await expect.poll(() => held(second)).toEqual({ 'kds-1': [], 'kds-2': [] });
		await tcp(second, 'kds-1', 'NEW-2');
		await second.close();
		agents.splice(agents.indexOf(second), 1);

		const third = await start({
			config: config({ at: '01:00' }),
			clock: new ManualClock(T0 + 50 * MIN),
			dataDir,
			memory: false
		});
		await third.engine.settled();
		expect(await held(third)).toEqual({ 'kds-1': ['NEW-2'], 'kds-2': [] });
	});

	it('"clear now" in the admin API, with or without a daily time', async () => {
		const agent = await start({ config: config(undefined), clock: new ManualClock(T0) });
		await http(agent, 'N-1');
		await tcp(agent, 'kds-1', 'N-2');
		const post = (id: string) =>
			fetch(`${agent.httpUrl}/api/admin/locations/${id}/clear`, { method: 'POST' });
		const res = await post('loc-1');
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ location: 'loc-1', cleared: 3, nextAutoClear: null });
		expect(await held(agent)).toEqual({ 'kds-1': [], 'kds-2': [] });
		expect((await post('nowhere')).status).toBe(404);
	});

	it('refuses a time that is not HH:MM, naming the field', () => {
		expect(() => parseConfig(config({ at: '1 AM' }), 'config file kds.json')).toThrow(ConfigError);
		expect(() => parseConfig(config({ at: '24:00' }), 'config file kds.json')).toThrow(
			'Invalid config file kds.json: brands[0].locations[0].autoClear.at: expected a time of day as HH:MM (00:00-23:59, in the location\'s timezone), got "24:00"'
		);
	});
});
