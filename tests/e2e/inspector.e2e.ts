/**
 * The inspector in a real browser: a message that bends the contract shows with its finding and
 * the offending payload line, re-sends in one click, filters by severity, and the card of its
 * order carries a marker that leads back to it.
 */
import type { Locator, Page } from '@playwright/test';
import {
	card,
	expect,
	screenPage,
	startSimulator,
	test,
	type Simulator
} from '../helpers/fixtures.ts';
import { create, item as line, order } from './orders.ts';

/** An order with deprecated string mods (info) and a field the contract does not define (warning). */
const badOrder = create(
	order('T-7', 'Tina', [line('1', 'Burger', { mods: ['No onion', 'Extra cheese'] })], {
		tableColour: 'blue'
	})
);
const cleanOrder = create(order('C-1', 'Carl', [line('1', 'Soup')]));

async function openInspector(page: Page, simulator: Simulator, query = ''): Promise<void> {
	await page.goto(`${simulator.httpUrl}/inspector${query}`);
	await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
}

/** The rows of the message list for an order id. */
function rows(page: Page, orderId?: string): Locator {
	const all = page.getByRole('region', { name: 'Messages' }).getByRole('row');
	return orderId === undefined
		? all.filter({ hasNot: page.locator('th') })
		: all.filter({ hasText: orderId });
}

test.describe('Inspector', () => {
	test('shows a bad message with its finding and re-sends it', async ({ page, simulator }) => {
		await test.step('the POS sends a message with findings, then a clean one', async () => {
			expect(await simulator.sendTcp('kds-1', badOrder)).toBe('T-7');
			expect(await simulator.sendTcp('kds-1', cleanOrder)).toBe('C-1');
		});
		await openInspector(page, simulator);

		const bad = rows(page, 'T-7');
		await test.step('the list shows the message: interface, command, order, result, findings', async () => {
			await expect(rows(page)).toHaveCount(2);
			await expect(rows(page).first()).toContainText('C-1');
			await expect(bad).toContainText('TCP');
			await expect(bad).toContainText('create-order');
			await expect(bad).toContainText('kds-1');
			await expect(bad).toContainText(/\d\d:\d\d:\d\d\.\d{3}/);
			await expect(bad.getByLabel('1 warning')).toBeVisible();
			await expect(bad.getByLabel('1 info')).toBeVisible();
			await expect(rows(page, 'C-1').getByLabel(/warning|info|error/)).toHaveCount(0);
		});

		const details = page.getByRole('region', { name: 'Message details' });
		await test.step('selecting it shows the finding with its rule, pointing at its field', async () => {
			await bad.click();
			await expect(details.getByRole('heading', { level: 2 })).toHaveText(
				/create-order · order T-7/
			);
			const finding = details.getByRole('listitem', {
				name: 'Warning KDS-FIELD-UNKNOWN at order.tableColour'
			});
			await expect(finding).toContainText('tableColour is not a field of the contract');
			await expect(finding).toContainText('A field the contract does not define');
			await expect(
				details.getByRole('listitem', { name: 'Info KDS-MODS-PLAIN-STRING at order.items[0].mods' })
			).toBeVisible();
		});

		await test.step('the payload is pretty-printed with the offending line highlighted', async () => {
			const payload = details.getByRole('region', { name: 'Payload' });
			await expect(payload).toContainText('"command": "create-order",');
			const offending = payload.locator('[data-line]', { hasText: '"tableColour": "blue"' });
			await expect(offending).toHaveAttribute('data-severity', 'warning');
			await expect(offending).toContainText('← KDS-FIELD-UNKNOWN');
			await expect(offending).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
			await expect(payload.locator('[data-line]', { hasText: '"mods": [' })).toHaveAttribute(
				'data-severity',
				'info'
			);
			await expect(
				payload.locator('[data-line]', { hasText: '"name": "Tina"' })
			).not.toHaveAttribute('data-severity');
		});

		await test.step('Re-send sends it again; the screen refuses the duplicate', async () => {
			await details.getByRole('button', { name: 'Re-send' }).click();
			await expect(details.getByRole('status', { name: 'Re-send result' })).toContainText(
				'DUPLICATE_ORDER_ID'
			);
			await expect(bad).toHaveCount(2);
			const again = bad.first();
			await expect(again).toContainText('inspector re-send');
			await expect(again).toContainText('DUPLICATE_ORDER_ID');
			await expect(again.getByLabel('1 error')).toBeVisible();
		});

		await test.step('screenshot at 1280×720', async () => {
			await page.setViewportSize({ width: 1280, height: 720 });
			await page.screenshot({ path: 'test-results/screenshots/inspector-1280x720.png' });
		});

		await test.step('filter by severity, reflected in the URL', async () => {
			const severity = page.getByRole('combobox', { name: 'Severity' });
			await severity.selectOption('error');
			await expect(page).toHaveURL(/[?&]severity=error/);
			await expect(rows(page)).toHaveCount(1);
			await expect(rows(page).first()).toContainText('DUPLICATE_ORDER_ID');
			await severity.selectOption('warning');
			await expect(rows(page)).toHaveCount(2);
			await expect(rows(page, 'C-1')).toHaveCount(0);
			await severity.selectOption('');
			await expect(rows(page)).toHaveCount(3);
		});

		await test.step('new messages show live', async () => {
			await simulator.sendTcp('kds-1', create(order('L-1', 'Lee', [line('1', 'Tea')])));
			await expect(rows(page).first()).toContainText('L-1');
		});
	});

	test('a request refused for its content type shows what was sent and re-sends as it came', async ({
		page,
		simulator
	}) => {
		const sent = JSON.stringify(order('X-1', 'Xena', [line('1', 'Tea')]), null, 2);
		const brand = simulator.config.brands[0];
		const res = await fetch(`${simulator.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'text/plain',
				'x-integration-token': brand.token,
				'x-location-id': brand.locations[0].id,
				'x-device-ids': 'all'
			},
			body: sent
		});
		expect(res.status).toBe(415);
		expect(
			(
				await simulator.sendHttp(
					'create',
					order('C-2', 'Cleo', [line('1', 'Soup')], { time: new Date().toISOString() })
				)
			).status
		).toBe(201);
		await openInspector(page, simulator);
		const details = page.getByRole('region', { name: 'Message details' });

		await rows(page).filter({ hasText: '415' }).click();
		await expect(details).toContainText('HTTP 415');
		await expect(details.getByLabel('Bytes sent back')).toHaveText(
			'{"code":"UNSUPPORTED_MEDIA_TYPE","message":"Content-Type: expected application/json, got \\"text/plain\\" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json"}'
		);
		await expect(details.getByRole('region', { name: /^Why/ })).toContainText(
			'Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json'
		);
		await expect(details).toContainText('None found: the reply above says why it was refused.');
		await expect(details.getByRole('region', { name: 'Payload' })).toContainText('"name": "Xena"');
		await details.getByRole('button', { name: 'Re-send' }).click();
		await expect(details.getByRole('status', { name: 'Re-send result' })).toContainText(
			'415 {"code":"UNSUPPORTED_MEDIA_TYPE"'
		);

		await rows(page, 'C-2').click();
		await expect(details).toContainText('None: the message keeps to the contract.');
	});

	test('the card of an order with findings has a marker that opens the inspector on it', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.sendTcp('kds-1', badOrder);
		await simulator.sendTcp('kds-1', cleanOrder);
		const tina = card(page, 'Tina');

		await test.step('a warning: an amber marker; a clean order: none', async () => {
			await expect(tina.getByRole('link', { name: '1 finding' })).toHaveText('⚠ 1');
			await expect(card(page, 'Carl')).toBeVisible();
			await expect(card(page, 'Carl').getByRole('link')).toHaveCount(0);
		});

		await test.step('a refused duplicate create keeps its error to itself: the marker stays', async () => {
			expect(await simulator.sendTcp('kds-1', badOrder)).toBe('DUPLICATE_ORDER_ID');
			await expect(page.getByRole('link', { name: /1 message refused/ })).toBeVisible();
			const marker = tina.getByRole('link', { name: /finding/ });
			await expect(marker).toHaveAccessibleName('1 finding');
			await expect(marker).toHaveCSS('background-color', 'rgb(245, 158, 11)');
		});

		await test.step('the marker opens the inspector filtered by the order, without bumping it', async () => {
			await tina.getByRole('link', { name: '1 finding' }).click();
			await expect(page).toHaveURL(/\/inspector\?screen=kds-1&order=T-7$/);
			await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
			await expect(page.getByRole('searchbox', { name: 'Order id' })).toHaveValue('T-7');
			await expect(page.getByRole('combobox', { name: 'Screen' })).toHaveValue('kds-1');
			await expect(rows(page)).toHaveCount(2);
			await expect(rows(page, 'C-1')).toHaveCount(0);
			const shown = await simulator.screenJson('kds-1');
			expect(shown.cards.map((c) => c.id)).toContain('T-7');
		});
	});

	test('from another host the screen and the inspector ask for the admin token; signed in, both work', async ({
		page
	}) => {
		// trustLoopback: false makes this browser count as one on another computer of the LAN.
		const simulator = await startSimulator({
			trustLoopback: false,
			adminToken: 'lan-admin-token'
		});
		try {
			await simulator.sendTcp('kds-1', badOrder);
			await test.step('not signed in: no orders, a way to sign in', async () => {
				await page.goto(simulator.screenUrl('kds-1'));
				await expect(page.getByRole('alert')).toContainText('Grill: sign in to see the orders');
				await expect(card(page, 'Tina')).toHaveCount(0);
				await page.goto(`${simulator.httpUrl}/inspector`);
				await expect(page.getByRole('alert')).toContainText(
					'The inspector is available from the simulator host, or with an admin token'
				);
			});
			await test.step('a wrong token is refused; the admin token signs the browser in', async () => {
				await page.goto(simulator.screenUrl('kds-1'));
				await page.getByRole('link', { name: 'Sign in with the admin token' }).click();
				await page.getByLabel('Admin token').fill('kds-demo-token');
				await page.getByRole('button', { name: 'Sign in' }).click();
				await expect(page.getByRole('alert')).toHaveText('x-admin-token: not the admin token');
				await page.getByLabel('Admin token').fill('lan-admin-token');
				await page.getByRole('button', { name: 'Sign in' }).click();
				await expect(page).toHaveURL(simulator.screenUrl('kds-1'));
				await expect(card(page, 'Tina')).toBeVisible();
				await openInspector(page, simulator);
				await expect(rows(page, 'T-7')).toHaveCount(1);
			});
		} finally {
			await simulator.close();
		}
	});
});
