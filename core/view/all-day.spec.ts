import { describe, expect, it } from 'vitest';
import type { OrderContext, OrderStateName } from '../order-machine.ts';
import type { KdsItem, Order } from '../order-schema.ts';
import { applyChanges, createRecord, createScreenState, decide } from '../screen.ts';
import { allDay } from './all-day.ts';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const item = (lineId: string, name: string, over: Partial<KdsItem> = {}): KdsItem => ({
	lineId,
	name,
	qty: 1,
	mods: [],
	...over
});
function ticket(id: string, items: KdsItem[], over: Partial<Order> = {}, held = false) {
	return createRecord({
		order: { id, name: id, time: '2026-12-02T11:55:00Z', mode: 'ToGo', items, ...over },
		at: NOW - 60_000,
		seq: 1,
		held
	});
}

describe('All Day', () => {
	it('sums each item over the tickets, its modifier combinations grouped, most first', () => {
		const records = [
			ticket('A', [
				item('1', 'Burger 🍔', { qty: 2, mods: [{ name: 'No onion' }] }),
				item('2', 'Fries')
			]),
			ticket('B', [
				item('1', 'Burger 🍔', { mods: [{ name: 'No onion' }] }),
				item('2', 'Burger 🍔', { mods: [{ name: 'Bacon', qty: 2 }] }),
				item('3', 'Burger 🍔')
			]),
			ticket('C', [item('1', '抹茶ラテ'), item('2', 'Fries', { qty: 3 })])
		];
		expect(allDay(records, NOW)).toEqual([
			{
				name: 'Burger 🍔',
				qty: 5,
				tickets: 2,
				variants: [
					{ mods: 'No onion', qty: 3 },
					{ mods: '', qty: 1 },
					{ mods: '2 × Bacon', qty: 1 }
				]
			},
			{ name: 'Fries', qty: 4, tickets: 2, variants: [{ mods: '', qty: 4 }] },
			{ name: '抹茶ラテ', qty: 1, tickets: 1, variants: [{ mods: '', qty: 1 }] }
		]);
	});

	it('leaves out held and scheduled tickets, cancelled ones, courses on hold and removed items', () => {
		const screen = createScreenState([
			ticket('live', [
				item('1', 'Soup'),
				item('2', 'Steak', { course: 'Mains', courseStatus: 'hold' }),
				item('3', 'Salad', { course: 'Starters', courseStatus: 'fire' })
			]),
			ticket('held', [item('1', 'Soup')], {}, true),
			ticket('scheduled', [item('1', 'Soup')], {
				pickupTime: '2026-12-02T14:00:00Z',
				prepTimeDuration: 'PT20M'
			}),
			ticket('cancelled', [item('1', 'Soup')])
		]);
		const cancel = decide(screen, { command: 'cancel-order', order: { id: 'cancelled' } }, NOW);
		if (!cancel.ok) throw new Error(cancel.code);
		applyChanges(screen, cancel.changes);
		expect(screen.orders.get('cancelled')!.state).toBe('cancelled');
		const records: Array<{ state: OrderStateName; context: OrderContext }> = [
			...screen.orders.values()
		];
		const removed = { ...records[0], context: { ...records[0].context } };
		removed.context.items = [...removed.context.items, { ...item('9', 'Pie'), deleted: true }];
		expect(allDay([removed, ...records.slice(1)], NOW).map((l) => `${l.qty} ${l.name}`)).toEqual([
			'1 Salad',
			'1 Soup'
		]);
	});
});

describe('All Day, outstanding only', () => {
	it('leaves out items a station completed (expo) and items a cook marked done', () => {
		const base = ticket('A', [
			item('1', 'Burger 🍔', { qty: 2 }),
			item('2', 'Fries'),
			item('3', 'Shake')
		]);
		const record = {
			...base,
			context: {
				...base.context,
				// The grill bumped its burgers (matched by lineId); a cook ticked the shake off.
				stations: [
					{
						station: 'grill',
						name: 'Grill',
						items: [{ lineId: '1', name: 'Burger 🍔', qty: 2 }],
						doneAt: NOW - 1000
					},
					{ station: 'fry', name: 'Fry', items: [{ lineId: '2', name: 'Fries', qty: 1 }] }
				],
				itemsDone: { '3': NOW - 500 }
			}
		};
		const names = (outstanding: boolean) =>
			allDay([record], NOW, undefined, { outstanding }).map((l) => `${l.qty} ${l.name}`);
		expect(names(false)).toEqual(['2 Burger 🍔', '1 Fries', '1 Shake']);
		expect(names(true)).toEqual(['1 Fries']);
	});
});
