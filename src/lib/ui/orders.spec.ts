import { describe, expect, it } from 'vitest';
import type { OrderInput, OrderRecord } from '#core/order-machine';
import type { RelayChange, ScreenInfo, ServerMessage } from '#core/relay';
import type { KdsItem, Order } from '#core/order-schema';
import { createRecord, queueOf, step } from '#core/screen';
import { OrderBoard } from './orders.svelte';

const T0 = 1_795_338_000_000;

const SCREEN: ScreenInfo = {
	id: 'kds-1',
	name: 'Grill',
	locationId: 'loc-1',
	locationName: 'Demo Kitchen',
	timezone: 'America/Chicago',
	settings: { timers: { warnAfter: 300, lateAfter: 480 }, autoHoldFutureOrders: false, keymap: {} }
};

function item(lineId: string, over: Partial<KdsItem> = {}): KdsItem {
	return { lineId, name: `Item ${lineId}`, qty: 1, mods: [], ...over };
}

function order(id: string, over: Partial<Order> = {}): Order {
	return {
		id,
		name: `Order ${id}`,
		time: '2026-11-22T09:00:00.000Z',
		mode: 'ToGo',
		items: [item('1'), item('2')],
		...over
	};
}

function input(id: string, seq: number, over: Partial<Order> = {}, held = false): OrderInput {
	return { order: order(id, over), at: T0 + seq * 1000, seq, held };
}

/** Builds the agent's messages with increasing seq, like the relay does. */
class Relay {
	seq = 0;
	snapshot(records: OrderRecord[]): ServerMessage {
		return { type: 'snapshot', seq: this.seq, screen: SCREEN, records, now: T0 };
	}
	change(change: RelayChange): ServerMessage {
		this.seq += 1;
		return { type: 'change', seq: this.seq, change, now: T0 + this.seq };
	}
	created(id: string, seq: number, over: Partial<Order> = {}, held = false): ServerMessage {
		return this.change({ type: 'order.created', id, input: input(id, seq, over, held) });
	}
}

const names = (board: OrderBoard) => board.queue.map((e) => e.context.fields.name);

describe('OrderBoard', () => {
	it('builds the cards from a snapshot, then applies changes in order', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		const held = createRecord(input('H', 3, {}, true));
		expect(board.receive(relay.snapshot([createRecord(input('A', 1)), held]))).toBe('applied');
		expect(names(board)).toEqual(['Order A']);
		expect(board.holds.map((e) => e.id)).toEqual(['H']);
		expect(board.screen?.name).toBe('Grill');

		expect(board.receive(relay.created('B', 4))).toBe('applied');
		expect(board.receive(relay.created('P', 5, { priority: true }))).toBe('applied');
		expect(names(board)).toEqual(['Order P', 'Order A', 'Order B']);

		const update = order('A', { items: [item('1', { qty: 3 }), item('9', { name: 'Fries' })] });
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'A',
				event: { type: 'order.updated', order: update, at: T0 + 9000 }
			})
		);
		const a = board.get('A')!;
		expect(a.context.items.map((i) => [i.lineId, i.qty, i.deleted ?? false, i.change])).toEqual([
			['1', 3, false, 'updated'],
			['2', 1, true, undefined],
			['9', 1, false, 'added']
		]);

		board.receive(
			relay.change({
				type: 'order.event',
				id: 'B',
				event: { type: 'order.cancelled', at: T0 + 10_000 }
			})
		);
		expect(board.get('B')?.state).toBe('cancelled');
		expect(names(board)).toContain('Order B');

		board.receive(
			relay.change({
				type: 'order.event',
				id: 'P',
				event: { type: 'order.bumped', at: T0 + 11_000 }
			})
		);
		expect(names(board)).toEqual(['Order A', 'Order B']);
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'P',
				event: { type: 'order.recalled', at: T0 + 12_000 }
			})
		);
		expect(names(board)).toEqual(['Order P', 'Order A', 'Order B']);
		expect(board.get('P')?.context.recalledAt).toBe(T0 + 12_000);

		board.receive(
			relay.change({
				type: 'order.event',
				id: 'H',
				event: { type: 'order.fired', at: T0 + 13_000, seq: 6 }
			})
		);
		expect(board.holds).toEqual([]);
		expect(names(board)).toEqual(['Order P', 'Order A', 'Order B', 'Order H']);
		expect(board.get('H')?.context.queuedAt).toBe(T0 + 13_000);

		board.receive(relay.change({ type: 'order.removed', id: 'B' }));
		expect(names(board)).toEqual(['Order P', 'Order A', 'Order H']);
		expect(board.actor('B')).toBeUndefined();
		expect(board.seq).toBe(relay.seq);
	});

	it("answers what the card asks from the order's machine: its tags, and whether it takes an event", () => {
		const board = new OrderBoard();
		const relay = new Relay();
		const courses = { items: [item('1', { course: 'Mains', courseStatus: 'hold' }), item('2')] };
		board.receive(relay.snapshot([]));
		board.receive(relay.created('A', 1, courses));
		board.receive(relay.created('H', 2, courses, true));
		const a = board.get('A')!;
		const h = board.get('H')!;
		const fire = (course: string) => ({ type: 'course.fired' as const, course, at: T0 });
		expect([a.hasTag('visible'), a.hasTag('held'), h.hasTag('held')]).toEqual([true, false, true]);
		// Only a course that is on hold, and only while the order is in the queue.
		expect([a.can(fire('Mains')), a.can(fire('')), a.can(fire('Starters'))]).toEqual([
			true,
			false,
			false
		]);
		expect(h.can(fire('Mains'))).toBe(false);
		board.receive(
			relay.change({ type: 'order.event', id: 'A', event: { type: 'order.cancelled', at: T0 } })
		);
		expect([a.hasTag('cancelled'), a.hasTag('visible'), a.can(fire('Mains'))]).toEqual([
			true,
			true,
			false
		]);
	});

	it('keeps one actor per order, named order-<id>, and stops it when the order leaves', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		board.receive(relay.snapshot([createRecord(input('A', 1))]));
		board.receive(relay.created('B', 2));
		const a = board.actor('A')!;
		const b = board.actor('B')!;
		expect([a.id, b.id]).toEqual(['order-A', 'order-B']);
		board.receive(relay.change({ type: 'order.removed', id: 'B' }));
		expect(b.getSnapshot().status).toBe('stopped');
		expect(a.getSnapshot().status).toBe('active');
	});

	it('replaces everything on a snapshot after a reconnect, without duplicates', () => {
		const board = new OrderBoard();
		const first = new Relay();
		board.receive(first.snapshot([createRecord(input('A', 1)), createRecord(input('B', 2))]));
		board.receive(first.created('C', 3));
		const oldA = board.actor('A')!;
		const unchangedB = board.get('B')!.context;

		// The agent restarted: seq starts again at 0. A was bumped, C changed, D is new.
		board.expectSnapshot();
		const second = new Relay();
		const a = step(createRecord(input('A', 1)), { type: 'order.bumped', at: T0 + 5000 })!;
		const c = step(createRecord(input('C', 3)), { type: 'order.cancelled', at: T0 + 6000 })!;
		const records = [a, createRecord(input('B', 2)), c, createRecord(input('D', 4))];
		// A change before the snapshot (stale socket) is ignored.
		expect(
			board.receive({ type: 'change', seq: 1, change: { type: 'order.removed', id: 'B' }, now: T0 })
		).toBe('waiting');
		expect(board.receive(second.snapshot(records))).toBe('applied');

		expect(names(board)).toEqual(['Order B', 'Order C', 'Order D']);
		expect(board.entries.size).toBe(4);
		expect(board.get('A')?.state).toBe('bumped');
		expect(board.get('C')?.state).toBe('cancelled');
		expect(oldA.getSnapshot().status).toBe('stopped');
		expect(board.actor('A')).not.toBe(oldA);
		// An order the snapshot did not change keeps its context object: its card does not redraw.
		expect(board.get('B')!.context).toBe(unchangedB);

		// The same snapshot twice (a probe, a second resync) changes nothing.
		board.receive(second.snapshot(records));
		expect(names(board)).toEqual(['Order B', 'Order C', 'Order D']);

		// Changes continue from the new seq.
		expect(board.receive(second.created('E', 5))).toBe('applied');
		expect(names(board)).toEqual(['Order B', 'Order C', 'Order D', 'Order E']);
		// An empty snapshot clears the screen.
		board.receive(second.snapshot([]));
		expect(board.queue).toEqual([]);
		expect(board.entries.size).toBe(0);
	});

	it('detects a gap in seq, applies nothing until a new snapshot, ignores repeats', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		expect(board.receive(relay.created('X', 1))).toBe('waiting');
		board.receive(relay.snapshot([createRecord(input('A', 1))]));
		const created = relay.created('B', 2);
		expect(board.receive(created)).toBe('applied');
		expect(board.receive(created)).toBe('stale');

		relay.created('C', 3); // lost on the way
		expect(board.receive(relay.created('D', 4))).toBe('gap');
		expect(board.awaitingSnapshot).toBe(true);
		expect(board.receive(relay.created('E', 5))).toBe('waiting');
		expect(names(board)).toEqual(['Order A', 'Order B']);

		const records = ['A', 'B', 'C', 'D', 'E'].map((id, i) => createRecord(input(id, i + 1)));
		expect(board.receive(relay.snapshot(records))).toBe('applied');
		expect(names(board)).toEqual(['Order A', 'Order B', 'Order C', 'Order D', 'Order E']);
		expect(board.receive(relay.created('F', 6))).toBe('applied');
	});

	it('treats an event for an unknown order as a gap', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		board.receive(relay.snapshot([]));
		const result = board.receive(
			relay.change({ type: 'order.event', id: 'nope', event: { type: 'order.bumped', at: T0 } })
		);
		expect(result).toBe('gap');
	});

	it('tracks the agent clock offset and reports errors', () => {
		const board = new OrderBoard({ now: () => T0 - 2500 });
		const relay = new Relay();
		board.receive(relay.snapshot([]));
		expect(board.clockOffset).toBe(2500);
		expect(
			board.receive({ type: 'error', code: 'ACTION_REFUSED', message: 'recall: no bumped order' })
		).toBe('error');
		expect(board.lastError?.code).toBe('ACTION_REFUSED');
	});

	it('keeps the agent clock offset steady when messages queue up, and follows real moves', () => {
		let browser = T0;
		const board = new OrderBoard({ now: () => browser });
		const relay = new Relay();
		// Any message but a snapshot or a pong is a sample; notifications carry no seq.
		const at = (agentNow: number): ServerMessage => ({
			type: 'notifications',
			now: agentNow,
			takeout: [],
			popups: []
		});
		board.receive(relay.snapshot([]));
		expect(board.clockOffset).toBe(0);
		// A burst: each message read later than it was sent (queued in the browser).
		for (let i = 1; i <= 50; i++) {
			browser = T0 + i * 100;
			board.receive(at(T0 + i * 10));
		}
		expect(board.clockOffset).toBe(0);
		// A message that was on the way for less time than the snapshot: small moves are ignored,
		browser = T0 + 6000;
		board.receive(at(T0 + 6050));
		expect(board.clockOffset).toBe(0);
		// a larger one moves it up at once (the agent's clock stepped forward).
		board.receive(at(T0 + 66_000));
		expect(board.clockOffset).toBe(60_000);
		// The agent's clock stepped back a minute: followed once the better samples are out of the window.
		const back = (t: number) => {
			browser = t;
			board.receive(at(t - 1000));
		};
		back(T0 + 7000);
		expect(board.clockOffset).toBe(60_000);
		for (let t = T0 + 8000; t <= T0 + 70_000; t += 1000) back(t);
		expect(board.clockOffset).toBe(-1000);
		// A pong (the answer to a probe on a quiet socket) sets it outright.
		board.receive({ type: 'pong', now: browser + 500 });
		expect(board.clockOffset).toBe(500);
	});

	it('rebuilds the queue only when cards come, go or move, and orders it as the core does', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		const held = createRecord(input('H', 3, {}, true));
		board.receive(relay.snapshot([createRecord(input('A', 1)), createRecord(input('B', 2)), held]));
		const queue = board.queue;
		const holds = board.holds;
		const update = order('A', { name: 'Renamed', items: [item('1', { qty: 4 })] });
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'A',
				event: { type: 'order.updated', order: update, at: T0 + 9000 }
			})
		);
		expect(board.get('A')!.context.fields.name).toBe('Renamed');
		expect(board.queue).toBe(queue);
		expect(board.holds).toBe(holds);

		// Priority, cancel, new cards, fire: each a new queue, in the core's order.
		board.receive(relay.created('P', 4, { priority: true }));
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'B',
				event: { type: 'order.updated', order: order('B', { priority: true }), at: T0 + 9500 }
			})
		);
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'A',
				event: { type: 'order.cancelled', at: T0 + 9600 }
			})
		);
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'H',
				event: { type: 'order.fired', at: T0 + 9700, seq: 5 }
			})
		);
		const full = [...board.entries.values()].map((e) => e.record);
		expect(board.queue).not.toBe(queue);
		expect(board.queue.map((e) => e.id)).toEqual(queueOf(full).map((r) => r.context.id));
		expect(board.queue.map((e) => e.id)).toEqual(['B', 'P', 'A', 'H']);
		expect(board.holds).toEqual([]);
	});

	it('awaits a snapshot until one comes, and again after expectSnapshot', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		expect(board.awaitingSnapshot).toBe(true);
		board.receive(relay.snapshot([]));
		expect(board.awaitingSnapshot).toBe(false);
		expect(board.queue).toEqual([]);
		board.expectSnapshot();
		expect(board.awaitingSnapshot).toBe(true);
	});

	it('reports orders created by a change, not those of a snapshot', () => {
		const created: string[] = [];
		const board = new OrderBoard({ onCreated: (entry) => created.push(entry.id) });
		const relay = new Relay();
		board.receive(relay.snapshot([createRecord(input('A', 1))]));
		board.receive(relay.created('B', 2));
		expect(created).toEqual(['B']);
	});
	it('reports a cancel when the POS cancels, not when a bumped cancelled ticket is recalled', () => {
		const cancelled: string[] = [];
		const board = new OrderBoard({ onCancelled: (entry) => cancelled.push(entry.id) });
		const relay = new Relay();
		board.receive(relay.snapshot([createRecord(input('A', 1))]));
		const event = (type: 'order.cancelled' | 'order.bumped' | 'order.recalled', at: number) =>
			board.receive(relay.change({ type: 'order.event', id: 'A', event: { type, at } }));
		event('order.cancelled', T0 + 5000);
		expect(cancelled).toEqual(['A']);
		event('order.bumped', T0 + 6000);
		expect(names(board)).toEqual([]);
		// The cook recalls it: the card comes back cancelled, but nothing new was cancelled (no
		// second toast, no second cancel tone).
		event('order.recalled', T0 + 7000);
		expect(board.get('A')?.state).toBe('cancelled');
		expect(cancelled).toEqual(['A']);
	});

	it('indexes the orders combined onto each ticket once for the board, stable while they stay', () => {
		const board = new OrderBoard();
		const relay = new Relay();
		board.receive(relay.snapshot([createRecord(input('A', 1)), createRecord(input('B', 2))]));
		const onto = (id: string, seq: number): ServerMessage =>
			relay.change({
				type: 'order.created',
				id,
				input: { ...input(id, seq, { name: 'Order A' }), combinedWith: 'A' }
			});
		board.receive(onto('D', 4));
		board.receive(onto('C', 3));
		// What each card found by reading every order before: visible ones on it, by seq.
		const scan = (host: string) =>
			[...board.entries.values()]
				.filter((e) => e.context.combinedWith === host && e.hasTag('visible'))
				.sort((a, b) => a.context.seq - b.context.seq)
				.map((e) => e.id);
		expect(board.combinedOn('A').map((e) => e.id)).toEqual(['C', 'D']);
		expect(scan('A')).toEqual(['C', 'D']);
		expect(board.combinedOn('B')).toEqual([]);

		// Items edited on the ticket or on a combined order: the same index, the same list.
		const index = board.combined;
		const list = board.combinedOn('A');
		for (const id of ['A', 'C', 'B']) {
			board.receive(
				relay.change({
					type: 'order.event',
					id,
					event: {
						type: 'order.updated',
						order: order(id, { name: 'Order A', items: [item('1', { qty: 5 })] }),
						at: T0 + 9000
					}
				})
			);
		}
		expect(board.get('C')!.context.items[0].qty).toBe(5);
		expect(board.combined).toBe(index);
		expect(board.combinedOn('A')).toBe(list);

		// A combined order bumped leaves the ticket's list, as the scan says.
		board.receive(
			relay.change({
				type: 'order.event',
				id: 'C',
				event: { type: 'order.bumped', at: T0 + 9500 }
			})
		);
		expect(board.combinedOn('A').map((e) => e.id)).toEqual(scan('A'));
		expect(scan('A')).toEqual(['D']);
		board.receive(relay.change({ type: 'order.removed', id: 'D' }));
		expect(board.combinedOn('A')).toEqual([]);
	});
});
