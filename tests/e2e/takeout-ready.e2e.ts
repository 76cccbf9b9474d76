/**
 * The Take Out view's "Ready for pickup" step in a real browser (issue 25): a cook taps it on a
 * takeout entry, every browser of the screens showing the order sees it ready, and the "ready"
 * text reaches the SMS outbox (the /sms page) and the brand's SMS webhook, a node:http receiver on
 * loopback. Screenshots of the view at 800×480 and 1280×720 go to test-results/screenshots/.
 */
import type { Page } from '@playwright/test';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import {
	expect,
	expectConnection,
	screenPage,
	startSimulator,
	test,
	type Simulator
} from '../helpers/fixtures.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { create, createFromSample, item, order } from './orders.ts';

const takeoutView = (page: Page) => page.getByRole('region', { name: 'Takeout' });

let sms: Receiver;
let simulator: Simulator;
test.beforeEach(async () => {
	sms = await startReceiver('/sms');
	const config = structuredClone(DEFAULT_CONFIG) as { brands: Array<Record<string, unknown>> };
	config.brands[0].sms = {
		enabled: true,
		triggers: { received: false, bumped: false, ready: true },
		webhookUrl: sms.url
	};
	simulator = await startSimulator({ config });
});
test.afterEach(async () => {
	await simulator.close();
	await sms.close();
});

test('a cook taps "Ready for pickup": every browser sees it, the customer gets the text', async ({
	page,
	context
}) => {
	test.slow(); // four pages of two screens
	await simulator.sendTcp('kds-1', createFromSample('http-create-curbside.json'));
	await simulator.sendTcp(
		'kds-1',
		create(
			order('T-2', 'Jamie 🌮 Müller-Lüdenscheidt', [item('1', 'Burrito')], {
				mode: 'ToGo',
				phoneNumber: '+15551234567'
			})
		)
	);
	await simulator.sendTcp('kds-2', createFromSample('http-create-curbside.json'));
	await screenPage(page, simulator, 'kds-1');
	await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
	await page.getByRole('button', { name: 'Takeout' }).click();
	await expect(takeoutView(page)).toBeVisible();
	// The board's pager steps aside while the Takeout view covers the cards.
	await expect(page.getByRole('navigation', { name: 'Pages' })).toBeHidden();
	const other = await context.newPage();
	await other.goto(`${simulator.screenUrl('kds-1')}?kiosk&view=takeout`);
	const expo = await context.newPage();
	await expo.goto(`${simulator.screenUrl('kds-2')}?view=takeout`);
	for (const p of [other, expo]) await expectConnection(p, 'Connected');

	const alex = takeoutView(page).getByRole('listitem', { name: 'Alex' });
	const ready = alex.getByRole('button', { name: 'Ready for pickup' });
	await test.step('each takeout entry has the step, big enough to touch', async () => {
		await expect(takeoutView(page).getByRole('button', { name: 'Ready for pickup' })).toHaveCount(
			2
		);
		const box = await ready.boundingBox();
		expect(box?.height, 'touch target height (px)').toBeGreaterThanOrEqual(44);
		expect(box?.width, 'touch target width (px)').toBeGreaterThanOrEqual(44);
	});
	await test.step('screenshots before the tap', async () => {
		for (const [width, height] of [
			[800, 480],
			[1280, 720]
		]) {
			await page.setViewportSize({ width, height });
			await page.screenshot({
				path: `test-results/screenshots/takeout-ready-before-${width}x${height}.png`
			});
		}
	});
	await test.step('the tap: ready on this browser, the other one and the other screen', async () => {
		await ready.click();
		for (const p of [page, other, expo]) {
			const entry = takeoutView(p).getByRole('listitem', { name: 'Alex' });
			await expect(entry.getByRole('status')).toContainText('Ready for pickup');
			await expect(entry.getByRole('button', { name: 'Ready for pickup' })).toHaveCount(0);
		}
		// Jamie is not ready: the button stays.
		const jamie = takeoutView(page).getByRole('listitem', { name: /^Jamie/ });
		await expect(jamie.getByRole('button', { name: 'Ready for pickup' })).toBeVisible();
	});
	await test.step('the text reaches the brand webhook and the outbox page, once', async () => {
		const [text] = await sms.waitFor(1);
		expect(text.body).toMatchObject({
			orderId: 'C-3107',
			kind: 'ready',
			to: '+447700900123',
			text: 'Your order is ready for pickup! https://example.com/arrived/C-3107'
		});
		const outbox = await context.newPage();
		await outbox.goto(`${simulator.httpUrl}/sms`);
		await expect(outbox.getByRole('row').filter({ hasText: 'C-3107' })).toContainText(
			'Ready for pickup'
		);
		expect(sms.received).toHaveLength(1);
	});
	await test.step('a reload keeps it (the agent holds it)', async () => {
		await page.reload();
		await expect(
			takeoutView(page).getByRole('listitem', { name: 'Alex' }).getByRole('status')
		).toContainText('Ready for pickup');
	});
	await test.step('screenshots after the tap', async () => {
		for (const [width, height] of [
			[800, 480],
			[1280, 720]
		]) {
			await page.setViewportSize({ width, height });
			await page.screenshot({
				path: `test-results/screenshots/takeout-ready-after-${width}x${height}.png`
			});
		}
	});
});
