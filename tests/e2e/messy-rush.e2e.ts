/**
 * The line can trust the screen (issue 47), with the messy twenty-order rush of orders.ts
 * `messyRush()` (modifiers on half the items, a 15-item order, a coursed party with a nut allergy
 * on a held course, emails, URLs and delivery ids in the notes, CJK and emoji, an update, two
 * cancels, a scheduled order) with the unbroken-string order among them, and that order alone
 * beside a plain one, at 800x480 and 1024x600 kiosk,
 * 1280x720, 1920x1080 and 1080x1920, page by page:
 *
 * - bump numbers: the parts on a page are numbered 1…n in reading order, two parts of one ticket
 *   on a page share a number, and pressing each digit key bumps the ticket whose card shows it;
 * - a continued part that starts inside a course repeats the course's heading with its state;
 * - no text box extends past its card, none is cut;
 * - the allergy line is bold white on bright red, a "no …" bold on a calmer dark red.
 *
 * Screenshots of every page go to test-results/screenshots/messy-<size>-p<n>.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { cards, expect, parseRgb, screenPage, startSimulator, test } from '../helpers/fixtures.ts';
import { create, item, messyRush, order, unbrokenOrder } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

const SIZES = [
	{ width: 800, height: 480, kiosk: true },
	{ width: 1024, height: 600, kiosk: true },
	{ width: 1280, height: 720, kiosk: false },
	{ width: 1920, height: 1080, kiosk: false },
	{ width: 1080, height: 1920, kiosk: false }
];

interface DrawnPart {
	id: string;
	part: number;
	number: string;
	left: number;
	top: number;
}

/** The cards and parts drawn on the page in view, with the number on each. */
async function drawn(page: Page): Promise<DrawnPart[]> {
	return page.evaluate(() => {
		const board = document.querySelector('main .viewport')!.getBoundingClientRect();
		const out: DrawnPart[] = [];
		for (const el of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.right <= board.left + 1 || r.left >= board.right - 1) continue;
			out.push({
				id: el.dataset.orderId!,
				part: Number(el.dataset.partIndex ?? 0),
				number: el.querySelector('button.bump')?.textContent?.trim() ?? '',
				left: Math.round(r.left),
				top: Math.round(r.top)
			});
		}
		return out.sort((a, b) => a.left - b.left || a.top - b.top);
	});
}

/** The page in view once its layout stands still (two reads 300 ms apart agree). */
async function settled(page: Page): Promise<DrawnPart[]> {
	let last = '';
	let parts: DrawnPart[] = [];
	await expect
		.poll(
			async () => {
				parts = await drawn(page);
				const now = JSON.stringify(parts);
				const same = now === last;
				last = now;
				return same;
			},
			{ intervals: [300], timeout: 15_000 }
		)
		.toBe(true);
	return parts;
}

/**
 * The numbers of a page read in reading order: 1, 2, … with no gap; a ticket's parts on the page
 * share one number, and no two tickets share one. Returns the ticket showing each number.
 */
function expectNumbered(parts: DrawnPart[], where: string): string[] {
	const byNumber: string[] = [];
	for (const p of parts) {
		expect(p.number, `${where}: ${p.id} part ${p.part} shows a number`).toMatch(/^\d+$/);
		const n = Number(p.number);
		const known = byNumber.indexOf(p.id);
		if (known >= 0) {
			expect(n, `${where}: ${p.id}'s parts share a number`).toBe(known + 1);
			continue;
		}
		expect(n, `${where}: ${p.id} numbered in reading order after ${byNumber.join(', ')}`).toBe(
			byNumber.length + 1
		);
		byNumber.push(p.id);
	}
	return byNumber;
}

/** Text boxes that extend past their card, or are cut inside it (an ellipsis by design aside). */
async function textOutside(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const board = document.querySelector('main .viewport')!.getBoundingClientRect();
		const bad: string[] = [];
		for (const card of document.querySelectorAll<HTMLElement>('article[data-order-id]')) {
			const a = card.getBoundingClientRect();
			if (a.width === 0 || a.right <= board.left + 1 || a.left >= board.right - 1) continue;
			const id = `${card.dataset.orderId}#${card.dataset.partIndex ?? 0}`;
			const boxes = card.querySelectorAll<HTMLElement>(
				'.name, .mod, .instructions, .seat, .info > div, .info span, .info b, .group-name, .group-note, .course-head, .course-head > *, .chip, [role=timer], .cont-next, .banner'
			);
			for (const box of boxes) {
				const r = box.getBoundingClientRect();
				if (r.width === 0) continue;
				const text = (box.textContent ?? '').trim().slice(0, 40);
				if (r.left < a.left - 1 || r.right > a.right + 1)
					bad.push(`${id}: "${text}" past the card's edge`);
				const style = getComputedStyle(box);
				const ellipsis = style.textOverflow === 'ellipsis';
				if (!ellipsis && box.scrollWidth > box.clientWidth + 1 && style.display !== 'inline')
					bad.push(`${id}: "${text}" cut`);
			}
			// A letter (or a few) a line: text that wraps yet takes under 40% of the card's width.
			for (const box of card.querySelectorAll<HTMLElement>(
				'.name > span:not(.seat), .mod, .instructions, .info > div, .group-name, .group-note'
			)) {
				const r = box.getBoundingClientRect();
				const lines = r.height / parseFloat(getComputedStyle(box).lineHeight);
				if (r.width > 0 && lines > 1.5 && r.width < a.width * 0.4)
					bad.push(`${id}: "${(box.textContent ?? '').trim().slice(0, 40)}" squeezed`);
			}
			if (
				card.querySelector('.more') &&
				getComputedStyle(card.querySelector('.more')!).display !== 'none'
			)
				bad.push(`${id}: shows a scroll hint`);
		}
		return bad;
	});
}

/**
 * Continued parts on the page in view: each that starts inside a course shows the course's
 * heading (and state) on top; no item is cut between parts; "cont." says where the rest is, at
 * least at the modifiers' size. Returns what is wrong, and how many parts start inside a course.
 */
async function continuedContext(page: Page): Promise<{ bad: string[]; headed: number }> {
	return page.evaluate(() => {
		const board = document.querySelector('main .viewport')!.getBoundingClientRect();
		const bad: string[] = [];
		let headed = 0;
		for (const el of document.querySelectorAll<HTMLElement>('article[data-part-index]')) {
			const a = el.getBoundingClientRect();
			if (a.width === 0 || a.right <= board.left + 1 || a.left >= board.right - 1) continue;
			const id = `${el.dataset.orderId}#${el.dataset.partIndex}`;
			const w = el.querySelector<HTMLElement>('[data-card-body]')!.getBoundingClientRect();
			const lis = [...el.querySelectorAll<HTMLElement>('li')];
			for (const li of lis) {
				const r = li.getBoundingClientRect();
				const inside = r.top >= w.top - 1 && r.bottom <= w.bottom + 1;
				const outside = r.bottom <= w.top + 1 || r.top >= w.bottom - 1;
				// (An item taller than the window cannot be whole: cut between its lines of text.)
				if (!inside && !outside && r.height < w.height)
					bad.push(`${id}: "${li.getAttribute('aria-label')}" cut`);
			}
			const cont = el.querySelector<HTMLElement>('.cont-next');
			if (cont) {
				if (!/^cont\. (next column|on page \d+) →$/.test(cont.textContent!.trim()))
					bad.push(`${id}: "${cont.textContent}" does not say where the rest is`);
				const mod = el.querySelector<HTMLElement>('.mod');
				if (
					mod &&
					parseFloat(getComputedStyle(cont).fontSize) < parseFloat(getComputedStyle(mod).fontSize)
				)
					bad.push(`${id}: "cont." smaller than a modifier`);
			}
			if (el.dataset.partIndex === '0') continue;
			const first = lis.find((li) => li.getBoundingClientRect().top >= w.top - 1);
			const section = first?.closest<HTMLElement>('section[data-section]');
			if (!first || !section) continue;
			const own = section.querySelector<HTMLElement>('.course-head')!;
			if (own.getBoundingClientRect().top >= w.top - 1) continue; // its heading is in the window
			headed++;
			const repeated = el.querySelector<HTMLElement>('[data-cont-head]');
			const want = own.textContent!.replace(/\s+/g, ' ').trim();
			if (!repeated) bad.push(`${id}: starts inside "${want}" with no heading`);
			else if (repeated.textContent!.replace(/\s+/g, ' ').trim() !== want)
				bad.push(`${id}: heading "${repeated.textContent}" is not "${want}"`);
		}
		return { bad, headed };
	});
}

for (const size of SIZES) {
	const label = `${size.width}x${size.height}`;
	test(`the messy rush at ${label}${size.kiosk ? ' kiosk' : ''}: numbers in reading order, each key bumps the card showing it, text inside the cards`, async ({
		page
	}) => {
		test.setTimeout(240_000);
		const clock = offsetClock(-9 * 60_000);
		const simulator = await startSimulator({ clock });
		try {
			const orders = messyRush();
			for (const o of orders.early) await simulator.sendTcp('kds-1', o);
			clock.offset = -6 * 60_000;
			for (const o of orders.warm) await simulator.sendTcp('kds-1', o);
			clock.offset = 0;
			for (const o of [...orders.fresh, ...orders.after]) await simulator.sendTcp('kds-1', o);
			// The unbroken-string order arrives in the rush too: its parts are numbered with the rest.
			await simulator.sendTcp('kds-1', unbrokenOrder());
			await page.setViewportSize(size);
			await page.goto(simulator.screenUrl('kds-1', { kiosk: size.kiosk }));
			await expect(cards(page)).toHaveCount(21);
			await expect(
				page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
			).toHaveCount(0, { timeout: 20_000 });

			const pageLabel = page.getByLabel(/^Page \d+ of \d+$/);
			// (The count is read again on each page: a recalled card's chip can move the cards.)
			const pages = async () =>
				Number(/of (\d+)/.exec((await pageLabel.getAttribute('aria-label')) ?? '')![1]);
			let count = await pages();
			mkdirSync(SHOTS, { recursive: true });
			let headed = 0;
			for (let p = 0; p < count; p++, count = await pages()) {
				const where = `${label} page ${p + 1}`;
				if (p > 0) {
					await page.keyboard.press('PageDown');
					await expect(page.getByLabel(new RegExp(`^Page ${p + 1} of \\d+$`))).toBeVisible();
				}
				const numbered = expectNumbered(await settled(page), where);
				await page.screenshot({ path: join(SHOTS, `messy-${label}-p${p + 1}.png`) });
				expect(await textOutside(page), `${where}: text outside its card`).toEqual([]);
				const context = await continuedContext(page);
				expect(context.bad, `${where}: continued parts`).toEqual([]);
				headed += context.headed;

				// Each digit key bumps the ticket whose card shows that number (R recalls it after).
				for (let n = 1; n <= Math.min(9, numbered.length); n++) {
					const now = expectNumbered(await settled(page), `${where} before ${n}`);
					if (n > now.length) break;
					const target = page.locator(`article[data-order-id="${now[n - 1]}"]`);
					await page.keyboard.press(String(n));
					await expect(target, `${where}: key ${n} bumps ${now[n - 1]}`).toHaveCount(0);
					await expect(cards(page)).toHaveCount(20);
					await page.keyboard.press('r');
					await expect(cards(page)).toHaveCount(21);
					// A bump that emptied the last page showed the page before: back to this one.
					await expect(async () => {
						const shown = Number(
							/^Page (\d+)/.exec((await pageLabel.getAttribute('aria-label'))!)![1]
						);
						if (shown < p + 1) await page.keyboard.press('PageDown');
						await expect(page.getByLabel(new RegExp(`^Page ${p + 1} of \\d+$`))).toBeVisible({
							timeout: 1000
						});
					}).toPass({ timeout: 15_000 });
				}
			}
			console.log(`${label}: ${count} pages, ${headed} continued parts headed by their course`);

			// Allergies and "no …" stand out: bold white on red, never dimmed (the nut allergy is on a
			// held course); modifiers at least 85% of the item's size.
			const party = page.locator('article[data-order-id="P-10"]:not([aria-hidden])');
			for (const text of ['Nut allergy', 'No nuts, no sesame: severe allergy (seat 4)']) {
				const line = party.locator('.instructions', { hasText: text });
				const look = await line.evaluate((el) => {
					let opacity = 1;
					for (let e: Element | null = el; e; e = e.parentElement)
						opacity *= Number(getComputedStyle(e).opacity);
					const s = getComputedStyle(el);
					return { bg: s.backgroundColor, color: s.color, weight: Number(s.fontWeight), opacity };
				});
				const [r, g, b] = parseRgb(look.bg);
				expect(r, `${text}: red`).toBeGreaterThanOrEqual(150);
				expect(Math.max(g, b), `${text}: red`).toBeLessThan(60);
				expect(parseRgb(look.color), `${text}: white`).toEqual([255, 255, 255]);
				expect(look.weight, `${text}: bold`).toBeGreaterThanOrEqual(700);
				expect(look.opacity, `${text}: not dimmed`).toBe(1);
			}
			// A "no …" naming no allergen is bold on a dark red: calmer than the allergy, so a card of
			// "no …" modifiers does not drown it (docs/screens.md#alerts).
			const noOnion = page.locator('article[data-order-id="T-7"] .mod', { hasText: 'No onion' });
			const calm = await noOnion.evaluate((el) => {
				const s = getComputedStyle(el);
				return { bg: s.backgroundColor, weight: Number(s.fontWeight) };
			});
			const [cr, cg, cb] = parseRgb(calm.bg);
			expect(cr, 'No onion: on red').toBeGreaterThanOrEqual(100);
			expect(Math.max(cg, cb), 'No onion: on red').toBeLessThan(50);
			expect(cr, 'No onion: a darker red than the allergy').toBeLessThan(150);
			expect(calm.weight, 'No onion: bold').toBeGreaterThanOrEqual(700);
			// Nor dimmed on a held course ("No basil" on the party's Lasagna, course 2 on hold).
			const noBasil = party.locator('.mod', { hasText: 'No basil' });
			await expect(noBasil).toHaveAttribute('data-alert', 'caution');
			expect(
				await noBasil.evaluate((el) => {
					let opacity = 1;
					for (let e: Element | null = el; e; e = e.parentElement)
						opacity *= Number(getComputedStyle(e).opacity);
					return opacity;
				}),
				'No basil: not dimmed'
			).toBe(1);
			const plain = page.locator('article[data-order-id="T-7"] .mod', { hasText: 'Medium' });
			expect(await plain.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
				'rgba(0, 0, 0, 0)'
			);
			const ratio = await page
				.locator('article[data-order-id="T-7"] li')
				.first()
				.evaluate(
					(li) =>
						parseFloat(getComputedStyle(li.querySelector('.mod')!).fontSize) /
						parseFloat(getComputedStyle(li.querySelector('.name')!).fontSize)
				);
			expect(ratio, 'modifier size / item size').toBeGreaterThanOrEqual(0.85);
		} finally {
			await simulator.close();
		}
	});
}

for (const size of SIZES) {
	const label = `${size.width}x${size.height}`;
	test(`an order of long unbroken strings at ${label}${size.kiosk ? ' kiosk' : ''}: wrapped inside its card, no letter a line, no more room than its words need`, async ({
		page,
		simulator
	}) => {
		await page.setViewportSize(size);
		await simulator.sendTcp('kds-1', unbrokenOrder());
		await simulator.sendTcp(
			'kds-1',
			create(order('N-1', 'Guest 1', [item('1', 'Cheeseburger', { mods: [{ name: 'No onion' }] })]))
		);
		await screenPage(page, simulator, 'kds-1', { kiosk: size.kiosk });
		await expect(cards(page)).toHaveCount(2);
		await expect(
			page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
		).toHaveCount(0, { timeout: 20_000 });
		await settled(page);
		mkdirSync(SHOTS, { recursive: true });
		await page.screenshot({ path: join(SHOTS, `unbroken-${label}.png`) });
		expect(await textOutside(page), 'text outside its card').toEqual([]);
		expect((await continuedContext(page)).bad, 'continued parts').toEqual([]);
		const drawn = await page.evaluate(() => {
			const parts = [
				...document.querySelectorAll<HTMLElement>('article[data-order-id="UNBROKEN-1"]')
			];
			const first = parts[0];
			const card = first.getBoundingClientRect();
			const body = first.querySelector('[data-card-body]')!.getBoundingClientRect();
			const lines = first.querySelector('[data-lines]')!.getBoundingClientRect();
			const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
			// Text squeezed (a letter a line, or a column beside it): a box of text that wraps to more
			// than one line yet is far narrower than the card (the seat chip once took a column beside
			// the modifiers and instructions, wrapping them in half the card's width).
			const squeezed: string[] = [];
			for (const box of first.querySelectorAll<HTMLElement>(
				'.name > span:not(.seat), .mod, .instructions, .info > div'
			)) {
				const text = box.textContent!.trim();
				const r = box.getBoundingClientRect();
				const wraps = r.height > 1.5 * parseFloat(getComputedStyle(box).lineHeight);
				if (
					text.length > 12 &&
					(r.width < card.width * 0.5 || (wraps && r.width < card.width * 0.7))
				)
					squeezed.push(
						`${text.slice(0, 30)} (${Math.round(r.width)} of ${Math.round(card.width)} px)`
					);
			}
			return {
				parts: parts.length,
				pages: Number(
					/of (\d+)/.exec(
						document.querySelector('[aria-label^="Page "]')?.getAttribute('aria-label') ?? ''
					)?.[1] ?? 1
				),
				heightRem: (card.height - body.height + lines.height) / rem,
				estimateRem: parseFloat(first.style.getPropertyValue('--card-estimate')),
				squeezed
			};
		});
		console.log(`${label}: unbroken order`, JSON.stringify(drawn));
		expect(drawn.squeezed, 'text boxes squeezed narrow').toEqual([]);
		expect(drawn.pages, 'pages').toBeLessThanOrEqual(2);
		// No more room than its words need: the lines the words take (core card-estimate.ts), within 25%.
		expect(drawn.heightRem).toBeLessThanOrEqual(drawn.estimateRem * 1.25);
		expect(drawn.heightRem).toBeGreaterThanOrEqual(drawn.estimateRem * 0.75);

		// All Day: the unbroken names and modifiers wrap inside their column (the modifiers once ran
		// over the next column at 1920x1080).
		await page.keyboard.press('a');
		const counts = page.getByRole('list', { name: 'All Day counts' });
		await expect(counts).toBeVisible();
		await page.screenshot({ path: join(SHOTS, `unbroken-allday-${label}.png`) });
		const overColumn = await counts.evaluate((list) => {
			const bad: string[] = [];
			for (const line of list.querySelectorAll<HTMLElement>(':scope > li')) {
				const box = line.getBoundingClientRect();
				for (const e of line.querySelectorAll<HTMLElement>('*')) {
					const r = e.getBoundingClientRect();
					if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1))
						bad.push((e.textContent ?? '').trim().slice(0, 40));
				}
			}
			return bad;
		});
		expect(overColumn, 'All Day: text past its column').toEqual([]);
		await page.keyboard.press('a');

		// The Takeout view's tile: the delivery id wraps inside it too (it once ran past the tile
		// into the next one at 1080x1920).
		await page.getByRole('button', { name: /^Takeout/ }).click();
		const tile = page
			.getByRole('region', { name: 'Takeout' })
			.locator('li[data-order-id="UNBROKEN-1"]');
		await expect(tile).toBeVisible();
		await page.screenshot({ path: join(SHOTS, `unbroken-takeout-${label}.png`) });
		const overflowing = await tile.evaluate((li) =>
			[li, ...li.querySelectorAll<HTMLElement>('*')]
				.filter((e) => getComputedStyle(e).textOverflow !== 'ellipsis')
				.filter((e) => e.scrollWidth > e.clientWidth + 1)
				.map((e) => (e.textContent ?? '').trim().slice(0, 40))
		);
		expect(overflowing, 'Takeout: text past its tile').toEqual([]);
	});
}

test('a part carried over to the next page is selected by a tap there and bumped by Enter', async ({
	page
}) => {
	const clock = offsetClock(0);
	const simulator = await startSimulator({ clock });
	try {
		const orders = messyRush();
		for (const o of [...orders.early, ...orders.warm, ...orders.fresh, ...orders.after])
			await simulator.sendTcp('kds-1', o);
		await page.setViewportSize({ width: 1024, height: 600 });
		await page.goto(simulator.screenUrl('kds-1', { kiosk: true }));
		await expect(cards(page)).toHaveCount(20);
		await expect(
			page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
		).toHaveCount(0, { timeout: 20_000 });
		// Turn pages until one starts with a part whose ticket starts on the page before.
		let carried: string | null = null;
		for (let p = 1; p < 8 && carried === null; p++) {
			await page.keyboard.press('PageDown');
			await expect(page.getByLabel(new RegExp(`^Page ${p + 1} of \\d+$`))).toBeVisible();
			const parts = await settled(page);
			carried =
				parts.find((x) => x.part > 0 && !parts.some((y) => y.id === x.id && y.part === 0))?.id ??
				null;
		}
		expect(carried, 'a ticket carried over to a later page').not.toBeNull();
		const part = page.locator(`article[data-order-id="${carried}"][data-part-index]`).filter({
			has: page.locator('button.bump', { hasText: /^1$/ })
		});
		await part.locator('h2').click();
		await expect(
			page.locator(`article[data-order-id="${carried}"][data-selected]`).first()
		).toBeAttached();
		await page.keyboard.press('Enter');
		await expect(page.locator(`article[data-order-id="${carried}"]`)).toHaveCount(0);
		await expect(cards(page)).toHaveCount(19);
	} finally {
		await simulator.close();
	}
});
