/**
 * A cook's marks in real browsers (issue 47 part 6): a tap on an item in one browser strikes it
 * in a second browser of the same screen; a second tap takes it back; a tap on the header still
 * selects and a second one bumps; "▶ Start" on the selected card marks it started everywhere;
 * the bump bar's I / D / S keys do the same; the JSON view says what the cards show.
 * Screenshots at 800×480 and 1280×720 go to test-results/screenshots/.
 */
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const line = (c: Locator, name: string) =>
	c.getByRole('listitem', { name: new RegExp(`^\\d+ × ${name}`) });

test.describe("a cook's marks", () => {
	test('a tap on an item in one browser strikes it in the other; the header still selects and bumps', async ({
		page,
		browser,
		simulator
	}) => {
		await simulator.sendTcp(
			'kds-1',
			create(
				order('M-1', 'Table 12', [
					item('1', 'Cheeseburger', { mods: [{ name: 'No onion' }, { name: 'Extra pickles' }] }),
					item('2', 'Fries', { qty: 2 }),
					item('3', '抹茶シェイク 🍵'),
					item('4', 'Caesar Salad', { mods: [{ name: 'Dressing on the side' }] })
				])
			)
		);
		await simulator.sendTcp('kds-1', create(order('M-2', 'Ana', [item('1', 'Soup')])));
		await page.setViewportSize({ width: 800, height: 480 });
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		const other = await browser.newPage({ viewport: { width: 1280, height: 720 } });
		await screenPage(other, simulator, 'kds-1');

		const here = card(page, 'Table 12');
		const there = card(other, 'Table 12');
		await test.step('a tap on Fries marks it done: struck and dimmed in both browsers', async () => {
			await line(here, 'Fries').click();
			for (const c of [here, there]) {
				const fries = line(c, 'Fries');
				await expect(fries).toHaveAttribute('data-ticked', '');
				await expect(fries).toHaveAccessibleName('2 × Fries (marked done)');
				await expect(fries).toHaveCSS('opacity', '0.45');
				await expect(fries.getByText('Fries', { exact: true })).toHaveCSS(
					'text-decoration-line',
					'line-through'
				);
				await expect(line(c, 'Cheeseburger')).not.toHaveAttribute('data-ticked', '');
				await expect(c.getByLabel('1 of 4 items done')).toHaveText('✓ 1/4');
			}
			// The tap ticked the item: it neither selected nor bumped the card.
			await expect(here).not.toHaveAttribute('data-selected', '');
			expect(
				(await simulator.screenJson('kds-1')).cards[0].sections[0].entries.map((e) =>
					e.kind === 'item' ? [e.item.name, e.item.doneAt !== null] : []
				)
			).toEqual([
				['Cheeseburger', false],
				['Fries', true],
				['抹茶シェイク 🍵', false],
				['Caesar Salad', false]
			]);
		});

		await test.step('the other browser ticks the shake; a tap on its modifier ticks the item too', async () => {
			await line(there, '抹茶シェイク 🍵').click();
			await there.getByText('Dressing on the side').click();
			await expect(line(here, '抹茶シェイク 🍵')).toHaveAttribute('data-ticked', '');
			await expect(line(here, 'Caesar Salad')).toHaveAttribute('data-ticked', '');
			await expect(here.getByLabel('3 of 4 items done')).toBeVisible();
		});

		await test.step('a second tap takes it back, in both browsers', async () => {
			await line(here, 'Caesar Salad').click();
			await expect(line(there, 'Caesar Salad')).not.toHaveAttribute('data-ticked', '');
			await expect(line(there, 'Caesar Salad')).toHaveCSS('opacity', '1');
		});

		await test.step('a tap on the header selects; "▶ Start" marks it started everywhere', async () => {
			await here.getByRole('heading', { level: 2 }).click();
			await expect(here).toHaveAttribute('data-selected', '');
			await here.getByRole('button', { name: 'Mark started' }).click();
			await expect(there.getByRole('status', { name: 'Started' })).toHaveText('▶ Started');
			await expect(here).toHaveAttribute('data-selected', '');
			expect((await simulator.screenJson('kds-1')).cards[0].startedAt).not.toBeNull();
		});

		for (const [p, name] of [
			[page, 'cook-marks-800x480'],
			[other, 'cook-marks-1280x720']
		] as const) {
			await p.screenshot({ path: join(SHOTS, `${name}.png`) });
		}

		await test.step('the bump bar: I moves to an item, D ticks it, S takes the start back', async () => {
			await page.keyboard.press('i');
			await expect(line(here, 'Cheeseburger')).toHaveClass(/cursor/);
			await page.keyboard.press('d');
			await expect(line(there, 'Cheeseburger')).toHaveAttribute('data-ticked', '');
			await page.keyboard.press('s');
			await expect(there.getByRole('status', { name: 'Started' })).toHaveCount(0);
			await expect(there.getByLabel('3 of 4 items done')).toBeVisible();
		});

		await test.step('a second tap on the header bumps the ticket, in both browsers', async () => {
			await here.getByRole('heading', { level: 2 }).click();
			await expect(there).toHaveCount(0);
			await expect(card(other, 'Ana')).toBeVisible();
		});
		await other.close();
	});
});
