import { describe, expect, it } from 'vitest';
import type { ItemView } from '../content.ts';
import { blocksOf, itemLabel, layoutItems, sectionLabel } from './card-layout.ts';

function item(lineId: string, over: Partial<ItemView> = {}): ItemView {
	return { lineId, name: `Item ${lineId}`, qty: 1, mods: [], ...over };
}

const combo = { id: 'combo-1', name: 'Combo #2', note: 'Large' };

describe('layoutItems', () => {
	it('puts everything in one unnamed section when no item has a course', () => {
		const sections = layoutItems([item('1'), item('2')]);
		expect(sections).toHaveLength(1);
		expect(sections[0].course).toBeUndefined();
		expect(sections[0].status).toBeUndefined();
		expect(sections[0].entries.map((e) => e.kind)).toEqual(['item', 'item']);
	});

	it('orders courses: no course, then numbers ascending, then names as they come', () => {
		const sections = layoutItems([
			item('1', { course: '2', courseStatus: 'hold' }),
			item('2', { course: 'Dessert' }),
			item('3', { course: '1', courseStatus: 'fire' }),
			item('4'),
			item('5', { course: '10' }),
			item('6', { course: '2', courseStatus: 'hold' })
		]);
		expect(sections.map((s) => s.course)).toEqual([undefined, '1', '2', '10', 'Dessert']);
		expect(sections.map(sectionLabel)).toEqual([
			'Items',
			'Course 1 — cooking',
			'Course 2 — on hold',
			'Course 10',
			'Dessert'
		]);
		expect(sections[2].entries).toHaveLength(2);
	});

	it('keeps the members of an itemGroup together at the first member, in its course', () => {
		const sections = layoutItems([
			item('1', { itemGroup: combo, course: '1' }),
			item('2', { course: '1' }),
			item('3', { itemGroup: combo, course: '2' }),
			item('4', { itemGroup: combo, course: '1' })
		]);
		expect(sections.map((s) => s.course)).toEqual(['1']);
		const [group, single] = sections[0].entries;
		expect(group.kind === 'group' && group.items.map((i) => i.lineId)).toEqual(['1', '3', '4']);
		expect(group.kind === 'group' && group.group.note).toBe('Large');
		expect(single.kind === 'item' && single.item.lineId).toBe('2');
	});

	it('marks a course mixed when live items disagree, ignoring deleted ones', () => {
		const [mixed] = layoutItems([
			item('1', { course: '1', courseStatus: 'hold' }),
			item('2', { course: '1', courseStatus: 'fire' })
		]);
		expect(mixed.mixed).toBe(true);
		expect(mixed.status).toBeUndefined();
		const [clean] = layoutItems([
			item('1', { course: '1', courseStatus: 'fire' }),
			item('2', { course: '1', courseStatus: 'hold', deleted: true })
		]);
		expect(clean.status).toBe('fire');
		expect(clean.mixed).toBe(false);
	});
});

describe('itemLabel', () => {
	it('names qty, item and modifiers; modifier qty only above 1; deleted said first', () => {
		const ribeye = item('2', {
			name: 'Ribeye',
			mods: [
				{ name: 'Medium rare' },
				{ name: 'Peppercorn sauce', qty: 2 },
				{ name: 'Salt', qty: 1 }
			]
		});
		expect(itemLabel(ribeye)).toBe('1 × Ribeye (Medium rare, 2 × Peppercorn sauce, Salt)');
		expect(itemLabel({ ...item('1', { name: 'Fries', qty: 2 }), deleted: true })).toBe(
			'Deleted: 2 × Fries'
		);
	});
});

describe('blocksOf', () => {
	it('gives every block a unique key even when lineIds and group ids repeat', () => {
		const a = { lineId: '1', name: 'Soup', qty: 1, mods: [] };
		const grouped = { ...a, itemGroup: { id: 'g', name: 'Meal' } };
		const entries = layoutItems([
			a,
			grouped,
			a,
			{ ...a, itemGroup: { id: 'h', name: 'Meal' } },
			a
		])[0].entries;
		const keys = blocksOf(entries).map((b) => b.key);
		expect(keys).toEqual(['l:1', 'g:g', 'l:1#1', 'g:h', 'l:1#2']);
	});
});
