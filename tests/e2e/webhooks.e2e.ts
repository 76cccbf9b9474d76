/**
 * The webhooks page (issue 25), like the vendor's portal, over the admin API: the endpoints of the
 * config file listed, one added with the form (a refused one shows the agent's field errors),
 * the delivery log of each with what a real receiver (node:http on loopback) answered, Re-send,
 * and Remove. Screenshots at 1280×720 and 800×480 go to test-results/screenshots/.
 */
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { expect, startSimulator, test, type Simulator } from '../helpers/fixtures.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { create, item, order } from './orders.ts';

let configured: Receiver;
let added: Receiver;
let simulator: Simulator;
test.beforeEach(async () => {
	configured = await startReceiver('/pos/hooks');
	added = await startReceiver('/other');
	// The configured receiver fails the first attempt: the log shows a failure, then delivery.
	configured.answer((n) => (n === 1 ? { status: 503, body: 'busy, try later' } : { status: 200 }));
	const config = structuredClone(DEFAULT_CONFIG) as { brands: Array<Record<string, unknown>> };
	config.brands[0].webhooks = [
		{ url: configured.url, triggers: ['KDS Order Created'], secondsBetweenAttempts: 1 }
	];
	simulator = await startSimulator({ config });
});
test.afterEach(async () => {
	await simulator.close();
	await configured.close();
	await added.close();
});

test('list, add, deliver, re-send and remove endpoints as in the portal', async ({ page }) => {
	test.slow(); // retries a second apart, two receivers
	await page.goto(`${simulator.httpUrl}/webhooks`);
	await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
	const mine = page.getByRole('region', { name: /^Endpoint http:\/\/127\.0\.0\.1:\d+\// });
	await expect(mine).toHaveCount(1);
	await expect(mine).toContainText('KDS Order Created');
	await expect(mine).toContainText('from the config file');

	await test.step('a refused form shows what was wrong, by field', async () => {
		const form = page.getByRole('form', { name: 'Add endpoint' });
		await form.getByRole('textbox', { name: 'URL' }).fill('ftp://nope');
		await form.getByRole('spinbutton', { name: 'Delivery attempts' }).fill('11');
		await form.getByRole('button', { name: 'Add endpoint' }).click();
		const alert = form.getByRole('alert', { name: 'Not added' });
		await expect(alert).toContainText('url: expected an http:// or https:// URL');
		await expect(alert).toContainText('attempts: expected a whole number 1-10');
	});
	await test.step('add an endpoint for orders created and bumped', async () => {
		const form = page.getByRole('form', { name: 'Add endpoint' });
		await form.getByRole('textbox', { name: 'URL' }).fill(added.url);
		await form.getByRole('spinbutton', { name: 'Delivery attempts' }).fill('2');
		for (const event of ['Device Created', 'Device Updated', 'Device Deleted']) {
			await form.getByRole('checkbox', { name: event }).uncheck();
		}
		await form.getByRole('button', { name: 'Add endpoint' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Added endpoint' })).toBeVisible();
		const endpoint = page.getByRole('region', { name: `Endpoint ${added.url}` });
		await expect(endpoint).toContainText('KDS Order Created · KDS Order Bumped');
		await expect(endpoint).toContainText('2 attempts, 30 min apart');
		await expect(endpoint).toContainText('added here');
	});

	await simulator.sendTcp(
		'kds-1',
		create(order('W-1', 'Ana 🍜', [item('1', 'Ramen')], { mode: 'ToGo' }))
	);
	const log = page.getByRole('table', { name: `Delivery log of ${configured.url}` });
	await test.step('the delivery log: the failed attempt, then delivered', async () => {
		await configured.waitFor(2);
		const row = log.getByRole('row').filter({ hasText: 'W-1' });
		await expect(row).toContainText('delivered', { timeout: 10_000 });
		await expect(row).toContainText('2 of 3');
		// Each attempt with the receiver's answer: the 503 first, then the 200.
		await expect(row).toContainText('#1 503: busy, try later');
		await expect(row).toContainText('#2 200');
		const other = page.getByRole('table', { name: `Delivery log of ${added.url}` });
		await expect(other.getByRole('row').filter({ hasText: 'W-1' })).toContainText('delivered');
		expect(added.received.map((r) => r.body.triggeredAction)).toEqual(['KDS Order Created']);
	});
	await test.step('screenshots', async () => {
		for (const [width, height] of [
			[1280, 720],
			[800, 480]
		]) {
			await page.setViewportSize({ width, height });
			await page.screenshot({
				path: `test-results/screenshots/webhooks-${width}x${height}.png`,
				fullPage: true
			});
		}
		await page.setViewportSize({ width: 1280, height: 720 });
	});
	await test.step('Re-send: the receiver gets the same body again', async () => {
		await log.getByRole('button', { name: 'Re-send KDS Order Created W-1' }).first().click();
		await configured.waitFor(3);
		expect(configured.received[2].body).toEqual(configured.received[1].body);
		await expect(log.getByRole('row').filter({ hasText: 're-sent' })).toContainText('delivered');
	});
	await test.step('Remove takes two presses; the endpoint gets nothing more', async () => {
		const endpoint = page.getByRole('region', { name: `Endpoint ${added.url}` });
		await endpoint.getByRole('button', { name: 'Remove' }).click();
		await expect(page.getByRole('region', { name: /^Endpoint / })).toHaveCount(2);
		await endpoint.getByRole('button', { name: 'Remove: sure?' }).click();
		await expect(page.getByRole('region', { name: /^Endpoint / })).toHaveCount(1);
		await simulator.sendTcp('kds-1', create(order('W-2', 'Bo', [item('1', 'Tea')])));
		await configured.waitFor(4);
		expect(added.received).toHaveLength(1);
	});
});
