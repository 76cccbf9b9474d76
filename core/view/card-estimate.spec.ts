import { describe, expect, it } from 'vitest';
import { estimateCardRem, textLines } from './card-estimate.ts';

describe('textLines', () => {
	// A 20rem box at 1rem holds floor(20 / 0.58) = 34 Latin characters a line.
	it.each([
		['a short name', 'Cheeseburger', 1],
		['words wrap at their spaces', 'Fish tacos with extra lime and no cilantro please thanks', 2],
		['a long unbroken word breaks at the line, not a letter a line', 'x'.repeat(100), 3],
		['an email', 'sam.oconnor.deliveries@example-restaurant-group.com', 2],
		['a short word after a long one goes on its last line', `${'y'.repeat(40)} ok`, 2],
		[
			'wide characters count about twice',
			'味噌ラーメン大盛り煮卵追加餃子焼きタレ別味噌ラーメン',
			2
		],
		['empty', '', 1]
	])('%s', (_name, text, lines) => {
		expect(textLines(text, 1, 20)).toBe(lines);
	});
});

describe('estimateCardRem', () => {
	const item = (name: string, over = {}) => ({ name, mods: [], ...over });
	it('grows with the lines a long unbroken string takes, not with one line an item', () => {
		const short = estimateCardRem({ items: [item('Fries'), item('Cola')] }, 17);
		const long = estimateCardRem({ items: [item('Fries'.repeat(14)), item('Cola')] }, 17);
		// 70 characters at 1.3rem in a 13.4rem line (17 a line): 5 lines, 4 more than "Fries".
		expect(long - short).toBeCloseTo(4 * 1.5, 5);
	});

	it('counts modifiers, instructions, notes, courses and groups', () => {
		const bare = estimateCardRem({ items: [item('Burger')] }, 20);
		expect(
			estimateCardRem({ items: [item('Burger', { mods: [{ name: 'No onion' }] })] }, 20)
		).toBeCloseTo(bare + 1.4, 5);
		expect(
			estimateCardRem({ items: [item('Burger', { specialInstructions: 'Nut allergy' })] }, 20)
		).toBeCloseTo(bare + 1.5, 5);
		expect(estimateCardRem({ items: [item('Burger', { course: '2' })] }, 20)).toBeGreaterThan(
			bare + 2
		);
		expect(
			estimateCardRem(
				{ items: [item('Burger')], fields: { specialInstructions: 'Ring the bell' } },
				20
			)
		).toBeCloseTo(bare + 0.6 + 1.35, 5);
	});

	it('a wider column takes fewer lines', () => {
		const order = { items: [item('Q'.repeat(60), { mods: [{ name: 'M'.repeat(60) }] })] };
		expect(estimateCardRem(order, 40)).toBeLessThan(estimateCardRem(order, 17));
	});
});
