/**
 * A tap selects a card without moving the board (issue 47's walk): a selected card shows its
 * name and values in full, wrapped, drawn over the card from its top, while the card keeps its
 * box, so no ticket jumps to the next page ("Christopher" on page 3 of the messy rush at 800×480
 * once did). The messy rush with the unbroken-string order (a long unbroken name) at 800×480
 * kiosk: on every page the last card is tapped, and on the unbroken order's page its card. The
 * screenshots go to test-results/screenshots/select-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { cards, expect, startSimulator, test } from '../helpers/fixtures.ts';
import { messyRush, unbrokenOrder } from './orders.ts';

const SHOTS = join(process.cwd(), 'test-results', 'screenshots');

/** Every card's and part's box on the board (the board's articles), keyed by order and part. */
async function boxes(page: Page): Promise<Record<string, string>> {
	return page.evaluate(() => {
		const out: Record<string, string> = {};
		for (const el of document.querySelectorAll<HTMLElement>('main article[data-order-id]')) {
			const r = el.getBoundingClientRect();
			out[`${el.dataset.orderId}#${el.dataset.partIndex ?? 0}`] =
				`${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
		}
		return out;
	});
}

/** Two frames: whatever the tap re-laid out has been drawn. */
async function frames(page: Page): Promise<void> {
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
	);
}

/** The cards whose left edge is inside the board, in reading order (columns, then top). */
async function onPage(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const board = document.querySelector('main .viewport')!.getBoundingClientRect();
		return [...document.querySelectorAll<HTMLElement>('main article[data-order-id]')]
			.map((el) => ({ el, r: el.getBoundingClientRect() }))
			.filter(({ r }) => r.width > 0 && r.left >= board.left - 1 && r.left < board.right - 1)
			.sort((a, b) => a.r.left - b.r.left || a.r.top - b.r.top)
			.map(({ el }) => `${el.dataset.orderId}#${el.dataset.partIndex ?? 0}`);
	});
}

function article(page: Page, key: string): Locator {
	const [id, part] = key.split('#');
	return page
		.locator(`main article[data-order-id="${id}"]`)
		.and(
			part === '0'
				? page.locator(':not([data-part-index]), [data-part-index="0"]')
				: page.locator(`[data-part-index="${part}"]`)
		);
}

test('800x480 kiosk, the messy rush: a tap moves no card and no page; the selected card shows its long name in full, on screen', async ({
	page
}) => {
	test.setTimeout(180_000);
	const clock = offsetClock(-9 * 60_000);
	const simulator = await startSimulator({ clock });
	try {
		const orders = messyRush();
		for (const o of orders.early) await simulator.sendTcp('kds-1', o);
		clock.offset = -6 * 60_000;
		for (const o of orders.warm) await simulator.sendTcp('kds-1', o);
		clock.offset = 0;
		for (const o of [...orders.fresh, ...orders.after]) await simulator.sendTcp('kds-1', o);
		await simulator.sendTcp('kds-1', unbrokenOrder());
		await page.setViewportSize({ width: 800, height: 480 });
		await page.goto(simulator.screenUrl('kds-1', { kiosk: true }));
		await expect(cards(page)).toHaveCount(21);
		await expect(
			page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
		).toHaveCount(0, { timeout: 20_000 });
		mkdirSync(SHOTS, { recursive: true });

		const pageLabel = page.getByLabel(/^Page \d+ of \d+$/);
		const label = async () => (await pageLabel.getAttribute('aria-label')) ?? '';
		const count = Number(/of (\d+)/.exec(await label())![1]);
		expect(count).toBeGreaterThan(2);
		let sawUnbroken = false;
		let selectedId = '';
		for (let p = 0; p < count; p++) {
			if (p > 0) {
				await page.keyboard.press('PageDown');
				await expect(page.getByLabel(`Page ${p + 1} of ${count}`)).toBeVisible();
			}
			await frames(page);
			const shown = await onPage(page);
			// (A second tap on the selected ticket, any of its parts, would bump it: each once.)
			const last = shown.at(-1)!;
			const targets = shown.includes('UNBROKEN-1#0')
				? ['UNBROKEN-1#0', ...(last.startsWith('UNBROKEN-1#') ? [] : [last])]
				: [last];
			for (const key of targets) {
				// (Its ticket selected on the page before, a part carried over: that tap would bump.)
				if (key.split('#')[0] === selectedId) continue;
				selectedId = key.split('#')[0];
				const before = await boxes(page);
				const target = article(page, key);
				await target.locator('h2').click();
				await expect(target).toHaveAttribute('data-selected', '');
				await frames(page);
				expect(await boxes(page), `page ${p + 1}: a tap on ${key} moved a card`).toEqual(before);
				expect(await label(), `page ${p + 1}: a tap on ${key} changed the pages`).toBe(
					`Page ${p + 1} of ${count}`
				);
				expect(await onPage(page)).toEqual(shown);
				if (key !== 'UNBROKEN-1#0') continue;
				sawUnbroken = true;
				await page.screenshot({ path: join(SHOTS, `select-unbroken-800x480-p${p + 1}.png`) });
				// The long name whole: not cut, not scrolled out of its header, inside the card and
				// the window, drawn on top (what a finger at its middle would hit).
				const title = await target.locator('h2').evaluate((h) => {
					const card = h.closest('article')!.getBoundingClientRect();
					const head = h.closest('header')!;
					const r = h.getBoundingClientRect();
					const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
					return {
						text: h.textContent!.trim(),
						// (A line hidden, not the glyphs' few pixels below the last line box.)
						cut:
							h.scrollWidth > h.clientWidth + 1 ||
							h.scrollHeight > h.clientHeight + parseFloat(getComputedStyle(h).lineHeight) / 2,
						headScrolls: head.scrollHeight > head.clientHeight + 1,
						inCard:
							r.left >= card.left - 1 &&
							r.right <= card.right + 1 &&
							r.top >= card.top - 1 &&
							r.bottom <= card.bottom + 1,
						inWindow: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
						lines: r.height / parseFloat(getComputedStyle(h).lineHeight),
						onTop: hit !== null && h.contains(hit)
					};
				});
				expect(title.text).toMatch(/^Customer_(Name){12}$/);
				expect(title).toMatchObject({
					cut: false,
					headScrolls: false,
					inCard: true,
					inWindow: true
				});
				expect(title.onTop).toBe(true);
				// Wrapped over lines, not shrunk or cut at the card's edge.
				expect(title.lines).toBeGreaterThan(1.5);
			}
			await page.screenshot({ path: join(SHOTS, `select-800x480-p${p + 1}.png`) });
		}
		expect(sawUnbroken, 'the unbroken order was on a page and tapped').toBe(true);
	} finally {
		await simulator.close();
	}
});
