/**
 * Combine Orders in a real browser (issue 40): a screen with `combineOrders` on, two orders under
 * one name within 5 minutes sent over TCP, drawn as one ticket naming both ids with each one's
 * items; the ticket's bump button bumps both. Screenshots at 800×480 and 1920×1080.
 */
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { card, cards, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const config = structuredClone(DEFAULT_CONFIG) as unknown as {
	brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
};
config.brands[0].locations[0].screens[0].settings = { combineOrders: true };
test.use({ simulatorOptions: { config } });

test.describe('Combine Orders', () => {
	test('two orders under one name share a ticket that names both ids', async ({
		page,
		simulator
	}) => {
		await simulator.sendTcp(
			'kds-1',
			create(
				order('C-1', 'Ana', [
					item('1', 'Double Burger 🍔', { qty: 2, mods: [{ name: 'No onion' }] })
				])
			)
		);
		await simulator.sendTcp(
			'kds-1',
			create(order('C-2', 'Ana', [item('1', '抹茶シェイク'), item('2', 'Fries')]))
		);
		await simulator.sendTcp('kds-1', create(order('D-1', 'Bartholomew', [item('1', 'Soup')])));
		await screenPage(page, simulator, 'kds-1');
		await expect(cards(page)).toHaveCount(2);
		const ana = card(page, 'Ana');
		const part = ana.getByRole('group', { name: 'Combined order C-2' });
		await expect(part).toContainText('#C-2');
		await expect(part).toContainText('joined #C-1: same name');
		await expect(part.getByRole('listitem', { name: /^1 × 抹茶シェイク/ })).toBeVisible();
		await expect(part.getByRole('listitem', { name: /^1 × Fries/ })).toBeVisible();

		for (const [width, height] of [
			[800, 480],
			[1920, 1080]
		]) {
			await page.setViewportSize({ width, height });
			await expect(part).toBeInViewport();
			await page.screenshot({ path: join(SHOTS, `combined-${width}x${height}.png`) });
		}

		await page.getByRole('button', { name: 'Bump Ana' }).click();
		await expect(cards(page)).toHaveCount(1);
		const json = await simulator.screenJson('kds-1');
		expect(json.recall.map((r) => r.id).sort()).toEqual(['C-1', 'C-2']);
	});
});
