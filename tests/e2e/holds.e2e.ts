/**
 * Holds and course fire in a real browser: an order for later waits in the Holds drawer until
 * the cook fires it, and a course on hold is fired from its card.
 */
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import {
	card,
	cardTitles,
	course,
	expect,
	expectItemHighlighted,
	liveItem,
	screenPage,
	startSimulator,
	test as base
} from '../helpers/fixtures.ts';
import { create, item as line, order } from './orders.ts';

/** The demo config with "auto hold future orders" on for kds-1. */
function holdConfig() {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	return config;
}

/** The demo simulator with "auto hold future orders" on for kds-1. */
const test = base.extend({
	// eslint-disable-next-line no-empty-pattern
	simulator: async ({}, use) => {
		const simulator = await startSimulator({ config: holdConfig() });
		try {
			await use(simulator);
		} finally {
			await simulator.close();
		}
	}
});

test.describe('Holds', () => {
	test('an order for later waits in the Holds drawer; Fire puts it on the screen', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		const pickup = new Date(Date.now() + 3 * 60 * 60_000).toISOString();
		const later = order('F-4410', 'Catering: Acme', [line('1', 'Sandwich Platter', { qty: 3 })], {
			mode: 'Pickup',
			pickupTime: pickup,
			prepTimeDuration: 'PT45M'
		});
		const holdsButton = page.getByRole('button', { name: /^Holds/ });

		await test.step('the POS sends an order for pickup in 3 hours: it is held', async () => {
			expect(await simulator.sendTcp('kds-1', create(later))).toBe('F-4410');
			await expect(holdsButton).toHaveText('Holds (1)');
			await expect(card(page, 'Catering: Acme')).toHaveCount(0);
			await expect(page.getByText('No orders')).toBeVisible();
		});

		const drawer = page.getByRole('complementary', { name: 'Holds' });
		await test.step('the Holds drawer lists it with its pickup and fire times', async () => {
			await holdsButton.click();
			const entry = drawer.getByRole('listitem', { name: 'Catering: Acme' });
			await expect(entry).toContainText('1 item ·');
			await expect(entry).toContainText(/pickup \d/);
			await expect(entry).toContainText(/Fires at \d/);
		});

		await test.step('Fire moves it to the screen', async () => {
			await drawer.getByRole('button', { name: 'Fire Catering: Acme' }).click();
			const fired = card(page, 'Catering: Acme');
			await expect(fired).toBeVisible();
			await expect(liveItem(fired, 'Sandwich Platter')).toBeVisible();
			await expect(fired.getByRole('timer')).toHaveText(/^0:0\d$/);
			await expect(holdsButton).toHaveText('Holds (0)');
			await expect(drawer).toContainText('No orders on hold.');
		});
	});
});

test.describe('Hold release', () => {
	test('at its start time (a controlled clock) a held order goes to the end of the screen', async ({
		page
	}) => {
		const clock = new ManualClock(Date.now());
		const simulator = await startSimulator({ config: holdConfig(), clock });
		try {
			await screenPage(page, simulator, 'kds-1');
			const pickup = clock.now() + 3 * 60 * 60_000;
			const start = pickup - 45 * 60_000;
			const holdsButton = page.getByRole('button', { name: /^Holds/ });
			const later = order('F-77', 'Catering: Zed', [line('1', 'Sandwich Platter', { qty: 3 })], {
				mode: 'Pickup',
				pickupTime: new Date(pickup).toISOString(),
				prepTimeDuration: 'PT45M'
			});

			await test.step('held: in the Holds list, not on the screen', async () => {
				expect(
					await simulator.sendTcp('kds-1', create(order('A-1', 'Ann', [line('1', 'Tea')])))
				).toBe('A-1');
				expect(await simulator.sendTcp('kds-1', create(later))).toBe('F-77');
				await expect(holdsButton).toHaveText('Holds (1)');
				await expect(card(page, 'Catering: Zed')).toHaveCount(0);
			});

			await test.step('a second before its start time it is still held', async () => {
				clock.set(start - 1000);
				expect(
					await simulator.sendTcp('kds-1', create(order('B-2', 'Bob', [line('1', 'Soup')])))
				).toBe('B-2');
				await expect(card(page, 'Bob')).toBeVisible();
				await expect(holdsButton).toHaveText('Holds (1)');
				await expect(card(page, 'Catering: Zed')).toHaveCount(0);
			});

			await test.step('at its start time it fires: last in the queue, its timer from zero', async () => {
				clock.set(start);
				const fired = card(page, 'Catering: Zed');
				await expect(fired).toBeVisible();
				await expect(holdsButton).toHaveText('Holds (0)');
				expect(await cardTitles(page)).toEqual(['Ann', 'Bob', 'Catering: Zed']);
				await expect(fired.getByRole('timer')).toHaveText(/^0:0\d$/);
			});
		} finally {
			await simulator.close();
		}
	});
});

test.describe('Course fire', () => {
	test('a course on hold is fired from the card and shows as fire', async ({ page, simulator }) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.sendTcp(
			'kds-1',
			create(
				order('T7', 'Table 7', [
					line('1', 'Soup', { course: '1', courseStatus: 'fire' }),
					line('2', 'Steak', { course: '2', courseStatus: 'hold' }),
					line('3', 'Fries', { course: '2', courseStatus: 'hold' })
				])
			)
		);
		const table = card(page, 'Table 7');
		await expect(course(table, 'Course 2 — on hold')).toBeVisible();
		await expect(table.getByRole('button', { name: 'Fire Course 1' })).toHaveCount(0);

		await test.step('the cook taps Fire on course 2', async () => {
			await table.getByRole('button', { name: 'Fire Course 2' }).click();
		});

		await test.step('course 2 is fire, its items highlighted; the card stays', async () => {
			const fired = course(table, 'Course 2 — cooking');
			await expect(fired).toBeVisible();
			await expect(course(table, 'Course 2 — on hold')).toHaveCount(0);
			await expectItemHighlighted(fired, 'Steak', 'Changed');
			await expectItemHighlighted(fired, 'Fries', 'Changed');
			await expect(table.getByRole('button', { name: /^Fire Course/ })).toHaveCount(0);
			await expect(table).toBeVisible();
		});
	});
});
