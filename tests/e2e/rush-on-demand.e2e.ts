/**
 * The home page's rush button (issue 40): it starts `kds-sim rush` in the simulator, whose orders
 * come through the real TCP and HTTP paths and show on a screen; Stop says what it sent.
 */
import { cards, expect, screenPage, test } from '../helpers/fixtures.ts';

test.describe('Rush', () => {
	test('Start a rush fills the screens; Stop rush says what was sent', async ({
		page,
		context,
		simulator
	}) => {
		await page.goto(simulator.httpUrl);
		await page.getByRole('button', { name: 'Start a rush' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Rush running' })).toBeVisible();
		const kitchen = await context.newPage();
		await screenPage(kitchen, simulator, 'kds-1');
		await expect(cards(kitchen).first()).toBeVisible();
		await page.getByRole('button', { name: 'Stop rush' }).click();
		await expect(
			page
				.getByRole('status')
				.filter({ hasText: /^Rush stopped: sent [1-9]\d* orders, 0 refused$/ })
		).toBeVisible();
		const messages = (await (
			await fetch(`${simulator.httpUrl}/api/admin/messages`)
		).json()) as Array<{
			interface: string;
		}>;
		expect(messages.length).toBeGreaterThan(0);
	});
});
