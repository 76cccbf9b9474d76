import { describe, expect, it } from 'vitest';
import {
	applyFullUpdate,
	applyPartialUpdate,
	contentFromOrder,
	type ItemView,
	type OrderContent
} from './content.ts';
import {
	KdsItemSchema,
	PartialOrderSchema,
	type KdsItem,
	type Order,
	type PartialOrder
} from './order-schema.ts';
import { parseWith } from './parse.ts';

const T0 = 1_795_338_000_000;
const T1 = T0 + 60_000;
const T2 = T0 + 120_000;

function item(lineId: string, over: Partial<KdsItem> = {}): KdsItem {
	return { lineId, name: `Item ${lineId}`, qty: 1, mods: [], ...over };
}

function order(items: KdsItem[], over: Partial<Order> = {}): Order {
	return {
		id: 'A-1',
		name: 'Maria',
		time: '2026-11-22T09:00:00.000Z',
		mode: 'For Here',
		items,
		...over
	};
}

function created(items: KdsItem[] = [item('1'), item('2'), item('3')], over: Partial<Order> = {}) {
	return contentFromOrder(order(items, over));
}

function patch(p: Omit<PartialOrder, 'id'>): PartialOrder {
	return { id: 'A-1', ...p };
}

function lines(content: OrderContent): string[] {
	return content.items.map((i) => i.lineId);
}

function byLine(content: OrderContent, lineId: string): ItemView {
	const found = content.items.find((i) => i.lineId === lineId);
	if (!found) throw new Error(`no line ${lineId}`);
	return found;
}

describe('contentFromOrder', () => {
	it('splits fields from items and flags nothing', () => {
		const content = created([item('1'), item('2')], { priority: true });
		expect(content.fields).toEqual({
			id: 'A-1',
			name: 'Maria',
			time: '2026-11-22T09:00:00.000Z',
			mode: 'For Here',
			priority: true
		});
		expect(content.fields).not.toHaveProperty('items');
		expect(content.items).toEqual([item('1'), item('2')]);
		for (const i of content.items) {
			expect(i.deleted).toBeUndefined();
			expect(i.change).toBeUndefined();
		}
	});

	it('copies items so the card does not share them with the input', () => {
		const input = order([item('1')]);
		const content = contentFromOrder(input);
		expect(content.items[0]).not.toBe(input.items[0]);
	});
});

describe('applyFullUpdate', () => {
	it('a lineId absent from the update is flagged deleted and kept in place', () => {
		const next = applyFullUpdate(created(), order([item('1'), item('3')]), T1);
		expect(lines(next)).toEqual(['1', '2', '3']);
		expect(byLine(next, '2')).toEqual({ ...item('2'), deleted: true, changedAt: T1 });
		expect(byLine(next, '1').deleted).toBeUndefined();
		expect(byLine(next, '3').deleted).toBeUndefined();
	});

	it('a new lineId is appended with change added', () => {
		const next = applyFullUpdate(
			created(),
			order([item('4'), item('1'), item('2'), item('3')]),
			T1
		);
		expect(lines(next)).toEqual(['1', '2', '3', '4']);
		expect(byLine(next, '4')).toEqual({ ...item('4'), change: 'added', changedAt: T1 });
	});

	it.each([
		['qty', { qty: 2 }],
		['name', { name: 'Renamed' }],
		['mods', { mods: [{ name: 'No pickles' }] }],
		['an optional field added', { seat: '2' }],
		['courseStatus', { courseStatus: 'fire' as const }]
	])('a changed item (%s) takes the new content with change updated', (_label, over) => {
		const next = applyFullUpdate(created(), order([item('1'), item('2', over), item('3')]), T1);
		expect(byLine(next, '2')).toEqual({ ...item('2', over), change: 'updated', changedAt: T1 });
	});

	it('an optional item field left out of the update disappears from the item', () => {
		const prev = created([item('1', { seat: '4', specialInstructions: 'Allergy' })]);
		const next = applyFullUpdate(prev, order([item('1')]), T1);
		expect(byLine(next, '1')).toEqual({ ...item('1'), change: 'updated', changedAt: T1 });
		expect(byLine(next, '1')).not.toHaveProperty('seat');
	});

	it('an identical item is untouched: no flag, same object', () => {
		const prev = created();
		const next = applyFullUpdate(prev, order([item('1'), item('2'), item('3')]), T1);
		expect(next.items).toEqual(prev.items);
		for (const i of next.items) {
			expect(i.change).toBeUndefined();
			expect(i.changedAt).toBeUndefined();
		}
		expect(next.items[0]).toBe(prev.items[0]);
	});

	it('an identical item with its keys in another order (through the schema) is untouched', () => {
		const parse = (raw: unknown) => {
			const parsed = parseWith(KdsItemSchema, raw);
			if (!parsed.ok) throw new Error('parse failed');
			return parsed.value;
		};
		const first = parse({
			lineId: '1',
			name: 'A',
			qty: 1,
			mods: ['x', { name: 'y', qty: 2 }],
			seat: '1'
		});
		const again = parse({
			seat: '1',
			mods: [{ name: 'x' }, { qty: 2, name: 'y' }],
			qty: 1,
			name: 'A',
			lineId: '1'
		});
		const next = applyFullUpdate(created([first]), order([again]), T1);
		expect(byLine(next, '1').change).toBeUndefined();
	});

	it('an item flagged by an earlier update keeps its flag when re-sent unchanged', () => {
		const once = applyFullUpdate(
			created(),
			order([item('1', { qty: 3 }), item('2'), item('3')]),
			T1
		);
		const twice = applyFullUpdate(once, order([item('1', { qty: 3 }), item('2'), item('3')]), T2);
		expect(byLine(twice, '1')).toEqual({
			...item('1', { qty: 3 }),
			change: 'updated',
			changedAt: T1
		});
	});

	it('a deleted line re-sent is restored as added', () => {
		const gone = applyFullUpdate(created(), order([item('1'), item('3')]), T1);
		const back = applyFullUpdate(gone, order([item('1'), item('2', { qty: 5 }), item('3')]), T2);
		expect(lines(back)).toEqual(['1', '2', '3']);
		expect(byLine(back, '2')).toEqual({ ...item('2', { qty: 5 }), change: 'added', changedAt: T2 });
		expect(byLine(back, '2').deleted).toBeUndefined();
	});

	it('a line that stays deleted keeps its first deletion time', () => {
		const gone = applyFullUpdate(created(), order([item('1'), item('3')]), T1);
		const again = applyFullUpdate(gone, order([item('1'), item('3')]), T2);
		expect(byLine(again, '2')).toEqual({ ...item('2'), deleted: true, changedAt: T1 });
	});

	it('every order field is replaced; an omitted optional field disappears', () => {
		const prev = created([item('1')], {
			priority: true,
			server: 'Jordan',
			pickupTime: '2026-11-22T10:00:00Z',
			costs: { total: '$5.00' }
		});
		const next = applyFullUpdate(
			prev,
			order([item('1')], { name: 'Maria G', mode: 'ToGo', covers: 2 }),
			T1
		);
		expect(next.fields).toEqual({
			id: 'A-1',
			name: 'Maria G',
			time: '2026-11-22T09:00:00.000Z',
			mode: 'ToGo',
			covers: 2
		});
		for (const key of ['priority', 'server', 'pickupTime', 'costs'])
			expect(next.fields, key).not.toHaveProperty(key);
	});

	it('the id stays the one from the create', () => {
		const next = applyFullUpdate(created(), order([item('1')], { id: 'OTHER' }), T1);
		expect(next.fields.id).toBe('A-1');
	});

	it('does not mutate the previous content', () => {
		const prev = created([item('1'), item('2')], { priority: true });
		const before = structuredClone(prev);
		applyFullUpdate(prev, order([item('2', { qty: 9 }), item('3')]), T1);
		expect(prev).toEqual(before);
	});

	it('an update with no items flags every line deleted', () => {
		const next = applyFullUpdate(created(), order([]), T1);
		expect(next.items.every((i) => i.deleted)).toBe(true);
		expect(lines(next)).toEqual(['1', '2', '3']);
	});
});

describe('applyPartialUpdate', () => {
	const rich = () =>
		created([item('1'), item('2'), item('3')], {
			server: 'Jordan',
			priority: false,
			specialInstructions: 'No rush'
		});

	it.each([
		['name', { name: 'Maria G' }],
		['mode', { mode: 'DriveThru' as const }],
		['priority', { priority: true }],
		['a field the order did not have', { vehicleColor: 'Red' }],
		['costs (whole object)', { costs: { tip: '$1' } }]
	])('a present field overwrites (%s)', (_label, over) => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch(over), T1);
		expect(next.fields).toEqual({ ...prev.fields, ...over });
	});

	it('items the patch leaves as they were stay the same array (the store keeps them)', () => {
		const prev = rich();
		expect(applyPartialUpdate(prev, patch({ priority: true }), T1).items).toBe(prev.items);
		const noop = patch({
			itemsToUpdate: [item('1')],
			itemsToAdd: [item('2')],
			itemsToRemove: ['9']
		});
		expect(applyPartialUpdate(prev, noop, T1).items).toBe(prev.items);
		const changed = applyPartialUpdate(prev, patch({ itemsToRemove: ['3'] }), T1);
		expect(changed.items).not.toBe(prev.items);
		expect(prev.items[2].deleted).toBeUndefined();
	});

	it('an absent field is unchanged', () => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch({ name: 'New' }), T1);
		expect(next.fields.server).toBe('Jordan');
		expect(next.fields.specialInstructions).toBe('No rush');
		expect(next.fields.mode).toBe('For Here');
	});

	it('a null field (through the schema) is unchanged', () => {
		const parsed = parseWith(PartialOrderSchema, {
			id: 'A-1',
			name: null,
			server: null,
			specialInstructions: null,
			priority: true
		});
		if (!parsed.ok) throw new Error('parse failed');
		const prev = rich();
		const next = applyPartialUpdate(prev, parsed.value, T1);
		expect(next.fields).toEqual({ ...prev.fields, priority: true });
		expect(next.fields.name).toBe('Maria');
		expect(next.fields.server).toBe('Jordan');
	});

	it('an empty patch changes nothing', () => {
		const prev = rich();
		expect(applyPartialUpdate(prev, patch({}), T1)).toEqual(prev);
	});

	it('the item lists are not copied into the order fields', () => {
		const next = applyPartialUpdate(
			rich(),
			patch({ itemsToAdd: [item('9')], itemsToUpdate: [], itemsToRemove: [] }),
			T1
		);
		for (const key of ['itemsToAdd', 'itemsToUpdate', 'itemsToRemove'])
			expect(next.fields, key).not.toHaveProperty(key);
	});

	it('itemsToAdd appends a new lineId with change added', () => {
		const next = applyPartialUpdate(rich(), patch({ itemsToAdd: [item('4')] }), T1);
		expect(lines(next)).toEqual(['1', '2', '3', '4']);
		expect(byLine(next, '4')).toEqual({ ...item('4'), change: 'added', changedAt: T1 });
	});

	it('itemsToAdd with an existing lineId is ignored', () => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch({ itemsToAdd: [item('2', { qty: 7 })] }), T1);
		expect(next.items).toEqual(prev.items);
	});

	it('itemsToAdd with the same new lineId twice adds it once (the first)', () => {
		const next = applyPartialUpdate(
			rich(),
			patch({ itemsToAdd: [item('4', { qty: 1 }), item('4', { qty: 2 })] }),
			T1
		);
		expect(lines(next)).toEqual(['1', '2', '3', '4']);
		expect(byLine(next, '4').qty).toBe(1);
	});

	it('itemsToUpdate replaces the whole item with change updated', () => {
		const prev = created([item('1', { seat: '1', specialInstructions: 'x' })]);
		const next = applyPartialUpdate(prev, patch({ itemsToUpdate: [item('1', { qty: 3 })] }), T1);
		expect(byLine(next, '1')).toEqual({
			...item('1', { qty: 3 }),
			change: 'updated',
			changedAt: T1
		});
	});

	it('itemsToUpdate with an unknown lineId is ignored', () => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch({ itemsToUpdate: [item('99', { qty: 2 })] }), T1);
		expect(next.items).toEqual(prev.items);
	});

	it('itemsToUpdate with identical content leaves the item unflagged', () => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch({ itemsToUpdate: [item('2')] }), T1);
		expect(byLine(next, '2')).toBe(prev.items[1]);
	});

	it('itemsToUpdate of a removed line is ignored (it no longer exists)', () => {
		const gone = applyPartialUpdate(rich(), patch({ itemsToRemove: ['2'] }), T1);
		const next = applyPartialUpdate(gone, patch({ itemsToUpdate: [item('2', { qty: 4 })] }), T2);
		expect(byLine(next, '2')).toEqual({ ...item('2'), deleted: true, changedAt: T1 });
	});

	it('itemsToRemove flags the line deleted and keeps it in place', () => {
		const next = applyPartialUpdate(rich(), patch({ itemsToRemove: ['2'] }), T1);
		expect(lines(next)).toEqual(['1', '2', '3']);
		expect(byLine(next, '2')).toEqual({ ...item('2'), deleted: true, changedAt: T1 });
	});

	it('itemsToRemove with an unknown lineId is ignored', () => {
		const prev = rich();
		const next = applyPartialUpdate(prev, patch({ itemsToRemove: ['99'] }), T1);
		expect(next.items).toEqual(prev.items);
	});

	it('removed then re-added restores the line in place as added', () => {
		const gone = applyPartialUpdate(rich(), patch({ itemsToRemove: ['2'] }), T1);
		const back = applyPartialUpdate(gone, patch({ itemsToAdd: [item('2', { qty: 6 })] }), T2);
		expect(lines(back)).toEqual(['1', '2', '3']);
		expect(byLine(back, '2')).toEqual({ ...item('2', { qty: 6 }), change: 'added', changedAt: T2 });
	});

	it('every list is judged against the order before the patch: update and remove of a lineId only this patch adds are ignored', () => {
		const next = applyPartialUpdate(
			rich(),
			patch({
				itemsToAdd: [item('4'), item('5'), item('2', { qty: 9 })],
				itemsToUpdate: [item('4', { qty: 3 }), item('2', { qty: 2 })],
				itemsToRemove: ['5', '1']
			}),
			T1
		);
		expect(lines(next)).toEqual(['1', '2', '3', '4', '5']);
		// 4 and 5 are added as sent: the update of 4 and the removal of 5 name lines not there before.
		expect(byLine(next, '4')).toEqual({ ...item('4'), change: 'added', changedAt: T1 });
		expect(byLine(next, '5')).toEqual({ ...item('5'), change: 'added', changedAt: T1 });
		// 2 existed: its add is ignored and its update applied; 1 existed: removed.
		expect(byLine(next, '2')).toEqual({
			...item('2', { qty: 2 }),
			change: 'updated',
			changedAt: T1
		});
		expect(byLine(next, '1')).toEqual({ ...item('1'), deleted: true, changedAt: T1 });
	});

	it('a removed line added again and updated in one patch is added as sent', () => {
		const gone = applyPartialUpdate(rich(), patch({ itemsToRemove: ['2'] }), T1);
		const back = applyPartialUpdate(
			gone,
			patch({ itemsToAdd: [item('2', { qty: 6 })], itemsToUpdate: [item('2', { qty: 7 })] }),
			T2
		);
		expect(byLine(back, '2')).toEqual({ ...item('2', { qty: 6 }), change: 'added', changedAt: T2 });
	});

	it('a full update then a partial add restores a line the full update deleted', () => {
		const gone = applyFullUpdate(rich(), order([item('1'), item('3')]), T1);
		const back = applyPartialUpdate(gone, patch({ itemsToAdd: [item('2')] }), T2);
		expect(byLine(back, '2')).toEqual({ ...item('2'), change: 'added', changedAt: T2 });
	});

	it('applies the http-partial-nulls sample to the combo order', () => {
		const prev = created([item('1'), item('2'), item('3'), item('4')], {
			id: 'W-2001',
			name: 'Sam'
		});
		const parsed = parseWith(PartialOrderSchema, {
			id: 'W-2001',
			name: null,
			mode: null,
			priority: true,
			itemsToRemove: ['4'],
			itemsToAdd: [{ lineId: '5', name: 'Milkshake', qty: 1, mods: [{ name: 'Chocolate' }] }]
		});
		if (!parsed.ok) throw new Error('parse failed');
		const next = applyPartialUpdate(prev, parsed.value, T1);
		expect(next.fields).toEqual({ ...prev.fields, priority: true });
		expect(lines(next)).toEqual(['1', '2', '3', '4', '5']);
		expect(byLine(next, '4').deleted).toBe(true);
		expect(byLine(next, '5').change).toBe('added');
	});

	it('does not mutate the previous content', () => {
		const prev = rich();
		const before = structuredClone(prev);
		applyPartialUpdate(
			prev,
			patch({
				name: 'X',
				itemsToAdd: [item('4')],
				itemsToUpdate: [item('1', { qty: 2 })],
				itemsToRemove: ['3']
			}),
			T1
		);
		expect(prev).toEqual(before);
	});
});
