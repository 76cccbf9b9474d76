/**
 * The order tracker in a real browser (issue 40): the three-screen kitchen of
 * docs/examples/three-screen-kitchen.json, orders sent over TCP and HTTP, the customer-facing page
 * /tracker/loc-1 moving an order from Preparing to Ready when the expo bumps it (a station's bump
 * alone does not), and at once on the Take Out view's "Ready for pickup"; a cancelled order leaves
 * it. Screenshots on a wall TV (1920×1080) and a phone (390×844) go to test-results/screenshots/.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { loadConfigFile } from '../../agent/config.ts';
import { expect, test, type Simulator } from '../helpers/fixtures.ts';

const EXAMPLE = fileURLToPath(
	new URL('../../docs/examples/three-screen-kitchen.json', import.meta.url)
);
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
test.use({ simulatorOptions: { config: loadConfigFile(EXAMPLE) } });

const board = (page: Page, name: 'Preparing' | 'Ready') =>
	page.getByRole('list', { name: `${name} orders` });
const names = async (page: Page, name: 'Preparing' | 'Ready') =>
	(await board(page, name).count()) === 0
		? []
		: board(page, name)
				.getByRole('listitem')
				.evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));

async function send(simulator: Simulator, id: string, name: string, extra: object = {}) {
	const order = {
		id,
		name,
		time: new Date().toISOString(),
		mode: 'ToGo',
		items: [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }],
		...extra
	};
	const res = await simulator.sendHttp('create', order, { devices: 'grill,expo' });
	expect(res.status).toBe(201);
}
async function act(simulator: Simulator, screen: string, action: string, orderId: string) {
	const res = await fetch(`${simulator.httpUrl}/api/screens/${screen}/actions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action, orderId })
	});
	expect(res.status).toBe(200);
}

test.describe('order tracker', () => {
	test('moves an order from Preparing to Ready as the kitchen works', async ({
		page,
		simulator
	}) => {
		await send(simulator, 'T-1', 'Ana', { checkNumber: '101' });
		await send(simulator, 'T-2', 'Bartholomew Featherstonehaugh-Wolfeschlegel');
		await send(simulator, 'T-3', '陳さん 🍜', { checkNumber: '103' });
		await send(simulator, 'T-4', 'Dev', { checkNumber: '104' });
		await page.setViewportSize({ width: 1920, height: 1080 });
		await page.goto(`${simulator.httpUrl}/tracker/loc-1`);
		await expect(page.getByRole('heading', { level: 1, name: 'Demo Kitchen' })).toBeVisible();
		await expect(board(page, 'Preparing').getByRole('listitem')).toHaveCount(4);
		expect(await names(page, 'Preparing')).toEqual([
			'Ana, order 101',
			'Bartholomew Featherstonehaugh-Wolfeschlegel, order T-2',
			'陳さん 🍜, order 103',
			'Dev, order 104'
		]);
		await expect(page.getByText('No orders ready yet')).toBeVisible();

		await test.step('the grill bumps Ana: still preparing; the expo bumps it: ready', async () => {
			await act(simulator, 'grill', 'bump', 'T-1');
			await expect(board(page, 'Ready')).toHaveCount(0);
			await act(simulator, 'expo', 'bump', 'T-1');
			await expect(
				board(page, 'Ready').getByRole('listitem', { name: 'Ana, order 101' })
			).toBeVisible();
			await expect(board(page, 'Preparing').getByRole('listitem')).toHaveCount(3);
		});

		await test.step('"Ready for pickup" on the Take Out view: ready at once', async () => {
			const res = await fetch(`${simulator.httpUrl}/api/screens/expo/orders/T-3/ready`, {
				method: 'POST'
			});
			expect(res.status).toBe(200);
			await expect
				.poll(() => names(page, 'Ready'))
				.toEqual(['陳さん 🍜, order 103', 'Ana, order 101']);
		});

		await test.step('a cancel takes the order off', async () => {
			expect(
				await simulator.sendTcp('expo', { command: 'cancel-order', order: { id: 'T-4' } })
			).toBe('T-4');
			await expect(
				board(page, 'Preparing').getByRole('listitem', { name: 'Dev, order 104' })
			).toHaveCount(0);
		});

		await page.screenshot({ path: join(SHOTS, 'tracker-1920x1080.png') });
		await page.setViewportSize({ width: 390, height: 844 });
		await expect(board(page, 'Ready').getByRole('listitem').first()).toBeInViewport();
		// On a phone the customer looks for the number: as large as the name, not 11 px.
		const numberPx = await board(page, 'Ready')
			.locator('.number')
			.first()
			.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
		expect(numberPx).toBeGreaterThanOrEqual(20);
		await page.screenshot({ path: join(SHOTS, 'tracker-390x844.png'), fullPage: true });
	});

	test('a busy wall board shows every order in view, newest too (none clipped off the side)', async ({
		page,
		simulator
	}) => {
		const guests = [
			'María José',
			'Hiro 寿司',
			'Priya 🌶️',
			'Christopher-Alexander',
			'Ana',
			'Léa',
			'Bartholomew Featherstonehaugh-Wolfeschlegel',
			'Maximiliana Oppenheimerstraße'
		];
		for (let i = 0; i < 24; i++) await send(simulator, `B-${i}`, `${guests[i % 8]} ${i}`);
		await page.setViewportSize({ width: 1920, height: 1080 });
		await page.goto(`${simulator.httpUrl}/tracker/loc-1`);
		const entries = board(page, 'Preparing').getByRole('listitem');
		await expect(entries).toHaveCount(24);
		for (let i = 0; i < 24; i++) await expect(entries.nth(i)).toBeInViewport({ ratio: 1 });
		// No name broken inside a word: each word (a hyphen ends one) sits on one line.
		const broken = await board(page, 'Preparing')
			.locator('.name')
			.evaluateAll((names) =>
				names.flatMap((el) => {
					const text = el.firstChild;
					if (!text || text.nodeType !== Node.TEXT_NODE) return [];
					const out: string[] = [];
					for (const m of (text.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
						const range = document.createRange();
						range.setStart(text, m.index);
						range.setEnd(text, m.index + m[0].length);
						const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
						if (lines.size > 1) out.push(m[0]);
					}
					return out;
				})
			);
		expect(broken).toEqual([]);
		// And none cut short: every name whole, its number (" 22") too.
		const cut = await board(page, 'Preparing')
			.locator('.name')
			.evaluateAll((names) =>
				names
					// A line cut off by the clamp is a whole line more (glyphs overhang a few px).
					.filter(
						(el) =>
							el.scrollHeight - el.clientHeight > parseFloat(getComputedStyle(el).lineHeight) / 2
					)
					.map((el) => el.textContent)
			);
		expect(cut).toEqual([]);
		await page.screenshot({ path: join(SHOTS, 'tracker-busy-1920x1080.png') });
	});

	test('an unknown location is a 404 page', async ({ page, simulator }) => {
		await page.goto(`${simulator.httpUrl}/tracker/nowhere`);
		await expect(page.getByText('Unknown location nowhere')).toBeVisible();
	});
});
