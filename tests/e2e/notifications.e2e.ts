/**
 * Notifications in a real browser: the takeout view shows a customer's ETA in minutes to go and
 * "Arrived" once they are there; a pop-up message covers every targeted screen until someone
 * presses OK, and OK on one browser clears it on every browser of that screen.
 */
import type { Page } from '@playwright/test';
import { expect, screenPage, test, type Simulator } from '../helpers/fixtures.ts';
import { create, createFromSample, item, order } from './orders.ts';

/** POST a notification as a POS would (the demo brand's token and location). */
async function notify(
	simulator: Simulator,
	kind: 'customer-arrived' | 'estimated-arrival-update' | 'send-message',
	body: object,
	devices = 'kds-1'
): Promise<number> {
	const res = await fetch(`${simulator.httpUrl}/integrators/kds-notifications/${kind}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': simulator.token,
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: JSON.stringify(body)
	});
	return res.status;
}

const takeoutView = (page: Page) => page.getByRole('region', { name: 'Takeout' });
const popup = (page: Page, message: string) =>
	page.getByRole('alertdialog', { name: `Message: ${message}` });

test.describe('Takeout view', () => {
	test('shows the vehicle, an ETA counting down, then "Arrived"', async ({ page, simulator }) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.sendTcp(
			'kds-1',
			create(order('T-1', 'Jamie', [item('1', 'Burger')], { mode: 'ToGo' }))
		);
		await simulator.sendTcp('kds-1', create(order('H-1', 'Table 4', [item('1', 'Soup')])));
		expect(await simulator.sendTcp('kds-1', createFromSample('http-create-curbside.json'))).toBe(
			'C-3107'
		);

		await test.step('the header toggle shows the takeout view (and the URL keeps it)', async () => {
			// The page is not loaded again and no history entry is added: a shallow replace.
			await page.evaluate(() => ((window as { kdsMarker?: number }).kdsMarker = 1));
			const entries = await page.evaluate(() => history.length);
			await page.getByRole('button', { name: 'Takeout' }).click();
			await expect(takeoutView(page)).toBeVisible();
			await expect(page).toHaveURL(/\?view=takeout$/);
			expect(await page.evaluate(() => history.length)).toBe(entries);
			expect(await page.evaluate(() => (window as { kdsMarker?: number }).kdsMarker)).toBe(1);
		});
		const alex = takeoutView(page).getByRole('listitem', { name: 'Alex' });
		await test.step('takeout orders only, in queue order; a curbside order with its vehicle', async () => {
			await expect(takeoutView(page).getByRole('listitem')).toHaveCount(2);
			await expect(takeoutView(page).getByRole('listitem').first()).toHaveAccessibleName('Jamie');
			await expect(alex).toContainText('Curbside');
			await expect(alex).toContainText('Silver Toyota Prius');
			await expect(alex).toContainText('Not arrived');
		});
		await test.step('estimated arrival update: minutes to go, read as a duration', async () => {
			expect(
				await notify(simulator, 'estimated-arrival-update', { id: 'C-3107', minutes: 6 })
			).toBe(200);
			const eta = alex.getByRole('timer');
			await expect(eta).toHaveText('ETA in 6 min');
			await expect(takeoutView(page).getByRole('listitem').first()).toHaveAccessibleName('Alex');
			// A duration in minutes (rounded up), never a clock-like `6:00`.
			await expect(eta).toHaveAccessibleName('Estimated arrival in 6 min');
		});
		await test.step('customer arrived: big and green, first in the list, counted in the header', async () => {
			expect(await notify(simulator, 'customer-arrived', { id: 'C-3107' })).toBe(200);
			const arrived = alex.getByText('Arrived', { exact: true });
			await expect(arrived).toBeVisible();
			const look = await arrived.evaluate((el) => {
				// Tailwind's colours are oklch(); a canvas turns any CSS colour into RGB.
				const ctx = document.createElement('canvas').getContext('2d')!;
				ctx.fillStyle = getComputedStyle(el.parentElement!).backgroundColor;
				ctx.fillRect(0, 0, 1, 1);
				const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
				return { size: parseFloat(getComputedStyle(el).fontSize), r, g, b };
			});
			expect(look.size, 'font size (px)').toBeGreaterThanOrEqual(32);
			expect(look.g, `green background rgb(${look.r}, ${look.g}, ${look.b})`).toBeGreaterThan(
				Math.max(look.r, look.b) + 50
			);
			await expect(takeoutView(page).getByRole('listitem').first()).toHaveAccessibleName('Alex');
			await expect(page.getByRole('button', { name: /Takeout 1 arrived/ })).toBeVisible();
		});
		await test.step('a reload keeps the view and the arrival', async () => {
			await page.reload();
			await expect(alex).toContainText('Arrived');
		});
		await test.step('back to the cards', async () => {
			await page.getByRole('button', { name: /Takeout/ }).click();
			await expect(page.getByRole('article', { name: /^Alex/ })).toBeVisible();
			await expect(page).not.toHaveURL(/view=takeout/);
		});
	});

	test('a kiosk opened on ?view=takeout gets what was sent while no browser showed it', async ({
		page,
		simulator
	}) => {
		await simulator.sendTcp('kds-1', createFromSample('http-create-curbside.json'));
		expect(await notify(simulator, 'customer-arrived', { id: 'C-3107' })).toBe(202);
		await page.goto(`${simulator.screenUrl('kds-1')}?kiosk&view=takeout`);
		await expect(takeoutView(page).getByRole('listitem', { name: 'Alex' })).toContainText(
			'Arrived'
		);
	});
});

test.describe('Pop-up messages', () => {
	test('appear on every targeted screen and clear on OK on every browser of that screen', async ({
		page,
		context,
		simulator
	}) => {
		const grillA = await screenPage(page, simulator, 'kds-1');
		const grillB = await screenPage(await context.newPage(), simulator, 'kds-1');
		const expo = await screenPage(await context.newPage(), simulator, 'kds-2');
		const message = '86 the salmon: out of stock';

		await test.step('sent to both screens: a modal on all three browsers', async () => {
			expect(await notify(simulator, 'send-message', { message }, 'kds-1,kds-2')).toBe(200);
			for (const p of [grillA, grillB, expo]) {
				await expect(popup(p, message)).toBeVisible();
				await expect(popup(p, message).getByRole('button', { name: 'OK' })).toBeFocused();
			}
		});
		await test.step('OK on one grill browser clears both grill browsers, not the expo', async () => {
			await popup(grillA, message).getByRole('button', { name: 'OK' }).click();
			await expect(popup(grillA, message)).toHaveCount(0);
			await expect(popup(grillB, message)).toHaveCount(0);
			await expect(popup(expo, message)).toBeVisible();
		});
		await test.step('Enter (a bump bar) presses the focused OK on the expo', async () => {
			await expo.keyboard.press('Enter');
			await expect(popup(expo, message)).toHaveCount(0);
		});
		await test.step('it does not come back on reload', async () => {
			await expo.reload();
			await expect(expo.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
			await expect(expo.getByRole('alertdialog')).toHaveCount(0);
		});
	});
});
