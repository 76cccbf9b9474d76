import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/process.ts';
import { card, cards, expect, expectConnection, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

/**
 * The page a Raspberry Pi kiosk opens, at the sizes of the usual 7-inch panels: the URL is the
 * one deploy/pi/install.sh writes (installed into a scratch root), pointed at this test's
 * simulator. Only the cards and the connection dot, no mouse pointer.
 */
function installedKioskUrl(): string {
	const root = mkdtempSync(join(tmpdir(), 'kds-pi-'));
	try {
		mkdirSync(join(root, 'etc'));
		writeFileSync(join(root, 'etc/passwd'), 'pi:x:1000:1000::/home/pi:/bin/bash\n');
		const run = spawnSync('bash', [join(ROOT, 'deploy/pi/install.sh'), '--root', root], {
			encoding: 'utf8',
			env: { ...process.env, SUDO_USER: '' }
		});
		expect(run.status, run.stderr).toBe(0);
		const line = /^KDS_KIOSK_URL='(.*)'$/m.exec(
			readFileSync(join(root, 'etc/kds-sim/kiosk.env'), 'utf8')
		);
		return line![1];
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

for (const size of [
	{ width: 800, height: 480 },
	{ width: 1024, height: 600 }
]) {
	test(`the Pi kiosk page at ${size.width}x${size.height}`, async ({ page, simulator }) => {
		const url = new URL(installedKioskUrl());
		expect(`${url.origin}${url.pathname}${url.search}`).toBe(
			'http://127.0.0.1:8104/screens/kds-1?kiosk&cursor=none'
		);
		await page.setViewportSize(size);
		await page.goto(`${simulator.httpUrl}${url.pathname}${url.search}`);
		await expectConnection(page, 'Connected');
		await simulator.sendTcp(
			'kds-1',
			create(order('K-1', 'Maria', [item('1', 'Cheeseburger', { mods: [{ name: 'No onions' }] })]))
		);
		await simulator.sendTcp('kds-1', create(order('K-2', 'Table 4', [item('1', 'Caesar Salad')])));
		await expect(cards(page)).toHaveCount(2);
		await expect(card(page, 'Maria')).toContainText('No onions');
		// Kiosk: no header; no pointer anywhere on the page.
		await expect(page.getByRole('banner')).toHaveCount(0);
		for (const target of [page.locator('html'), card(page, 'Maria')]) {
			expect(await target.evaluate((el) => getComputedStyle(el).cursor)).toBe('none');
		}
		await expect(card(page, 'Maria')).toBeInViewport();
		mkdirSync(SHOTS, { recursive: true });
		await page.screenshot({ path: join(SHOTS, `pi-kiosk-${size.width}x${size.height}.png`) });
	});
}

test('without cursor=none the pointer is the page’s own', async ({ page, simulator }) => {
	await page.goto(simulator.screenUrl('kds-1', { kiosk: true }));
	await expectConnection(page, 'Connected');
	expect(await page.locator('html').evaluate((el) => getComputedStyle(el).cursor)).toBe('auto');
});
