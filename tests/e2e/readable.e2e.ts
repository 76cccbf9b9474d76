/**
 * A kitchen screen a cook can read and touch: type sizes measured as rendered on the 7-inch
 * panels, scale, touch that forgives (tap selects, undo, recall), state seen across the room
 * (offline banner, customer here, continued cards, pop-ups that scroll and queue), mode colours,
 * cancelled look and card numbers.
 */
import type { Locator, Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import {
	card,
	cards,
	cardTitles,
	course,
	expect,
	parseRgb,
	screenPage,
	startSimulator,
	test,
	type Simulator
} from '../helpers/fixtures.ts';
import { busyScreen, cancel, create, item, order, update } from './orders.ts';

/** Rendered font size (px) of the first element matching `selector` inside `scope`. */
async function fontPx(scope: Locator, selector: string): Promise<number> {
	return scope
		.locator(selector)
		.first()
		.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
}

/** How many card columns fit across the window, from a card's rendered width. */
async function columnsShown(page: Page): Promise<number> {
	return page.evaluate(() => {
		const el = document.querySelector('article[data-order-id]');
		return el ? Math.round(innerWidth / el.getBoundingClientRect().width) : 0;
	});
}

const fourOrders = () => [
	order('1', 'Table 1', [item('1', 'Burger', { mods: [{ name: 'No onion' }] })]),
	order('2', 'Table 2', [item('1', 'Fries')]),
	order('3', 'Table 3', [item('1', 'Soup')]),
	order('4', 'Table 4', [item('1', 'Salad', { mods: [{ name: 'Dressing on side' }] })])
];

async function sendAll(simulator: Simulator, orders: object[]) {
	for (const o of orders) await simulator.sendTcp('kds-1', create(o as Record<string, unknown>));
}

test.describe('Readable from 1.5 m', () => {
	test('800x480: items >= 18 px, modifiers >= 14 px, 3 columns; 1024x600: items >= 20 px, 3 columns', async ({
		page,
		simulator
	}) => {
		await sendAll(simulator, fourOrders());
		// Issue 41: type per panel, so a 7-inch panel shows six or more tickets, not two.
		for (const [width, height, cols, itemPx] of [
			[800, 480, 3, 18],
			[1024, 600, 3, 20]
		]) {
			await page.setViewportSize({ width, height });
			await screenPage(page, simulator, 'kds-1', { kiosk: true });
			const burger = card(page, 'Table 1');
			expect(await fontPx(burger, '.name'), `item at ${width}x${height}`).toBeGreaterThanOrEqual(
				itemPx
			);
			expect(await fontPx(burger, '.mod'), `modifier at ${width}x${height}`).toBeGreaterThanOrEqual(
				14
			);
			expect(await fontPx(burger, '.chip'), `chip at ${width}x${height}`).toBeGreaterThanOrEqual(
				13
			);
			await expect.poll(() => columnsShown(page)).toBe(cols);
		}
	});

	test('?scale= enlarges the type and gives fewer, wider columns', async ({ page, simulator }) => {
		await sendAll(simulator, fourOrders());
		await page.setViewportSize({ width: 1280, height: 720 });
		await screenPage(page, simulator, 'kds-1');
		const normal = await fontPx(card(page, 'Table 1'), '.name');
		await expect.poll(() => columnsShown(page)).toBe(4);
		await page.goto(`${simulator.screenUrl('kds-1')}?scale=1.5`);
		await expect.poll(() => fontPx(card(page, 'Table 1'), '.name')).toBeCloseTo(normal * 1.5, 0);
		await expect.poll(() => columnsShown(page)).toBe(2);
	});
});

test.describe('Screen settings: scale and mode colours', () => {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = {
		scale: 1.25,
		modeColors: { DriveThru: '#ff00ff' }
	};
	test.use({ simulatorOptions: { config } });

	test('the screen setting scales the type; modes are coloured, configurable per mode', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 1280, height: 720 });
		await sendAll(simulator, [
			order('1', 'Table 1', [item('1', 'Burger')]),
			order('2', 'Lane 2', [item('1', 'Fries')], { mode: 'DriveThru' }),
			order('3', 'Pat', [item('1', 'Wrap')], { mode: 'ToGo' })
		]);
		await screenPage(page, simulator, 'kds-1');
		// 1280x720 draws items at 1.3 x 17 px; the setting makes that 1.25 times larger.
		await expect.poll(() => fontPx(card(page, 'Table 1'), '.name')).toBeCloseTo(1.3 * 17 * 1.25, 0);
		const chip = (name: string) =>
			card(page, name)
				.locator('.chip.mode')
				.evaluate((el) => getComputedStyle(el).backgroundColor);
		expect(parseRgb(await chip('Lane 2'))).toEqual([255, 0, 255]);
		const [forHere, toGo] = [await chip('Table 1'), await chip('Pat')];
		expect(forHere).not.toBe(toGo);
		const strip = await card(page, 'Pat')
			.locator('header')
			.evaluate((el) => getComputedStyle(el).borderLeftColor);
		expect(strip).toBe(toGo);
	});
});

test.describe('Touch that forgives', () => {
	test('tap selects, a second tap bumps; Undo brings it back; kiosk Recall; the bump button is large', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 800, height: 480 });
		await sendAll(simulator, fourOrders().slice(0, 3));
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		const table2 = card(page, 'Table 2');

		await test.step('the bump button is at least 44 px square', async () => {
			const box = await table2.getByRole('button', { name: 'Bump Table 2' }).boundingBox();
			expect(box!.width).toBeGreaterThanOrEqual(44);
			expect(box!.height).toBeGreaterThanOrEqual(44);
		});
		await test.step('one tap selects and bumps nothing', async () => {
			await table2.getByRole('heading').click();
			await expect(table2).toHaveAttribute('data-selected', '');
			await expect(cards(page)).toHaveCount(3);
		});
		await test.step('a tap on another card moves the selection', async () => {
			await card(page, 'Table 3').getByRole('heading', { level: 2 }).click();
			await expect(card(page, 'Table 3')).toHaveAttribute('data-selected', '');
			await expect(table2).not.toHaveAttribute('data-selected', '');
		});
		await test.step('a second tap on the selected card bumps it; Undo brings it back', async () => {
			await table2.getByRole('heading', { level: 2 }).click();
			await table2.getByRole('heading', { level: 2 }).click();
			await expect(table2).toHaveCount(0);
			const toast = page.getByRole('status', { name: 'Bumped Table 2' });
			await expect(toast).toContainText('Bumped Table 2 — Undo');
			await toast.getByRole('button', { name: 'Undo' }).click();
			await expect(table2).toBeVisible();
			await expect(table2.getByLabel('Recalled', { exact: true })).toBeVisible();
		});
		await test.step('the card that slid into place is not selected: a stray tap only selects', async () => {
			await table2.getByRole('button', { name: 'Bump Table 2' }).click();
			await expect(table2).toHaveCount(0);
			await expect(page.locator('[data-selected]')).toHaveCount(0);
		});
		await test.step('kiosk Recall brings back the last bumped order', async () => {
			await page
				.getByRole('navigation', { name: 'Screen controls' })
				.getByRole('button', { name: '↺ Recall' })
				.click();
			await expect(table2).toBeVisible();
		});
	});
});

test.describe('Undo restores the card exactly', () => {
	/** What a cook sees of a card: its place, frame, selection and change marks. */
	async function looks(page: Page, name: string) {
		const target = card(page, name);
		const frame = await target.evaluate((el) => {
			const style = getComputedStyle(el);
			return [style.borderTopColor, style.borderTopStyle, style.borderTopWidth];
		});
		return {
			position: (await cardTitles(page)).indexOf(name),
			frame,
			selected: (await target.getAttribute('data-selected')) !== null,
			marks: await target.locator('.tag.change').allTextContents()
		};
	}

	test('a priority card bumped by two taps comes back framed, selected, marked, in its place', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 800, height: 480 });
		await sendAll(simulator, [
			order('1', 'Table 1', [item('1', 'Burger')]),
			order('2', 'Table 2', [item('1', 'Fries')], { priority: true }),
			order('3', 'Table 3', [item('1', 'Soup')])
		]);
		const changed = order('2', 'Table 2', [item('1', 'Fries'), item('2', 'Shake')], {
			priority: true
		});
		expect(await simulator.sendTcp('kds-1', update(changed))).toBe('2');
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		const table2 = card(page, 'Table 2');
		await expect(table2.locator('.tag.change')).toHaveText('New');

		await table2.getByRole('heading').click();
		await expect(table2).toHaveAttribute('data-selected', '');
		const before = await looks(page, 'Table 2');
		expect(before.position).toBe(0);
		// The priority frame: a thick orange border (rgb of #fb923c).
		expect(parseRgb(before.frame[0])).toEqual([251, 146, 60]);
		expect(before).toMatchObject({ selected: true, marks: ['New'] });

		await table2.getByRole('heading', { level: 2 }).click();
		await expect(table2).toHaveCount(0);
		await expect(page.locator('[data-selected]')).toHaveCount(0);
		await page
			.getByRole('status', { name: 'Bumped Table 2' })
			.getByRole('button', { name: 'Undo' })
			.click();
		await expect(table2.getByLabel('Recalled', { exact: true })).toBeVisible();
		await expect(table2).toHaveAttribute('data-selected', '');
		expect(await looks(page, 'Table 2')).toEqual(before);
		await expect(cards(page)).toHaveCount(3);
	});

	test('bumped from the bump bar: Undo selects it again; an unselected card comes back unselected', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 1280, height: 720 });
		await sendAll(simulator, [
			order('1', 'Table 1', [item('1', 'Burger')]),
			order('2', 'Table 2', [item('1', 'Fries')], { priority: true }),
			order('3', 'Table 3', [item('1', 'Soup')])
		]);
		await screenPage(page, simulator, 'kds-1');
		const undo = () =>
			page.getByRole('status', { name: /^Bumped / }).getByRole('button', { name: 'Undo' });

		await page.keyboard.press('ArrowRight');
		await page.keyboard.press('ArrowRight');
		await expect(card(page, 'Table 1')).toHaveAttribute('data-selected', '');
		const before = await looks(page, 'Table 1');
		await page.keyboard.press('Enter');
		await expect(card(page, 'Table 1')).toHaveCount(0);
		// The bump bar moves the selection on to the card that took its place.
		await expect(card(page, 'Table 3')).toHaveAttribute('data-selected', '');
		await undo().click();
		await expect(card(page, 'Table 1')).toHaveAttribute('data-selected', '');
		await expect(card(page, 'Table 3')).not.toHaveAttribute('data-selected', '');
		expect(await looks(page, 'Table 1')).toEqual(before);

		// Table 2 was not selected: its bump button bumps it, Undo brings it back unselected.
		const table2 = await looks(page, 'Table 2');
		expect(table2.selected).toBe(false);
		await card(page, 'Table 2').getByRole('button', { name: 'Bump Table 2' }).click();
		await expect(card(page, 'Table 2')).toHaveCount(0);
		await undo().click();
		await expect(card(page, 'Table 2').getByLabel('Recalled', { exact: true })).toBeVisible();
		expect(await looks(page, 'Table 2')).toEqual(table2);
		await expect(card(page, 'Table 1')).toHaveAttribute('data-selected', '');
	});
});

test.describe('State you can see across the room', () => {
	test('agent down: a full-width banner, cards dimmed, timers stopped and marked (kiosk too)', async ({
		page
	}) => {
		const simulator = await startSimulator();
		try {
			await page.setViewportSize({ width: 800, height: 480 });
			await sendAll(simulator, fourOrders().slice(0, 1));
			await screenPage(page, simulator, 'kds-1', { kiosk: true });
			const table1 = card(page, 'Table 1');
			await simulator.close();
			const banner = page.getByRole('alert', { name: 'Not connected' });
			await expect(banner).toBeVisible();
			await expect(banner).toContainText('timers stopped');
			const box = await banner.boundingBox();
			expect(box!.width).toBeGreaterThanOrEqual(790);
			const timer = table1.getByRole('timer');
			await expect(timer).toHaveAccessibleName(/not updating: offline/);
			const stopped = await timer.textContent();
			await page.waitForTimeout(2100);
			expect(await timer.textContent()).toBe(stopped);
			expect(Number(await table1.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1);
		} finally {
			await simulator.close();
		}
	});

	test('a customer who arrived marks the card, and the kiosk counts them', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 800, height: 480 });
		await sendAll(simulator, [
			order('C-1', 'Alex', [item('1', 'Burger')], { mode: 'Curbside' }),
			order('C-2', 'Sam', [item('1', 'Fries')], { mode: 'Curbside' })
		]);
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		await expect(card(page, 'Alex').getByLabel('Customer arrived')).toHaveCount(0);
		expect((await simulator.sendHttp('customer-arrived', { id: 'C-1' })).status).toBe(200);
		await expect(card(page, 'Alex').getByLabel('Customer arrived')).toHaveText(/Customer here/);
		await expect(card(page, 'Sam').getByLabel('Customer arrived')).toHaveCount(0);
		const controls = page.getByRole('navigation', { name: 'Screen controls' });
		await expect(controls.getByLabel('1 arrived')).toHaveText('1 here');
	});

	test("800x480: a tall card stays whole, and a held course's Fire is reachable, uncovered", async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 800, height: 480 });
		const { fresh } = busyScreen();
		// Three small orders, then the party of ten: taller than a column, drawn whole all the same.
		await sendAll(simulator, [...fourOrders().slice(0, 3)]);
		const party = fresh.find((c) => (c as { order?: { id?: string } }).order?.id === 'P-10')!;
		await simulator.sendTcp('kds-1', party);
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		await expect(card(page, 'Party of 10')).toBeVisible();
		expect(await card(page, 'Party of 10').evaluate((el) => el.getClientRects().length)).toBe(1);
		const fire = card(page, 'Party of 10').getByRole('button', { name: 'Fire Course 2' });
		// Turn pages (kiosk control row) until the card is on screen, and scroll its lines (a card
		// a column high scrolls them under its header) until the Fire button is in view.
		const reveal = () =>
			fire.evaluate((el) => {
				const body = el.closest('[data-card-body]')!;
				const below = el.getBoundingClientRect().bottom - body.getBoundingClientRect().bottom;
				if (below > 0) body.scrollTop += below;
			});
		for (let turns = 0; turns < 5 && !(await inViewport(fire)); turns++) {
			await reveal();
			if (await inViewport(fire)) break;
			await page.getByRole('button', { name: /Next page|more orders/ }).click();
		}
		expect(await inViewport(fire), 'Fire Course 2 on screen').toBe(true);
		// Nothing is drawn over it: the element at its centre is the button.
		expect(
			await fire.evaluate((el) => {
				const r = el.getBoundingClientRect();
				return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
			})
		).toBe(true);
		await fire.click();
		await expect(course(card(page, 'Party of 10'), 'Course 2 — cooking')).toBeVisible();
	});

	test('pop-ups scroll and queue: 2,000 characters at 800x480, two at 1280x720', async ({
		page,
		simulator
	}) => {
		await page.setViewportSize({ width: 800, height: 480 });
		await screenPage(page, simulator, 'kds-1');
		const long = `START ${'lorem ipsum dolor sit amet '.repeat(80)}`.slice(0, 1996) + ' END';
		expect(long).toHaveLength(2000);
		expect((await simulator.sendHttp('send-message', { message: long })).status).toBe(202);
		const dialog = page.getByRole('alertdialog');
		const text = dialog.locator('p');
		await expect(text).toContainText('START');
		const ok = dialog.getByRole('button', { name: /^OK/ });
		expect(await inViewport(ok), 'OK on screen').toBe(true);
		const textBox = (await text.boundingBox())!;
		expect(textBox.y).toBeGreaterThanOrEqual(0);
		// More text follows: a fade over the box's bottom edge and "more ↓", which scrolls on and
		// leaves Enter to OK.
		const more = dialog.getByRole('button', { name: 'more ↓' });
		await expect(more).toBeVisible();
		expect((await more.boundingBox())!.height).toBeGreaterThanOrEqual(44);
		const fade = () =>
			dialog.locator('.scroller').evaluate((el) => getComputedStyle(el, '::after').backgroundImage);
		expect(await fade()).toContain('linear-gradient');
		await more.click();
		await expect.poll(() => text.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
		await expect(ok).toBeFocused();
		// The start of the message is at the top of its box, on screen; the end scrolls into view.
		await text.evaluate((el) => el.scrollTo(0, el.scrollHeight));
		const end = await text.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
		expect(end).toBe(true);
		// At the end nothing more follows: no cue.
		await expect(more).toHaveCount(0);
		expect(await fade()).toBe('none');
		await ok.click();
		await expect(dialog).toHaveCount(0);

		await page.setViewportSize({ width: 1280, height: 720 });
		expect((await simulator.sendHttp('send-message', { message: 'First: 86 salmon' })).status).toBe(
			202
		);
		expect(
			(await simulator.sendHttp('send-message', { message: 'Second: fryer down' })).status
		).toBe(202);
		await expect(dialog).toHaveCount(1);
		await expect(dialog).toHaveAccessibleName('Message: First: 86 salmon');
		await expect(dialog).toContainText('1 of 2');
		expect(await inViewport(dialog.getByRole('button', { name: /^OK/ }))).toBe(true);
		// A short message has no "more" cue.
		await expect(dialog.getByRole('button', { name: 'more ↓' })).toHaveCount(0);
		const send = async (message: string) =>
			expect((await simulator.sendHttp('send-message', { message })).status).toBe(202);
		const okButton = dialog.getByRole('button', { name: /^OK/ });
		// Messages that arrive while one is shown add to the count; OK moves on, never restarts it.
		await send('Third: 2 min on fries');
		await expect(dialog.locator('.count')).toHaveText('1 of 3');
		await okButton.click();
		await expect(dialog).toHaveAccessibleName('Message: Second: fryer down');
		await expect(dialog.locator('.count')).toHaveText('2 of 3');
		await send('Fourth: VIP at table 4');
		await expect(dialog.locator('.count')).toHaveText('2 of 4');
		await okButton.click();
		await expect(dialog.locator('.count')).toHaveText('3 of 4');
		await okButton.click();
		await expect(dialog).toHaveAccessibleName('Message: Fourth: VIP at table 4');
		await expect(dialog.locator('.count')).toHaveText('4 of 4');
		await okButton.click();
		await expect(dialog).toHaveCount(0);
		// After the last OK the next message starts a new count.
		await send('Fifth: alone');
		await expect(dialog).toHaveAccessibleName('Message: Fifth: alone');
		await expect(dialog.locator('.count')).toHaveCount(0);
		await send('Sixth');
		await expect(dialog.locator('.count')).toHaveText('1 of 2');
	});
});

/** The element is entirely inside the window. */
async function inViewport(locator: Locator): Promise<boolean> {
	if ((await locator.count()) === 0) return false;
	return locator.evaluate((el) => {
		const r = el.getBoundingClientRect();
		return (
			r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight
		);
	});
}

test.describe('Look like a kitchen screen', () => {
	test('a cancelled card keeps its cancelled look when its timer is late; every card has a number', async ({
		page
	}) => {
		const clock = offsetClock(-9 * 60_000);
		const simulator = await startSimulator({ clock });
		try {
			await page.setViewportSize({ width: 1920, height: 1080 });
			await simulator.sendTcp('kds-1', create(order('X', 'Walk-in', [item('1', 'Latte')])));
			clock.offset = 0;
			const many = Array.from({ length: 11 }, (_, i) =>
				order(`n${i}`, `Guest ${i + 2}`, [item('1', 'Tea')])
			);
			await sendAll(simulator, many);
			await simulator.sendTcp('kds-1', cancel('X'));
			await screenPage(page, simulator, 'kds-1');
			const walkIn = card(page, 'Walk-in');
			await expect(walkIn).toHaveAttribute('data-level', 'late');
			const head = await walkIn
				.locator('header')
				.evaluate((el) => getComputedStyle(el).backgroundColor);
			// Black, never a timer colour: unlike the late timer's red.
			expect(parseRgb(head)).toEqual([0, 0, 0]);
			await expect(walkIn.getByRole('note', { name: 'Cancelled' })).toBeVisible();
			await expect(
				card(page, 'Guest 12').getByRole('button', { name: 'Bump Guest 12' })
			).toHaveText('12');
			await expect(
				page.getByRole('button', { name: /^Bump / }).filter({ hasText: '✓' })
			).toHaveCount(0);
		} finally {
			await simulator.close();
		}
	});
});
