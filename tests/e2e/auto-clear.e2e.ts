/**
 * Auto Clear's "clear now" in a real browser (issue 40): orders sent over TCP, the home page's
 * Clear now (after its confirmation) empties the location's screens, as a kitchen screen open
 * meanwhile shows at once.
 */
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

test.describe('Auto Clear', () => {
	test('"Clear now" on the home page clears every screen of the location', async ({
		page,
		context,
		simulator
	}) => {
		await simulator.sendTcp('kds-1', create(order('C-1', 'Ana', [item('1', 'Burger')])));
		await simulator.sendTcp('kds-2', create(order('C-2', '陳さん 🍜', [item('1', 'Ramen')])));
		const kitchen = await context.newPage();
		await screenPage(kitchen, simulator, 'kds-1');
		await expect(card(kitchen, 'Ana')).toBeVisible();

		await page.goto(simulator.httpUrl);
		page.once('dialog', (dialog) => {
			expect(dialog.message()).toContain('Clear every ticket of Demo Kitchen now?');
			void dialog.accept();
		});
		await page.getByRole('button', { name: 'Clear now' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Cleared 2' })).toBeVisible();
		await expect(card(kitchen, 'Ana')).toHaveCount(0);
		await expect(kitchen.getByText('No orders')).toBeVisible();
		expect((await simulator.screenJson('kds-2')).cards).toEqual([]);
	});
});
