/**
 * NEW / CHANGED marks last until a cook has seen the card (the `changeMarks` setting, default
 * 'seen'): the cook selected the card (a tap, the bump bar's arrows) and moved on. A browser that
 * reloads remembers what it saw. `changeMarks` seconds (the setting, or `?changeMarks=` for one
 * browser) make them go after that long as well. Time passes on both clocks with no waiting: the
 * browser's is Playwright's fake one (page.clock), the agent's an offsetClock.
 */
import type { Locator, Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { card, expect, screenPage, test as base, type Simulator } from '../helpers/fixtures.ts';
import { create, item, order, update } from './orders.ts';

const test = base.extend<{
	clock: ReturnType<typeof offsetClock>;
	/** The first screen's settings in the agent's config (none: the defaults). */
	screenSettings: Record<string, unknown> | undefined;
}>({
	screenSettings: [undefined, { option: true }],
	// eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies this way
	clock: async ({}, use) => {
		await use(offsetClock(0));
	},
	simulatorOptions: async ({ clock, screenSettings }, use) => {
		const config = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
		};
		if (screenSettings) config.brands[0].locations[0].screens[0].settings = screenSettings;
		await use({ clock, config });
	}
});

/**
 * `ms` pass in the kitchen: on the browser's clock (timers firing), then on the agent's. The page
 * reads the agent's time from its messages, so it reloads to take the new time from a snapshot at
 * once (a clock jump is not what a kitchen sees; the reload also shows what was seen survives).
 */
async function pass(page: Page, clock: { offset: number }, ms: number) {
	await page.clock.runFor(ms);
	clock.offset += ms;
	await page.reload();
	await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
}

/** The change mark on an item line ('New', 'Changed'), or none. */
function mark(cardLocator: Locator, itemName: string): Locator {
	return cardLocator
		.getByRole('listitem', { name: new RegExp(`^\\d+ × ${itemName}(?:$| \\()`) })
		.locator('.tag.change');
}

/** Two orders, then an update that adds Onion Rings and changes the burger to two. */
async function changeTable1(simulator: Simulator) {
	for (const o of [
		order('1', 'Table 1', [item('1', 'Burger')]),
		order('2', 'Table 2', [item('1', 'Soup')])
	]) {
		expect(await simulator.sendTcp('kds-1', create(o))).toBe(o.id);
	}
	const changed = order('1', 'Table 1', [
		item('1', 'Burger', { qty: 2 }),
		item('2', 'Onion Rings')
	]);
	expect(await simulator.sendTcp('kds-1', update(changed))).toBe('1');
}

/** Table 1's item marks as the agent's JSON view of the screen reports them. */
async function agentMarks(simulator: Simulator): Promise<unknown[]> {
	const view = (await simulator.screenJson('kds-1')) as {
		cards: Array<{
			title: string;
			sections: Array<{ entries: Array<{ item?: { highlighted: unknown } }> }>;
		}>;
	};
	const table1 = view.cards.find((c) => c.title === 'Table 1');
	return table1!.sections.flatMap((s) => s.entries.map((e) => e.item?.highlighted));
}

async function openScreen(page: Page, simulator: Simulator, query = '') {
	await page.clock.install();
	await page.setViewportSize({ width: 800, height: 480 });
	if (query) await page.goto(`${simulator.screenUrl('kds-1')}${query}`);
	else await screenPage(page, simulator, 'kds-1');
}

test.describe('Change marks last until a cook has seen them', () => {
	test('still there after 30 s; gone once the cook selected the card and moved on', async ({
		page,
		simulator,
		clock
	}) => {
		await openScreen(page, simulator);
		await changeTable1(simulator);
		const table1 = card(page, 'Table 1');
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		await expect(mark(table1, 'Burger')).toHaveText('Changed');

		await test.step('a minute later nobody has looked: the marks are still there', async () => {
			await pass(page, clock, 61_000);
			await expect(table1.getByRole('timer')).toHaveText(/^1:\d\d$/);
			await expect(mark(table1, 'Onion Rings')).toHaveText('New');
			await expect(mark(table1, 'Burger')).toHaveText('Changed');
		});
		await test.step('a tap selects the card: the marks stay while the cook reads it', async () => {
			await table1.getByRole('heading').click();
			await expect(table1).toHaveAttribute('data-selected', '');
			await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		});
		await test.step('the cook moves on to another card: the marks go', async () => {
			await card(page, 'Table 2').getByRole('heading', { level: 2 }).click();
			await expect(card(page, 'Table 2')).toHaveAttribute('data-selected', '');
			await expect(mark(table1, 'Onion Rings')).toHaveCount(0);
			await expect(mark(table1, 'Burger')).toHaveCount(0);
			await expect(table1.locator('[data-change]')).toHaveCount(0);
		});
		await test.step('a reload (a kiosk that reboots) does not mark them again', async () => {
			await pass(page, clock, 1000);
			await expect(table1.getByRole('listitem', { name: /Onion Rings/ })).toBeVisible();
			await expect(table1.locator('.tag.change')).toHaveCount(0);
		});
		await test.step('a later change is marked again', async () => {
			const again = order('1', 'Table 1', [
				item('1', 'Burger', { qty: 2 }),
				item('2', 'Onion Rings'),
				item('3', 'Shake')
			]);
			expect(await simulator.sendTcp('kds-1', update(again))).toBe('1');
			await expect(mark(table1, 'Shake')).toHaveText('New');
			await expect(mark(table1, 'Onion Rings')).toHaveCount(0);
		});
	});

	test('the bump bar arrows see a card too', async ({ page, simulator }) => {
		await openScreen(page, simulator);
		await changeTable1(simulator);
		const table1 = card(page, 'Table 1');
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		await page.keyboard.press('ArrowRight');
		await expect(table1).toHaveAttribute('data-selected', '');
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		await page.keyboard.press('ArrowRight');
		await expect(card(page, 'Table 2')).toHaveAttribute('data-selected', '');
		await expect(mark(table1, 'Onion Rings')).toHaveCount(0);
	});

	test('?changeMarks=30: the marks also go after 30 s, unseen', async ({
		page,
		simulator,
		clock
	}) => {
		await openScreen(page, simulator, '?changeMarks=30');
		await changeTable1(simulator);
		const table1 = card(page, 'Table 1');
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		await pass(page, clock, 20_000);
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		await pass(page, clock, 11_000);
		await expect(mark(table1, 'Onion Rings')).toHaveCount(0);
		await expect(mark(table1, 'Burger')).toHaveCount(0);
		await expect(table1.getByRole('listitem', { name: /Onion Rings/ })).toBeVisible();
	});
});

test.describe('The changeMarks screen setting', () => {
	test.use({ screenSettings: { changeMarks: 10 } });

	test('seconds from the setting; ?changeMarks=seen on one browser overrides it', async ({
		page,
		simulator,
		clock
	}) => {
		await openScreen(page, simulator);
		await changeTable1(simulator);
		const table1 = card(page, 'Table 1');
		await expect(mark(table1, 'Onion Rings')).toHaveText('New');
		expect(await agentMarks(simulator)).toEqual(['updated', 'added']);
		await pass(page, clock, 11_000);
		await expect(mark(table1, 'Onion Rings')).toHaveCount(0);
		// The agent's JSON view of the screen reads the same setting.
		expect(await agentMarks(simulator)).toEqual([null, null]);

		await page.goto(`${simulator.screenUrl('kds-1')}?changeMarks=seen`);
		await expect(mark(card(page, 'Table 1'), 'Onion Rings')).toHaveText('New');
	});
});
