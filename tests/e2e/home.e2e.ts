/**
 * The home page tells a newcomer how to point a POS at this very simulator: the base URL, the
 * headers with the real token and location, and curl and nc examples with the real ports that,
 * pasted into a shell, create an order. /docs wears the product's header with a way back.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from '../helpers/fixtures.ts';

test.describe('Home page: point a POS at it', () => {
	test.slow();

	test('base URL, headers and ready-to-paste examples that work as pasted', async ({
		page,
		simulator
	}) => {
		const tcp = simulator.screens[0].tcp;
		await page.goto(simulator.httpUrl);
		const connect = page.getByRole('region', { name: 'Point a POS at it' });
		await expect(connect.getByLabel('Base URL')).toHaveText(simulator.httpUrl);
		await expect(connect).toContainText('x-integration-token: kds-demo-token');
		await expect(connect).toContainText('x-location-id: loc-1');
		await expect(connect).toContainText(`kds-1 ${tcp.host}:${tcp.port}`);

		const curl = (await connect.getByLabel('HTTP (curl) example').textContent()) ?? '';
		const nc = (await connect.getByLabel('TCP (nc) example').textContent()) ?? '';
		expect(nc).toContain(`nc -N ${tcp.host} ${tcp.port}`);

		for (const width of [1280, 800]) {
			await page.setViewportSize({ width, height: width === 800 ? 480 : 720 });
			await connect.scrollIntoViewIfNeeded();
			await page.screenshot({ path: `test-results/home-${width}.png` });
		}

		await test.step('the examples carry the time the page was drawn, not a fixed date', async () => {
			const sent = JSON.parse(/-d '(.*)'$/s.exec(curl)?.[1] ?? '{}') as { time: string };
			expect(Math.abs(Date.parse(sent.time) - Date.now())).toBeLessThan(5 * 60_000);
		});

		await test.step('what to do next; Clear now apart from the tracker link', async () => {
			await page.setViewportSize({ width: 1280, height: 720 });
			const next = page.getByRole('region', { name: 'What to do next' });
			await expect(next.getByRole('listitem')).toHaveText([
				/^Open a screen below/,
				/^Send it orders/,
				/^Read what the screen made/
			]);
			const location = page.getByRole('region', { name: /Demo Kitchen/ });
			const tracker = await location.getByRole('link', { name: 'Order tracker' }).boundingBox();
			const clear = await location.getByRole('button', { name: 'Clear now' }).boundingBox();
			// At the row's far end: a finger aimed at the tracker link cannot land on it.
			expect(clear!.x - (tracker!.x + tracker!.width)).toBeGreaterThan(200);
			await page.evaluate(() => window.scrollTo(0, 0));
			await page.screenshot({ path: 'test-results/home-top-1280x720.png' });
			await page.setViewportSize({ width: 800, height: 480 });
			await page.screenshot({ path: 'test-results/home-top-800x480.png' });
		});

		await test.step('pasted into a shell, both create an order', async () => {
			// Async: the simulator runs in this process, a blocking call would never be answered.
			const shell = (script: string) => promisify(execFile)('sh', ['-c', script]);
			expect((await shell(curl)).stdout).not.toBe('');
			expect((await shell(nc)).stdout).toBe('3002');
			const screen = await simulator.screenJson('kds-1');
			expect(screen.cards.map((c) => c.id)).toEqual(expect.arrayContaining(['3001', '3002']));
			// Placed just now: the card does not call it days old.
			expect(screen.cards.map((c) => c.backdated)).toEqual([false, false]);
		});

		await test.step("after the README's examples, they still create orders (ids of their own)", async () => {
			const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
			const readmeIds = [...readme.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]);
			expect(readmeIds).toEqual(expect.arrayContaining(['1001', '1002', 'W-2001']));
			const homeIds = [...`${curl}\n${nc}`.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]);
			expect(homeIds).toEqual(['3001', '3002']);
			expect(homeIds.filter((id) => readmeIds.includes(id))).toEqual([]);
		});

		await test.step('/docs: the product’s header, and the way back', async () => {
			await connect.getByRole('link', { name: 'API reference (/docs)' }).click();
			await expect(
				page.getByRole('heading', { name: 'KDS simulator: API reference' })
			).toBeVisible();
			await page.setViewportSize({ width: 1280, height: 720 });
			await page.screenshot({ path: 'test-results/docs-1280x720.png' });
			await page.getByRole('link', { name: '◀ Screens' }).click();
			await expect(page.getByRole('heading', { name: 'KDS simulator', exact: true })).toBeVisible();
		});
	});
});
