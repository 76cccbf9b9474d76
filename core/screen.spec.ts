import { describe, expect, it } from 'vitest';
import type { OrderRecord } from './order-machine.ts';
import type { KdsItem, Order, OrderCommand, PartialOrder } from './order-schema.ts';
import {
	applyChanges,
	createRecord,
	createScreenState,
	decide,
	decideAction,
	holdsOf,
	isLive,
	lastBumped,
	queueLength,
	queueOf,
	RECALL_LIMIT,
	type DecideOptions,
	type Decision,
	type ScreenAction,
	type ScreenState
} from './screen.ts';

const T0 = 1_795_338_000_000;
let clock = T0;
/** A strictly increasing time, so bump order is never a tie. */
const tick = () => (clock += 1000);

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

const cmd = {
	create: (id: string, over: Partial<Order> = {}): OrderCommand => ({
		command: 'create-order',
		order: order(id, over)
	}),
	update: (id: string, over: Partial<Order> = {}): OrderCommand => ({
		command: 'update-order',
		order: order(id, over)
	}),
	patch: (id: string, p: Omit<PartialOrder, 'id'> = {}): OrderCommand => ({
		command: 'partial-update-order',
		order: { id, ...p }
	}),
	cancel: (id: string): OrderCommand => ({ command: 'cancel-order', order: { id } })
};

const HOLD: DecideOptions = { hold: () => true };

/** decide, then apply when accepted; returns the decision. */
function run(screen: ScreenState, command: OrderCommand, options?: DecideOptions): Decision {
	const decision = decide(screen, command, tick(), options);
	if (decision.ok) applyChanges(screen, decision.changes);
	return decision;
}

function act(screen: ScreenState, action: ScreenAction, id: string) {
	const changes = decideAction(screen, action, id, tick());
	if (changes) applyChanges(screen, changes);
	return changes;
}

function stateOf(screen: ScreenState, id: string) {
	return screen.orders.get(id)?.state;
}

function ids(records: OrderRecord[]): string[] {
	return records.map((r) => r.context.id);
}

/** A screen prepared into a given state for order `id`. */
type Setup = (screen: ScreenState, id: string) => void;
const setups: Record<string, Setup> = {
	'no order': () => {},
	'on screen': (s, id) => void run(s, cmd.create(id)),
	'on hold': (s, id) => void run(s, cmd.create(id), HOLD),
	cancelled: (s, id) => {
		run(s, cmd.create(id));
		run(s, cmd.cancel(id));
	},
	bumped: (s, id) => {
		run(s, cmd.create(id));
		act(s, 'bump', id);
	},
	'cancelled then bumped': (s, id) => {
		run(s, cmd.create(id));
		run(s, cmd.cancel(id));
		act(s, 'bump', id);
	}
};

function screenWith(setup: keyof typeof setups, id = 'A'): ScreenState {
	const screen = createScreenState();
	setups[setup](screen, id);
	return screen;
}

describe('decide: the state table of contract section 3', () => {
	type Row = [
		setup: keyof typeof setups,
		command: keyof typeof cmd,
		reply: 'ok' | 'DUPLICATE_ORDER_ID' | 'ORDER_DOES_NOT_EXIST',
		after: OrderRecord['state'] | undefined
	];
	const rows: Row[] = [
		['no order', 'create', 'ok', 'active'],
		['on screen', 'create', 'DUPLICATE_ORDER_ID', 'active'],
		['on hold', 'create', 'DUPLICATE_ORDER_ID', 'held'],
		['cancelled', 'create', 'DUPLICATE_ORDER_ID', 'cancelled'],
		['bumped', 'create', 'ok', 'active'],
		['cancelled then bumped', 'create', 'ok', 'active'],
		['no order', 'update', 'ORDER_DOES_NOT_EXIST', undefined],
		['on screen', 'update', 'ok', 'active'],
		['on hold', 'update', 'ok', 'held'],
		['cancelled', 'update', 'ok', 'cancelled'],
		['bumped', 'update', 'ORDER_DOES_NOT_EXIST', 'bumped'],
		['no order', 'patch', 'ORDER_DOES_NOT_EXIST', undefined],
		['on screen', 'patch', 'ok', 'active'],
		['on hold', 'patch', 'ok', 'held'],
		['cancelled', 'patch', 'ok', 'cancelled'],
		['bumped', 'patch', 'ORDER_DOES_NOT_EXIST', 'bumped'],
		['no order', 'cancel', 'ORDER_DOES_NOT_EXIST', undefined],
		['on screen', 'cancel', 'ok', 'cancelled'],
		['on hold', 'cancel', 'ok', 'cancelled'],
		['cancelled', 'cancel', 'ok', 'cancelled'],
		['bumped', 'cancel', 'ok', 'bumped']
	];

	it.each(rows)('%s + %s → %s, then %s', (setup, command, reply, after) => {
		const screen = screenWith(setup);
		const decision = run(screen, cmd[command]('A'));
		expect(decision.id).toBe('A');
		if (reply === 'ok') expect(decision.ok).toBe(true);
		else expect(decision).toEqual({ ok: false, id: 'A', code: reply });
		expect(stateOf(screen, 'A')).toBe(after);
	});

	it('create new: ok with the id, the order is on the screen', () => {
		const screen = createScreenState();
		const decision = run(screen, cmd.create('1001'));
		expect(decision).toMatchObject({ ok: true, id: '1001' });
		expect(ids(queueOf(screen.orders.values()))).toEqual(['1001']);
		expect(screen.orders.get('1001')?.context.fields.name).toBe('Order 1001');
	});

	it('create duplicate: the existing order is unchanged', () => {
		const screen = screenWith('on screen');
		const before = structuredClone(screen.orders.get('A'));
		const decision = run(screen, cmd.create('A', { name: 'Impostor' }));
		expect(decision).toEqual({ ok: false, id: 'A', code: 'DUPLICATE_ORDER_ID' });
		expect(screen.orders.get('A')).toEqual(before);
	});

	it('create with options.hold puts the order in the holds list', () => {
		const screen = createScreenState();
		let asked: OrderCommand | undefined;
		run(screen, cmd.create('H'), { hold: (c) => ((asked = c), true) });
		expect(asked).toMatchObject({ command: 'create-order', order: { id: 'H' } });
		expect(stateOf(screen, 'H')).toBe('held');
		expect(ids(holdsOf(screen.orders.values()))).toEqual(['H']);
		expect(queueOf(screen.orders.values())).toEqual([]);
	});

	it('full update: new content, removed lines flagged deleted, new lines added', () => {
		const screen = screenWith('on screen');
		const decision = run(screen, cmd.update('A', { items: [item('2', { qty: 2 }), item('3')] }));
		expect(decision.ok).toBe(true);
		const items = screen.orders.get('A')?.context.items ?? [];
		expect(items.map((i) => [i.lineId, i.deleted ?? i.change])).toEqual([
			['1', true],
			['2', 'updated'],
			['3', 'added']
		]);
	});

	it('partial update: applies the patch by lineId', () => {
		const screen = screenWith('on screen');
		run(screen, cmd.patch('A', { itemsToRemove: ['1'], itemsToAdd: [item('9')], name: 'New' }));
		const ctx = screen.orders.get('A')?.context;
		expect(ctx?.fields.name).toBe('New');
		expect(ctx?.items.map((i) => [i.lineId, i.deleted ?? i.change ?? null])).toEqual([
			['1', true],
			['2', null],
			['9', 'added']
		]);
	});

	it('cancel known: ok, state cancelled, still in the queue', () => {
		const screen = screenWith('on screen');
		const decision = run(screen, cmd.cancel('A'));
		expect(decision).toMatchObject({ ok: true, id: 'A' });
		expect(stateOf(screen, 'A')).toBe('cancelled');
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A']);
	});

	it.each(['bumped', 'cancelled', 'cancelled then bumped'] as const)(
		'cancel when %s: ok, ignored, no changes',
		(setup) => {
			const screen = screenWith(setup);
			const before = structuredClone(screen);
			const decision = decide(screen, cmd.cancel('A'), tick());
			expect(decision).toEqual({ ok: true, id: 'A', changes: [] });
			expect(screen).toEqual(before);
		}
	);

	it('create after bump with the same id: ok, replaces the bumped one', () => {
		const screen = screenWith('bumped');
		const old = screen.orders.get('A');
		const decision = run(screen, cmd.create('A', { name: 'Second visit' }));
		expect(decision.ok).toBe(true);
		if (!decision.ok) return;
		expect(decision.changes.map((c) => c.type)).toEqual(['order.removed', 'order.created']);
		const now = screen.orders.get('A');
		expect(now?.state).toBe('active');
		expect(now?.context.fields.name).toBe('Second visit');
		expect(now?.context.bumpedAt).toBeUndefined();
		expect(now?.context.seq).toBeGreaterThan(old?.context.seq ?? Infinity);
		expect(lastBumped(screen)).toBeUndefined();
		expect(screen.orders.size).toBe(1);
	});

	it('the reply id is the command id for every command', () => {
		const screen = createScreenState();
		for (const c of [cmd.create('X'), cmd.update('X'), cmd.patch('X'), cmd.cancel('X')])
			expect(run(screen, c).id).toBe('X');
		expect(run(screen, cmd.update('nope')).id).toBe('nope');
	});
});

describe('decide does not mutate the screen', () => {
	const commands: Array<[string, (id: string) => OrderCommand]> = [
		['create', cmd.create],
		['update', (id) => cmd.update(id, { items: [item('3')], priority: true })],
		['patch', (id) => cmd.patch(id, { itemsToRemove: ['1'], itemsToAdd: [item('4')] })],
		['cancel', cmd.cancel]
	];
	const cases = Object.keys(setups).flatMap((setup) =>
		commands.map(([name, make]) => [setup, name, make] as const)
	);

	it.each(cases)('%s + %s', (setup, _name, make) => {
		const screen = screenWith(setup as keyof typeof setups);
		run(screen, cmd.create('B'));
		const before = structuredClone(screen);
		const records = [...screen.orders.values()];
		decide(screen, make('A'), tick(), HOLD);
		decide(screen, make('A'), tick());
		expect(screen).toEqual(before);
		[...screen.orders.values()].forEach((r, i) => expect(r).toBe(records[i]));
	});

	it('decideAction does not mutate the screen either', () => {
		const screen = createScreenState();
		for (let i = 0; i < RECALL_LIMIT + 1; i++) {
			run(screen, cmd.create(`o${i}`));
			if (i < RECALL_LIMIT) act(screen, 'bump', `o${i}`);
		}
		run(screen, cmd.create('held'), HOLD);
		const before = structuredClone(screen);
		decideAction(screen, 'bump', `o${RECALL_LIMIT}`, tick());
		decideAction(screen, 'recall', 'o0', tick());
		decideAction(screen, 'fire', 'held', tick());
		expect(screen).toEqual(before);
	});
});

describe('applyChanges', () => {
	it('advances nextSeq past every record it stores', () => {
		const screen = createScreenState();
		expect(screen.nextSeq).toBe(1);
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		expect(screen.orders.get('A')?.context.seq).toBe(1);
		expect(screen.orders.get('B')?.context.seq).toBe(2);
		expect(screen.nextSeq).toBe(3);
	});

	it('createScreenState from stored records continues after the highest seq', () => {
		const a = createRecord({ order: order('A'), at: T0, seq: 7 });
		const b = createRecord({ order: order('B'), at: T0, seq: 3 });
		const screen = createScreenState([a, b]);
		expect([...screen.orders.keys()]).toEqual(['A', 'B']);
		expect(screen.nextSeq).toBe(8);
	});

	it('replaying the same changes on a copy gives the same screen (what the UI does)', () => {
		const agent = createScreenState();
		const ui = createScreenState();
		const steps: Array<() => ReturnType<typeof decideAction> | Decision> = [
			() => decide(agent, cmd.create('A'), tick()),
			() => decide(agent, cmd.create('B'), tick(), HOLD),
			() => decide(agent, cmd.patch('A', { priority: true }), tick()),
			() => decideAction(agent, 'fire', 'B', tick()),
			() => decideAction(agent, 'bump', 'A', tick()),
			() => decide(agent, cmd.create('A'), tick())
		];
		for (const s of steps) {
			const out = s();
			const changes = Array.isArray(out) ? out : out && out.ok ? out.changes : [];
			applyChanges(agent, changes);
			applyChanges(ui, JSON.parse(JSON.stringify(changes)));
		}
		expect(ui).toEqual(agent);
	});
});

describe('queueOf and holdsOf', () => {
	it('priority first, then arrival', () => {
		const screen = createScreenState();
		run(screen, cmd.create('1'));
		run(screen, cmd.create('2', { priority: true }));
		run(screen, cmd.create('3'));
		run(screen, cmd.create('4', { priority: true }));
		run(screen, cmd.create('5', { priority: false }));
		expect(ids(queueOf(screen.orders.values()))).toEqual(['2', '4', '1', '3', '5']);
	});

	it('a partial update setting priority:true moves the card to the front', () => {
		const screen = createScreenState();
		for (const id of ['1', '2', '3']) run(screen, cmd.create(id));
		expect(ids(queueOf(screen.orders.values()))).toEqual(['1', '2', '3']);
		run(screen, cmd.patch('3', { priority: true }));
		expect(ids(queueOf(screen.orders.values()))).toEqual(['3', '1', '2']);
		run(screen, cmd.patch('3', { priority: false }));
		expect(ids(queueOf(screen.orders.values()))).toEqual(['1', '2', '3']);
	});

	it('a full update that omits priority drops the card back to its arrival place', () => {
		const screen = createScreenState();
		run(screen, cmd.create('1'));
		run(screen, cmd.create('2', { priority: true }));
		run(screen, cmd.update('2'));
		expect(ids(queueOf(screen.orders.values()))).toEqual(['1', '2']);
	});

	it('shows active and cancelled cards; held and bumped ones are not in the queue', () => {
		const screen = createScreenState();
		run(screen, cmd.create('active'));
		run(screen, cmd.create('cancelled'));
		run(screen, cmd.cancel('cancelled'));
		run(screen, cmd.create('held'), HOLD);
		run(screen, cmd.create('bumped'));
		act(screen, 'bump', 'bumped');
		expect(ids(queueOf(screen.orders.values()))).toEqual(['active', 'cancelled']);
		expect(ids(holdsOf(screen.orders.values()))).toEqual(['held']);
		expect(isLive(screen.orders.get('held') as OrderRecord)).toBe(true);
		expect(isLive(screen.orders.get('bumped') as OrderRecord)).toBe(false);
	});

	it('holds list is oldest first', () => {
		const screen = createScreenState();
		for (const id of ['h1', 'h2', 'h3']) run(screen, cmd.create(id), HOLD);
		expect(ids(holdsOf(screen.orders.values()))).toEqual(['h1', 'h2', 'h3']);
	});
});

describe('decideAction', () => {
	it('bump: the card leaves the queue and becomes the last bumped', () => {
		const screen = createScreenState();
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		const changes = act(screen, 'bump', 'A');
		expect(changes).toHaveLength(1);
		expect(changes?.[0]).toMatchObject({
			type: 'order.event',
			id: 'A',
			event: { type: 'order.bumped' },
			itemsKept: true
		});
		expect(stateOf(screen, 'A')).toBe('bumped');
		expect(ids(queueOf(screen.orders.values()))).toEqual(['B']);
		expect(lastBumped(screen)).toBe('A');
	});

	it('recall: the card comes back in its old place, marked recalled', () => {
		const screen = createScreenState();
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		act(screen, 'bump', 'A');
		const changes = act(screen, 'recall', 'A');
		expect(changes).not.toBeNull();
		expect(stateOf(screen, 'A')).toBe('active');
		expect(screen.orders.get('A')?.context.recalledAt).toBeDefined();
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A', 'B']);
		expect(lastBumped(screen)).toBeUndefined();
	});

	it('recall of a cancelled order brings it back cancelled', () => {
		const screen = screenWith('cancelled then bumped');
		act(screen, 'recall', 'A');
		expect(stateOf(screen, 'A')).toBe('cancelled');
	});

	it('fire: a held order joins the end of the queue with the next seq', () => {
		const screen = createScreenState();
		run(screen, cmd.create('H'), HOLD);
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		const nextSeq = screen.nextSeq;
		const firedAt = clock + 1000;
		act(screen, 'fire', 'H');
		const ctx = screen.orders.get('H')?.context;
		expect(stateOf(screen, 'H')).toBe('active');
		expect(ctx?.seq).toBe(nextSeq);
		expect(ctx?.queuedAt).toBe(firedAt);
		expect(screen.nextSeq).toBe(nextSeq + 1);
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A', 'B', 'H']);
		expect(holdsOf(screen.orders.values())).toEqual([]);
	});

	it.each([
		['bump an unknown order', 'no order', 'bump'],
		['recall an unknown order', 'no order', 'recall'],
		['fire an unknown order', 'no order', 'fire'],
		['bump a held order', 'on hold', 'bump'],
		['recall an order on screen', 'on screen', 'recall'],
		['fire an order on screen', 'on screen', 'fire'],
		['bump a bumped order', 'bumped', 'bump'],
		['fire a bumped order', 'bumped', 'fire']
	] as const)('%s → null', (_label, setup, action) => {
		const screen = screenWith(setup);
		expect(decideAction(screen, action, 'A', tick())).toBeNull();
	});
});

describe('fire-course', () => {
	const coursed = (id: string) =>
		cmd.create(id, {
			items: [
				item('1', { course: '1', courseStatus: 'fire' }),
				item('2', { course: '2', courseStatus: 'hold' })
			]
		});

	it('fires the held course of an order on the screen; the queue is unchanged', () => {
		const screen = createScreenState();
		run(screen, coursed('A'));
		run(screen, cmd.create('B'));
		const firedAt = clock + 1000;
		const changes = decideAction(screen, 'fire-course', 'A', tick(), { course: '2' });
		expect(changes).toEqual([
			{
				type: 'order.event',
				id: 'A',
				event: { type: 'course.fired', course: '2', at: firedAt },
				record: expect.objectContaining({ state: 'active' }),
				itemsKept: false
			}
		]);
		applyChanges(screen, changes ?? []);
		expect(screen.orders.get('A')?.context.items.map((i) => i.courseStatus)).toEqual([
			'fire',
			'fire'
		]);
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A', 'B']);
	});

	it.each([
		['without a course', 'A', undefined],
		['of a course with nothing on hold', 'A', '1'],
		['of an unknown order', 'Z', '2']
	] as const)('refused %s', (_label, id, course) => {
		const screen = createScreenState();
		run(screen, coursed('A'));
		expect(decideAction(screen, 'fire-course', id, tick(), { course })).toBeNull();
	});

	it('refused for a held order', () => {
		const screen = createScreenState();
		run(screen, coursed('A'), HOLD);
		expect(decideAction(screen, 'fire-course', 'A', tick(), { course: '2' })).toBeNull();
	});
});

describe('recall limit', () => {
	it(`after ${RECALL_LIMIT + 1} bumps only the last ${RECALL_LIMIT} remain`, () => {
		expect(RECALL_LIMIT).toBe(50);
		const screen = createScreenState();
		const total = RECALL_LIMIT + 1;
		let last: ReturnType<typeof decideAction> = null;
		for (let i = 1; i <= total; i++) {
			run(screen, cmd.create(`o${i}`));
			last = act(screen, 'bump', `o${i}`);
		}
		expect(last?.map((c) => c.type)).toEqual(['order.event', 'order.removed']);
		expect(last?.[1]).toEqual({ type: 'order.removed', id: 'o1' });
		const bumped = [...screen.orders.values()].filter((r) => r.state === 'bumped');
		expect(bumped).toHaveLength(RECALL_LIMIT);
		expect(screen.orders.has('o1')).toBe(false);
		expect(screen.orders.has('o2')).toBe(true);
		expect(screen.orders.has(`o${total}`)).toBe(true);
		expect(decideAction(screen, 'recall', 'o1', tick())).toBeNull();
		expect(lastBumped(screen)).toBe(`o${total}`);
	});

	it('the oldest bumped goes first, by bump time not arrival', () => {
		const screen = createScreenState();
		for (let i = 1; i <= RECALL_LIMIT + 1; i++) run(screen, cmd.create(`o${i}`));
		// Bump in reverse arrival order: o51 is bumped first, so it is the one evicted.
		for (let i = RECALL_LIMIT + 1; i >= 1; i--) act(screen, 'bump', `o${i}`);
		expect(screen.orders.has(`o${RECALL_LIMIT + 1}`)).toBe(false);
		expect(screen.orders.has('o1')).toBe(true);
		expect(lastBumped(screen)).toBe('o1');
	});

	it('orders still on screen are never evicted', () => {
		const screen = createScreenState();
		run(screen, cmd.create('stay'));
		run(screen, cmd.create('held'), HOLD);
		for (let i = 1; i <= RECALL_LIMIT + 5; i++) {
			run(screen, cmd.create(`o${i}`));
			act(screen, 'bump', `o${i}`);
		}
		expect(stateOf(screen, 'stay')).toBe('active');
		expect(stateOf(screen, 'held')).toBe('held');
		expect(screen.orders.size).toBe(RECALL_LIMIT + 2);
	});

	it('exactly the limit: nothing is evicted', () => {
		const screen = createScreenState();
		for (let i = 1; i <= RECALL_LIMIT; i++) {
			run(screen, cmd.create(`o${i}`));
			expect(act(screen, 'bump', `o${i}`)).toHaveLength(1);
		}
		expect(screen.orders.size).toBe(RECALL_LIMIT);
	});
});

describe('lastBumped', () => {
	it('is undefined on an empty screen or with nothing bumped', () => {
		expect(lastBumped(createScreenState())).toBeUndefined();
		expect(lastBumped(screenWith('on screen'))).toBeUndefined();
	});

	it('returns the most recently bumped, and the one before after a recall', () => {
		const screen = createScreenState();
		for (const id of ['A', 'B', 'C']) run(screen, cmd.create(id));
		act(screen, 'bump', 'B');
		act(screen, 'bump', 'A');
		act(screen, 'bump', 'C');
		expect(lastBumped(screen)).toBe('C');
		act(screen, 'recall', 'C');
		expect(lastBumped(screen)).toBe('A');
		act(screen, 'recall', 'A');
		expect(lastBumped(screen)).toBe('B');
	});
});

describe('queueLength', () => {
	it('counts the cards queueOf shows: active and cancelled, not held or bumped', () => {
		const screen = createScreenState();
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		run(screen, cmd.create('C'));
		run(screen, cmd.create('H'), HOLD);
		run(screen, cmd.cancel('B'));
		act(screen, 'bump', 'C');
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A', 'B']);
		expect(queueLength(screen.orders.values())).toBe(2);
	});
});

describe("a cook's marks: item-done, item-undo, start, start-undo", () => {
	function onScreen() {
		const screen = createScreenState();
		run(screen, cmd.create('A'));
		run(screen, cmd.create('B'));
		return screen;
	}
	const mark = (screen: ScreenState, action: ScreenAction, id: string, lineId?: string) => {
		const changes = decideAction(screen, action, id, tick(), { lineId });
		if (changes) applyChanges(screen, changes);
		return changes;
	};

	it('item-done marks one item of one order; the queue and the other order are unchanged', () => {
		const screen = onScreen();
		const doneAt = clock + 1000;
		const changes = mark(screen, 'item-done', 'A', '2');
		expect(changes).toEqual([
			{
				type: 'order.event',
				id: 'A',
				event: { type: 'item.marked', lineId: '2', done: true, at: doneAt },
				record: expect.objectContaining({ state: 'active' }),
				itemsKept: true
			}
		]);
		expect(screen.orders.get('A')?.context.itemsDone).toEqual({ '2': doneAt });
		expect(screen.orders.get('B')?.context.itemsDone).toBeUndefined();
		expect(ids(queueOf(screen.orders.values()))).toEqual(['A', 'B']);
		mark(screen, 'item-undo', 'A', '2');
		expect(screen.orders.get('A')?.context.itemsDone).toBeUndefined();
	});

	it('start and start-undo', () => {
		const screen = onScreen();
		const startedAt = clock + 1000;
		mark(screen, 'start', 'B');
		expect(screen.orders.get('B')?.context.startedAt).toBe(startedAt);
		mark(screen, 'start-undo', 'B');
		expect(screen.orders.get('B')?.context.startedAt).toBeUndefined();
	});

	it('a mark already as asked is accepted with nothing to change (two browsers, one tap each)', () => {
		const screen = onScreen();
		mark(screen, 'item-done', 'A', '1');
		expect(mark(screen, 'item-done', 'A', '1')).toEqual([]);
		expect(mark(screen, 'item-undo', 'A', '2')).toEqual([]);
		mark(screen, 'start', 'A');
		expect(mark(screen, 'start', 'A')).toEqual([]);
		expect(mark(screen, 'start-undo', 'B')).toEqual([]);
	});

	it.each([
		['item-done without a line', 'A', 'item-done', undefined],
		['an unknown line', 'A', 'item-done', '9'],
		['an unknown order', 'Z', 'item-done', '1'],
		['start of an unknown order', 'Z', 'start', undefined]
	] as const)('refused: %s', (_label, id, action, lineId) => {
		expect(mark(onScreen(), action, id, lineId)).toBeNull();
	});

	it.each([
		['cancelled', 'cancel'],
		['bumped', 'bump'],
		['held', 'hold']
	] as const)('refused on a %s order (no card to tick)', (_label, how) => {
		const screen = createScreenState();
		run(screen, cmd.create('A'), how === 'hold' ? HOLD : undefined);
		if (how === 'cancel') run(screen, cmd.cancel('A'));
		if (how === 'bump') act(screen, 'bump', 'A');
		expect(mark(screen, 'item-done', 'A', '1')).toBeNull();
		expect(mark(screen, 'start', 'A')).toBeNull();
	});

	it('a removed item is refused; an update that changes an item clears its mark', () => {
		const screen = onScreen();
		mark(screen, 'item-done', 'A', '1');
		mark(screen, 'item-done', 'A', '2');
		run(screen, cmd.update('A', { items: [item('1'), item('2', { qty: 4 })] }));
		expect(screen.orders.get('A')?.context.itemsDone).toEqual({ '1': expect.any(Number) });
		run(screen, cmd.patch('A', { itemsToRemove: ['1'] }));
		expect(screen.orders.get('A')?.context.itemsDone).toBeUndefined();
		expect(mark(screen, 'item-done', 'A', '1')).toBeNull();
	});
});
