/**
 * The expo sees what is ready (issue 47 part 5), in a real browser on the three-screen kitchen of
 * docs/examples/three-screen-kitchen.json: a card whose stations have all bumped turns green with
 * "✓ ALL READY"; one still waiting on a station keeps its timer colour; a station holding none of
 * the card's items gets no chip (and is not waited for); All Day's Outstanding toggle leaves out
 * what the stations completed. The JSON view says the same (allReady, allDayOutstanding).
 * Screenshots at 800×480 kiosk and 1280×720 go to test-results/screenshots/.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from '../../agent/config.ts';
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';

const EXAMPLE = fileURLToPath(
	new URL('../../docs/examples/three-screen-kitchen.json', import.meta.url)
);
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

test.use({ simulatorOptions: { config: loadConfigFile(EXAMPLE) } });

const item = (lineId: string, name: string, qty = 1, mods: string[] = []) => ({
	lineId,
	name,
	qty,
	mods
});
const BURGER = item('L1', 'Double Burger 🍔', 2, ['No onion']);
const FRIES = item('L2', 'Fries', 1, ['Extra salt']);
const SHAKE = item('L3', '抹茶シェイク');
const time = '2026-12-02T12:00:00Z';

test.describe('the expo sees what is ready', () => {
	test('ALL READY in green once every station bumped; no chip for a station with none of the items; All Day outstanding', async ({
		page,
		simulator
	}) => {
		const send = async (screen: string, order: object) =>
			expect(await simulator.sendTcp(screen, { command: 'create-order', order })).toBeTruthy();
		const ana = { id: 'R-1', name: 'Ana', time, mode: 'ToGo' };
		const kim = { id: 'R-2', name: 'Kim 김', time, mode: 'For Here' };
		await send('expo', { ...ana, items: [BURGER, FRIES, SHAKE] });
		await send('grill', { ...ana, items: [BURGER] });
		await send('fry', { ...ana, items: [FRIES, SHAKE] });
		// Kim's grill part is a line the expo does not show: the grill holds none of its items.
		await send('expo', { ...kim, items: [FRIES] });
		await send('grill', { ...kim, items: [item('G9', 'Staff garnish')] });
		await send('fry', { ...kim, items: [FRIES] });

		await page.setViewportSize({ width: 800, height: 480 });
		await screenPage(page, simulator, 'expo', { kiosk: true });
		const anaCard = card(page, 'Ana');
		const kimCard = card(page, 'Kim 김');
		const header = (c: typeof anaCard) => c.locator('header');

		await test.step('a station with none of the card’s items has no chip', async () => {
			const strip = kimCard.getByRole('group', { name: /^Stations/ });
			await expect(strip).toHaveAccessibleName('Stations: 0 of 1 done');
			await expect(strip.getByLabel(/^Fry: working/)).toBeVisible();
			await expect(strip.getByLabel(/^Grill/)).toHaveCount(0);
		});

		await test.step('one station bumped: not ready, the header keeps its timer colour', async () => {
			expect(simulator.engine.runAction('grill', 'bump', 'R-1')).toBe(true);
			await expect(anaCard.getByRole('group', { name: /^Stations/ })).toHaveAccessibleName(
				'Stations: 1 of 2 done'
			);
			await expect(anaCard.getByRole('status', { name: 'All ready' })).toHaveCount(0);
			await expect(header(anaCard)).toHaveCSS('background-color', 'rgb(51, 65, 85)');
		});

		await test.step('All Day: Outstanding leaves out what the grill completed', async () => {
			await page.keyboard.press('a');
			const view = page.getByRole('region', { name: 'All Day' });
			const lines = view.getByRole('list', { name: 'All Day counts' }).locator(':scope > li');
			await expect(lines).toHaveText([/^2\s*Double Burger/, /^2\s*Fries/, /^1\s*抹茶シェイク/]);
			await view.getByRole('button', { name: /Outstanding/ }).click();
			await expect(view.getByRole('button', { name: /Outstanding/ })).toHaveAttribute(
				'aria-pressed',
				'true'
			);
			await expect(lines).toHaveText([/^2\s*Fries/, /^1\s*抹茶シェイク/]);
			await expect(view.getByText('3 items to make · 2 tickets fired')).toBeVisible();
			const json = await simulator.screenJson('expo');
			expect(json.allDayOutstanding.map((l) => `${l.qty} ${l.name}`)).toEqual([
				'2 Fries',
				'1 抹茶シェイク'
			]);
			await page.screenshot({ path: join(SHOTS, 'expo-allday-outstanding-800x480.png') });
			await page.keyboard.press('a');
		});

		await test.step('every station bumped: green, ✓ ALL READY', async () => {
			expect(simulator.engine.runAction('fry', 'bump', 'R-1')).toBe(true);
			expect(simulator.engine.runAction('fry', 'bump', 'R-2')).toBe(true);
			for (const c of [anaCard, kimCard]) {
				await expect(c.getByRole('status', { name: 'All ready' })).toHaveText('✓ ALL READY');
				await expect(c).toHaveAttribute('data-ready', '');
				await expect(header(c)).toHaveCSS('background-color', 'rgb(21, 128, 61)');
				await expect(c).toHaveCSS('border-top-color', 'rgb(34, 197, 94)');
			}
			const json = await simulator.screenJson('expo');
			expect(json.cards.map((c) => [c.title, c.allReady])).toEqual([
				['Ana', true],
				['Kim 김', true]
			]);
			await page.screenshot({ path: join(SHOTS, 'expo-ready-800x480.png') });
			await page.setViewportSize({ width: 1280, height: 720 });
			await expect(anaCard.getByRole('status', { name: 'All ready' })).toBeInViewport();
			await page.screenshot({ path: join(SHOTS, 'expo-ready-1280x720.png') });
		});

		await test.step('a station recalls: not ready any more', async () => {
			expect(simulator.engine.runAction('grill', 'recall', 'R-1')).toBe(true);
			await expect(anaCard.getByRole('status', { name: 'All ready' })).toHaveCount(0);
			await expect(anaCard).not.toHaveAttribute('data-ready', '');
			await expect(kimCard).toHaveAttribute('data-ready', '');
		});
	});
});
