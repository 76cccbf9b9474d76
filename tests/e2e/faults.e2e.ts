import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { card, cards, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

/**
 * Faults on cue in the browser (docs/faults.md): the panel from the screen page (two taps to
 * switch Wi-Fi down on, two to switch it off, kiosk at 800x480 too), the plain indicator while a
 * fault is on, what a POS then reads, and the inspector marking the message a fault touched and
 * naming the client that duplicated.
 */
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const maria = () =>
	create(
		order('F-1', 'Maria 🌮', [
			item('1', 'Tacos al pastor', { mods: [{ name: 'No cilantro' }] }),
			item('2', '牛肉麺 Beef noodle soup')
		])
	);

test.describe('faults on cue', () => {
	for (const { size, kiosk } of [
		{ size: { width: 800, height: 480 }, kiosk: true },
		{ size: { width: 1280, height: 720 }, kiosk: false }
	]) {
		test(`Wi-Fi down in two taps, and off in two, at ${size.width}x${size.height}${kiosk ? ' (kiosk)' : ''}`, async ({
			page,
			simulator
		}) => {
			await page.setViewportSize(size);
			await screenPage(page, simulator, 'kds-1', { kiosk });
			await simulator.sendTcp('kds-1', maria());
			await expect(card(page, 'Maria 🌮')).toBeVisible();
			await expect(page.getByRole('status', { name: 'Simulated faults on' })).toHaveCount(0);

			await test.step('on: Faults, then Wi-Fi down', async () => {
				await page.getByRole('button', { name: 'Faults', exact: true }).click();
				const dialog = page.getByRole('dialog', { name: 'Faults on cue: kds-1' });
				await dialog.getByRole('button', { name: /^Wi-Fi down/ }).click();
				await expect(dialog.getByRole('button', { name: /^Wi-Fi down/ })).toHaveAttribute(
					'aria-pressed',
					'true'
				);
				// Nothing was sent yet: no "fired 1×"; being offline is a state, on now.
				await expect(dialog.getByRole('listitem', { name: /^down \(f\d+\)$/ })).toContainText(
					'waiting, not fired yet'
				);
				await expect(dialog.getByRole('listitem', { name: /^cloud-offline/ })).toContainText(
					'on now'
				);
				await expect(dialog).not.toContainText('fired 1×');
				mkdirSync(SHOTS, { recursive: true });
				await page.screenshot({
					path: join(SHOTS, `faults-panel-${size.width}x${size.height}.png`)
				});
				await dialog.getByRole('button', { name: 'Close', exact: true }).click();
			});

			await test.step('the screen says so plainly, and the POS is refused', async () => {
				const strip = page.getByRole('status', { name: 'Simulated faults on' });
				await expect(strip).toContainText('down, cloud-offline');
				await expect(strip).toContainText('on purpose');
				await expect(card(page, 'Maria 🌮')).toBeVisible();
				await expect(
					simulator.sendTcp('kds-1', create(order('F-2', 'Ana', [item('1', 'Soup')])))
				).rejects.toThrow();
				const http = await simulator.sendHttp(
					'create',
					order('F-3', 'Ana', [item('1', 'Soup')], { time: new Date().toISOString() }),
					{
						devices: 'kds-1'
					}
				);
				expect(http.status).toBe(502);
				await page.screenshot({ path: join(SHOTS, `faults-on-${size.width}x${size.height}.png`) });
			});

			await test.step('off: Faults, then Wi-Fi down again', async () => {
				await page.getByRole('button', { name: 'Faults (on)' }).click();
				const dialog = page.getByRole('dialog', { name: 'Faults on cue: kds-1' });
				await dialog.getByRole('button', { name: /^Wi-Fi down/ }).click();
				await expect(dialog.getByRole('button', { name: /^Wi-Fi down/ })).toHaveAttribute(
					'aria-pressed',
					'false'
				);
				await dialog.getByRole('button', { name: 'Close', exact: true }).click();
				await expect(page.getByRole('status', { name: 'Simulated faults on' })).toHaveCount(0);
				expect(
					await simulator.sendTcp('kds-1', create(order('F-4', 'Ana', [item('1', 'Soup')])))
				).toBe('F-4');
				await expect(cards(page)).toHaveCount(2);
			});
		});
	}

	test('a correct retry after a lost reply is expected, not refused: on the screen and in the inspector', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		// A POS that retries well: no reply, so the same id again; DUPLICATE_ORDER_ID: it is there.
		expect(await simulator.sendTcp('kds-1', maria())).toBe('');
		expect(await simulator.sendTcp('kds-1', maria())).toBe('DUPLICATE_ORDER_ID');
		// And a duplicate no fault explains: a real refusal, to count against.
		const ana = create(order('F-9', 'Ana', [item('1', 'Soup')]));
		expect(await simulator.sendTcp('kds-1', ana)).toBe('F-9');
		expect(await simulator.sendTcp('kds-1', ana)).toBe('DUPLICATE_ORDER_ID');

		await test.step('the cook’s screen counts one refusal, not two', async () => {
			await expect(cards(page)).toHaveCount(2);
			await expect(page.getByRole('link', { name: /refused in the last 10 min/ })).toHaveText(
				/^\W*1 message refused in the last 10 min/
			);
		});

		await test.step('the inspector: the retry is info, the fault named; the other is an error', async () => {
			await page.goto(`${simulator.httpUrl}/inspector`);
			const rows = page.getByRole('row').filter({ hasText: 'DUPLICATE_ORDER_ID' });
			await expect(rows).toHaveCount(2);
			const retry = rows.filter({ hasText: 'F-1' });
			const real = rows.filter({ hasText: 'F-9' });
			await expect(retry.getByLabel(/^\d+ errors?$/)).toHaveCount(0);
			await expect(retry.getByLabel(/^\d+ infos?$/)).toBeVisible();
			await expect(retry.getByText('ℹ retry after lost-reply (f1)')).toBeVisible();
			await expect(real.getByLabel('1 error')).toBeVisible();
			mkdirSync(SHOTS, { recursive: true });
			await page.screenshot({ path: join(SHOTS, 'faults-expected-retry-1280x720.png') });
			await retry.getByRole('button').first().click();
			await expect(page.getByText('Expected: reply on the wire')).toBeVisible();
			await expect(page.getByText('KDS-FAULT-RETRY-EXPECTED').first()).toBeVisible();
		});

		await test.step('the Refused filter lists the real refusal only', async () => {
			await page.getByRole('combobox', { name: 'Result' }).selectOption('refused');
			const rows = page.getByRole('row').filter({ hasText: 'DUPLICATE_ORDER_ID' });
			await expect(rows).toHaveCount(1);
			await expect(rows).toContainText('F-9');
		});
	});

	test('the fixture’s helpers, and the inspector names the client that duplicated', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
		// A POS that re-sends under a new id when it gets no reply.
		expect(await simulator.sendTcp('kds-1', maria())).toBe('');
		const again = create(
			order('F-1-retry', 'Maria 🌮', [
				item('1', 'Tacos al pastor', { mods: [{ name: 'No cilantro' }] }),
				item('2', '牛肉麺 Beef noodle soup')
			])
		);
		expect(await simulator.sendTcp('kds-1', again)).toBe('F-1-retry');
		expect((await simulator.faultReport()).clients[0].verdict).toBe('error');
		// Two tickets for one order on the cook's screen: the error the report names.
		await expect(card(page, 'Maria 🌮')).toHaveCount(2);

		await page.goto(`${simulator.httpUrl}/inspector?faults=1`);
		await expect(page.getByText('⚡ lost-reply (f1)')).toBeVisible();
		const client = page.getByRole('listitem', { name: 'Client tcp 127.0.0.1: Error' });
		await expect(client).toContainText('KDS-FAULT-RESENT-NEW-ID');
		await expect(client).toContainText('re-sent order F-1 as F-1-retry');
		await page.screenshot({ path: join(SHOTS, 'faults-inspector-1280x720.png') });
		// The panel from the inspector.
		await page.getByRole('button', { name: '⚡ Faults panel' }).click();
		// Spent (its one reply lost): listed apart, not as on.
		const dialog = page.getByRole('dialog', { name: 'Faults on cue: kds-1' });
		await expect(dialog.getByRole('list', { name: 'Spent faults' })).toContainText(
			'fired 1×, spent'
		);
		await expect(dialog.getByRole('list', { name: 'Faults on' })).toHaveCount(0);
		await expect(dialog).toContainText('No fault on this screen');
	});

	test('a reboot: the screen goes away, its browser sees it, and it comes back with its orders', async ({
		page,
		simulator
	}) => {
		await screenPage(page, simulator, 'kds-1');
		await simulator.sendTcp('kds-1', maria());
		await expect(card(page, 'Maria 🌮')).toBeVisible();
		await simulator.addFault({ kind: 'reboot', screen: 'kds-1', seconds: 3 });
		await expect(page.getByRole('alert', { name: 'Not connected' })).toBeVisible();
		// While away its port resets each connection (counted: a storm is named).
		await expect(simulator.sendTcp('kds-1', maria())).rejects.toThrow(/ECONNRESET|ECONNREFUSED/);
		await expect(page.getByRole('alert', { name: 'Not connected' })).toHaveCount(0, {
			timeout: 20_000
		});
		await expect(card(page, 'Maria 🌮')).toBeVisible();
		expect(await simulator.sendTcp('kds-1', maria())).toBe('DUPLICATE_ORDER_ID');
	});
});
