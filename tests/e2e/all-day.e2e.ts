/**
 * The All Day view in a real browser (issue 40): orders sent over TCP, the header's All Day
 * button and the bump bar's `a` open it, each fired item is counted over the cards with its
 * modifier combinations under it, a scheduled ticket and a course on hold are left out, and a new
 * order, an update and a bump change the counts live. The counts equal the agent's JSON view.
 * Screenshots at 800×480 and 1920×1080 go to test-results/screenshots/.
 */
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order, ordinaryTickets, update } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const allDay = (page: Page) => page.getByRole('region', { name: 'All Day' });
const lines = (view: Locator) =>
	view.getByRole('list', { name: 'All Day counts' }).locator(':scope > li');

test.describe('All Day', () => {
	test('counts each fired item over the cards, live, its modifiers grouped', async ({
		page,
		simulator
	}) => {
		const inThreeHours = new Date(Date.now() + 3 * 3600_000).toISOString();
		await simulator.sendTcp(
			'kds-1',
			create(
				order('A-1', 'Ana', [
					item('1', 'Cheeseburger', { qty: 2, mods: [{ name: 'No onion' }] }),
					item('2', 'Fries', { mods: [{ name: 'Extra salt' }] })
				])
			)
		);
		await simulator.sendTcp(
			'kds-1',
			create(
				order('A-2', 'Bartholomew Featherstonehaugh', [
					item('1', 'Cheeseburger', { mods: [{ name: 'Bacon', qty: 2 }] }),
					item('2', 'Cheeseburger'),
					item('3', '抹茶シェイク 🍵'),
					item('4', 'Tiramisu', { course: '2', courseStatus: 'hold' })
				])
			)
		);
		await simulator.sendTcp(
			'kds-1',
			create(
				order('A-3', 'Later', [item('1', 'Fries', { qty: 5 })], {
					pickupTime: inThreeHours,
					prepTimeDuration: 'PT20M'
				})
			)
		);

		await screenPage(page, simulator, 'kds-1');
		// All Day is in the header's ⋯ menu (the one-row header keeps its room for the pager).
		await page.getByRole('button', { name: 'More controls' }).click();
		await page.getByRole('button', { name: 'All Day' }).click();
		const view = allDay(page);
		await expect(view).toBeVisible();
		// The header's pager steps aside while All Day covers the cards.
		await expect(page.getByRole('navigation', { name: 'Pages' })).toBeHidden();
		await expect(lines(view)).toHaveText([
			/^4\s*Cheeseburger\s*2\s*No onion\s*1\s*no modifiers\s*1\s*2 × Bacon$/,
			/^1\s*Fries\s*1\s*Extra salt$/,
			/^1\s*抹茶シェイク 🍵\s*$/
		]);
		await expect(view.getByText('6 items · 2 tickets fired')).toBeVisible();
		expect((await simulator.screenJson('kds-1')).allDay.map((l) => `${l.qty} ${l.name}`)).toEqual([
			'4 Cheeseburger',
			'1 Fries',
			'1 抹茶シェイク 🍵'
		]);

		for (const [width, height] of [
			[800, 480],
			[1920, 1080]
		]) {
			await page.setViewportSize({ width, height });
			await expect(lines(view).first()).toBeInViewport();
			await page.screenshot({ path: join(SHOTS, `all-day-${width}x${height}.png`) });
		}

		await test.step('live: a new order, an update and a bump', async () => {
			await simulator.sendTcp(
				'kds-1',
				create(order('A-4', 'Chen', [item('1', 'Fries', { qty: 2 })]))
			);
			await expect(view.getByRole('listitem', { name: '3 × Fries' })).toBeVisible();
			await simulator.sendTcp(
				'kds-1',
				update(order('A-1', 'Ana', [item('2', 'Fries', { mods: [{ name: 'Extra salt' }] })]))
			);
			await expect(view.getByRole('listitem', { name: '2 × Cheeseburger' })).toBeVisible();
			await simulator.sendTcp('kds-1', { command: 'cancel-order', order: { id: 'A-2' } });
			await expect(view.getByRole('listitem', { name: /Cheeseburger$/ })).toHaveCount(0);
			await expect(view.getByText('3 items · 2 tickets fired')).toBeVisible();
		});

		await test.step('the bump bar key closes and opens it', async () => {
			await page.keyboard.press('a');
			await expect(view).toHaveCount(0);
			await page.keyboard.press('a');
			await expect(view).toBeVisible();
			await view.getByRole('button', { name: 'Close' }).click();
			await expect(view).toHaveCount(0);
			await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
		});
	});

	test('kiosk: the All Day button is lit while the view is open, and the pager steps aside', async ({
		page,
		simulator
	}) => {
		for (const o of ordinaryTickets(12)) await simulator.sendTcp('kds-1', o);
		await page.setViewportSize({ width: 800, height: 480 });
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		const controls = page.getByRole('navigation', { name: 'Screen controls' });
		const button = controls.getByRole('button', { name: 'All Day' });
		const pager = controls.getByLabel(/^Page 1 of \d+$/);
		await expect(pager).toBeVisible();
		const idle = await button.evaluate((el) => getComputedStyle(el).backgroundColor);

		await button.click();
		await expect(allDay(page)).toBeVisible();
		// Lit: a tap away from the view reads as open, not as the idle grey of the other buttons.
		await expect(button).toHaveAttribute('aria-pressed', 'true');
		await expect(button).toHaveCSS('background-color', 'rgb(255, 255, 255)');
		// No pager over All Day: its pages would turn the cards out of sight.
		await expect(controls.getByLabel(/^Page \d+ of \d+$/)).toHaveCount(0);
		await expect(controls.getByRole('button', { name: /next page$/i })).toHaveCount(0);
		await page.screenshot({ path: join(SHOTS, 'all-day-kiosk-open-800x480.png') });

		await button.click();
		await expect(allDay(page)).toHaveCount(0);
		await expect(pager).toBeVisible();
		await expect(button).toHaveCSS('background-color', idle);
	});
});
