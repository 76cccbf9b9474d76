import { describe, expect, it } from 'vitest';
import { orderEvents } from '../tests/helpers/order-events.ts';
import { createActor } from 'xstate';
import {
	orderMachine,
	type OrderEvent,
	type OrderInput,
	type OrderRecord,
	type OrderStateName
} from './order-machine.ts';
import { createRecord, step } from './order-step.ts';
import type { KdsItem, Order } from './order-schema.ts';

const T0 = 1_795_338_000_000;
const at = (minutes: number) => T0 + minutes * 60_000;

function item(lineId: string, over: Partial<KdsItem> = {}): KdsItem {
	return { lineId, name: `Item ${lineId}`, qty: 1, mods: [], ...over };
}

function order(over: Partial<Order> = {}): Order {
	return {
		id: 'A-1',
		name: 'Maria',
		time: '2026-11-22T09:00:00.000Z',
		mode: 'For Here',
		items: [item('1'), item('2')],
		...over
	};
}

function input(over: Partial<OrderInput> = {}): OrderInput {
	return { order: order(), at: T0, seq: 1, ...over };
}

function start(over: Partial<OrderInput> = {}) {
	return createActor(orderMachine, { input: input(over) }).start();
}

const ev = orderEvents(order, at);

const TAGS = ['held', 'visible', 'cancelled', 'done'] as const;

function tagsOf(actor: ReturnType<typeof start>): string[] {
	return TAGS.filter((t) => actor.getSnapshot().hasTag(t));
}

describe('order machine: states and tags', () => {
	it.each([
		['a new order', {}, 'active', ['visible']],
		['a new held order', { held: true }, 'held', ['held']]
	] as const)('%s starts %s', (_label, over, state, tags) => {
		const actor = start(over);
		expect(actor.getSnapshot().value).toBe(state);
		expect(tagsOf(actor)).toEqual(tags);
	});

	const paths: Array<[string, OrderInput['held'], OrderEvent[], OrderStateName, string[]]> = [
		['active → cancel', false, [ev.cancelled(1)], 'cancelled', ['visible', 'cancelled']],
		['active → bump', false, [ev.bumped(1)], 'bumped', ['done']],
		['cancelled → bump', false, [ev.cancelled(1), ev.bumped(2)], 'bumped', ['done']],
		['held → fire', true, [ev.fired(1, 7)], 'active', ['visible']],
		['held → cancel', true, [ev.cancelled(1)], 'cancelled', ['visible', 'cancelled']],
		['bumped → recall', false, [ev.bumped(1), ev.recalled(2)], 'active', ['visible']],
		[
			'cancelled → bumped → recall',
			false,
			[ev.cancelled(1), ev.bumped(2), ev.recalled(3)],
			'cancelled',
			['visible', 'cancelled']
		]
	];

	it.each(paths)('%s', (_label, held, events, state, tags) => {
		const actor = start({ held });
		for (const e of events) actor.send(e);
		expect(actor.getSnapshot().value).toBe(state);
		expect(tagsOf(actor)).toEqual(tags);
	});

	it('the context starts from the input', () => {
		const ctx = start({ seq: 4, at: at(0) }).getSnapshot().context;
		expect(ctx).toMatchObject({
			id: 'A-1',
			seq: 4,
			receivedAt: T0,
			queuedAt: T0,
			updatedAt: T0,
			fields: { id: 'A-1', name: 'Maria', mode: 'For Here' },
			items: [item('1'), item('2')]
		});
		expect(ctx.cancelledAt).toBeUndefined();
		expect(ctx.bumpedAt).toBeUndefined();
		expect(ctx.recalledAt).toBeUndefined();
	});

	it('a held order is not queued yet', () => {
		expect(start({ held: true }).getSnapshot().context.queuedAt).toBeLessThan(0);
	});
});

describe('order machine: cancel', () => {
	it('keeps the card visible, tagged cancelled, with cancelledAt', () => {
		const actor = start();
		actor.send(ev.cancelled(3));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('cancelled');
		expect(snap.hasTag('visible')).toBe(true);
		expect(snap.hasTag('cancelled')).toBe(true);
		expect(snap.context.cancelledAt).toBe(at(3));
		expect(snap.context.updatedAt).toBe(at(3));
	});

	it('a second cancel changes nothing', () => {
		const actor = start();
		actor.send(ev.cancelled(3));
		const before = actor.getSnapshot().context;
		actor.send(ev.cancelled(4));
		expect(actor.getSnapshot().value).toBe('cancelled');
		expect(actor.getSnapshot().context).toEqual(before);
	});

	it('a cancelled order still takes updates', () => {
		const actor = start();
		actor.send(ev.cancelled(1));
		actor.send(ev.updated(2, { name: 'Maria G' }));
		actor.send(ev.patched(3, { priority: true }));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('cancelled');
		expect(snap.context.fields).toMatchObject({ name: 'Maria G', priority: true });
	});

	it('cancel after bump does nothing', () => {
		const actor = start();
		actor.send(ev.bumped(1));
		const before = actor.getSnapshot().context;
		actor.send(ev.cancelled(2));
		expect(actor.getSnapshot().value).toBe('bumped');
		expect(actor.getSnapshot().context).toEqual(before);
		expect(actor.getSnapshot().context.cancelledAt).toBeUndefined();
	});

	it('a held order cancelled leaves the holds list for the queue', () => {
		const actor = start({ held: true, seq: 2 });
		actor.send(ev.cancelled(5));
		const ctx = actor.getSnapshot().context;
		expect(ctx.cancelledAt).toBe(at(5));
		expect(ctx.queuedAt).toBe(at(5));
		expect(ctx.seq).toBe(2);
	});
});

describe('order machine: bump and recall', () => {
	it.each([
		['active', [] as OrderEvent[]],
		['cancelled', [ev.cancelled(1)]]
	])('bump from %s sets bumpedAt and tags done', (_label, before) => {
		const actor = start();
		for (const e of before) actor.send(e);
		actor.send(ev.bumped(2));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('bumped');
		expect(snap.hasTag('done')).toBe(true);
		expect(snap.hasTag('visible')).toBe(false);
		expect(snap.context.bumpedAt).toBe(at(2));
	});

	it.each([
		['active', [] as OrderEvent[], 'active'],
		['cancelled', [ev.cancelled(1)], 'cancelled']
	] as const)('recall returns to %s, the state it was bumped from', (_label, before, state) => {
		const actor = start();
		for (const e of before) actor.send(e);
		actor.send(ev.bumped(2));
		actor.send(ev.recalled(3));
		const ctx = actor.getSnapshot().context;
		expect(actor.getSnapshot().value).toBe(state);
		expect(ctx.recalledAt).toBe(at(3));
		expect(ctx.bumpedAt).toBeUndefined();
		expect(ctx.updatedAt).toBe(at(3));
	});

	it('a recalled order bumped again loses its recalled mark', () => {
		const actor = start();
		actor.send(ev.bumped(1));
		actor.send(ev.recalled(2));
		actor.send(ev.bumped(3));
		const ctx = actor.getSnapshot().context;
		expect(ctx.recalledAt).toBeUndefined();
		expect(ctx.bumpedAt).toBe(at(3));
	});

	it.each([
		['a held order cannot be bumped', true, [ev.bumped(1)], 'held'],
		['an active order cannot be recalled', false, [ev.recalled(1)], 'active'],
		['an active order cannot be fired', false, [ev.fired(1, 9)], 'active'],
		[
			'a bumped order ignores updates',
			false,
			[ev.bumped(1), ev.updated(2, { name: 'X' })],
			'bumped'
		],
		['a bumped order ignores fire', false, [ev.bumped(1), ev.fired(2, 9)], 'bumped']
	] as const)('%s', (_label, held, events, state) => {
		const actor = start({ held });
		const [first, ...rest] = events;
		actor.send(first);
		const before = actor.getSnapshot().context;
		for (const e of rest) actor.send(e);
		expect(actor.getSnapshot().value).toBe(state);
		if (rest.length) expect(actor.getSnapshot().context).toEqual(before);
	});
});

describe('order machine: fire from hold', () => {
	it('goes to active with the new seq and queuedAt', () => {
		const actor = start({ held: true, seq: 3 });
		actor.send(ev.fired(10, 42));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('active');
		expect(snap.hasTag('visible')).toBe(true);
		expect(snap.hasTag('held')).toBe(false);
		expect(snap.context.seq).toBe(42);
		expect(snap.context.queuedAt).toBe(at(10));
		expect(snap.context.receivedAt).toBe(T0);
	});

	it('a held order takes updates and stays held', () => {
		const actor = start({ held: true });
		actor.send(ev.updated(1, { items: [item('1')] }));
		actor.send(ev.patched(2, { itemsToAdd: [item('3')] }));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('held');
		expect(snap.context.items.map((i) => [i.lineId, i.deleted ?? i.change ?? null])).toEqual([
			['1', null],
			['2', true],
			['3', 'added']
		]);
	});
});

describe('order machine: course fire', () => {
	const coursed = () =>
		order({
			items: [
				item('1', { course: '1', courseStatus: 'fire' }),
				item('2', { course: '2', courseStatus: 'hold' }),
				item('3', { course: '2', courseStatus: 'hold' })
			]
		});

	it('fires the held course: its items turn fire, highlighted as changed', () => {
		const actor = start({ order: coursed() });
		actor.send(ev.courseFired(3, '2'));
		const snap = actor.getSnapshot();
		expect(snap.value).toBe('active');
		expect(snap.context.items.map((i) => [i.lineId, i.courseStatus, i.change ?? null])).toEqual([
			['1', 'fire', null],
			['2', 'fire', 'updated'],
			['3', 'fire', 'updated']
		]);
		expect(snap.context.items[1].changedAt).toBe(at(3));
		expect(snap.context.updatedAt).toBe(at(3));
	});

	it.each([
		['a course with nothing on hold', false, [], '1'],
		['an unknown course', false, [], '9'],
		['a held order (not on the screen yet)', true, [], '2'],
		['a cancelled order', false, [ev.cancelled(1)], '2'],
		['a bumped order', false, [ev.bumped(1)], '2']
	] as const)('refused for %s', (_label, held, before, course) => {
		const actor = start({ order: coursed(), held });
		for (const e of before) actor.send(e);
		const snap = actor.getSnapshot();
		expect(snap.can(ev.courseFired(2, course))).toBe(false);
		expect(
			step(
				{ state: snap.value as OrderStateName, context: snap.context },
				ev.courseFired(2, course)
			)
		).toBeNull();
	});
});

describe('order machine: updates', () => {
	it('a full update replaces the content and sets updatedAt', () => {
		const actor = start();
		actor.send(ev.updated(4, { name: 'Maria G', items: [item('1', { qty: 2 })] }));
		const ctx = actor.getSnapshot().context;
		expect(ctx.fields.name).toBe('Maria G');
		expect(ctx.items).toEqual([
			{ ...item('1', { qty: 2 }), change: 'updated', changedAt: at(4) },
			{ ...item('2'), deleted: true, changedAt: at(4) }
		]);
		expect(ctx.updatedAt).toBe(at(4));
		expect(ctx.receivedAt).toBe(T0);
	});

	it('a partial update patches the content and sets updatedAt', () => {
		const actor = start();
		actor.send(ev.patched(5, { priority: true, itemsToRemove: ['1'] }));
		const ctx = actor.getSnapshot().context;
		expect(ctx.fields.priority).toBe(true);
		expect(ctx.fields.name).toBe('Maria');
		expect(ctx.items[0].deleted).toBe(true);
		expect(ctx.updatedAt).toBe(at(5));
	});
});

describe('step() agrees with the live actor', () => {
	const sequences: Array<[string, boolean, OrderEvent[]]> = [
		['create only', false, []],
		['create held only', true, []],
		[
			'updates then bump and recall',
			false,
			[
				ev.updated(1, { name: 'B', items: [item('1', { qty: 3 }), item('4')] }),
				ev.patched(2, { priority: true, itemsToRemove: ['4'], itemsToAdd: [item('5')] }),
				ev.bumped(3),
				ev.recalled(4)
			]
		],
		[
			'cancel, refused events, bump, recall, bump',
			false,
			[
				ev.cancelled(1),
				ev.cancelled(2),
				ev.fired(3, 9),
				ev.recalled(4),
				ev.bumped(5),
				ev.cancelled(6),
				ev.updated(7),
				ev.recalled(8),
				ev.bumped(9)
			]
		],
		[
			'held, patched, fired, bumped, recalled',
			true,
			[
				ev.bumped(1),
				ev.patched(2, { name: 'Catering', itemsToUpdate: [item('2', { qty: 9 })] }),
				ev.fired(3, 12),
				ev.fired(4, 13),
				ev.bumped(5),
				ev.recalled(6)
			]
		],
		['held then cancelled then bumped', true, [ev.cancelled(1), ev.bumped(2), ev.recalled(3)]],
		[
			'course fired while held (refused), then fired, then course fired twice',
			true,
			[
				ev.updated(1, { items: [item('1', { course: '2', courseStatus: 'hold' })] }),
				ev.courseFired(2, '2'),
				ev.fired(3, 9),
				ev.courseFired(4, '2'),
				ev.courseFired(5, '2')
			]
		]
	];

	it.each(sequences)('%s', (_label, held, events) => {
		const actor = start({ held, seq: 3 });
		let record: OrderRecord = createRecord(input({ held, seq: 3 }));
		const same = () => {
			const snap = actor.getSnapshot();
			expect(record.state).toBe(snap.value);
			expect(record.context).toStrictEqual(snap.context);
		};
		same();
		for (const e of events) {
			const before = actor.getSnapshot();
			const accepted = before.can(e);
			actor.send(e);
			const next = step(record, e);
			expect(next === null, `${e.type} in ${String(before.value)}`).toBe(!accepted);
			if (next) record = next;
			same();
		}
	});

	it('step() returns null for an event the state refuses and leaves the record alone', () => {
		const bumped = step(createRecord(input()), ev.bumped(1));
		if (!bumped) throw new Error('bump refused');
		const copy = structuredClone(bumped);
		expect(step(bumped, ev.cancelled(2))).toBeNull();
		expect(bumped).toEqual(copy);
	});

	it('a record survives a JSON round trip (as stored and relayed)', () => {
		let record: OrderRecord = createRecord(input());
		for (const e of [ev.cancelled(1), ev.bumped(2)]) {
			const next = step(JSON.parse(JSON.stringify(record)) as OrderRecord, e);
			if (!next) throw new Error(e.type);
			record = next;
		}
		const recalled = step(JSON.parse(JSON.stringify(record)) as OrderRecord, ev.recalled(3));
		expect(recalled?.state).toBe('cancelled');
		expect(recalled?.context.recalledAt).toBe(at(3));
	});
});

describe("order machine: a cook's marks (item done, ticket started)", () => {
	it('a tap marks an item done, a second tap undoes it; the timers are left alone', () => {
		const actor = start();
		actor.send(ev.itemMarked(2, '1'));
		let ctx = actor.getSnapshot().context;
		expect(ctx.itemsDone).toEqual({ '1': at(2) });
		expect(ctx.updatedAt).toBe(T0);
		expect(ctx.queuedAt).toBe(T0);
		actor.send(ev.itemMarked(3, '2'));
		actor.send(ev.itemMarked(4, '1', false));
		ctx = actor.getSnapshot().context;
		expect(ctx.itemsDone).toEqual({ '2': at(3) });
		actor.send(ev.itemMarked(5, '2', false));
		expect(actor.getSnapshot().context.itemsDone).toBeUndefined();
		expect(actor.getSnapshot().value).toBe('active');
	});

	it('started, and undone', () => {
		const actor = start();
		actor.send(ev.started(1));
		expect(actor.getSnapshot().context.startedAt).toBe(at(1));
		actor.send(ev.started(2, false));
		expect(actor.getSnapshot().context.startedAt).toBeUndefined();
	});

	it.each<[string, OrderEvent[], OrderEvent, boolean?]>([
		['an unknown item', [], ev.itemMarked(1, '9')],
		['an item already done', [ev.itemMarked(1, '1')], ev.itemMarked(2, '1')],
		['undoing an item not done', [], ev.itemMarked(1, '1', false)],
		['an item an update removed', [ev.updated(1, { items: [item('2')] })], ev.itemMarked(2, '1')],
		['a started ticket started again', [ev.started(1)], ev.started(2)],
		['undoing start on a ticket not started', [], ev.started(1, false)],
		['an item of a cancelled ticket', [ev.cancelled(1)], ev.itemMarked(2, '1')],
		['a cancelled ticket started', [ev.cancelled(1)], ev.started(2)],
		['an item of a bumped ticket', [ev.bumped(1)], ev.itemMarked(2, '1')],
		['an item of a held ticket', [], ev.itemMarked(1, '1'), true]
	])('refused: %s', (_label, before, event, held = false) => {
		const actor = start({ held });
		for (const e of before) actor.send(e);
		expect(actor.getSnapshot().can(event)).toBe(false);
		expect(step(createRecordAfter(before, held), event)).toBeNull();
	});

	it('an update drops the mark of an item it changed or removed, and keeps the others', () => {
		const actor = start({ order: order({ items: [item('1'), item('2'), item('3')] }) });
		for (const id of ['1', '2', '3']) actor.send(ev.itemMarked(1, id));
		actor.send(ev.updated(2, { items: [item('1'), item('2', { qty: 2 })] }));
		expect(actor.getSnapshot().context.itemsDone).toEqual({ '1': at(1) });
		actor.send(ev.itemMarked(3, '2'));
		actor.send(ev.patched(4, { itemsToUpdate: [item('1', { name: 'Other' })] }));
		expect(actor.getSnapshot().context.itemsDone).toEqual({ '2': at(3) });
		actor.send(ev.patched(5, { priority: true }));
		expect(actor.getSnapshot().context.itemsDone).toEqual({ '2': at(3) });
	});

	it('an update of an order without marks adds no itemsDone key', () => {
		const actor = start();
		actor.send(ev.updated(1, { name: 'X' }));
		expect('itemsDone' in actor.getSnapshot().context).toBe(false);
	});

	it('marks stay through a bump and a recall, and survive a JSON round trip', () => {
		let record: OrderRecord = createRecord(input());
		for (const e of [ev.itemMarked(1, '2'), ev.started(2), ev.bumped(3), ev.recalled(4)]) {
			const next = step(JSON.parse(JSON.stringify(record)) as OrderRecord, e);
			if (!next) throw new Error(e.type);
			record = next;
		}
		expect(record.state).toBe('active');
		expect(record.context.itemsDone).toEqual({ '2': at(1) });
		expect(record.context.startedAt).toBe(at(2));
	});
});

function createRecordAfter(events: readonly OrderEvent[], held: boolean): OrderRecord {
	let record = createRecord(input({ held }));
	for (const e of events) record = step(record, e) ?? record;
	return record;
}
