/**
 * Where the screen's short notices ("No card 9 on this page", "Not connected: bump not sent")
 * and "Bumped … — Undo" are drawn: at every panel size, kiosk or not, never over what a cook
 * needs: the connection status, the page controls, any card (a tap on a card's last line once
 * landed on Undo). (At the top of the screen the notice
 * once covered the header's "Reconnecting…" at 800×480 and 720×1280.) Screenshots of each are
 * left in test-results/screenshots/notice-*.png.
 */
import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import {
	cards,
	expect,
	expectConnection,
	screenPage,
	startSimulator,
	test
} from '../helpers/fixtures.ts';
import { busyScreen } from './orders.ts';

const SIZES = [
	{ width: 1920, height: 1080 },
	{ width: 1280, height: 720 },
	{ width: 1024, height: 600 },
	{ width: 800, height: 480 },
	{ width: 720, height: 1280 }
];

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

/** Eight cards of different heights: fewer than nine on the first page at every size. */
const CARD_COUNT = 8;

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
	return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The boxes of the elements `locator` finds that are drawn in the window, each named by its
 * accessible label or text (one round trip: the notice lasts 4 s).
 */
async function visibleBoxes(locator: Locator): Promise<{ name: string; box: Box }[]> {
	return locator.evaluateAll((elements) =>
		elements
			.map((element) => {
				const r = element.getBoundingClientRect();
				const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
				return { name: name.trim(), box: { x: r.x, y: r.y, width: r.width, height: r.height } };
			})
			.filter(
				({ box }) =>
					box.width > 0 &&
					box.height > 0 &&
					box.x < window.innerWidth &&
					box.x + box.width > 0 &&
					box.y < window.innerHeight &&
					box.y + box.height > 0
			)
	);
}

/** Two frames: the layout after a resize or a key press has been drawn. */
async function settled(page: Page): Promise<void> {
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
	);
}

/**
 * The notice with `text` shows after `key` (a screenshot of it goes to `shot`) and covers none of: the
 * connection status, the page controls, any visible card's title, timer or bump button.
 * Returns the names of what it was checked against.
 */
async function expectNoticeCoversNothing(
	page: Page,
	key: string | null,
	text: string,
	shot: string,
	notice: Locator = page.getByRole('alert').filter({ hasText: text })
): Promise<string[]> {
	await expect(notice).toBeVisible();
	const [box] = await visibleBoxes(notice);
	expect(box, 'the notice is drawn in the window').toBeDefined();
	const [status] = await visibleBoxes(page.getByRole('status', { name: /^Connection:/ }));
	expect(status, 'the connection status is drawn in the window').toBeDefined();
	expect(
		overlaps(box.box, status.box),
		`notice ${JSON.stringify(box.box)} over the connection status ${JSON.stringify(status.box)}`
	).toBe(false);
	const needed = [
		status,
		...(await visibleBoxes(
			page.getByRole('button', { name: /^(Previous|Next) page$|more orders/ })
		)),
		...(await visibleBoxes(page.getByLabel(/^Page \d+ of \d+$/))),
		// Any card at all (a tap on a card's last line must never land on a notice or Undo).
		...(await visibleBoxes(cards(page))),
		...(await visibleBoxes(cards(page).getByRole('heading', { level: 2 }))),
		...(await visibleBoxes(cards(page).getByRole('timer'))),
		...(await visibleBoxes(cards(page).getByRole('button', { name: /^Bump / })))
	];
	const covered = needed.filter((n) => overlaps(box.box, n.box)).map((n) => n.name);
	expect(covered, `notice ${JSON.stringify(box.box)} covers`).toEqual([]);
	// The picture: the key again (the notice shows 4 s from the last press; a loaded machine's
	// screenshot can take a second or two).
	if (key !== null) await page.keyboard.press(key);
	await expect(notice).toBeVisible();
	await page.screenshot({ path: join(SHOTS, shot) });
	return needed.map((n) => n.name);
}

for (const kiosk of [false, true]) {
	const mode = kiosk ? 'kiosk' : 'screen';
	test(`${mode}: both notices and Undo at five sizes cover neither the connection status, the pages nor any card`, async ({
		page
	}) => {
		test.setTimeout(120_000);
		const simulator = await startSimulator();
		try {
			await screenPage(page, simulator, 'kds-1', { kiosk });
			const orders = busyScreen();
			const all = [...orders.early, ...orders.warm, ...orders.fresh, ...orders.after];
			for (const o of all.slice(0, CARD_COUNT)) await simulator.sendTcp('kds-1', o);
			await expect(cards(page)).toHaveCount(CARD_COUNT);

			for (const size of SIZES) {
				await test.step(`connected, ${size.width}x${size.height}: 9 names no card`, async () => {
					await page.setViewportSize(size);
					await settled(page);
					await page.keyboard.press('9');
					const checked = await expectNoticeCoversNothing(
						page,
						'9',
						'No card 9 on this page',
						`notice-no-card-${mode}-${size.width}x${size.height}.png`
					);
					// The check saw the status and the cards: not an empty test.
					expect(checked.length).toBeGreaterThan(CARD_COUNT / 2);
					await expect(cards(page)).toHaveCount(CARD_COUNT);
				});
				await test.step(`connected, ${size.width}x${size.height}: Undo after a bump`, async () => {
					const first = cards(page).first();
					const title = (await first.getByRole('heading', { level: 2 }).textContent())!.trim();
					await first.getByRole('button', { name: /^Bump / }).click();
					await expect(cards(page)).toHaveCount(CARD_COUNT - 1);
					const undo = page.getByRole('status', { name: `Bumped ${title}` });
					await settled(page);
					const checked = await expectNoticeCoversNothing(
						page,
						null,
						`Bumped ${title}`,
						`notice-undo-${mode}-${size.width}x${size.height}.png`,
						undo
					);
					expect(checked.length).toBeGreaterThan(CARD_COUNT / 2);
					await undo.getByRole('button', { name: 'Undo' }).click();
					await expect(cards(page)).toHaveCount(CARD_COUNT);
					await expect(undo).toBeHidden();
				});
			}

			await simulator.close();
			await expectConnection(page, 'Reconnecting');
			for (const size of SIZES) {
				await test.step(`agent down, ${size.width}x${size.height}: a bump is not sent`, async () => {
					await page.setViewportSize(size);
					await settled(page);
					await page.keyboard.press('1');
					await expectNoticeCoversNothing(
						page,
						'1',
						'Not connected: bump not sent',
						`notice-not-connected-${mode}-${size.width}x${size.height}.png`
					);
					// Reconnecting…, or Offline once the retries give up for a while.
					await expect(
						page.getByRole('status', { name: /^Connection: (Reconnecting|Offline)$/ })
					).toBeVisible();
					await expect(cards(page)).toHaveCount(CARD_COUNT);
				});
			}
		} finally {
			await simulator.close();
		}
	});
}
