/**
 * A cook's marks (issue 47 part 6, core/cook-marks.ts) through the running agent: a browser (a
 * WebSocket client of the relay) taps an item done and marks the ticket started; the other browser
 * of the screen gets the same events; the JSON view shows them; they survive a restart on a file
 * store; a bad mark is refused with a message naming what was wrong; and no webhook is sent for
 * them (the vendor documents none: docs/webhooks.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import type { OrderRecord } from '#core/order-machine';
import type { ServerMessage } from '#core/relay';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

const T0 = Date.parse('2026-11-25T18:00:00Z');
type Json = Record<string, unknown>;

let clock: ManualClock;
const running = new Set<RunningAgent>();
const sockets = new Set<WebSocket>();
const receivers = new Set<Receiver>();
const dirs: string[] = [];

function config(webhookUrl?: string) {
	const c = structuredClone(DEFAULT_CONFIG) as { brands: Json[] };
	if (webhookUrl) c.brands[0].webhooks = [{ url: webhookUrl, secondsBetweenAttempts: 0.2 }];
	return c;
}

async function start(options: AgentOptions = {}): Promise<RunningAgent> {
	const agent = await startTestAgent({ clock, config: config(), ...options });
	running.add(agent);
	return agent;
}

beforeEach(() => {
	clock = new ManualClock(T0);
});
afterEach(async () => {
	for (const ws of sockets) ws.terminate();
	sockets.clear();
	for (const a of [...running]) await a.close();
	running.clear();
	for (const r of receivers) await r.close();
	receivers.clear();
});
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function createOrder(agent: RunningAgent, id: string) {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-1'
		},
		body: JSON.stringify({
			id,
			name: `Table ${id}`,
			time: new Date(T0).toISOString(),
			mode: 'For Here',
			items: [
				{ lineId: 'b', name: 'Burger', qty: 1, mods: [{ name: 'No onion' }] },
				{ lineId: 'f', name: 'Fries', qty: 2, mods: [] },
				{ lineId: 's', name: 'Shake 抹茶 🍵', qty: 1, mods: [] }
			]
		})
	});
	expect(res.status).toBe(201);
	await agent.engine.settled();
}

/** A browser showing kds-1: every message it got, and the order's record as it would hold it. */
async function browser(agent: RunningAgent) {
	const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=kds-1`);
	sockets.add(ws);
	const messages: ServerMessage[] = [];
	ws.on('message', (data) => messages.push(JSON.parse(String(data)) as ServerMessage));
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
	await expect.poll(() => messages.length).toBeGreaterThan(0);
	return {
		messages,
		send: (message: Json) => ws.send(JSON.stringify(message)),
		act: (action: string, orderId: string, lineId?: string) =>
			ws.send(JSON.stringify({ type: 'action', action, orderId, lineId })),
		/** The item events relayed to this browser, as `type lineId done` / `type started`. */
		marks: () =>
			messages.flatMap((m) => {
				if (m.type !== 'change' || m.change.type !== 'order.event') return [];
				const e = m.change.event;
				if (e.type === 'item.marked') return [`${m.change.id} ${e.lineId} ${e.done}`];
				if (e.type === 'order.started') return [`${m.change.id} started ${e.started}`];
				return [];
			}),
		snapshotRecord: (id: string): OrderRecord | undefined => {
			const snap = messages.find((m) => m.type === 'snapshot');
			return snap?.type === 'snapshot' ? snap.records.find((r) => r.context.id === id) : undefined;
		},
		errors: () => messages.flatMap((m) => (m.type === 'error' ? [m] : []))
	};
}

async function card(agent: RunningAgent, id: string) {
	const res = await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`);
	expect(res.status).toBe(200);
	const body = (await res.json()) as { cards: Json[] };
	return body.cards.find((c) => c.id === id) as {
		startedAt: string | null;
		itemsDone: { done: number; of: number };
		sections: { entries: { kind: string; item: { lineId: string; doneAt: string | null } }[] }[];
	};
}

const doneAtOf = (c: Awaited<ReturnType<typeof card>>) =>
	Object.fromEntries(
		c.sections.flatMap((s) => s.entries.map((e) => [e.item.lineId, e.item.doneAt]))
	);

describe("a cook's marks", () => {
	it('reach every browser of the screen, show in the JSON view and survive a restart', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'kds-marks-'));
		dirs.push(dataDir);
		const first = await start({ memory: false, dataDir });
		await createOrder(first, 'T1');
		const cook = await browser(first);
		const other = await browser(first);

		clock.advance(30_000);
		cook.act('item-done', 'T1', 'f');
		cook.act('start', 'T1');
		await expect.poll(() => other.marks()).toEqual(['T1 f true', 'T1 started true']);
		expect(cook.marks()).toEqual(other.marks());
		// A second browser's tap on an item already done: accepted, nothing relayed, no error.
		other.act('item-done', 'T1', 'f');
		clock.advance(1_000);
		other.act('item-done', 'T1', 's');
		await expect.poll(() => cook.marks()).toContain('T1 s true');
		expect(cook.marks()).toEqual(['T1 f true', 'T1 started true', 'T1 s true']);
		expect(other.errors()).toEqual([]);

		const seen = await card(first, 'T1');
		expect(seen.startedAt).toBe(new Date(T0 + 30_000).toISOString());
		expect(seen.itemsDone).toEqual({ done: 2, of: 3 });
		expect(doneAtOf(seen)).toEqual({
			b: null,
			f: new Date(T0 + 30_000).toISOString(),
			s: new Date(T0 + 31_000).toISOString()
		});
		await first.close();
		running.delete(first);

		clock.advance(60_000);
		const second = await start({ memory: false, dataDir });
		const after = await browser(second);
		const record = after.snapshotRecord('T1');
		expect(record?.context.itemsDone).toEqual({ f: T0 + 30_000, s: T0 + 31_000 });
		expect(record?.context.startedAt).toBe(T0 + 30_000);
		expect(doneAtOf(await card(second, 'T1'))).toEqual(doneAtOf(seen));

		// Undone after the restart, on the other browser too.
		const another = await browser(second);
		after.act('item-undo', 'T1', 'f');
		after.act('start-undo', 'T1');
		await expect.poll(() => another.marks()).toEqual(['T1 f false', 'T1 started false']);
		const undone = await card(second, 'T1');
		expect([undone.startedAt, undone.itemsDone]).toEqual([null, { done: 1, of: 3 }]);
	});

	it('a bad mark is refused with a message naming what was wrong; the screen goes on', async () => {
		const agent = await start();
		await createOrder(agent, 'T2');
		const cook = await browser(agent);
		cook.send({ type: 'action', action: 'item-done', orderId: 'T2' });
		cook.act('item-done', 'T2', 'zz');
		cook.act('item-done', 'NOPE', 'b');
		cook.send({ type: 'action', action: 'item-done', orderId: 'T2', lineId: 7 });
		await expect.poll(() => cook.errors().length).toBe(4);
		expect(cook.errors().map((e) => [e.code, e.message])).toEqual([
			['BAD_MESSAGE', "lineId: required for item-done (the item's lineId)"],
			['ACTION_REFUSED', 'item-done: order T2 item zz cannot be changed so'],
			['ACTION_REFUSED', 'item-done: order NOPE item b cannot be changed so'],
			['BAD_MESSAGE', expect.stringMatching(/^lineId: /)]
		]);
		// The cancelled ticket takes no marks.
		const cancel = await fetch(`${agent.httpUrl}/integrators/kds-orders/cancel`, {
			method: 'PUT',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': agent.token,
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			},
			body: JSON.stringify({ id: 'T2' })
		});
		expect(cancel.status).toBeLessThan(300);
		await agent.engine.settled();
		expect(agent.engine.runAction('kds-1', 'start', 'T2')).toBe(false);
		expect(agent.engine.runAction('kds-1', 'item-done', 'T2', { lineId: 'b' })).toBe(false);
	});

	it('send no webhook: the receiver gets the order created and the bump, nothing for the marks', async () => {
		const receiver = await startReceiver();
		receivers.add(receiver);
		const agent = await start({ config: config(receiver.url) });
		await createOrder(agent, 'T3');
		expect(agent.engine.runAction('kds-1', 'item-done', 'T3', { lineId: 'b' })).toBe(true);
		expect(agent.engine.runAction('kds-1', 'start', 'T3')).toBe(true);
		expect(agent.engine.runAction('kds-1', 'bump', 'T3')).toBe(true);
		await agent.engine.settled();
		await expect
			.poll(() => receiver.received.map((r) => (r.body as Json).triggeredAction))
			.toEqual(['KDS Order Created', 'KDS Order Bumped']);
	});
});
