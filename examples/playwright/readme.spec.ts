import { test, expect, screenPage, card, liveItem } from 'kds-sim/testing';

test('the POS order shows on the grill', async ({ page, simulator }) => {
	await screenPage(page, simulator, 'kds-1');
	// Your POS code sends the order to simulator.screens[0].tcp (host, port) or simulator.httpUrl;
	// here the fixture sends it, as the contract's TCP create:
	const reply = await simulator.sendTcp('kds-1', {
		command: 'create-order',
		order: {
			id: 'A-17',
			name: 'Maria',
			checkNumber: '17',
			time: Date.now(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Cheeseburger', qty: 1, mods: [{ name: 'No onion' }] }]
		}
	});
	expect(reply).toBe('A-17');
	await expect(liveItem(card(page, 'Maria #17'), 'Cheeseburger')).toBeVisible();
});
