/**
 * A rush read at a glance on every panel (issue 26): at 800x480 kiosk, ordinary tickets show
 * whole, several to a page; no card is ever drawn in pieces; a long ticket continues into the next
 * column with its header, timer and bump on every part (issue 41); every control is a 44 px touch
 * target at every size; states read unmistakably (scheduled, cancelled, course state vs Fire).
 */
import type { Locator, Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { card, cards, expect, screenPage, startSimulator, test } from '../helpers/fixtures.ts';
import { cancel, create, item, lunchRush, order, ordinaryTickets } from './orders.ts';

/** The 7-inch kiosk and a 1080p TV (scripts/review-screens.ts shows all five sizes). */
const SIZES = [
	{ width: 800, height: 480 },
	{ width: 1920, height: 1080 }
];

/** Cards drawn entirely inside the window (whole, on this page). */
async function wholeOnScreen(page: Page): Promise<string[]> {
	return page.locator('article[data-order-id]').evaluateAll((els) =>
		els
			.filter((el) => {
				const r = el.getBoundingClientRect();
				return r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
			})
			.map((el) => el.getAttribute('aria-labelledby') ?? '')
	);
}

/** How many boxes each card is drawn in: 1 when whole. */
async function pieces(page: Page): Promise<number[]> {
	return page
		.locator('article[data-order-id]')
		.evaluateAll((els) => els.map((el) => el.getClientRects().length));
}

async function pageCount(page: Page): Promise<number> {
	const label = await page.getByLabel(/^Page \d+ of \d+$/).getAttribute('aria-label');
	return Number(/of (\d+)/.exec(label ?? '')?.[1] ?? 1);
}

async function expectTouchTarget(control: Locator, name: string): Promise<void> {
	const box = await control.boundingBox();
	expect(box, `${name} is drawn`).not.toBeNull();
	expect(Math.round(box!.height), `${name} height`).toBeGreaterThanOrEqual(44);
	expect(Math.round(box!.width), `${name} width`).toBeGreaterThanOrEqual(44);
}

test('800x480 kiosk: ten ordinary tickets show five or more whole on page 1, in at most two pages', async ({
	page,
	simulator
}) => {
	await page.setViewportSize({ width: 800, height: 480 });
	for (const o of ordinaryTickets(10)) await simulator.sendTcp('kds-1', o);
	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	await expect(cards(page)).toHaveCount(10);
	await expect(card(page, 'Guest 1').getByRole('button', { name: 'Bump Guest 1' })).toHaveText('1');
	await expect.poll(() => wholeOnScreen(page).then((w) => w.length)).toBeGreaterThanOrEqual(5);
	expect(await pageCount(page)).toBeLessThanOrEqual(2);
	expect(await pieces(page)).toEqual(Array(10).fill(1));
});

test.describe('the messy lunch rush', () => {
	for (const size of SIZES) {
		test(`${size.width}x${size.height}: no card in pieces, a long one continues with its header on every part`, async ({
			page
		}) => {
			test.setTimeout(180_000);
			const clock = offsetClock(-14 * 60_000);
			const simulator = await startSimulator({ clock });
			try {
				await page.setViewportSize(size);
				const rush = lunchRush();
				for (const o of rush.early) await simulator.sendTcp('kds-1', o);
				clock.offset = 0;
				for (const o of [...rush.warm, ...rush.fresh, ...rush.after])
					await simulator.sendTcp('kds-1', o);
				await page.goto(simulator.screenUrl('kds-1', { kiosk: true }));
				await expect(cards(page)).toHaveCount(27, { timeout: 30_000 });
				// Every card and every part of a continued one in one piece; none scrolls inside.
				const all = page.locator('article[data-order-id]');
				expect(await pieces(page)).toEqual(Array(await all.count()).fill(1));
				await expect(page.locator('article[data-overflow]')).toHaveCount(0);
				// The 15-item order: each part has its bump, name and timer, "cont." after the first,
				// and drawn together, the parts show every one of its 15 lines.
				const parts = page.locator('article[data-order-id="BIG-15"]');
				const count = await parts.count();
				// (A part is drawn on the page shown and next to it: page through them all.)
				const headed = new Set<number>();
				const shown = new Set<string | null>();
				const pageCount = Number(
					(await page.locator('[aria-label^="Page "]').getAttribute('aria-label'))?.match(
						/of (\d+)/
					)?.[1] ?? 1
				);
				for (let p = 0; p < pageCount; p++) {
					if (p > 0) await page.keyboard.press('PageDown');
					await expect(page.locator('[aria-label^="Page "]')).toHaveAttribute(
						'aria-label',
						new RegExp(`^Page ${p + 1} of`)
					);
					const lines = await parts.evaluateAll((els) =>
						els.flatMap((el) => {
							const box = el.querySelector('[data-card-body]')?.getBoundingClientRect();
							if (!box || box.left < 0 || box.right > innerWidth) return [];
							const body = box;
							return [...el.querySelectorAll('li')]
								.filter((li) => {
									const r = li.getBoundingClientRect();
									return r.top >= body.top - 1 && r.bottom <= body.bottom + 1;
								})
								.map((li) => li.getAttribute('data-line-id'));
						})
					);
					for (const line of lines) shown.add(line);
					for (let i = 0; i < count; i++) {
						const part = parts.nth(i);
						const box = await part.boundingBox();
						if (!box || box.x < 0 || box.x + box.width > size.width) continue;
						await expect(part.locator('.bump')).toHaveCount(1);
						await expect(part.locator('h2')).toHaveText('Office Lunch');
						await expect(part.locator('[role=timer]')).toHaveCount(1);
						await expect(part.getByText('cont.', { exact: true })).toHaveCount(i > 0 ? 1 : 0);
						headed.add(i);
					}
				}
				expect(shown.size).toBe(15);
				expect(headed.size).toBe(count);
			} finally {
				await simulator.close();
			}
		});
	}
});

test('every control is a 44 px touch target at 800x480, normal view and kiosk', async ({
	page,
	simulator
}) => {
	await page.setViewportSize({ width: 800, height: 480 });
	await simulator.sendTcp(
		'kds-1',
		create(
			order('P-1', 'Party', [
				item('1', 'Soup', { course: '1', courseStatus: 'fire' }),
				item('2', 'Steak', { course: '2', courseStatus: 'hold' })
			])
		)
	);
	await screenPage(page, simulator, 'kds-1');
	const header = page.locator('header.top');
	const controls = header.locator('button, a');
	const count = await controls.count();
	expect(count).toBeGreaterThanOrEqual(7);
	for (let i = 0; i < count; i++) {
		const control = controls.nth(i);
		await expectTouchTarget(control, (await control.textContent())?.trim() || `control ${i}`);
	}
	// The header fits the screen.
	expect(await header.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
	const party = card(page, 'Party');
	await expectTouchTarget(party.getByRole('button', { name: 'Bump Party' }), 'Bump');
	await expectTouchTarget(party.getByRole('button', { name: 'Fire Course 2' }), 'Fire Course 2');

	await screenPage(page, simulator, 'kds-1', { kiosk: true });
	const bar = page.getByRole('navigation', { name: 'Screen controls' });
	// The whole row fits the panel: the connection dot is still drawn at its right.
	await expect(bar.getByRole('status', { name: 'Connection: Connected' })).toBeInViewport();
	for (const name of [/Recall/, /Takeout/, /^Holds/, /^All Day/, /^Sound/]) {
		await expectTouchTarget(bar.getByRole('button', { name }), String(name));
	}
	// Kiosk has Holds and Sound: the drawer opens, sound (on from the start) toggles off.
	await bar.getByRole('button', { name: /^Holds/ }).click();
	await expect(page.getByRole('complementary', { name: 'Holds' })).toBeVisible();
	await bar.getByRole('button', { name: /^Sound/ }).click();
	await expect(bar.getByRole('button', { name: 'Sound off' })).toHaveText('♪ Off');
});

test('a crowded header (many pages, "+N more") fits its one row, no label cut, at 720x1280 and 800x480', async ({
	page,
	simulator
}) => {
	const rush = lunchRush();
	for (const o of [...rush.early, ...rush.warm, ...rush.fresh, ...rush.after])
		await simulator.sendTcp('kds-1', o);
	for (const size of [
		{ width: 720, height: 1280 },
		{ width: 800, height: 480 }
	]) {
		await page.setViewportSize(size);
		await screenPage(page, simulator, 'kds-1');
		await expect(page.getByTestId('more-count')).toBeVisible();
		const header = page.locator('header.top');
		expect(await header.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
		const controls = header.getByRole('button');
		for (let i = 0; i < (await controls.count()); i++) {
			const control = controls.nth(i);
			const name = (await control.textContent())?.trim() || `control ${i}`;
			// The whole label is drawn inside its button ('Takeou' was what a 720 px header showed).
			expect(
				await control.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
				`${size.width}x${size.height}: "${name}" fits its button`
			).toBe(true);
			await expectTouchTarget(control, name);
		}
	}
});

test('states read unmistakably: scheduled until due, cancelled unlike late, state words unlike buttons', async ({
	page
}) => {
	const clock = offsetClock(-20 * 60_000);
	const simulator = await startSimulator({ clock });
	try {
		await page.setViewportSize({ width: 1280, height: 720 });
		await simulator.sendTcp('kds-1', create(order('L-1', 'Late one', [item('1', 'Tea')])));
		await simulator.sendTcp('kds-1', create(order('X-1', 'Gone', [item('1', 'Latte')])));
		await simulator.sendTcp(
			'kds-1',
			create(
				order('S-1', 'Wedding', [item('1', 'Platter')], {
					mode: 'Pickup',
					pickupTime: new Date(Date.now() + 3 * 3600_000).toISOString()
				})
			)
		);
		clock.offset = 0;
		await simulator.sendTcp('kds-1', cancel('X-1'));
		await simulator.sendTcp(
			'kds-1',
			create(
				order('C-1', 'Courses', [
					item('1', 'Soup', { course: '1', courseStatus: 'fire' }),
					item('2', 'Steak', { course: '2', courseStatus: 'hold' })
				])
			)
		);
		await screenPage(page, simulator, 'kds-1');

		// 20 minutes old: late, read as a duration, not a clock time.
		const late = card(page, 'Late one');
		await expect(late).toHaveAttribute('data-level', 'late');
		await expect(late.getByRole('timer')).toHaveText(/^2\d min$/);

		// Queued 20 minutes ago for a pickup 3 hours ahead: scheduled, not late.
		const wedding = card(page, 'Wedding');
		await expect(wedding).toHaveAttribute('data-level', 'scheduled');
		await expect(wedding.getByRole('timer')).toHaveText(/^in 2 h 5\d min$/);
		// Its start time on a tap (the header stays short at 800×480 until then).
		await wedding.getByRole('heading', { level: 2 }).click();
		await expect(wedding.getByText(/^◷ Scheduled · start \d\d:\d\d [AP]M CST$/)).toBeVisible();

		// Cancelled: its own banner, and neither its header nor its frame is the late red.
		const gone = card(page, 'Gone');
		await expect(gone.getByRole('note', { name: 'Cancelled' })).toHaveText('✕ Cancelled');
		const look = (el: Locator) =>
			el.evaluate((e) => {
				const s = getComputedStyle(e);
				return [s.backgroundColor, s.borderTopColor, s.borderTopStyle].join(' ');
			});
		const lateHead = await look(late.locator('header'));
		const goneHead = await look(gone.locator('header'));
		expect(goneHead).not.toBe(lateHead);
		expect(goneHead).not.toContain('rgb(220, 38, 38)');
		expect(await look(gone)).not.toBe(await look(late));

		// A course's state never uses the Fire button's word.
		const courses = card(page, 'Courses');
		await expect(courses.getByRole('group', { name: 'Course 1 — cooking' })).toBeVisible();
		const held = courses.getByRole('group', { name: 'Course 2 — on hold' });
		await expect(held.getByRole('button', { name: 'Fire Course 2' })).toHaveText('▶ Fire');
		await expect(courses.getByText(/^fire$/i)).toHaveCount(0);
	} finally {
		await simulator.close();
	}
});
