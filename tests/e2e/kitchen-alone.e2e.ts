/**
 * Issue 25's parts a cook sees on the kitchen screen: the self-working cook (autoBump) bumps a
 * card by itself, with the recall list as after a tap; and orders real clients send with items
 * that have no lineId (over TCP and HTTP) are drawn with every item and bumped like any other.
 */
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import {
	badge,
	card,
	cards,
	expect,
	item,
	screenPage,
	startSimulator,
	test,
	type Simulator
} from '../helpers/fixtures.ts';
import { create, order } from './orders.ts';

let simulator: Simulator | undefined;
test.afterEach(async () => {
	await simulator?.close();
	simulator = undefined;
});

test('the self-working cook bumps a card by itself; recall brings it back', async ({ page }) => {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<Record<string, unknown>> }>;
	};
	config.brands[0].locations[0].autoBump = { afterSeconds: 3, jitterSeconds: 0 };
	simulator = await startSimulator({ config });
	await screenPage(page, simulator, 'kds-1');
	await simulator.sendTcp(
		'kds-1',
		create(order('AC-1', 'Robo Rita', [{ lineId: '1', name: 'Nachos', qty: 1, mods: [] }]))
	);
	await expect(card(page, 'Robo Rita')).toBeVisible();
	// Nobody taps: it leaves after about 3 s.
	await expect(card(page, 'Robo Rita')).toHaveCount(0, { timeout: 15_000 });
	await page.keyboard.press('r');
	await expect(badge(card(page, 'Robo Rita'), 'Recalled')).toBeVisible();
});

test('items without lineId (TCP and HTTP) are drawn whole and bump like any card', async ({
	page
}) => {
	simulator = await startSimulator();
	await screenPage(page, simulator, 'kds-1');
	expect(
		await simulator.sendTcp(
			'kds-1',
			create(
				order('NL-1', 'Kai', [
					{ name: 'Pad Thai', qty: 1, mods: ['No peanuts'] },
					{ name: 'Spring Roll', qty: 2, mods: [], notes: 'extra sauce' }
				])
			)
		)
	).toBe('NL-1');
	const http = await simulator.sendHttp(
		'create',
		{
			id: 'NL-2',
			name: 'Zoë',
			time: new Date().toISOString(),
			mode: 'ToGo',
			items: [{ name: 'Green Curry', qty: 1, mods: [] }]
		},
		{ devices: 'kds-1' }
	);
	expect(http.status).toBe(201);
	const kai = card(page, 'Kai');
	await expect(item(kai, 'Pad Thai')).toBeVisible();
	await expect(kai).toContainText('No peanuts');
	await expect(item(kai, 'Spring Roll')).toBeVisible();
	await expect(item(card(page, 'Zoë'), 'Green Curry')).toBeVisible();
	await kai.getByRole('heading', { level: 2 }).click();
	await kai.getByRole('heading', { level: 2 }).click();
	await expect(card(page, 'Kai')).toHaveCount(0);
	await page.getByRole('button', { name: 'Bump Zoë' }).click();
	await expect(cards(page)).toHaveCount(0);
});
