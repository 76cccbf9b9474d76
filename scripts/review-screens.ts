/**
 * Screens to look at while changing the kitchen screen's look (not committed pictures): starts a
 * simulator on OS-chosen loopback ports, sends the messy lunch rush (tests/e2e/orders.ts
 * `lunchRush`, 29 orders, pop-ups) or ten ordinary tickets (`--ordinary`), and writes PNGs of
 * the Grill screen at 800x480, 1024x600, 720x1280, 1280x720 and 1920x1080, kiosk and normal, to
 * test-results/review/<label>/. Needs `npm run build` first.
 *
 *   npx tsx scripts/review-screens.ts [label] [--ordinary] [--popups]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { offsetClock } from '../agent/clock.ts';
import { startSimulator } from '../tests/helpers/fixtures.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { ROOT } from '../tests/helpers/process.ts';
import { lunchRush, ordinaryTickets } from '../tests/e2e/orders.ts';

const SIZES = [
	[800, 480],
	[1024, 600],
	[720, 1280],
	[1280, 720],
	[1920, 1080]
] as const;

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const label = args.find((a) => !a.startsWith('--')) ?? 'now';
	const out = join(ROOT, 'test-results', 'review', label);
	mkdirSync(out, { recursive: true });
	const clock = offsetClock(0);
	const simulator = await startSimulator({
		httpHost: '127.0.0.1',
		tcpHost: '127.0.0.1',
		logLevel: 'silent',
		clock
	});
	const browser = await chromium.launch(chromiumLaunchOptions);
	try {
		const send = (m: object) => simulator.sendTcp('kds-1', m);
		if (args.includes('--ordinary')) {
			for (const o of ordinaryTickets(10)) await send(o);
		} else {
			const rush = lunchRush();
			clock.offset = -14 * 60_000;
			for (const o of rush.early) await send(o);
			clock.offset = -6 * 60_000;
			for (const o of rush.warm) await send(o);
			clock.offset = 0;
			for (const o of rush.fresh) await send(o);
			for (const o of rush.after) await send(o);
			if (args.includes('--popups'))
				for (const message of rush.messages) await simulator.sendHttp('send-message', { message });
		}
		for (const [width, height] of SIZES) {
			for (const kiosk of [true, false]) {
				const context = await browser.newContext({
					viewport: { width, height },
					locale: 'en-US',
					timezoneId: 'America/Chicago'
				});
				const page = await context.newPage();
				await page.goto(simulator.screenUrl('kds-1', { kiosk }));
				await page.getByRole('status', { name: /^Connection: Connected/ }).waitFor();
				await page.waitForTimeout(1200);
				const name = `${kiosk ? 'kiosk' : 'normal'}-${width}x${height}.png`;
				await page.screenshot({ path: join(out, name) });
				const pages = await page
					.getByRole('navigation', { name: 'Pages' })
					.textContent()
					.catch(() => null);
				const kioskPages = await page
					.locator('[aria-label^="Page "]')
					.first()
					.getAttribute('aria-label')
					.catch(() => null);
				console.log(name, (pages ?? '').trim(), kioskPages ?? '');
				await context.close();
			}
		}
	} finally {
		await browser.close();
		await simulator.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
