/**
 * An integrator's Playwright suite against kds-sim: the example of docs/testing.md, run in the
 * simulator's own CI through the published entry point `kds-sim/testing`.
 *
 * Each test gets its own simulator (in-memory orders, free ports), so tests run in parallel and
 * never see each other's orders. Your POS code would do the sending; here the helpers stand in.
 */
import {
	card,
	cardById,
	cardTitles,
	expect,
	expectCancelledLook,
	expectItemStruckThrough,
	liveItem,
	offsetClock,
	screenPage,
	test
} from 'kds-sim/testing';

const cheeseburger = { lineId: '1', name: 'Cheeseburger', qty: 2, mods: [{ name: 'No onion' }] };
const fries = { lineId: '2', name: 'Fries', qty: 1, mods: [] };

/** An order as the contract defines it for TCP (`time` in ms since the epoch). */
function ticket(id: string, name: string, items: object[], extra: object = {}) {
	return { id, name, time: Date.now(), mode: 'ToGo', items, ...extra };
}

/** The same over HTTP, where `time` is an ISO 8601 string. */
function httpTicket(id: string, name: string, items: object[]) {
	return { ...ticket(id, name, items), time: new Date().toISOString() };
}

test('an order sent over TCP shows on the grill screen', async ({ page, simulator }) => {
	await screenPage(page, simulator, 'kds-1');

	// The screen answers a create with the order id, as the contract says.
	const reply = await simulator.sendTcp('kds-1', {
		command: 'create-order',
		order: ticket('A-17', 'Maria', [cheeseburger, fries], { checkNumber: '17' })
	});
	expect(reply).toBe('A-17');

	const maria = card(page, 'Maria #17');
	await expect(maria).toBeVisible();
	await expect(liveItem(maria, 'Cheeseburger')).toHaveAccessibleName('2 × Cheeseburger (No onion)');
	await expect(maria).toContainText('To Go');
});

test('an update that drops an item leaves it struck through', async ({ page, simulator }) => {
	await screenPage(page, simulator, 'kds-1');
	await simulator.sendTcp('kds-1', {
		command: 'create-order',
		order: ticket('A-18', 'Sam', [cheeseburger, fries])
	});
	expect(
		await simulator.sendTcp('kds-1', {
			command: 'update-order',
			order: ticket('A-18', 'Sam', [cheeseburger])
		})
	).toBe('A-18');

	// By order id: names repeat ("Table 1" twice), ids do not.
	const sam = cardById(page, 'A-18');
	await expect(sam).toHaveAccessibleName('Sam');
	await expectItemStruckThrough(sam, 'Fries');
	await expect(liveItem(sam, 'Cheeseburger')).toBeVisible();
	await expect(liveItem(sam, /burger/i)).toHaveCount(1);
});

test('HTTP fans out to every screen; cancel turns the card red', async ({ page, simulator }) => {
	const created = await simulator.sendHttp('create', httpTicket('H-1', 'Online', [fries]));
	expect(created.status).toBe(201);
	expect(created.body).toEqual({
		orderId: 'H-1',
		deliveryStatuses: [
			{ device: 'kds-1', status: 'SUCCESS', type: 'android' },
			{ device: 'kds-2', status: 'SUCCESS', type: 'android' }
		]
	});

	await screenPage(page, simulator, 'kds-2');
	expect((await simulator.sendHttp('cancel', { id: 'H-1' })).status).toBe(200);
	await expectCancelledLook(card(page, 'Online'));
});

test('priority orders go first (read from the JSON view, no browser)', async ({ simulator }) => {
	const first = { command: 'create-order', order: ticket('1', 'First', [fries]) };
	const rush = { command: 'create-order', order: ticket('2', 'Rush', [fries], { priority: true }) };
	expect(await simulator.sendTcp('kds-1', first)).toBe('1');
	expect(await simulator.sendTcp('kds-1', rush)).toBe('2');

	const screen = await simulator.screenJson('kds-1');
	expect(screen.cards.map((c) => c.title)).toEqual(['Rush', 'First']);
	expect(screen.cards[0]).toMatchObject({ priority: true, state: 'active' });

	await simulator.reset('kds-1');
	expect((await simulator.screenJson('kds-1')).cards).toEqual([]);
});

test.describe('with your own screens and a clock you control', () => {
	// The agent's clock, ahead of or behind real time by `offset` ms (ManualClock stops it).
	const clock = offsetClock(0);
	test.use({
		simulatorOptions: {
			clock,
			config: {
				brands: [
					{
						id: 'my-brand',
						name: 'My Brand',
						token: 'my-test-token',
						locations: [
							{
								id: 'store-9',
								number: '9',
								name: 'Store 9',
								address: { line1: '9 High St', city: 'Leeds', state: 'WYK', zip: 'LS1 1AA' },
								timezone: 'Europe/London',
								screens: [{ id: 'fry', name: 'Fry station', tcp: { port: 0 } }]
							}
						]
					}
				]
			}
		}
	});

	test('a ticket that waited 8 minutes is red', async ({ page, simulator }) => {
		await screenPage(page, simulator, 'fry');
		clock.offset = -8 * 60_000 - 5_000; // the order reaches the screen 8 min 5 s ago...
		await simulator.sendTcp('fry', {
			command: 'create-order',
			order: ticket('F-1', 'Kiosk 4', [fries])
		});
		clock.offset = 0; // ...and it is now.

		const kiosk = card(page, 'Kiosk 4');
		await expect(kiosk.getByRole('timer')).toHaveText(/^8:0\d$/);
		expect((await simulator.screenJson('fry')).cards[0].timer).toBe('late');
		expect(await cardTitles(page)).toEqual(['Kiosk 4']);
	});
});
