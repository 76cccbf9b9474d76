import { describe, expect, it } from 'vitest';
import { partHeights, planParts, type CardLines, type PlannedCard } from './card-parts.ts';

/** A card of `n` items, each `line` px high, with `chrome` px of header and frame. */
function card(id: string, n: number, line = 30, chrome = 50): PlannedCard {
	const lines: CardLines = {
		chrome,
		contChrome: chrome - 10,
		footer: 20,
		body: n * line,
		tops: Array.from({ length: n }, (_, i) => i * line),
		items: Array(n).fill(true)
	};
	return { id, height: chrome + n * line, lines: () => lines };
}

describe('planParts', () => {
	it('leaves cards that fit whole, and moves a short one whole to the next column', () => {
		// 400 px columns: 170 + 10 + 170 = 350; the third (3 items) does not fit the 40 px left.
		const plan = planParts([card('a', 4), card('b', 4), card('c', 3)], 400, 10);
		expect(plan.size).toBe(0);
	});

	it('continues a long card in the space left, cut between items, the rest in the next column', () => {
		// a: 170 px; 220 px left: 50 chrome + 20 footer leave 150 px, 5 items of 30 (minus slack: 4).
		const plan = planParts([card('a', 4), card('big', 10)], 400, 10);
		expect(plan.get('big')).toEqual([0, 120]);
	});

	it('cuts a card taller than a column into parts a column high each', () => {
		// 30 items of 30 px: parts of (400 - 50 - 20) / 30 = 10 items, then (400 - 40 - 20) / 30 = 11.
		const plan = planParts([card('huge', 30)], 400, 10);
		expect(plan.get('huge')).toEqual([0, 300, 630]);
	});

	it('does not split off fewer than two items, nor leave fewer than two behind', () => {
		// 100 px left after a 290 px card: room for one item only; the card moves whole.
		expect(planParts([card('a', 8), card('b', 5)], 400, 10).size).toBe(0);
		// A 3-item card never splits in the space left (two and one).
		expect(planParts([card('a', 6), card('c', 3, 60)], 400, 10).size).toBe(0);
	});

	it('never cuts right under a heading: the heading goes on with its first item', () => {
		const lines: CardLines = {
			chrome: 50,
			contChrome: 40,
			footer: 20,
			body: 300,
			tops: [0, 30, 60, 90, 120, 150, 180, 210, 240, 270],
			items: [true, true, true, false, true, true, true, true, true, true]
		};
		const headed: PlannedCard = { id: 'h', height: 350, lines: () => lines };
		// 220 px left after a 170 px card; 148 px of lines fit: the cut would fall at 120, right
		// under the heading at 90, so it falls before the heading.
		const plan = planParts([card('a', 4), headed], 400, 10);
		expect(plan.get('h')).toEqual([0, 90]);
	});

	it('a part that starts inside a course leaves room for the course heading it repeats', () => {
		// One course: its heading (30 px, not an item) over 29 items of 30 px; 400 px columns.
		const lines = (repeat?: number[]): PlannedCard => ({
			id: 'c',
			height: 50 + 900,
			lines: () => ({
				chrome: 50,
				contChrome: 40,
				footer: 20,
				body: 900,
				tops: Array.from({ length: 30 }, (_, i) => i * 30),
				items: Array.from({ length: 30 }, (_, i) => i > 0),
				repeat
			})
		});
		// Without a repeated heading a later part holds 340 px of lines; with it 310.
		expect(planParts([lines()], 400, 10).get('c')).toEqual([0, 300, 630]);
		const repeat = Array.from({ length: 30 }, (_, i) => (i > 0 ? 30 : 0));
		expect(planParts([lines(repeat)], 400, 10).get('c')).toEqual([0, 300, 600]);
	});

	it("a tall card may end a part after the order's info, but never after a course heading", () => {
		// Info (200 px, not an item), then three items of 150 px; 400 px columns, chrome 50, footer 20.
		const info = (keep?: boolean[]): PlannedCard => ({
			id: 'i',
			height: 50 + 650,
			lines: () => ({
				chrome: 50,
				contChrome: 40,
				footer: 20,
				body: 650,
				tops: [0, 200, 350, 500],
				items: [false, true, true, true],
				keep
			})
		});
		// Without `keep` the info is a heading: no cut fits, so the part is cut at the column's height.
		expect(planParts([info()], 400, 10).get('i')).toEqual([0, 328]);
		expect(planParts([info([false, false, false, false])], 400, 10).get('i')).toEqual([
			0, 200, 500
		]);
	});

	it('an item taller than a column is cut between its lines of text', () => {
		const tall: PlannedCard = {
			id: 't',
			height: 50 + 1000,
			lines: () => ({
				chrome: 50,
				contChrome: 40,
				footer: 20,
				body: 1000,
				tops: [0],
				items: [true],
				fine: Array.from({ length: 40 }, (_, i) => i * 25)
			})
		};
		// 330 px of lines fit the first part: the last line of text starting by 328 is at 325.
		expect(planParts([tall], 400, 10).get('t')).toEqual([0, 325, 650]);
	});

	it('the first part ends at the lowest cut that leaves two items to follow', () => {
		// Five items of 30 px; a heading (not an item) before the last one.
		const lines: CardLines = {
			chrome: 50,
			contChrome: 40,
			footer: 20,
			body: 180,
			tops: [0, 30, 60, 90, 120, 150],
			items: [true, true, true, true, false, true]
		};
		const coursed: PlannedCard = { id: 'k', height: 230, lines: () => lines };
		// 200 px left after a 190 px card: 130 px of lines fit, so the lowest cut is at 120 (before
		// the heading), leaving one item; the one above it, at 90, leaves two (an item and the last).
		const plan = planParts([card('a', 2, 70), coursed], 400, 10);
		expect(plan.get('k')).toEqual([0, 90]);
	});

	it('a card it cannot read is placed whole', () => {
		const unread: PlannedCard = { id: 'u', height: 900, lines: () => null };
		expect(planParts([unread, card('b', 2)], 400, 10).size).toBe(0);
	});
});

describe('partHeights', () => {
	// The course of 29 items under a 30 px heading, in 400 px columns (the rows above).
	const lines = (repeat?: number[]): CardLines => ({
		chrome: 50,
		contChrome: 40,
		footer: 20,
		body: 900,
		tops: Array.from({ length: 30 }, (_, i) => i * 30),
		items: Array.from({ length: 30 }, (_, i) => i > 0),
		repeat
	});
	const rows: Array<[string, CardLines, number[], number[]]> = [
		// header + window + cont. for all but the last part; every part fits its 400 px column
		['no repeated heading', lines(), [0, 300, 630], [50 + 300 + 20, 40 + 330 + 20, 40 + 270]],
		[
			'a later part repeats its course heading',
			lines(Array.from({ length: 30 }, (_, i) => (i > 0 ? 30 : 0))),
			[0, 300, 600],
			[50 + 300 + 20, 40 + 30 + 300 + 20, 40 + 30 + 300]
		],
		['one part: the whole card', lines(), [0], [50 + 900]]
	];
	it.each(rows)('%s', (_, card, starts, heights) => {
		expect(partHeights(card, starts)).toEqual(heights);
		// As planParts plans them: no part but a lone one is taller than the column.
		if (starts.length > 1) for (const h of heights) expect(h).toBeLessThanOrEqual(400);
	});
	it('matches the plan planParts made', () => {
		const card = lines(Array.from({ length: 30 }, (_, i) => (i > 0 ? 30 : 0)));
		const plan = planParts([{ id: 'c', height: 950, lines: () => card }], 400, 10).get('c')!;
		expect(partHeights(card, plan)).toEqual([370, 390, 370]);
	});
});
