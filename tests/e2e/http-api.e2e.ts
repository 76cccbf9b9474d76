/**
 * The HTTP integrator API in a real browser (issue 4): an order a POS creates over HTTP shows on
 * the screens named in x-device-ids and nowhere else, and the TCP and HTTP interfaces change the
 * same card.
 */
import {
	badge,
	card,
	expect,
	expectCancelledLook,
	expectItemHighlighted,
	expectItemStruckThrough,
	liveItem,
	screenPage,
	test
} from '../helpers/fixtures.ts';
import { create, item as line, order as tcpOrder, update } from './orders.ts';

/** An order as the HTTP API takes it: `time` an ISO 8601 string. */
const order = (...args: Parameters<typeof tcpOrder>) => ({
	...tcpOrder(...args),
	time: new Date().toISOString()
});

test.describe('HTTP integrator API', () => {
	test('an order created over HTTP shows on the screen named; TCP and HTTP change it', async ({
		page,
		context,
		simulator
	}) => {
		const grill = await screenPage(page, simulator, 'kds-1');
		const expo = await screenPage(await context.newPage(), simulator, 'kds-2');
		const body = order(
			'H-100',
			'Dana',
			[line('1', 'Club Sandwich', { mods: [{ name: 'No tomato' }] }), line('2', 'Fries')],
			{ mode: 'ToGo' }
		);
		const dana = card(grill, 'Dana');

		await test.step('POST /integrators/kds-orders to kds-1: 201, on kds-1 only', async () => {
			const res = await simulator.sendHttp('create', body, { devices: 'kds-1' });
			expect(res).toEqual({
				status: 201,
				body: {
					orderId: 'H-100',
					deliveryStatuses: [{ device: 'kds-1', status: 'SUCCESS', type: expect.any(String) }]
				}
			});
			await expect(dana.getByRole('heading', { level: 2 })).toHaveText('Dana');
			await expect(dana).toContainText('To Go');
			await expect(liveItem(dana, 'Club Sandwich')).toHaveAccessibleName(
				'1 × Club Sandwich (No tomato)'
			);
			await expect(liveItem(dana, 'Fries')).toHaveAccessibleName('1 × Fries');
			await expect(expo.getByText('No orders')).toBeVisible();
			await expect(card(expo, 'Dana')).toHaveCount(0);
		});

		await test.step('x-device-ids all: on both screens', async () => {
			const res = await simulator.sendHttp('create', order('H-101', 'Eli', [line('1', 'Soup')]));
			expect(res.status).toBe(201);
			await expect(liveItem(card(grill, 'Eli'), 'Soup')).toBeVisible();
			await expect(liveItem(card(expo, 'Eli'), 'Soup')).toBeVisible();
			await expect(card(expo, 'Dana')).toHaveCount(0);
		});

		await test.step('a TCP update-order to kds-1 changes the card made over HTTP', async () => {
			const items = [
				line('1', 'Club Sandwich', { qty: 2, mods: [{ name: 'No tomato' }] }),
				line('3', 'Milkshake')
			];
			const reply = await simulator.sendTcp('kds-1', update({ ...body, time: Date.now(), items }));
			expect(reply).toBe('H-100');
			await expectItemStruckThrough(dana, 'Fries');
			await expectItemHighlighted(dana, 'Milkshake', 'New');
			await expectItemHighlighted(dana, 'Club Sandwich', 'Changed');
			await expect(liveItem(dana, 'Club Sandwich')).toHaveAccessibleName(
				'2 × Club Sandwich (No tomato)'
			);
		});

		await test.step('PUT /integrators/kds-orders/cancel: the cancelled look, on kds-1 only', async () => {
			const res = await simulator.sendHttp('cancel', { id: 'H-100' }, { devices: 'kds-1' });
			expect(res).toEqual({
				status: 200,
				body: { orderId: 'H-100', deliveryStatuses: [{ device: 'kds-1', status: 'SUCCESS' }] }
			});
			await expectCancelledLook(dana);
			await expect(badge(card(expo, 'Eli'), 'Cancelled')).toHaveCount(0);
		});
	});

	test('an order created over TCP is changed over HTTP on the same screen', async ({
		page,
		simulator
	}) => {
		const expo = await screenPage(page, simulator, 'kds-2');
		const reply = await simulator.sendTcp(
			'kds-2',
			create(tcpOrder('T-200', 'Finn', [line('1', 'Pancakes'), line('2', 'Coffee')]))
		);
		expect(reply).toBe('T-200');
		const finn = card(expo, 'Finn');
		await expect(liveItem(finn, 'Pancakes')).toBeVisible();

		await test.step('PUT /integrators/kds-orders/partial: priority, an item added, one removed', async () => {
			const res = await simulator.sendHttp(
				'partial',
				{
					id: 'T-200',
					priority: true,
					itemsToAdd: [line('3', 'Orange Juice')],
					itemsToRemove: ['2']
				},
				{ devices: 'kds-2' }
			);
			expect(res.status).toBe(200);
			await expect(badge(finn, 'Priority')).toBeVisible();
			await expectItemHighlighted(finn, 'Orange Juice', 'New');
			await expectItemStruckThrough(finn, 'Coffee');
		});

		await test.step('PUT /integrators/kds-orders (full update): the new content', async () => {
			const res = await simulator.sendHttp(
				'update',
				order('T-200', 'Finn (table 3)', [line('1', 'Pancakes', { qty: 3 })]),
				{ devices: 'kds-2' }
			);
			expect(res.status).toBe(200);
			const renamed = card(expo, 'Finn (table 3)');
			await expect(liveItem(renamed, 'Pancakes')).toHaveAccessibleName('3 × Pancakes');
			await expectItemStruckThrough(renamed, 'Orange Juice');
		});

		await test.step('GET /integrators/kds-orders/active lists the cards, by the id and name given at create (contract 2.9)', async () => {
			const res = await simulator.sendHttp('active', undefined, { devices: 'kds-2' });
			expect(res).toEqual({
				status: 200,
				body: [
					{
						deviceId: 'kds-2',
						deviceName: 'Expo',
						orderCount: 1,
						// The card shows "Finn (table 3)"; the list keeps the name given at create.
						orders: [{ orderId: 'T-200', orderName: 'Finn' }]
					}
				]
			});
			await expect(page.getByRole('article')).toHaveCount(1);
		});
	});
});
