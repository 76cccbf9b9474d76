import { offsetClock } from '../../agent/clock.ts';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
	card,
	cards,
	expect,
	expectInOnePiece,
	expectItemStruckThrough,
	itemGroup,
	screenPage,
	startSimulator,
	test
} from '../helpers/fixtures.ts';
import { busyScreen } from './orders.ts';

const SIZES = [
	{ width: 1920, height: 1080 },
	{ width: 1280, height: 720 },
	{ width: 1024, height: 600 },
	{ width: 800, height: 480 }
];

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

test.describe('Busy screen layout', () => {
	for (const size of SIZES) {
		const label = `${size.width}x${size.height}`;
		test(`13 cards at ${label}`, async ({ page }, testInfo) => {
			// A clock we can wind back, so some tickets are yellow and red.
			const clock = offsetClock(0);
			const simulator = await startSimulator({ clock });
			try {
				await page.setViewportSize(size);
				await screenPage(page, simulator, 'kds-1');
				const orders = busyScreen();
				await test.step('a lunch rush arrives', async () => {
					clock.offset = -9 * 60_000;
					for (const o of orders.early) await simulator.sendTcp('kds-1', o);
					clock.offset = -6 * 60_000;
					for (const o of orders.warm) await simulator.sendTcp('kds-1', o);
					clock.offset = 0;
					for (const o of orders.fresh) await simulator.sendTcp('kds-1', o);
					for (const o of orders.after) await simulator.sendTcp('kds-1', o);
					await expect(cards(page)).toHaveCount(13);
					await expect(card(page, 'Table 4')).toHaveAttribute('data-order-id', 'T-4');
					await expectItemStruckThrough(card(page, 'Maria'), 'Side Salad');
				});

				await test.step('nothing is split that must not be', async () => {
					for (const [name, group] of [
						['Sam', 'Combo #2'],
						['Lane 2 Car 44', 'Meal #1']
					]) {
						const box = itemGroup(card(page, name), group);
						await expectInOnePiece(box);
					}
				});

				await test.step('the first page is readable', async () => {
					const titles = await cards(page).first().getByRole('heading', { level: 2 }).textContent();
					expect(titles?.trim()).toBe('Table 4'); // priority first
					const file = testInfo.outputPath(`${label}.png`);
					await page.waitForTimeout(300);
					await page.screenshot({ path: file });
					mkdirSync(SHOTS, { recursive: true });
					copyFileSync(file, join(SHOTS, `${label}.png`));
				});

				await test.step('more cards than fit go to pages', async () => {
					const more = page.getByTestId('more-count');
					if (size.width <= 1280) {
						await expect(more).toHaveText(/^\+\d+ more$/);
						await page.keyboard.press('PageDown');
						await expect(page.getByLabel(/^Page 2 of \d+$/)).toBeVisible();
						const file = testInfo.outputPath(`${label}-page2.png`);
						await page.screenshot({ path: file });
						copyFileSync(file, join(SHOTS, `${label}-page2.png`));
					}
				});

				await test.step('kiosk mode shows the cards and its control row, no developer strips', async () => {
					await page.goto(simulator.screenUrl('kds-1', { kiosk: true }));
					await expect(cards(page)).toHaveCount(13);
					await expect(page.getByRole('link', { name: 'All screens' })).toHaveCount(0);
					await expect(page.getByRole('link', { name: /refused/ })).toHaveCount(0);
					const controls = page.getByRole('navigation', { name: 'Screen controls' });
					await expect(controls.getByRole('button', { name: /^Holds/ })).toBeVisible();
					await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
					const file = testInfo.outputPath(`${label}-kiosk.png`);
					await page.waitForTimeout(300);
					await page.screenshot({ path: file });
					mkdirSync(dirname(join(SHOTS, 'x')), { recursive: true });
					copyFileSync(file, join(SHOTS, `${label}-kiosk.png`));
				});
			} finally {
				await simulator.close();
			}
		});
	}
});
