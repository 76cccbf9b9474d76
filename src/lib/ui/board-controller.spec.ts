import { describe, expect, it } from 'vitest';
import {
	arrowSelection,
	inView,
	numberedTarget,
	settledSelection,
	toggledView,
	turnedPage,
	undoneBump,
	viewOf,
	type KeyLayout
} from './board-controller.ts';

/**
 * Page 1 (index 1) of a board: b is carried over from page 0 and shows 1, c and d start here
 * (2 and 3). a is on page 0, e on page 2.
 */
const starts: Record<string, number> = { a: 0, b: 0, c: 1, d: 1, e: 2 };
const layout: KeyLayout = {
	pageCount: 3,
	onPage: ['c', 'd'],
	numbered: ['b', 'c', 'd'],
	pageOf: (id) => starts[id]
};
const ids = ['a', 'b', 'c', 'd', 'e'];

describe('the keys on a page with a carried-over part', () => {
	it.each([
		// [digit, ticket bumped]
		[1, 'b'],
		[2, 'c'],
		[3, 'd'],
		[4, null],
		[9, null]
	])('key %i bumps %s', (n, id) => {
		expect(numberedTarget(layout, n)).toBe(id);
	});

	it.each([
		['a', false],
		['b', true],
		['c', true],
		['e', false],
		[null, false]
	] as const)('%s is in view: %s', (id, shown) => {
		expect(inView(layout, 1, id)).toBe(shown);
	});

	it('nothing is in view before the board is laid out', () => {
		expect(inView(undefined, 0, 'a')).toBe(false);
		expect(numberedTarget(undefined, 1)).toBeNull();
	});

	it.each([
		// [selected, direction, index selected]
		[null, 1, 2], // the first ticket that starts on the page
		[null, -1, 3], // its last
		['c', 1, 3],
		['c', -1, 1],
		['a', -1, 0], // never before the first
		['e', 1, 4], // nor past the last
		['gone', 1, 2] // a selection that left the board counts as none
	] as const)('selected %s, arrow %i: selects index %i', (selected, direction, index) => {
		expect(arrowSelection(ids, selected, layout, direction)).toBe(index);
	});

	it('an arrow with no tickets selects nothing; with no layout, the first ticket', () => {
		expect(arrowSelection([], null, layout, 1)).toBeNull();
		expect(arrowSelection(ids, null, undefined, 1)).toBe(0);
	});

	it.each([
		[0, 1, 3, 1],
		[2, 1, 3, 2],
		[0, -1, 3, 0],
		[5, -1, 3, 2], // a page past the end (cards went) comes back to the last
		[0, 1, 0, 0]
	])('page %i turned %i of %i: page %i', (page, direction, count, to) => {
		expect(turnedPage(page, direction, count)).toBe(to);
	});
});

describe('the selection as tickets come and go', () => {
	const none = { selectedId: null, selectedIndex: 0, reselect: null };

	it('keeps a selected ticket that stays, at its new place in the queue', () => {
		expect(
			settledSelection(['x', 'c', 'd'], { ...none, selectedId: 'c', selectedIndex: 2 })
		).toEqual({ selectedId: 'c', selectedIndex: 1, reselect: null, follow: false });
	});

	it('hands the selection of a bumped ticket to the one that took its place, or the last', () => {
		// c (index 2) bumped: d slides into its place.
		expect(
			settledSelection(['a', 'b', 'd', 'e'], { ...none, selectedId: 'c', selectedIndex: 2 })
		).toEqual({ selectedId: 'd', selectedIndex: 2, reselect: null, follow: true });
		// The last ticket bumped: the new last one.
		expect(
			settledSelection(['a', 'b'], { ...none, selectedId: 'c', selectedIndex: 2 })
		).toMatchObject({ selectedId: 'b', follow: true });
		// The only ticket bumped: nothing.
		expect(settledSelection([], { ...none, selectedId: 'c', selectedIndex: 0 })).toMatchObject({
			selectedId: null
		});
	});

	it('selects an undone ticket again once it is back, and not before', () => {
		const waiting = { selectedId: 'd', selectedIndex: 2, reselect: 'c' };
		expect(settledSelection(['a', 'b', 'd'], waiting)).toEqual({ ...waiting, follow: false });
		expect(settledSelection(['a', 'b', 'c', 'd'], waiting)).toEqual({
			selectedId: 'c',
			selectedIndex: 2,
			reselect: null,
			follow: true
		});
	});

	it('changes nothing with nothing selected', () => {
		expect(settledSelection(['a', 'b'], none)).toEqual({ ...none, follow: false });
	});
});

describe('Undo of a bump', () => {
	it('recalls the bumped ticket, selecting it again only if it was selected', () => {
		expect(undoneBump({ id: 'c', title: 'Ana', selected: true })).toEqual({
			recall: 'c',
			reselect: 'c'
		});
		expect(undoneBump({ id: 'c', title: 'Ana', selected: false })).toEqual({
			recall: 'c',
			reselect: null
		});
	});
});

describe('orders or takeout', () => {
	const base = 'http://127.0.0.1:8104/screens/kds-1';

	it('reads the view from the URL, the cards by default', () => {
		expect(viewOf(new URL(`${base}?view=takeout&kiosk`))).toBe('takeout');
		expect(viewOf(new URL(`${base}?kiosk`))).toBe('orders');
		expect(viewOf(new URL(`${base}?view=nonsense`))).toBe('orders');
	});

	it('switches views keeping the rest of the query, and back', () => {
		const start = new URL(`${base}?kiosk&cols=3`);
		const takeout = toggledView('orders', start);
		expect(takeout.view).toBe('takeout');
		expect(takeout.url.searchParams.get('view')).toBe('takeout');
		expect(takeout.url.searchParams.get('cols')).toBe('3');
		expect(takeout.url.searchParams.has('kiosk')).toBe(true);
		expect(start.searchParams.has('view')).toBe(false);
		const back = toggledView(takeout.view, takeout.url);
		expect(back.view).toBe('orders');
		expect(back.url.searchParams.has('view')).toBe(false);
		expect(viewOf(back.url)).toBe('orders');
		expect(back.url.searchParams.get('cols')).toBe('3');
	});
});
