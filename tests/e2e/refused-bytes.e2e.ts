/**
 * Bytes refused over TCP before any JSON (a plain-text line, XML, UTF-16, a binary run) reach the
 * inspector: the Refused filter finds them beside the schema's refusals, each with the exact reply
 * the client got, why, and the bytes as they came (control characters made visible).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../helpers/fixtures.ts';
import { sendTcpRaw } from '../helpers/tcp.ts';
import { create, item as line, order } from './orders.ts';

function rows(page: Page): Locator {
	return page
		.getByRole('region', { name: 'Messages' })
		.getByRole('row')
		.filter({ hasNot: page.locator('th') });
}

test.describe('Refused TCP bytes in the inspector', () => {
	test.slow();

	test('the Refused filter finds every refusal, non-JSON bytes included', async ({
		page,
		simulator
	}) => {
		const screen = simulator.screens[0];
		await test.step('a POS sends text, XML, UTF-16 and binary, then one good order', async () => {
			const send = (bytes: string | Uint8Array) =>
				sendTcpRaw(screen.tcp.host, screen.tcp.port, [bytes]);
			expect(await send('hello kitchen\n')).toBe('Unable to parse data\n');
			expect(await send('<order id="1"><name>Ana</name></order>')).toBe('Unable to parse data');
			expect(await send(Buffer.from([0x00, 0x01, 0x1b, 0xc3, 0x28, 0xff]))).toBe(
				'Unable to parse data'
			);
			const utf16 = Buffer.concat([
				Buffer.from([0xff, 0xfe]),
				Buffer.from('{"id":"U-1"}', 'utf16le')
			]);
			expect(await send(utf16)).toBe('Unable to parse data'.repeat(3));
			expect(
				await simulator.sendTcp('kds-1', create(order('G-1', 'Gus', [line('1', 'Soup')])))
			).toBe('G-1');
		});

		await page.goto(`${simulator.httpUrl}/inspector`);
		await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
		await expect(rows(page)).toHaveCount(7);

		await test.step('Refused: all six refusals, not the accepted order', async () => {
			await page.getByRole('combobox', { name: 'Result' }).selectOption('Refused');
			await expect(page).toHaveURL(/[?&]result=refused/);
			await expect(rows(page)).toHaveCount(6);
			await expect(rows(page).filter({ hasText: 'G-1' })).toHaveCount(0);
		});

		const details = page.getByRole('region', { name: 'Message details' });
		await test.step('the plain-text line: the reply with its newline, why, the bytes', async () => {
			await rows(page).last().click();
			await expect(details.getByLabel('Bytes sent back')).toHaveText('Unable to parse data↵');
			await expect(details.getByRole('region', { name: /^Why/ })).toContainText(
				'not JSON: bytes outside any {…} message'
			);
			await expect(details.getByRole('region', { name: 'Payload' })).toContainText('hello kitchen');
		});
		await test.step('the binary run: control characters visible, bad UTF-8 as �', async () => {
			await rows(page).nth(3).click();
			await expect(details.getByRole('region', { name: 'Payload' })).toContainText(
				'\\x00\\x01\\x1b�(�'
			);
			await expect(details.getByRole('region', { name: /^Why/ })).toContainText(
				'bytes that are not UTF-8 show as �'
			);
			await page.setViewportSize({ width: 1280, height: 720 });
			await page.screenshot({ path: 'test-results/refused-bytes-1280x720.png' });
			await page.setViewportSize({ width: 1920, height: 1080 });
			await page.screenshot({ path: 'test-results/refused-bytes-1920x1080.png' });
		});
		await test.step('the XML, sent without a newline, as it came', async () => {
			await rows(page).nth(4).click();
			await expect(details.getByRole('region', { name: 'Payload' })).toContainText(
				'<order id="1"><name>Ana</name></order>'
			);
		});
	});
});
