/**
 * Issue 47's smaller things in a real browser: a scheduled card's header at 800×480 kiosk takes
 * at most four rows (name, timer, chips; it took seven), its start time shown on a tap; the Takeout view says how many orders are cut off
 * below and a tap scrolls to them; in the inspector a message links to its card on the screen
 * and an empty Findings cell reads "none". Screenshots go to test-results/screenshots/.
 */
import { join } from 'node:path';
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

test('a scheduled card’s header fits four rows at 800×480 kiosk (it took seven)', async ({
	page,
	simulator
}) => {
	await simulator.sendTcp(
		'kds-1',
		create(
			order('S-1', 'Wedding Party', [item('1', 'Platter', { qty: 3 })], {
				mode: 'Pickup',
				pickupTime: new Date(Date.now() + 3 * 3600_000).toISOString(),
				prepTimeDuration: 'PT45M',
				covers: 12
			})
		)
	);
	await simulator.sendTcp('kds-1', create(order('N-1', 'Now', [item('1', 'Soup')])));
	await page.setViewportSize({ width: 800, height: 480 });
	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	const wedding = card(page, 'Wedding Party');
	await expect(wedding).toHaveAttribute('data-level', 'scheduled');
	// The pickup time in the Pickup chip; the start time on a tap.
	await expect(wedding.getByText(/^Pickup \d\d:\d\d [AP]M CST$/)).toBeVisible();
	await expect(wedding.getByText(/^◷ Scheduled/)).toHaveCount(0);
	// Rows of the header: the distinct tops of its name, timer and chips.
	const rows = await wedding.locator('header').evaluate(
		(head) =>
			[...head.querySelectorAll('h2, [role=timer], .chips > *')]
				.map((el) => el.getBoundingClientRect())
				.filter((r) => r.height > 0)
				.reduce<number[]>(
					(tops, r) => (tops.some((t) => Math.abs(t - r.top) < 6) ? tops : [...tops, r.top]),
					[]
				).length
	);
	expect(rows).toBeLessThanOrEqual(4);
	await page.screenshot({ path: join(SHOTS, 'scheduled-800x480.png') });
	await wedding.getByRole('heading', { level: 2 }).click();
	await expect(wedding.getByText(/^◷ Scheduled · start \d\d:\d\d [AP]M CST$/)).toBeVisible();
});

test('the Takeout view says how many orders are below the fold; a tap scrolls to them', async ({
	page,
	simulator
}) => {
	for (let i = 1; i <= 9; i++)
		await simulator.sendTcp(
			'kds-1',
			create(
				order(`T-${i}`, `Pickup ${i} Müller`, [item('1', 'Burrito')], {
					mode: 'Curbside',
					vehicleColor: 'Red',
					vehicleModel: 'Civic'
				})
			)
		);
	await page.setViewportSize({ width: 800, height: 480 });
	await page.goto(`${simulator.screenUrl('kds-1')}?kiosk&view=takeout`);
	const view = page.getByRole('region', { name: 'Takeout' });
	await expect(view.getByRole('listitem')).toHaveCount(9);
	const cue = view.getByRole('button', { name: /more below: scroll down$/ });
	await expect(cue).toBeInViewport();
	await expect(cue).toHaveText(/^\d+ more below ↓$/);
	const count = Number((await cue.textContent())?.match(/\d+/)?.[0]);
	expect(count).toBeGreaterThan(0);
	await page.screenshot({ path: join(SHOTS, 'takeout-cue-800x480.png') });
	// The last order is below the fold until the cue is used; then the cue goes at the end.
	await expect(view.getByRole('listitem', { name: 'Pickup 9 Müller' })).not.toBeInViewport();
	await cue.click();
	await expect.poll(() => view.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
	await view.evaluate((el) => el.scrollTo(0, el.scrollHeight));
	await expect(view.getByRole('listitem', { name: 'Pickup 9 Müller' })).toBeInViewport();
	await expect(cue).toHaveCount(0);
	await page.setViewportSize({ width: 1280, height: 720 });
	await page.screenshot({ path: join(SHOTS, 'takeout-cue-1280x720.png') });
});

test('in the inspector a message links to its card, selected on its screen; a clean one reads "none"', async ({
	page,
	simulator
}) => {
	// Enough cards for two pages at 800×480, the linked one on the second.
	for (let i = 1; i <= 14; i++)
		await simulator.sendTcp(
			'kds-1',
			create(order(`I-${i}`, `Guest ${i}`, [item('1', 'Soup'), item('2', 'Bread')]))
		);
	await page.setViewportSize({ width: 1280, height: 720 });
	await page.goto(`${simulator.httpUrl}/inspector`);
	const row = page
		.getByRole('region', { name: 'Messages' })
		.getByRole('row')
		.filter({ hasText: 'I-14' });
	await expect(row.getByRole('cell').last()).toHaveText('none');
	await row.click();
	await page.getByRole('link', { name: 'Card on kds-1 ▸' }).click();
	await expect(page).toHaveURL(/\/screens\/kds-1\?order=I-14$/);
	const linked = card(page, 'Guest 14');
	await expect(linked).toHaveAttribute('data-selected', '');
	await expect(linked).toBeInViewport();
	await page.screenshot({ path: join(SHOTS, 'inspector-link-card-1280x720.png') });
});
