/**
 * The integrator's view of an order: in the inspector, a message's Fields tab lists every field
 * as received, as the screen read it (time in the location's zone, with the core's finding), and
 * where it landed on the card or that the card does not show it. The card itself is checked for
 * what the table says it shows.
 */
import type { Locator, Page } from '@playwright/test';
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item as line, order } from './orders.ts';

/** The demo config's location zone (kds-1 is in it). */
const ZONE = 'America/Chicago';

const delivery = create(
	order('D-42', 'Zoë Ångström', [line('1', 'Burger', { qty: 2, price: '6.25' })], {
		// No offset: read in the location's zone, and said so.
		time: '2026-11-25T11:30:00',
		mode: 'Delivery',
		deliveryHandoff: true,
		checkNumber: '88',
		phoneNumber: '+1 312 555 0100',
		deliveryAddress: '1 Main St, Apt 4 — ring twice 🔔',
		deliveryService: { name: 'DoorDash', orderId: 'DD-9', driverPhone: '+1 312 555 0199' },
		costs: { subtotal: '12.50', tip: '2.00', total: '16.10' },
		server: 'Sam',
		vehicleColor: 'Red',
		vehicleModel: 'Civic',
		tableColour: 'blue'
	})
);

function fieldRow(details: Locator, field: string): Locator {
	return details
		.getByRole('table', { name: 'Order fields' })
		.getByRole('row')
		.filter({ has: details.page().getByRole('rowheader', { name: field, exact: true }) });
}

async function openFields(page: Page, httpUrl: string): Promise<Locator> {
	await page.goto(`${httpUrl}/inspector`);
	await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
	await page.getByRole('region', { name: 'Messages' }).getByRole('row', { name: /D-42/ }).click();
	const details = page.getByRole('region', { name: 'Message details' });
	await details.getByRole('tab', { name: 'Fields' }).click();
	await expect(details.getByRole('tab', { name: 'Fields' })).toHaveAttribute(
		'aria-selected',
		'true'
	);
	return details;
}

test.describe('Integrator view: an order field by field', () => {
	// Many steps and two pages: more than the default minute on a loaded machine.
	test.slow();

	test('every field as received, as read, and where it lands on the card', async ({
		page,
		simulator
	}) => {
		expect(await simulator.sendTcp('kds-1', delivery)).toBe('D-42');
		const details = await openFields(page, simulator.httpUrl);

		await test.step('time: as received, read in the location’s zone, with its finding', async () => {
			const time = fieldRow(details, 'time');
			await expect(time).toContainText('"2026-11-25T11:30:00"');
			await expect(time).toContainText(`2026-11-25T11:30:00-06:00`);
			await expect(time).toContainText(`(${ZONE})`);
			await expect(time).toContainText('KDS-TIME-NO-OFFSET');
			await expect(time).toContainText('placed 12:05 PM');
			await expect(time).toContainText('the timer counts from when the screen received the order');
		});
		await test.step('fields the card does not show say so', async () => {
			for (const field of [
				'id',
				'phoneNumber',
				'deliveryAddress',
				'deliveryService.driverPhone',
				'costs.subtotal',
				'costs.tip',
				'costs.total'
			]) {
				await expect(fieldRow(details, field).getByRole('cell').last()).toHaveText(/^not shown/);
			}
			await expect(fieldRow(details, 'deliveryAddress')).toContainText('ring twice 🔔');
			await expect(fieldRow(details, 'costs.tip')).toContainText('2.00');
			await expect(fieldRow(details, 'deliveryService.driverPhone')).toContainText(
				'+1 312 555 0199'
			);
		});
		await test.step('fields the card shows name their place', async () => {
			await expect(fieldRow(details, 'name')).toContainText('title');
			await expect(fieldRow(details, 'mode')).toContainText('Delivery Handoff');
			await expect(fieldRow(details, 'mode')).toContainText('mode chip');
			await expect(fieldRow(details, 'items[0]')).toContainText('2 × Burger');
			await expect(fieldRow(details, 'items[0]')).toContainText('item lines');
			await expect(fieldRow(details, 'deliveryService.name')).toContainText('info line');
		});
		await test.step('an unknown field is ignored, with its finding', async () => {
			const unknown = fieldRow(details, 'tableColour');
			await expect(unknown).toContainText('ignored: not a field the screen reads');
			await expect(unknown).toContainText('KDS-FIELD-UNKNOWN');
		});

		for (const [width, height] of [
			[1920, 1080],
			[1280, 720]
		]) {
			await page.setViewportSize({ width, height });
			await page.screenshot({ path: `test-results/order-fields-${width}x${height}.png` });
		}

		await test.step('the card shows what the table says it shows', async () => {
			await screenPage(page, simulator, 'kds-1');
			const ticket = card(page, 'Zoë Ångström #88');
			await expect(ticket).toBeVisible();
			await expect(ticket).toContainText('Delivery Handoff');
			await expect(ticket).toContainText('DoorDash');
			await expect(ticket).toContainText('#DD-9');
			await expect(ticket).toContainText('Car Red Civic');
			await expect(ticket).toContainText('Sam');
			for (const hidden of ['555 0100', '555 0199', 'Main St', '16.10', 'D-42']) {
				await expect(ticket).not.toContainText(hidden);
			}
		});
	});

	test('a refused order lists the schema’s errors and reads none of its fields', async ({
		page,
		simulator
	}) => {
		const bad = create(order('D-42', 'Bad', [{ lineId: '1', name: 'X', mods: [] }]));
		expect(await simulator.sendTcp('kds-1', bad)).toBe('Unable to parse data');
		const details = await openFields(page, simulator.httpUrl);
		await expect(details).toContainText('Refused by the schema');
		await expect(
			details
				.getByRole('region', { name: 'Fields' })
				.getByRole('listitem')
				.filter({ hasText: 'order.items[0].qty' })
		).toBeVisible();
		await expect(fieldRow(details, 'items[0]')).toContainText('not read: the message was refused');
		await details.getByRole('tab', { name: 'Payload' }).click();
		await expect(details.getByRole('region', { name: 'Payload' })).toContainText('"name": "Bad"');
	});
});
