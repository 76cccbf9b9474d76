/**
 * Stations and expo in a real browser (issue 40): the three-screen kitchen of
 * docs/examples/three-screen-kitchen.json; an order written to both stations over TCP and to the
 * expo over HTTP, the stations bumped on their own pages, the expo card ticking off each
 * station's items with the station's name, its progress strip, and its own bump clearing it. A
 * rule changed through the admin API makes the station page show its reconnect. Screenshots of
 * the expo at 800×480 and 1920×1080 go to test-results/screenshots/.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from '../../agent/config.ts';
import { card, expect, expectConnection, item, screenPage, test } from '../helpers/fixtures.ts';

const EXAMPLE = fileURLToPath(
	new URL('../../docs/examples/three-screen-kitchen.json', import.meta.url)
);
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

test.use({ simulatorOptions: { config: loadConfigFile(EXAMPLE) } });

const BURGER = { lineId: 'L1', name: 'Double Burger 🍔', qty: 2, mods: ['No onion', 'Bacon'] };
const FRIES = { lineId: 'L2', name: 'Fries', qty: 1, mods: ['Extra salt'] };
const SHAKE = { lineId: 'L3', name: '抹茶シェイク', qty: 1, mods: ['Large'] };
const ORDER = { id: 'E-77', name: 'Ana', time: '2026-12-02T12:00:00Z', mode: 'ToGo' };
const OTHER = {
	id: 'E-78',
	name: 'Bartholomew Featherstonehaugh-Wolfeschlegel',
	time: '2026-12-02T12:01:00Z',
	mode: 'For Here'
};
const WINGS = {
	lineId: 'W1',
	name: 'Buffalo Wings (12 pc, extra hot, blue cheese on the side)',
	qty: 1,
	mods: []
};

test.describe('stations and expo', () => {
	test('the expo ticks off each station’s items as it bumps; its own bump clears the card', async ({
		page,
		context,
		simulator
	}) => {
		test.slow(); // three pages
		await test.step('one order to the grill, the fry station and the expo', async () => {
			const created = await simulator.sendHttp(
				'create',
				{ ...ORDER, items: [BURGER, FRIES, SHAKE] },
				{ devices: 'expo' }
			);
			expect(created.status).toBe(201);
			expect(
				await simulator.sendTcp('grill', {
					command: 'create-order',
					order: { ...ORDER, items: [BURGER] }
				})
			).toBe('E-77');
			expect(
				await simulator.sendTcp('fry', {
					command: 'create-order',
					order: { ...ORDER, items: [FRIES, SHAKE] }
				})
			).toBe('E-77');
			const other = await simulator.sendHttp(
				'create',
				{ ...OTHER, items: [WINGS, FRIES] },
				{ devices: 'expo' }
			);
			expect(other.status).toBe(201);
			await simulator.sendTcp('fry', {
				command: 'create-order',
				order: { ...OTHER, items: [WINGS, FRIES] }
			});
		});

		await screenPage(page, simulator, 'expo');
		const ana = card(page, 'Ana');
		const stations = ana.getByRole('group', { name: /^Stations/ });
		await expect(stations).toHaveAccessibleName('Stations: 0 of 2 done');
		await expect(stations.getByLabel('Grill: working (1 item)')).toBeVisible();
		await expect(stations.getByLabel('Fry: working (2 items)')).toBeVisible();

		await test.step('the grill bumps on its own page', async () => {
			const grill = await context.newPage();
			await screenPage(grill, simulator, 'grill');
			await grill.getByRole('button', { name: 'Bump Ana' }).click();
			await expect(card(grill, 'Ana')).toHaveCount(0);
			await grill.close();
		});
		await expect(stations).toHaveAccessibleName('Stations: 1 of 2 done');
		await expect(item(ana, /Double Burger 🍔.*, done by Grill$/)).toBeVisible();
		await expect(ana.getByText('✓ Grill', { exact: true })).toBeVisible();
		await expect(item(ana, /^1 × Fries/)).not.toHaveAccessibleName(/done by/);

		await test.step('the fry station bumps', async () => {
			const fry = await context.newPage();
			await screenPage(fry, simulator, 'fry');
			await fry.getByRole('button', { name: 'Bump Ana' }).click();
			await expect(card(fry, 'Ana')).toHaveCount(0);
			await fry.close();
		});
		await expect(stations).toHaveAccessibleName('Stations: 2 of 2 done');
		await expect(item(ana, /^1 × Fries.*, done by Fry$/)).toBeVisible();
		await expect(item(ana, /^1 × 抹茶シェイク.*, done by Fry$/)).toBeVisible();

		for (const [width, height] of [
			[800, 480],
			[1920, 1080]
		]) {
			await page.setViewportSize({ width, height });
			await expect(stations).toBeInViewport();
			await page.screenshot({ path: join(SHOTS, `expo-${width}x${height}.png`) });
		}

		await page.getByRole('button', { name: 'Bump Ana' }).click();
		await expect(ana).toHaveCount(0);
		await expect(card(page, /^Bartholomew/)).toBeVisible();
	});

	test('a rule changed at run time: the station page shows its reconnect, then comes back', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'fry');
		const res = await fetch(`${simulator.httpUrl}/api/admin/screens/fry/communication`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ role: 'station', bumpsTo: [], reconnectSeconds: 3 })
		});
		expect(res.status).toBe(200);
		await expectConnection(page, 'Reconnecting');
		await expectConnection(page, 'Connected', 20_000);
	});
});
