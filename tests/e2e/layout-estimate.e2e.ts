/**
 * The board lays out only the cards in view at first and counts the others as an estimate from
 * their lines, then lays them out for real a few a frame (CardBoard, "Cards off screen"). Once
 * settled, every card must stand exactly where a board that laid out every card at once puts it,
 * and the page count and "+N more" must be the ones of that board.
 */
import type { Page } from '@playwright/test';
import { expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

const SIZES = [
	{ width: 800, height: 480 },
	{ width: 720, height: 1280 }
];

/** Cards of every height: 1 to 24 items, long unicode names and notes that wrap, modifiers. */
function messyOrders(n: number) {
	return Array.from({ length: n }, (_, i) => {
		const items = Array.from({ length: 1 + ((i * 7) % 24) }, (_, j) =>
			item(
				`${j + 1}`,
				j % 5 === 0 ? `Smørrebrød 寿司 🍣 platter no. ${j} `.repeat(1 + (i % 3)) : `Item ${j}`,
				{
					mods: j % 3 === 0 ? ['Extra sauce', 'No onion'] : [],
					...(j % 4 === 0 ? { note: 'Allergy: sesame, peanuts; ask the guest first' } : {})
				}
			)
		);
		return create(
			order(`E-${i}`, i % 4 === 0 ? `Großer Tisch ${i} — 宴会 🎉 `.repeat(2) : `Table ${i}`, items)
		);
	});
}

/** Where every card is, and what the screen says about pages. */
async function board(page: Page) {
	return page.evaluate(() => {
		const rects = [...document.querySelectorAll<HTMLElement>('article[data-order-id]')].map(
			(el) => {
				const r = el.getBoundingClientRect();
				return `${el.dataset.orderId} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.height)}`;
			}
		);
		// Orders that start off screen (a continued card starts where its first part is).
		const lefts = [
			...document.querySelectorAll<HTMLElement>(
				'article[data-order-id]:not([data-part-index]), article[data-part-index="0"]'
			)
		].map((el) => el.getBoundingClientRect().left);
		return {
			rects,
			offScreen: lefts.filter((x) => x >= window.innerWidth).length,
			label: document.querySelector('[aria-label^="Page "]')?.getAttribute('aria-label') ?? ''
		};
	});
}

for (const size of SIZES) {
	test(`${size.width}x${size.height}: 60 cards of every height settle exactly where a fully laid out board puts them`, async ({
		page,
		simulator
	}) => {
		test.setTimeout(120_000);
		await page.setViewportSize(size);
		for (const message of messyOrders(60)) await simulator.sendTcp('kds-1', message);
		await screenPage(page, simulator, 'kds-1');
		await expect(page.getByRole('article')).toHaveCount(60);
		// Settled: every card laid out for real once and keeping that size (a continued card's
		// parts count as their planned height: the comparison below holds them to it).
		await expect(
			page.locator('article[data-order-id]:not([data-sized]):not([data-part-index])')
		).toHaveCount(0, { timeout: 30_000 });
		await page.waitForTimeout(300);
		const settled = await board(page);

		// The same board with every card laid out in full at once.
		await page.addStyleTag({
			content:
				'article[data-order-id] { content-visibility: visible !important; contain-intrinsic-block-size: none !important; }'
		});
		await page.waitForTimeout(300);
		const full = await board(page);

		expect(settled.rects).toEqual(full.rects);
		expect(full.offScreen).toBeGreaterThan(0);
		const pages =
			Math.max(
				...(await page.evaluate(() => {
					const flow =
						document.querySelector<HTMLElement>('article[data-order-id]')!.parentElement!;
					const gap = parseFloat(getComputedStyle(flow).columnGap) || 0;
					const origin = flow.getBoundingClientRect().left;
					return [...flow.querySelectorAll<HTMLElement>(':scope > article')].map((el) =>
						Math.floor((el.getBoundingClientRect().left - origin + 2) / (flow.clientWidth + gap))
					);
				}))
			) + 1;
		expect(settled.label).toBe(`Page 1 of ${pages}`);
		await expect(page.getByTestId('more-count')).toHaveText(`+${full.offScreen} more`);
	});
}
