/**
 * The admin JSON view of a screen (GET /api/admin/screens/{id}, issue 6) equals what the browser
 * shows for the same screen: the cards in the same order with the same titles and state, each
 * item line with the same name, deleted and highlighted flags, in the same item group and course,
 * and the same holds list. What the page shows is read from the DOM, not from the app's state.
 */
import type { Page } from '@playwright/test';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { expect, screenPage, startSimulator, test } from '../helpers/fixtures.ts';
import { cancel, create, createFromSample, item as line, order, patch, update } from './orders.ts';

interface JsonItem {
	label: string;
	deleted: boolean;
	highlighted: 'added' | 'updated' | null;
}
interface JsonView {
	cards: Array<{
		position: number;
		id: string;
		title: string;
		cancelled: boolean;
		priority: boolean;
		recalled: boolean;
		sections: Array<{
			label: string;
			course: string | null;
			status: string | null;
			entries: Array<
				{ kind: 'item'; item: JsonItem } | { kind: 'group'; name: string; items: JsonItem[] }
			>;
		}>;
	}>;
	holds: Array<{ id: string; title: string }>;
}

/** One card, as both sides are compared: the item lines as [label, deleted, change, group, course]. */
interface Shown {
	id: string;
	title: string;
	cancelled: boolean;
	priority: boolean;
	recalled: boolean;
	items: Array<[string, boolean, string | null, string | null, string | null]>;
}

function fromJson(view: JsonView): Shown[] {
	return view.cards.map((c) => ({
		id: c.id,
		title: c.title,
		cancelled: c.cancelled,
		priority: c.priority,
		recalled: c.recalled,
		items: c.sections.flatMap((s) => {
			// The card draws a course box only for a course or a course status.
			const course = s.course !== null || s.status !== null ? s.label : null;
			const line = (i: JsonItem, group: string | null): Shown['items'][number] => [
				i.label,
				i.deleted,
				i.highlighted,
				group,
				course
			];
			return s.entries.flatMap((e) =>
				e.kind === 'item' ? [line(e.item, null)] : e.items.map((i) => line(i, e.name))
			);
		})
	}));
}

/** What the page draws, card by card in document (queue) order. */
function fromPage(page: Page): Promise<Shown[]> {
	return page.getByRole('main', { name: 'Orders' }).evaluate((main) =>
		[...main.querySelectorAll<HTMLElement>('article[data-order-id]')].map((card) => ({
			id: card.dataset.orderId ?? '',
			title: card.querySelector('h2')?.textContent?.trim() ?? '',
			cancelled: card.querySelector('[role="note"][aria-label="Cancelled"]') !== null,
			priority: card.querySelector('[aria-label="Priority"]') !== null,
			recalled: card.querySelector('[aria-label="Recalled"]') !== null,
			items: [...card.querySelectorAll<HTMLElement>('li[aria-label]')].map(
				(li): [string, boolean, string | null, string | null, string | null] => [
					li.getAttribute('aria-label') ?? '',
					li.querySelector('del') !== null,
					li.dataset.change ?? null,
					li.closest('.item-group')?.getAttribute('aria-label') ?? null,
					li.closest('section[role="group"]')?.getAttribute('aria-label') ?? null
				]
			)
		}))
	);
}

test.describe('JSON view of a screen', () => {
	test('equals what the browser shows: cards, items, flags, groups, courses and holds', async ({
		page
	}) => {
		const config = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
		};
		config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
		const simulator = await startSimulator({ config });
		try {
			await screenPage(page, simulator, 'kds-1');
			const send = async (message: object, reply: string) =>
				expect(await simulator.sendTcp('kds-1', message)).toBe(reply);

			await test.step('a POS sends a mixed service over TCP and HTTP', async () => {
				await send(
					create(order('1001', 'Maria', [line('1', 'Cheeseburger'), line('2', 'Side Salad')])),
					'1001'
				);
				const combo = createFromSample('http-create-combo-groups.json').order as object;
				const http = await simulator.sendHttp('create', combo, { devices: 'kds-1' });
				expect(http.status).toBe(201);
				await send(
					create(
						order('P-10', 'Party of 10', [
							line('1', 'Garlic Bread', { course: '1', courseStatus: 'fire' }),
							line('2', 'Lasagna', { qty: 2, course: '2', courseStatus: 'hold' }),
							line('3', 'Tiramisu', { course: '3', courseStatus: 'hold' })
						])
					),
					'P-10'
				);
				await send(create(order('W-1', 'Walk-in', [line('1', 'Latte')])), 'W-1');
				await send(create(order('B-1', 'Bumped', [line('1', 'Tea')])), 'B-1');
				await send(
					update(
						order('1001', 'Maria', [
							line('1', 'Cheeseburger', { qty: 2, mods: [{ name: 'No pickles' }] }),
							line('3', 'Onion Rings')
						])
					),
					'1001'
				);
				await send(patch({ id: 'P-10', priority: true, itemsToRemove: ['3'] }), 'P-10');
				await send(cancel('W-1'), 'W-1');
				const pickup = new Date(Date.now() + 3 * 60 * 60_000).toISOString();
				await send(
					create(
						order('F-1', 'Catering: Acme', [line('1', 'Sandwich Platter', { qty: 3 })], {
							mode: 'Pickup',
							pickupTime: pickup,
							prepTimeDuration: 'PT45M'
						})
					),
					'F-1'
				);
			});

			await test.step('a cook bumps one order on the screen', async () => {
				await page.getByRole('button', { name: 'Bump Bumped' }).click();
				await expect(page.getByRole('article', { name: 'Bumped' })).toHaveCount(0);
			});

			const res = await fetch(`${simulator.httpUrl}/api/admin/screens/kds-1`);
			expect(res.status).toBe(200);
			const view = (await res.json()) as JsonView;

			await test.step('the JSON view says what was sent', async () => {
				expect(view.cards.map((c) => [c.position, c.title])).toEqual([
					[1, 'Party of 10'],
					[2, 'Maria'],
					[3, 'Sam'],
					[4, 'Walk-in']
				]);
				const shown = fromJson(view);
				expect(shown[0].priority).toBe(true);
				expect(shown[3].cancelled).toBe(true);
				expect(shown[1].items).toEqual([
					['2 × Cheeseburger (No pickles)', false, 'updated', null, null],
					['Deleted: 1 × Side Salad', true, null, null, null],
					['1 × Onion Rings', false, 'added', null, null]
				]);
				expect(shown[0].items.map((i) => [i[0], i[4]])).toEqual([
					['1 × Garlic Bread', 'Course 1 — cooking'],
					['2 × Lasagna', 'Course 2 — on hold'],
					['Deleted: 1 × Tiramisu', 'Course 3']
				]);
				expect(shown[2].items.filter((i) => i[3] !== null).length).toBeGreaterThan(1);
				expect(view.holds.map((h) => h.title)).toEqual(['Catering: Acme']);
			});

			await test.step('the browser shows the same cards, items and flags, in the same order', async () => {
				await expect.poll(() => fromPage(page)).toEqual(fromJson(view));
			});

			await test.step('and the same holds list', async () => {
				await page.getByRole('button', { name: /^Holds/ }).click();
				const drawer = page.getByRole('complementary', { name: 'Holds' });
				await expect(drawer.getByRole('listitem')).toHaveCount(view.holds.length);
				const names = await drawer
					.getByRole('listitem')
					.evaluateAll((items) => items.map((li) => li.getAttribute('aria-label')));
				expect(names).toEqual(view.holds.map((h) => h.title));
			});
		} finally {
			await simulator.close();
		}
	});
});

test.describe('JSON view of the takeout view and pop-ups', () => {
	test('lists the same takeout orders, in the same order and arrival state, and the same pop-up', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.sendTcp(
			'kds-1',
			create(order('T-1', 'Jamie', [line('1', 'Burger')], { mode: 'ToGo' }))
		);
		await simulator.sendTcp('kds-1', create(order('H-1', 'Table 4', [line('1', 'Soup')])));
		await simulator.sendTcp('kds-1', createFromSample('http-create-curbside.json'));
		await simulator.sendTcp(
			'kds-1',
			create(order('D-1', 'Robin', [line('1', 'Wrap')], { mode: 'DriveThru' }))
		);
		const notify = async (
			route: 'customer-arrived' | 'estimated-arrival-update' | 'send-message',
			body: object
		) => expect((await simulator.sendHttp(route, body, { devices: 'kds-1' })).status).toBe(200);
		await notify('estimated-arrival-update', { id: 'D-1', minutes: 9 });
		await notify('customer-arrived', { id: 'C-3107' });
		await notify('send-message', { message: '86 the salmon' });

		const view = await simulator.screenJson('kds-1');
		expect(view.takeout.map((t) => [t.title, t.arrived])).toEqual([
			['Alex', true],
			['Robin', false],
			['Jamie', false]
		]);
		expect(view.popups.map((p) => p.message)).toEqual(['86 the salmon']);

		const dialog = page.getByRole('alertdialog', { name: 'Message: 86 the salmon' });
		await expect(dialog).toBeVisible();
		await dialog.getByRole('button', { name: 'OK' }).click();
		await expect.poll(async () => (await simulator.screenJson('kds-1')).popups).toEqual([]);

		await page.getByRole('button', { name: 'Takeout' }).click();
		const rows = page.getByRole('region', { name: 'Takeout' }).getByRole('listitem');
		await expect(rows).toHaveCount(view.takeout.length);
		const shown = await rows.evaluateAll((items) =>
			items.map((li) => [li.getAttribute('aria-label'), li.getAttribute('data-arrived') === 'true'])
		);
		expect(shown).toEqual(view.takeout.map((t) => [t.title, t.arrived]));
	});
});
