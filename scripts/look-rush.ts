/**
 * Every page of the issue 47 "Done when" walk, to look at (not committed pictures): starts two
 * simulators on OS-chosen loopback ports and writes PNGs to test-results/look/<label>/.
 *
 * - kds-1 gets the messy lunch rush of tests/e2e/orders.ts `messyRush()` (sent as
 *   tests/e2e/messy-rush.e2e.ts sends it: `early` 9 minutes back, `warm` 6, then the rest) plus
 *   the unbroken-string order `unbrokenOrder()`; every page of it is photographed at 800x480 and
 *   1024x600 kiosk, 1280x720, 1920x1080 and 1080x1920: rush-<size>-p<n>.png. Each page's bump
 *   numbers are printed in reading order (column by column, top to bottom) beside the tickets;
 *   rush-<size>-selected.png shows the long-named ticket selected (its whole name and chips),
 *   rush-<size>-allday.png and -takeout.png the All Day and Takeout views.
 * - the three-screen kitchen (docs/examples/three-screen-kitchen.json) gets the same rush on the
 *   grill and the fry (a new order's items by turns) and the expo (all of them); both stations
 *   bump the first tickets, so the expo shows complete tickets: expo-<size>-p<n>.png.
 *
 * Needs `npm run build` first (the simulator serves build/).
 *
 *   npx tsx scripts/look-rush.ts [label]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { offsetClock } from '../agent/clock.ts';
import { loadConfigFile } from '../agent/config.ts';
import { startSimulator, type Simulator } from '../tests/helpers/fixtures.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { ROOT } from '../tests/helpers/process.ts';
import { messyRush, unbrokenOrder } from '../tests/e2e/orders.ts';

type OffsetClock = ReturnType<typeof offsetClock>;
type Sent = { command: string; order: { id: string; items?: object[] } };

const SIZES = [
	{ width: 800, height: 480, kiosk: true },
	{ width: 1024, height: 600, kiosk: true },
	{ width: 1280, height: 720, kiosk: false },
	{ width: 1920, height: 1080, kiosk: false },
	{ width: 1080, height: 1920, kiosk: false }
];

/**
 * The rush, as messy-rush.e2e.ts sends it, to each of `screens`. With `split`, a new order's items
 * go to the stations by turns (the first to screens[0], the second to screens[1], …) and all of
 * them to the last screen (the expo), so an expo card waits on two stations.
 */
async function sendRush(
	sim: Simulator,
	clock: OffsetClock,
	screens: string[],
	split = false
): Promise<string[]> {
	const orders = messyRush();
	const stations = screens.slice(0, -1);
	const send = async (m: object) => {
		const sent = m as Sent;
		if (!split || sent.command !== 'create-order' || !sent.order.items) {
			for (const s of screens) await sim.sendTcp(s, m);
			return;
		}
		for (const [n, s] of stations.entries()) {
			const items = sent.order.items.filter((_, i) => i % stations.length === n);
			if (items.length > 0) await sim.sendTcp(s, { ...sent, order: { ...sent.order, items } });
		}
		await sim.sendTcp(screens.at(-1)!, m);
	};
	clock.offset = -9 * 60_000;
	for (const o of orders.early) await send(o);
	clock.offset = -6 * 60_000;
	for (const o of orders.warm) await send(o);
	clock.offset = 0;
	for (const o of [...orders.fresh, ...orders.after]) await send(o);
	return orders.early.map((m) => (m as Sent).order.id);
}

/** The parts drawn on the page in view, in reading order: "number id#part". */
async function drawn(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const board = document.querySelector('main .viewport')!.getBoundingClientRect();
		const out: { text: string; left: number; top: number }[] = [];
		for (const el of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.right <= board.left + 1 || r.left >= board.right - 1) continue;
			const n = el.querySelector('button.bump')?.textContent?.trim() ?? '-';
			out.push({
				text: `${n} ${el.dataset.orderId}#${el.dataset.partIndex ?? 0}`,
				left: Math.round(r.left),
				top: Math.round(r.top)
			});
		}
		return out.sort((a, b) => a.left - b.left || a.top - b.top).map((p) => p.text);
	});
}

async function settle(page: Page): Promise<void> {
	let last = '';
	for (let i = 0; i < 50; i++) {
		await page.waitForTimeout(300);
		const now = JSON.stringify(await drawn(page));
		if (now === last) return;
		last = now;
	}
}

/** Photograph every page of `screen` at every size as <prefix>-<size>-p<n>.png. */
async function walk(
	browser: Browser,
	sim: Simulator,
	screen: string,
	prefix: string,
	out: string,
	cards: number
): Promise<void> {
	for (const size of SIZES) {
		const label = `${size.width}x${size.height}`;
		const context = await browser.newContext({
			viewport: { width: size.width, height: size.height },
			locale: 'en-US',
			timezoneId: 'America/Chicago'
		});
		const page = await context.newPage();
		await page.goto(sim.screenUrl(screen, { kiosk: size.kiosk }));
		await page
			.locator('article[data-order-id]:not([aria-hidden])')
			.nth(cards - 1)
			.waitFor({ state: 'attached', timeout: 20_000 });
		await page
			.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
			.first()
			.waitFor({ state: 'detached', timeout: 20_000 })
			.catch(() => undefined);
		await settle(page);
		const pageLabel = page.getByLabel(/^Page \d+ of \d+$/);
		const pages = async () =>
			(await pageLabel.count())
				? Number(/of (\d+)/.exec((await pageLabel.getAttribute('aria-label')) ?? '')![1])
				: 1;
		for (let p = 0; p < (await pages()); p++) {
			if (p > 0) {
				await page.keyboard.press('PageDown');
				await page.getByLabel(new RegExp(`^Page ${p + 1} of \\d+$`)).waitFor();
				await settle(page);
			}
			const name = `${prefix}-${label}-p${p + 1}.png`;
			await page.screenshot({ path: join(out, name) });
			console.log(name, (await drawn(page)).join(' | '));
		}
		await context.close();
	}
}

/**
 * At every size, the page that shows ticket `id`, with that ticket selected (a tap on its
 * header: its whole name and chips): <prefix>-<size>-selected.png.
 */
async function selected(
	browser: Browser,
	sim: Simulator,
	screen: string,
	id: string,
	prefix: string,
	out: string
): Promise<void> {
	for (const size of SIZES) {
		const label = `${size.width}x${size.height}`;
		const context = await browser.newContext({
			viewport: { width: size.width, height: size.height },
			locale: 'en-US',
			timezoneId: 'America/Chicago'
		});
		const page = await context.newPage();
		await page.goto(sim.screenUrl(screen, { kiosk: size.kiosk }));
		const ticket = page.locator(`article[data-order-id="${id}"]`).first();
		await ticket.waitFor({ state: 'attached', timeout: 20_000 });
		await settle(page);
		for (let p = 0; p < 10 && !(await drawn(page)).some((d) => d.includes(` ${id}#`)); p++) {
			await page.keyboard.press('PageDown');
			await settle(page);
		}
		await ticket.locator('h2').click();
		await settle(page);
		const name = `${prefix}-${label}-selected.png`;
		await page.screenshot({ path: join(out, name) });
		console.log(name, (await drawn(page)).join(' | '));
		await context.close();
	}
}

/** At every size, the All Day and Takeout views: <prefix>-<size>-allday.png, -takeout.png. */
async function views(
	browser: Browser,
	sim: Simulator,
	screen: string,
	prefix: string,
	out: string
): Promise<void> {
	for (const size of SIZES) {
		const label = `${size.width}x${size.height}`;
		const context = await browser.newContext({
			viewport: { width: size.width, height: size.height },
			locale: 'en-US',
			timezoneId: 'America/Chicago'
		});
		const page = await context.newPage();
		await page.goto(sim.screenUrl(screen, { kiosk: size.kiosk }));
		await page.locator('article[data-order-id]').first().waitFor({ timeout: 20_000 });
		await settle(page);
		await page.keyboard.press('a');
		await page.getByRole('region', { name: 'All Day' }).waitFor();
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(out, `${prefix}-${label}-allday.png`) });
		await page.keyboard.press('a');
		await page.getByRole('button', { name: /^Takeout/ }).click();
		await page.getByRole('region', { name: 'Takeout' }).waitFor();
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(out, `${prefix}-${label}-takeout.png`) });
		console.log(`${prefix}-${label}-allday.png, -takeout.png`);
		await context.close();
	}
}

async function main(): Promise<void> {
	const label = process.argv[2] ?? 'now';
	const out = join(ROOT, 'test-results', 'look', label);
	mkdirSync(out, { recursive: true });
	const browser = await chromium.launch(chromiumLaunchOptions);
	const quiet = { httpHost: '127.0.0.1', tcpHost: '127.0.0.1', logLevel: 'silent' } as const;
	try {
		const clock = offsetClock(0);
		const sim = await startSimulator({ ...quiet, clock });
		try {
			await sendRush(sim, clock, ['kds-1']);
			await sim.sendTcp('kds-1', unbrokenOrder());
			await walk(browser, sim, 'kds-1', 'rush', out, 21);
			await selected(browser, sim, 'kds-1', 'LONG-1', 'rush', out);
			await views(browser, sim, 'kds-1', 'rush', out);
		} finally {
			await sim.close();
		}

		const expoClock = offsetClock(0);
		const kitchen = await startSimulator({
			...quiet,
			clock: expoClock,
			config: loadConfigFile(join(ROOT, 'docs/examples/three-screen-kitchen.json'))
		});
		try {
			const first = await sendRush(kitchen, expoClock, ['grill', 'fry', 'expo'], true);
			// Both stations bump the first two tickets: complete on the expo. The grill alone bumps
			// the third: one of two done.
			for (const id of first.slice(0, 2))
				for (const station of ['grill', 'fry']) kitchen.engine.runAction(station, 'bump', id);
			kitchen.engine.runAction('grill', 'bump', first[2]);
			await walk(browser, kitchen, 'expo', 'expo', out, 20);
		} finally {
			await kitchen.close();
		}
	} finally {
		await browser.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
