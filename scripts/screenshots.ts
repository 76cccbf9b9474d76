/**
 * The README's pictures, taken from the real UI: `npm run screenshots` (builds first).
 *
 * Starts a simulator (the agent's own code, orders in memory, every port chosen by the OS) that
 * serves the built UI, sends it the twenty-order lunch rush of the browser tests over TCP (with
 * the agent's clock wound back for the older tickets, so timers show yellow and red), and
 * photographs the first page of:
 *
 *   docs/screenshots/busy-1920x1080.webp      the Grill screen, normal view, on a 1080p TV
 *   docs/screenshots/busy-1280x720.webp       the same on a 720p screen
 *   docs/screenshots/kiosk-1024x600.webp      kiosk mode on a 7-inch 1024x600 panel
 *   docs/screenshots/kiosk-800x480.webp       kiosk mode on a 7-inch 800x480 Pi display
 *   docs/screenshots/inspector-1280x720.webp  the inspector, a refused message with findings
 *
 * Then a second simulator runs the three-screen kitchen of docs/examples/three-screen-kitchen.json
 * (grill, fry, expo; every port chosen by the OS), fed by `kds-sim rush` (agent/rush/rush.ts,
 * seed RUSH_SEED: the same orders every run) over TCP, the stations bump the first orders and
 * the expo the first one, and it photographs (docs/screens.md):
 *
 *   docs/screenshots/expo-1920x1080.webp      the expo with each station's progress, 1080p TV
 *   docs/screenshots/expo-800x480.webp        the same in kiosk mode on a 7-inch 800x480 panel
 *   docs/screenshots/all-day-1920x1080.webp   the expo's All Day view
 *   docs/screenshots/all-day-800x480.webp     the same in kiosk mode (bump bar key A)
 *   docs/screenshots/tracker-1920x1080.webp   the location's order tracker on a wall TV
 *
 * Images are WebP (Chromium encodes them: no image tool needed), about 400 KB in all. Re-run it
 * whenever the screen's look changes; nothing is ever sent to a non-loopback address.
 * `npm run screenshots -- --png` also writes them decoded as PNG under test-results/screenshots/
 * readme, to look at them with a viewer that reads no WebP.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { offsetClock } from '../agent/clock.ts';
import { rush as sendRush } from '../agent/rush/rush.ts';
import { startSimulator, type Simulator } from '../tests/helpers/fixtures.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { ROOT } from '../tests/helpers/process.ts';
import { create, item, order, rush } from '../tests/e2e/orders.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
const KITCHEN = join(ROOT, 'docs', 'examples', 'three-screen-kitchen.json');
/** The rush's seed: the same orders, names and items on every run. */
const RUSH_SEED = 40;
const QUALITY = 0.8;
/** `--png`: also write what the WebP files look like, as PNG, here (not committed). */
const REVIEW = join(ROOT, 'test-results', 'screenshots', 'readme');

async function main(): Promise<void> {
	const clock = offsetClock(0);
	const simulator = await startSimulator({
		httpHost: '127.0.0.1',
		tcpHost: '127.0.0.1',
		logLevel: 'silent',
		clock
	});
	const browser = await chromium.launch(chromiumLaunchOptions);
	try {
		await sendLunchRush(simulator, clock);
		mkdirSync(OUT, { recursive: true });
		const shots = [
			await screen(browser, simulator, { width: 1920, height: 1080 }, 'busy'),
			await screen(browser, simulator, { width: 1280, height: 720 }, 'busy'),
			await screen(browser, simulator, { width: 1024, height: 600 }, 'kiosk'),
			await screen(browser, simulator, { width: 800, height: 480 }, 'kiosk'),
			await inspector(browser, simulator),
			...(await kitchen(browser))
		];
		let total = 0;
		for (const [file, bytes] of shots) {
			total += bytes;
			console.log(`${file}  ${Math.round(bytes / 1024)} KB`);
		}
		console.log(`${shots.length} screenshots, ${Math.round(total / 1024)} KB in all`);
	} finally {
		await browser.close();
		await simulator.close();
	}
}

/**
 * The twenty-order lunch rush of the browser tests (tests/e2e/orders.ts `rush`, held by
 * tests/e2e/rush.e2e.ts) on the Grill screen, plus one message it refuses (the strip). On the
 * Expo screen, for the inspector's picture: a POS that sends a colour the contract does not
 * define (a warning), then creates the order twice.
 */
async function sendLunchRush(simulator: Simulator, clock: { offset: number }): Promise<void> {
	const orders = rush();
	const send = async (message: object) => simulator.sendTcp('kds-1', message);
	clock.offset = -9 * 60_000;
	for (const o of orders.early) await send(o);
	clock.offset = -6 * 60_000;
	for (const o of orders.warm) await send(o);
	clock.offset = 0;
	for (const o of orders.fresh) await send(o);
	for (const o of orders.after) await send(o);
	// An order without its items: refused, with the field path.
	await send(create({ ...order('BAD-1', 'Table 30', []), items: 'two burgers' }));
	const bent = create(
		order('W-88', 'Walk-in 88', [item('1', 'Flat White', { mods: [{ name: 'Oat milk' }] })], {
			mode: 'ToGo',
			tableColour: 'blue'
		})
	);
	await simulator.sendTcp('kds-2', bent);
	await simulator.sendTcp('kds-2', bent);
}

/**
 * The three-screen kitchen, fed by the rush generator (TCP only, so each station gets its share
 * of the items and the expo the whole order; a fifth of the orders get an item added), then
 * bumped a little: both stations bump the first three orders and the grill the fourth, the expo
 * bumps the first (Ready on the tracker). A bump of an order a station has no items of is a 404,
 * and changes nothing.
 */
async function kitchen(browser: Browser): Promise<Array<[string, number]>> {
	const simulator = await startSimulator({
		config: JSON.parse(readFileSync(KITCHEN, 'utf8')) as unknown,
		httpHost: '127.0.0.1',
		tcpHost: '127.0.0.1',
		logLevel: 'silent'
	});
	try {
		const { ids } = await sendRush({
			url: simulator.httpUrl,
			rate: 600,
			duration: 60,
			orders: 12,
			seed: RUSH_SEED,
			screens: null,
			tcp: 1,
			updates: 0.2,
			cancels: 0
		});
		const act = async (screen: string, orderId: string) => {
			const res = await fetch(`${simulator.httpUrl}/api/screens/${screen}/actions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ action: 'bump', orderId })
			});
			await res.arrayBuffer();
		};
		for (const id of ids.slice(0, 3))
			for (const station of ['grill', 'fry']) await act(station, id);
		await act('grill', ids[3]);
		await act('expo', ids[0]);
		return [
			await expo(browser, simulator, { width: 1920, height: 1080 }, false),
			await expo(browser, simulator, { width: 800, height: 480 }, true),
			await allDay(browser, simulator, { width: 1920, height: 1080 }, false),
			await allDay(browser, simulator, { width: 800, height: 480 }, true),
			await tracker(browser, simulator)
		];
	} finally {
		await simulator.close();
	}
}

async function expo(
	browser: Browser,
	simulator: Simulator,
	size: { width: number; height: number },
	kiosk: boolean
): Promise<[string, number]> {
	const page = await open(browser, size);
	await page.goto(simulator.screenUrl('expo', { kiosk }));
	await page.getByRole('status', { name: /^Connection: Connected/ }).waitFor();
	await page.waitForFunction(() => document.querySelectorAll('article[data-order-id]').length > 0);
	await page.waitForTimeout(1000);
	const shot = await save(page, `expo-${size.width}x${size.height}`);
	await page.context().close();
	return shot;
}

/** The expo's All Day view: from the header's ⋯ menu on a TV, the bump bar's A key in kiosk mode. */
async function allDay(
	browser: Browser,
	simulator: Simulator,
	size: { width: number; height: number },
	kiosk: boolean
): Promise<[string, number]> {
	const page = await open(browser, size);
	await page.goto(simulator.screenUrl('expo', { kiosk }));
	await page.getByRole('status', { name: /^Connection: Connected/ }).waitFor();
	await page.waitForFunction(() => document.querySelectorAll('article[data-order-id]').length > 0);
	if (kiosk) await page.keyboard.press('a');
	else {
		await page.getByRole('button', { name: 'More controls' }).click();
		await page.getByRole('button', { name: 'All Day' }).click();
	}
	await page.getByRole('region', { name: 'All Day' }).waitFor();
	await page.waitForTimeout(500);
	const shot = await save(page, `all-day-${size.width}x${size.height}`);
	await page.context().close();
	return shot;
}

async function tracker(browser: Browser, simulator: Simulator): Promise<[string, number]> {
	const page = await open(browser, { width: 1920, height: 1080 });
	await page.goto(`${simulator.httpUrl}/tracker/loc-1`);
	await page.getByRole('heading', { level: 1, name: 'Demo Kitchen' }).waitFor();
	await page.waitForTimeout(1000);
	const shot = await save(page, 'tracker-1920x1080');
	await page.context().close();
	return shot;
}

async function open(browser: Browser, size: { width: number; height: number }): Promise<Page> {
	const context = await browser.newContext({
		viewport: size,
		locale: 'en-US',
		timezoneId: 'America/Chicago',
		deviceScaleFactor: 1
	});
	return context.newPage();
}

/** The Grill screen: `busy`, the normal view (with the refusal strip), or `kiosk`. */
async function screen(
	browser: Browser,
	simulator: Simulator,
	size: { width: number; height: number },
	view: 'busy' | 'kiosk'
): Promise<[string, number]> {
	const page = await open(browser, size);
	await page.goto(simulator.screenUrl('kds-1', { kiosk: view === 'kiosk' }));
	await page.getByRole('status', { name: /^Connection: Connected/ }).waitFor();
	await page.waitForFunction(() => document.querySelectorAll('article[data-order-id]').length > 0);
	if (view === 'busy')
		await page.getByRole('link', { name: /refused in the last 10 min/ }).waitFor();
	// Fonts, layout passes and the markers' first load.
	await page.waitForTimeout(1000);
	const shot = await save(page, `${view}-${size.width}x${size.height}`);
	await page.context().close();
	return shot;
}

async function inspector(browser: Browser, simulator: Simulator): Promise<[string, number]> {
	const page = await open(browser, { width: 1280, height: 720 });
	await page.goto(`${simulator.httpUrl}/inspector`);
	await page.getByRole('status', { name: 'Message log: Live' }).waitFor();
	// The accepted create of W-88: a warning on its tableColour line.
	await page
		.getByRole('region', { name: 'Messages' })
		.getByRole('row')
		.filter({ hasText: 'W-88' })
		.filter({ has: page.getByLabel('1 warning') })
		.first()
		.click();
	await page.getByRole('region', { name: 'Message details' }).waitFor();
	await page.waitForTimeout(500);
	const shot = await save(page, 'inspector-1280x720');
	await page.context().close();
	return shot;
}

/** A PNG screenshot, re-encoded as WebP by the browser itself. */
async function save(page: Page, name: string): Promise<[string, number]> {
	const png = await page.screenshot({ type: 'png' });
	const encoder = await page.context().newPage();
	const dataUrl = await encoder.evaluate(
		async ({ src, quality }) => {
			const image = new Image();
			image.src = src;
			await image.decode();
			const canvas = document.createElement('canvas');
			canvas.width = image.naturalWidth;
			canvas.height = image.naturalHeight;
			canvas.getContext('2d')!.drawImage(image, 0, 0);
			return canvas.toDataURL('image/webp', quality);
		},
		{ src: `data:image/png;base64,${png.toString('base64')}`, quality: QUALITY }
	);
	await encoder.close();
	if (!dataUrl.startsWith('data:image/webp;base64,'))
		throw new Error('this Chromium cannot encode WebP');
	const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
	const file = join(OUT, `${name}.webp`);
	writeFileSync(file, bytes);
	if (process.argv.includes('--png')) {
		// The encoded image, decoded again, as PNG: for a look with a viewer that reads no WebP.
		const check = await page.context().newPage();
		await check.setViewportSize(page.viewportSize()!);
		await check.setContent(
			`<body style="margin:0"><img src="${dataUrl}" style="display:block"></body>`
		);
		await check.locator('img').evaluate((img: HTMLImageElement) => img.decode());
		mkdirSync(REVIEW, { recursive: true });
		await check.screenshot({ path: join(REVIEW, `${name}.png`) });
		await check.close();
	}
	return [file.slice(ROOT.length), bytes.length];
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
