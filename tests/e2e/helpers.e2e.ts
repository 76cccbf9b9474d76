/**
 * The locators of `kds-sim/testing` match what an integrator means: a whole order name (never
 * `Table 11` for `Table 1`), a whole item name, a RegExp when asked, and a card by its order id.
 */
import {
	card,
	cardById,
	expect,
	expectItemStruckThrough,
	item,
	liveItem,
	screenPage,
	test
} from '../helpers/fixtures.ts';
import { create, item as line, order, update } from './orders.ts';

test.describe('Card and item locators', () => {
	test('match whole names by default, a RegExp when given, and cards by order id', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		const send = (message: object) => simulator.sendTcp('kds-1', message);
		expect(
			await send(create(order('t1', 'Table 1', [line('1', 'Fries'), line('2', 'Sweet Fries')])))
		).toBe('t1');
		expect(
			await send(create(order('t11', 'Table 11', [line('1', 'Fries')], { checkNumber: '11' })))
		).toBe('t11');
		expect(
			await send(create(order('t1b', 'Table 1', [line('1', 'Soup')], { originSource: 'Uber' })))
		).toBe('t1b');
		await expect(page.getByRole('article')).toHaveCount(3);

		await test.step('card: a whole name, with or without check number and origin', async () => {
			await expect(card(page, 'Table 1')).toHaveCount(2);
			await expect(card(page, 'Table 11')).toHaveCount(1);
			await expect(card(page, 'Table 11 #11')).toHaveAttribute('data-order-id', 't11');
			await expect(card(page, 'Table 1 · Uber')).toHaveAttribute('data-order-id', 't1b');
			await expect(card(page, 'Table')).toHaveCount(0);
			await expect(card(page, /^Table 1/)).toHaveCount(3);
		});

		await test.step('cardById: the card of one order, whatever its name', async () => {
			await expect(cardById(page, 't1')).toHaveAccessibleName('Table 1');
			await expect(cardById(page, 't11')).toHaveAccessibleName('Table 11 #11');
			await expect(cardById(page, 't')).toHaveCount(0);
		});

		const table1 = cardById(page, 't1');
		await test.step('liveItem and item: a whole item name, or a RegExp', async () => {
			await expect(liveItem(table1, 'Fries')).toHaveAccessibleName('1 × Fries');
			await expect(liveItem(table1, 'Sweet Fries')).toHaveCount(1);
			await expect(liveItem(table1, 'Sweet')).toHaveCount(0);
			await expect(liveItem(table1, /Fries$/)).toHaveCount(2);
			await expect(item(table1, 'Fries')).toHaveCount(1);
		});

		await test.step('a deleted item is no live item, but still an item', async () => {
			expect(await send(update(order('t1', 'Table 1', [line('2', 'Sweet Fries')])))).toBe('t1');
			await expectItemStruckThrough(table1, 'Fries');
			await expect(liveItem(table1, 'Fries')).toHaveCount(0);
			await expect(liveItem(table1, /Fries/)).toHaveCount(1);
			await expect(item(table1, 'Fries')).toHaveAccessibleName('Deleted: 1 × Fries');
		});
	});

	test('cardById finds ids with quotes, backslashes and spaces', async ({ page, simulator }) => {
		await screenPage(page, simulator, 'kds-1');
		const id = 'A "1"\\ b';
		expect(await simulator.sendTcp('kds-1', create(order(id, 'Odd', [line('1', 'Tea')])))).toBe(id);
		await expect(cardById(page, id)).toHaveAccessibleName('Odd');
	});
});
