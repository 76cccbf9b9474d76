/**
 * Combine Orders (docs/screens.md#combine-orders) through the real interfaces: a screen with
 * `combineOrders` on, two orders under one name within 5 minutes over TCP and HTTP, each answered
 * with its own id; one ticket in the JSON view naming both ids and why; an update of the second
 * changing its part; a bump of the ticket bumping both, each with its own KDS Order Bumped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { ManualClock } from '../../agent/clock.ts';
import { ConfigError, DEFAULT_CONFIG, parseConfig } from '../../agent/config.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const T0 = Date.parse('2026-12-02T18:00:00Z');
const agents: RunningAgent[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(agents.splice(0).map((a) => a.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

function config(webhookUrl?: string, combineOrders: unknown = true) {
	const c = structuredClone(DEFAULT_CONFIG) as unknown as {
		brands: Array<{
			webhooks?: object[];
			locations: Array<{ screens: Array<Record<string, unknown>> }>;
		}>;
	};
	c.brands[0].locations[0].screens[0].settings = { combineOrders };
	if (webhookUrl) c.brands[0].webhooks = [{ url: webhookUrl, secondsBetweenAttempts: 1 }];
	return c;
}
const order = (id: string, items: object[], extra: object = {}) => ({
	id,
	name: 'María José',
	time: new Date(T0).toISOString(),
	mode: 'ToGo',
	phoneNumber: '+15551234567',
	items,
	...extra
});

interface Card {
	id: string;
	combined: Array<{ id: string; state: string; because: string; items: string[] }>;
}

interface LogEntry {
	command: string | null;
	ok: boolean;
	findings: Array<{ severity: string; code: string; path: string; message: string }>;
}

/** The KDS-ORDER-COMBINED findings of the accepted create (TCP or HTTP) of `id`, from the admin API's log. */
async function combinedFindings(agent: RunningAgent, id: string) {
	const res = await fetch(`${agent.httpUrl}/api/admin/messages?order=${encodeURIComponent(id)}`);
	expect(res.status).toBe(200);
	const entries = (await res.json()) as LogEntry[];
	const creates = ['create-order', 'POST /integrators/kds-orders'];
	const create = entries.filter((e) => e.ok && creates.includes(e.command ?? ''));
	expect(create).toHaveLength(1);
	return create[0].findings.filter((f) => f.code === 'KDS-ORDER-COMBINED');
}

describe('Combine Orders', () => {
	it('two orders under one name within 5 minutes share one ticket; each id keeps its replies', async () => {
		const receiver = await startReceiver();
		receivers.push(receiver);
		const clock = new ManualClock(T0);
		const agent = await startTestAgent({ config: config(receiver.url), clock });
		agents.push(agent);
		const { host, port } = agent.screens[0].tcp;
		const tcp = (message: object) => sendTcp(host, port, message);

		expect(
			await tcp({
				command: 'create-order',
				order: order('M-1', [
					{ lineId: '1', name: 'Tacos al pastor', qty: 3, mods: ['Extra salsa'] }
				])
			})
		).toBe('M-1');
		clock.advance(3 * 60_000);
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': agent.token,
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			},
			body: JSON.stringify(order('M-2', [{ lineId: '1', name: 'Horchata', qty: 1, mods: [] }]))
		});
		expect(res.status).toBe(201);
		expect(await res.text()).toContain('M-2');
		// A duplicate of either id is still refused as such.
		expect(await tcp({ command: 'create-order', order: order('M-2', []) })).toBe(
			'DUPLICATE_ORDER_ID'
		);

		// The inspector says which ticket M-2 joined and why; M-1's own create says nothing of it.
		expect(await combinedFindings(agent, 'M-2')).toEqual([
			{
				severity: 'info',
				code: 'KDS-ORDER-COMBINED',
				path: 'id',
				message:
					'order "M-2" joins the ticket of order "M-1": same name "María José" and phone number as order "M-1", 180 s after it (combineOrders: within 5 minutes)'
			}
		]);
		expect(await combinedFindings(agent, 'M-1')).toEqual([]);

		const view = async () =>
			(await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json()) as { cards: Card[] };
		const { cards } = await view();
		expect(cards.map((c) => c.id)).toEqual(['M-1']);
		expect(cards[0].combined).toEqual([
			{
				id: 'M-2',
				title: 'María José',
				state: 'active',
				because:
					'same name and phone number as order "M-1", 180 s after it (Combine Orders: within 5 minutes)',
				items: ['1 × Horchata']
			}
		]);

		// The second order's own update changes its part of the ticket.
		expect(
			await tcp({
				command: 'update-order',
				order: order('M-2', [{ lineId: '1', name: 'Horchata', qty: 2, mods: [] }])
			})
		).toBe('M-2');
		expect((await view()).cards[0].combined[0].items).toEqual(['2 × Horchata']);

		// A bump of the ticket bumps both orders, each with its own webhook.
		const bump = await fetch(`${agent.httpUrl}/api/screens/kds-1/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'bump', orderId: 'M-1' })
		});
		expect(bump.status).toBe(200);
		expect((await view()).cards).toEqual([]);
		const received = await receiver.waitFor(4);
		const bumped = received
			.map((r) => r.body as { triggeredAction: string; kdsOrder?: { supplierOrderId: string } })
			.filter((b) => b.triggeredAction === 'KDS Order Bumped')
			.map((b) => b.kdsOrder?.supplierOrderId)
			.sort();
		expect(bumped).toEqual(['M-1', 'M-2']);
		// And once bumped, each id answers as a bumped order does.
		expect(await tcp({ command: 'update-order', order: order('M-2', []) })).toBe(
			'ORDER_DOES_NOT_EXIST'
		);
	});

	it('over TCP: the inspector names the ticket the order joined, not one outside 5 minutes', async () => {
		const clock = new ManualClock(T0);
		const agent = await startTestAgent({ config: config(), clock });
		agents.push(agent);
		const { host, port } = agent.screens[0].tcp;
		const tcp = (message: object) => sendTcp(host, port, message);
		const fries = [{ lineId: '1', name: 'Papas 🍟', qty: 1, mods: [] }];
		expect(await tcp({ command: 'create-order', order: order('T-1', fries) })).toBe('T-1');
		clock.advance(4 * 60_000 + 59_000);
		expect(await tcp({ command: 'create-order', order: order('T-2', fries) })).toBe('T-2');
		clock.advance(5 * 60_000 + 1000);
		expect(await tcp({ command: 'create-order', order: order('T-3', fries) })).toBe('T-3');

		expect(await combinedFindings(agent, 'T-2')).toEqual([
			expect.objectContaining({
				severity: 'info',
				path: 'order.id',
				message: expect.stringContaining(
					'joins the ticket of order "T-1": same name "María José" and phone number as order "T-1", 299 s after it'
				)
			})
		]);
		expect(await combinedFindings(agent, 'T-3')).toEqual([]);
	});

	it('is off by default, and refuses a setting that is not true or false', async () => {
		const clock = new ManualClock(T0);
		const agent = await startTestAgent({ config: structuredClone(DEFAULT_CONFIG), clock });
		agents.push(agent);
		const { host, port } = agent.screens[0].tcp;
		await sendTcp(host, port, { command: 'create-order', order: order('O-1', []) });
		await sendTcp(host, port, { command: 'create-order', order: order('O-2', []) });
		const { cards } = (await (await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`)).json()) as {
			cards: Card[];
		};
		expect(cards.map((c) => c.id)).toEqual(['O-1', 'O-2']);
		expect(await combinedFindings(agent, 'O-2')).toEqual([]);
		expect(() => parseConfig(config(undefined, 'yes'), 'config file kds.json')).toThrow(
			ConfigError
		);
		expect(() => parseConfig(config(undefined, 'yes'), 'config file kds.json')).toThrow(
			'brands[0].locations[0].screens[0].settings.combineOrders: expected true or false, got "yes"'
		);
	});
});
