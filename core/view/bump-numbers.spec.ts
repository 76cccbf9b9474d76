import { describe, expect, it } from 'vitest';
import { bumpNumbers, numberOn, ticketNumbered, type DrawnPart } from './bump-numbers.ts';

/** `a@0:1,2` is a part of order a on page 0, column 1, row 2 (columns 300 px, rows 100 px apart). */
function parts(spec: string): DrawnPart[] {
	return spec
		.split(' ')
		.filter(Boolean)
		.map((row) => {
			const [, id, page, column, top] = /^(.+)@(\d+):(\d+),(\d+)$/.exec(row)!;
			return { id, page: Number(page), left: Number(column) * 300, top: Number(top) * 100 };
		});
}

/** Per page, the order ids by number: `0: a b c | 1: c d`. */
function render(spec: string): string {
	const numbers = bumpNumbers(parts(spec));
	return [...numbers.keys()]
		.sort((x, y) => x - y)
		.map((p) => `${p}: ${numbers.get(p)!.join(' ')}`)
		.join(' | ');
}

describe('bumpNumbers', () => {
	it.each([
		// [case, drawn parts, the ids by number on each page]
		['one page of whole cards, in reading order', 'a@0:0,0 b@0:0,1 c@0:1,0', '0: a b c'],
		['columns are read left to right, each top to bottom', 'c@0:1,0 a@0:0,0 b@0:0,3', '0: a b c'],
		[
			'a part carried to the next page is numbered there from 1',
			'a@0:0,0 b@0:0,1 c@0:1,0 c@1:0,0 d@1:0,2',
			'0: a b c | 1: c d'
		],
		[
			'two parts of one ticket on a page share its number',
			'a@0:0,0 b@0:0,1 b@0:1,0 c@0:1,4',
			'0: a b c'
		],
		[
			// issue 47: page 2 at 1280x720 read 8, 1, 2, 2, 3, 4
			'a ticket continued over three pages is 1 on the later ones',
			'a@0:0,0 b@0:1,0 b@1:0,0 b@1:1,0 c@1:2,0 d@1:2,3 b@2:0,0 e@2:1,0',
			'0: a b | 1: b c d | 2: b e'
		],
		['sub-pixel lefts are one column', 'a@0:0,1 b@0:0,0', '0: b a'],
		['nothing drawn', '', '']
	])('%s', (_name, spec, expected) => {
		expect(render(spec)).toBe(expected);
	});

	it('numbers and keys agree: the key n bumps the card that shows n', () => {
		const numbers = bumpNumbers(parts('a@0:0,0 b@0:0,1 b@1:0,0 c@1:0,3 d@1:1,0'));
		for (const [page, ids] of numbers)
			for (const [i, id] of ids.entries()) {
				expect(numberOn(numbers, id, page)).toBe(i + 1);
				expect(ticketNumbered(numbers, page, i + 1)).toBe(id);
			}
		expect(numberOn(numbers, 'b', 1)).toBe(1);
		expect(numberOn(numbers, 'a', 1)).toBeNull();
		expect(ticketNumbered(numbers, 1, 4)).toBeNull();
		expect(ticketNumbered(numbers, 5, 1)).toBeNull();
	});

	it('sub-pixel lefts do not split a column', () => {
		const numbers = bumpNumbers([
			{ id: 'a', page: 0, left: 0.4, top: 200 },
			{ id: 'b', page: 0, left: 0, top: 0 }
		]);
		expect(numbers.get(0)).toEqual(['b', 'a']);
	});
});
