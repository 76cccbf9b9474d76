import { describe, expect, it } from 'vitest';
import type { Order, OrderCommand } from './order-schema.ts';
import {
	applyChanges,
	createScreenState,
	decide,
	decideAction,
	queueLength,
	queueOf,
	type ScreenState
} from './screen.ts';

const T0 = Date.parse('2026-12-02T12:00:00Z');
const MIN = 60_000;
const order = (id: string, over: Partial<Order> = {}): Order => ({
	id,
	name: 'Ana',
	time: '2026-12-02T12:00:00Z',
	mode: 'ToGo',
	items: [{ lineId: '1', name: `Item of ${id}`, qty: 1, mods: [] }],
	...over
});
function create(screen: ScreenState, o: Order, at: number, combine = true) {
	const decision = decide(screen, { command: 'create-order', order: o } as OrderCommand, at, {
		combine
	});
	if (!decision.ok) throw new Error(decision.code);
	applyChanges(screen, decision.changes);
	return screen.orders.get(o.id)!;
}
const cards = (screen: ScreenState) => queueOf(screen.orders.values()).map((r) => r.context.id);

describe('Combine Orders', () => {
	it('joins a new order to the ticket of a same-name order of the last 5 minutes', () => {
		const screen = createScreenState();
		create(screen, order('A-1'), T0);
		expect(create(screen, order('A-2', { name: ' ana ' }), T0 + 4 * MIN).context.combinedWith).toBe(
			'A-1'
		);
		expect(cards(screen)).toEqual(['A-1']);
		expect(queueLength(screen.orders.values())).toBe(1);
		// Later than 5 minutes after A-1, another name, or off: a ticket of its own.
		expect(create(screen, order('A-3'), T0 + 6 * MIN).context.combinedWith).toBeUndefined();
		expect(
			create(screen, order('B-1', { name: 'Bo' }), T0 + 6 * MIN).context.combinedWith
		).toBeUndefined();
		expect(create(screen, order('A-4'), T0 + 7 * MIN, false).context.combinedWith).toBeUndefined();
		expect(cards(screen)).toEqual(['A-1', 'A-3', 'B-1', 'A-4']);
	});

	it('needs the same phone number when either order gives one', () => {
		const screen = createScreenState();
		create(screen, order('P-1', { phoneNumber: '+1 (555) 123-4567' }), T0);
		expect(
			create(screen, order('P-2', { phoneNumber: '+15551234567' }), T0 + MIN).context.combinedWith
		).toBe('P-1');
		expect(create(screen, order('P-3'), T0 + MIN).context.combinedWith).toBeUndefined();
		expect(
			create(screen, order('P-4', { phoneNumber: '+15550000000' }), T0 + MIN).context.combinedWith
		).toBeUndefined();
	});

	it('a bump of the ticket bumps every order on it; one bumped alone leaves the other a card', () => {
		const screen = createScreenState();
		create(screen, order('A-1'), T0);
		create(screen, order('A-2'), T0 + MIN);
		const changes = decideAction(screen, 'bump', 'A-1', T0 + 2 * MIN)!;
		expect(
			changes.map((c) => (c.type === 'order.event' ? `${c.id} ${c.event.type}` : c.type))
		).toEqual(['A-1 order.bumped', 'A-2 order.bumped']);
		applyChanges(screen, changes);
		expect(cards(screen)).toEqual([]);
		applyChanges(screen, decideAction(screen, 'recall', 'A-1', T0 + 3 * MIN)!);
		expect(cards(screen)).toEqual(['A-1']);
		// A-2 recalled too: back on A-1's ticket; A-1 bumped alone (an API bump of its id): A-2 shows.
		applyChanges(screen, decideAction(screen, 'recall', 'A-2', T0 + 3 * MIN)!);
		expect(cards(screen)).toEqual(['A-1']);
		const cancel = decide(screen, { command: 'cancel-order', order: { id: 'A-1' } }, T0 + 4 * MIN);
		if (!cancel.ok) throw new Error(cancel.code);
		applyChanges(screen, cancel.changes);
		expect(cards(screen)).toEqual(['A-1']);
		expect(screen.orders.get('A-2')!.state).toBe('active');
	});
});
