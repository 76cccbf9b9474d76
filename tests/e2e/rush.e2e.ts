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
import {
	card,
	cards,
	expect,
	parseRgb,
	screenPage,
	startSimulator,
	test
} from '../helpers/fixtures.ts';
import { cancel, create, item, order, ordinaryTickets, rush } from './orders.ts';

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

			// Cancelled: a solid red banner, a header in no timer colour, the timer stopped at the
			// cancel (6 and 9 minutes in) while the others run on.
			for (const [name, stopped] of [
				['Table 15', /^6:0\d$/],
				['Counter 77', /^9:0\d$/]
			] as const) {
				const gone = card(page, name);
				const banner = gone.getByRole('note', { name: 'Cancelled' });
				await expect(banner).toHaveText('✕ Cancelled');
				const [r, g, b] = parseRgb(
					await banner.evaluate((el) => getComputedStyle(el).backgroundColor)
				);
				expect(r, `${name}: banner red`).toBeGreaterThanOrEqual(150);
				expect(Math.max(g, b), `${name}: banner red`).toBeLessThan(60);
				const head = parseRgb(
					await gone.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)
				);
				expect(head, `${name}: header not red`).toEqual([0, 0, 0]);
				await expect(gone.getByRole('timer', { name: /^Stopped at cancel: / })).toHaveText(stopped);
			}
			const before = await card(page, 'Table 15').getByRole('timer').textContent();
			const running = await card(page, 'Table 4').getByRole('timer').textContent();
			await expect(card(page, 'Table 4').getByRole('timer')).not.toHaveText(running!);
			expect(await card(page, 'Table 15').getByRole('timer').textContent()).toBe(before);

			// The re-sent order says how old it is.
			await expect(card(page, 'Walk-in 88').getByLabel(/^Placed .*, 45 min ago$/)).toHaveText(
				/^placed \d{1,2}:\d\d\s[AP]M\s·\s45 min ago$/
			);

			// Headers never mangle: each name on one line; timers, chips and course states whole and
			// inside their card.
			const mangled = await page.evaluate(() => {
				const bad: string[] = [];
				for (const el of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
					const id = el.dataset.orderId;
					const a = el.getBoundingClientRect();
					const title = el.querySelector('h2')!;
					const line = parseFloat(getComputedStyle(title).lineHeight);
					if (title.getBoundingClientRect().height > line * 1.5) bad.push(`${id}: name wraps`);
					for (const part of el.querySelectorAll<HTMLElement>(
						'header .chip, header [role=timer], .course-head > span, .fire-course'
					)) {
						const c = part.getBoundingClientRect();
						const text = part.textContent?.trim();
						if (c.left < a.left - 1 || c.right > a.right + 1)
							bad.push(`${id}: "${text}" past the edge`);
						if (part.scrollWidth > part.clientWidth + 1) bad.push(`${id}: "${text}" cut`);
					}
				}
				return bad;
			});
			expect(mangled).toEqual([]);

			if (size.width === 800) {
				expect(count, 'pages at 800x480').toBeLessThanOrEqual(4);
				const itemPx = await card(page, 'Table 4')
					.locator('.name')
					.first()
					.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
				expect(itemPx, 'item text at 800x480').toBeGreaterThanOrEqual(18);
			} else {
				for (const [p, blank] of blanks.slice(0, -1).entries())
					expect(blank, `page ${p + 1} blank`).toBeLessThanOrEqual(0.2);
			}
		} finally {
			await simulator.close();
		}
	});
}

test('800x480 kiosk: ten ordinary tickets (a modifier on the first item) show five or more whole on page 1, in two pages', async ({
	page,
	simulator
}) => {
	await page.setViewportSize({ width: 800, height: 480 });
	for (const o of ordinaryTickets(10)) await simulator.sendTcp('kds-1', o);
	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	await expect(cards(page)).toHaveCount(10);
	await expect(card(page, 'Guest 1')).toContainText('No onion');
	await expect(page.getByLabel('Page 1 of 2')).toBeVisible();
	await expect.poll(async () => (await shown(page)).whole.length).toBeGreaterThanOrEqual(5);
	expect((await shown(page)).cut).toEqual([]);
});

test('the selection never leaves the page in view: arrows turn the page with it, a page turned away from it drops it', async ({
	page
}) => {
	const clock = offsetClock(0);
	const simulator = await startSimulator({ clock });
	try {
		const orders = rush();
		for (const o of [...orders.early, ...orders.warm, ...orders.fresh, ...orders.after])
			await simulator.sendTcp('kds-1', o);
		await page.setViewportSize({ width: 1280, height: 720 });
		await screenPage(page, simulator, 'kds-1');
		await expect(cards(page)).toHaveCount(20);
		const selected = page.locator('article[data-selected]').first();
		// Through every card with the bump bar's arrow: the selected card is always in view.
		for (let i = 0; i < 20; i++) {
			await page.keyboard.press('ArrowRight');
			// (A part of a pixel may round past the board's edge.)
			await expect(selected).toBeInViewport({ ratio: 0.99 });
		}
		// Back to page 1 with the selection on the last page: nothing is selected, Enter bumps nothing.
		await page.keyboard.press('PageUp');
		await expect(page.getByLabel(/^Page 2 of \d$/)).toBeVisible();
		await expect(page.locator('article[data-selected]')).toHaveCount(0);
		await page.keyboard.press('Enter');
		await expect(page.getByRole('alert')).toHaveText('No card selected');
		await expect(cards(page)).toHaveCount(20);
	} finally {
		await simulator.close();
	}
});

test('a cancel: a red toast names the order and shows its page; the takeout view says Cancelled', async ({
	page,
	simulator
}) => {
	await page.setViewportSize({ width: 800, height: 480 });
	for (const o of ordinaryTickets(10)) await simulator.sendTcp('kds-1', o);
	await simulator.sendTcp(
		'kds-1',
		create(
			order('TG-1', 'Dana', [item('1', 'Iced Latte', { mods: [{ name: 'Oat milk' }] })], {
				mode: 'ToGo'
			})
		)
	);
	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	await expect(cards(page)).toHaveCount(11);
	const dana = card(page, 'Dana');
	await expect(dana).not.toBeInViewport();
	await simulator.sendTcp('kds-1', cancel('TG-1'));
	const toast = page.getByRole('button', { name: 'Cancelled: Dana. Show' });
	await expect(toast).toBeVisible();
	const [r, g, b] = parseRgb(await toast.evaluate((el) => getComputedStyle(el).backgroundColor));
	expect(r).toBeGreaterThanOrEqual(150);
	expect(Math.max(g, b)).toBeLessThan(60);
	await toast.click();
	await expect(toast).toHaveCount(0);
	await expect(dana).toBeInViewport({ ratio: 0.99 });
	await expect(dana).toHaveAttribute('data-selected', '');
	await expect(dana.getByRole('note', { name: 'Cancelled' })).toBeVisible();
	// The Take Out view: labelled, and no "Ready for pickup" step.
	await page.getByRole('button', { name: 'Takeout' }).click();
	const row = page.getByRole('region', { name: 'Takeout' }).getByRole('listitem', { name: 'Dana' });
	await expect(row.getByRole('note', { name: 'Cancelled' })).toHaveText('✕ Cancelled');
	await expect(row.getByRole('button', { name: 'Ready for pickup' })).toHaveCount(0);
});

/**
 * The cancel toasts take a strip of their own below the cards (CancelToasts.svelte): drawn over
 * the board, two of them hid the last lines of the cards under them for 12 s at 800×480, and a
 * tap there landed on a toast. With two shown, at both kiosk panel sizes, no card in the window
 * is under a toast: no box meets a toast's, and at the card's corners and the middle of its foot
 * the card itself is what a touch there hits.
 */
test('two cancel toasts at 800x480 and 1024x600 kiosk cover no card: a strip of their own', async ({
	page,
	simulator
}) => {
	await page.setViewportSize({ width: 800, height: 480 });
	// Tall tickets first: each fills its column to the foot of the board and continues, so at
	// both sizes a card reaches down to where the toasts once were.
	const dishes = ['Cheeseburger', 'Fries', 'Caesar Salad', 'Club Sandwich', 'Tomato Soup', 'Cola'];
	for (let n = 1; n <= 4; n++)
		await simulator.sendTcp(
			'kds-1',
			create(
				order(
					`T-${n}`,
					`Table ${n}`,
					Array.from({ length: 10 }, (_, i) =>
						item(String(i + 1), dishes[(n + i) % dishes.length], {
							mods: i % 2 ? [] : [{ name: 'No onion' }]
						})
					)
				)
			)
		);
	for (const o of ordinaryTickets(6)) await simulator.sendTcp('kds-1', o);
	for (const [id, name] of [
		['C-1', 'Eli'],
		['C-2', 'Fay']
	])
		await simulator.sendTcp('kds-1', create(order(id, name, [item('1', 'Flat White')])));
	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	await expect(page.locator('article[data-order-id="C-2"]')).toHaveCount(1);
	await simulator.sendTcp('kds-1', cancel('C-1'));
	await simulator.sendTcp('kds-1', cancel('C-2'));
	const toasts = page.getByRole('button', { name: /^Cancelled: .*\. Show$/ });
	await expect(toasts).toHaveCount(2);

	for (const size of [
		{ width: 800, height: 480 },
		{ width: 1024, height: 600 }
	]) {
		await test.step(`${size.width}x${size.height}`, async () => {
			await page.setViewportSize(size);
			await page.evaluate(
				() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
			);
			mkdirSync(SHOTS, { recursive: true });
			await page.screenshot({
				path: join(SHOTS, `cancel-toasts-${size.width}x${size.height}.png`)
			});
			const found = await page.evaluate(() => {
				const toasts = [
					...document.querySelectorAll<HTMLElement>('button[aria-label^="Cancelled: "]')
				].map((t) => t.getBoundingClientRect());
				const covered: string[] = [];
				let checked = 0;
				for (const el of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
					const r = el.getBoundingClientRect();
					// Cards on the other pages are slid out of the window.
					if (r.right <= 1 || r.left >= innerWidth - 1) continue;
					checked++;
					const name = `${el.dataset.orderId} part ${el.dataset.partIndex ?? 0}`;
					for (const t of toasts)
						if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
							covered.push(`${name}: box under a toast`);
					const inset = 10;
					for (const [x, y] of [
						[r.left + inset, r.top + inset],
						[r.right - inset, r.top + inset],
						[r.left + inset, r.bottom - inset],
						[r.right - inset, r.bottom - inset],
						[(r.left + r.right) / 2, r.bottom - inset]
					]) {
						const hit = document.elementFromPoint(x, y);
						if (hit?.closest('article[data-order-id]') !== el)
							covered.push(`${name}: (${x}, ${y}) hits ${hit?.outerHTML.slice(0, 80)}`);
					}
				}
				const outside = toasts.filter(
					(t) => t.top < 0 || t.bottom > innerHeight || t.left < 0 || t.right > innerWidth
				).length;
				return { covered, checked, outside, toasts: toasts.length };
			});
			expect(found.toasts, 'both toasts drawn').toBe(2);
			expect(found.outside, 'toasts inside the window').toBe(0);
			expect(found.checked, 'cards in the window checked').toBeGreaterThanOrEqual(3);
			expect(found.covered).toEqual([]);
		});
	}

	// Each toast still shows its card; once both are gone the cards have the room back.
	const fay = card(page, 'Fay');
	await page.getByRole('button', { name: 'Cancelled: Fay. Show' }).click();
	await expect(fay).toBeInViewport({ ratio: 0.99 });
	await expect(fay).toHaveAttribute('data-selected', '');
	await expect(toasts).toHaveCount(1);
	await page.getByRole('button', { name: 'Cancelled: Eli. Show' }).click();
	await expect(card(page, 'Eli')).toHaveAttribute('data-selected', '');
	await expect(page.getByTestId('cancel-toasts')).toHaveCount(0);
});
