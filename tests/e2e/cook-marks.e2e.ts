/**
 * A cook's marks in real browsers (issue 47 part 6): a tap on an item in one browser strikes it
 * in a second browser of the same screen; a second tap takes it back; a tap on the header still
 * selects and a second one bumps; "▶ Start" on the selected card marks it started everywhere;
 * the bump bar's I / D / S keys do the same; the JSON view says what the cards show. Ticks survive
 * a restart of the agent over its file store: a browser opened after it shows them, and a tick
 * made after it reaches the browsers that were open before.
 * Screenshots at 800×480 and 1280×720 go to test-results/screenshots/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import {
	card,
	expect,
	expectConnection,
	screenPage,
	startSimulator,
	test
} from '../helpers/fixtures.ts';
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

	test('ticks survive an agent restart over its file store and reach a second browser', async ({
		page,
		browser
	}) => {
		const dataDir = await mkdtemp(join(tmpdir(), 'kds-e2e-marks-'));
		let simulator = await startSimulator({ memory: false, dataDir });
		const other = await browser.newPage({ viewport: { width: 1280, height: 720 } });
		const late = await browser.newPage({ viewport: { width: 1024, height: 600 } });
		try {
			await simulator.sendTcp(
				'kds-1',
				create(
					order('R-1', 'Table 9', [
						item('1', 'Ribeye', { mods: [{ name: 'Medium rare' }] }),
						item('2', 'Fries', { qty: 2 }),
						item('3', 'Caesar Salad')
					])
				)
			);
			await page.setViewportSize({ width: 800, height: 480 });
			await screenPage(page, simulator, 'kds-1', { kiosk: true });
			await screenPage(other, simulator, 'kds-1');
			const here = card(page, 'Table 9');
			const there = card(other, 'Table 9');
			await line(here, 'Fries').click();
			await expect(line(there, 'Fries')).toHaveAttribute('data-ticked', '');
			await expect(there.getByLabel('1 of 3 items done')).toBeVisible();

			await test.step('the agent restarts on its store: both browsers reconnect, Fries still ticked', async () => {
				const port = Number(new URL(simulator.httpUrl).port);
				await simulator.close();
				await expectConnection(page, 'Reconnecting');
				simulator = await startSimulator({ memory: false, dataDir, httpPort: port });
				for (const p of [page, other]) await expectConnection(p, 'Connected', 15_000);
				for (const c of [here, there]) {
					await expect(line(c, 'Fries')).toHaveAttribute('data-ticked', '');
					await expect(line(c, 'Ribeye')).not.toHaveAttribute('data-ticked', '');
				}
			});

			await test.step('a browser opened after the restart shows the tick from the store', async () => {
				await screenPage(late, simulator, 'kds-1', { kiosk: true });
				const fresh = card(late, 'Table 9');
				await expect(line(fresh, 'Fries')).toHaveAttribute('data-ticked', '');
				await expect(line(fresh, 'Fries')).toHaveAccessibleName('2 × Fries (marked done)');
				await expect(fresh.getByLabel('1 of 3 items done')).toHaveText('✓ 1/3');
				expect(
					(await simulator.screenJson('kds-1')).cards[0].sections[0].entries.map((e) =>
						e.kind === 'item' ? [e.item.name, e.item.doneAt !== null] : []
					)
				).toEqual([
					['Ribeye', false],
					['Fries', true],
					['Caesar Salad', false]
				]);
			});

			await test.step('ticks after the restart reach the browsers open before it, and back', async () => {
				await line(card(late, 'Table 9'), 'Ribeye').click();
				for (const c of [here, there]) {
					await expect(line(c, 'Ribeye')).toHaveAttribute('data-ticked', '');
					await expect(c.getByLabel('2 of 3 items done')).toBeVisible();
				}
				await line(there, 'Fries').click();
				for (const c of [here, card(late, 'Table 9')])
					await expect(line(c, 'Fries')).not.toHaveAttribute('data-ticked', '');
			});
			await page.screenshot({ path: join(SHOTS, 'cook-marks-restart-800x480.png') });
		} finally {
			await other.close();
			await late.close();
			await simulator.close();
			await rm(dataDir, { recursive: true, force: true });
		}
	});
});
