/**
 * Refusals where the integrator looks: the screen's strip counts the messages refused in the last
 * ten minutes and leads to the inspector; a refused duplicate leaves the live card's marker alone;
 * the inspector shows the exact reply sent back and, apart, why. Then the integrator edits the
 * refused payload in the inspector, sends the edited copy, sees the answer, and finds the edit
 * logged as such.
 */
import type { Locator, Page } from '@playwright/test';
import { offsetClock } from '../../agent/clock.ts';
import { card, cardById, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item as line, order } from './orders.ts';

const clock = offsetClock(0);
test.use({ simulatorOptions: { clock } });
test.afterEach(() => {
	clock.offset = 0;
});

/** A create with a field the contract does not define: accepted, with a warning. */
const tina = create(order('T-7', 'Tina', [line('1', 'Burger')], { tableColour: 'blue' }));
/** A mode the contract does not know: refused, "Unable to parse data". */
const badMode = create(order('M-1', 'Mo', [line('1', 'Tea')], { mode: 'Dine In' }));

function rows(page: Page): Locator {
	return page
		.getByRole('region', { name: 'Messages' })
		.getByRole('row')
		.filter({ hasNot: page.locator('th') });
}

test('the strip counts recent refusals, and the inspector shows the reply and why apart', async ({
	page,
	simulator
}) => {
	await screenPage(page, simulator, 'kds-1');
	const strip = page.getByRole('link', { name: /refused in the last 10 min/ });

	await test.step('an accepted order with a warning: a marker, no strip', async () => {
		expect(await simulator.sendTcp('kds-1', tina)).toBe('T-7');
		await expect(card(page, 'Tina').getByRole('link', { name: '1 finding' })).toBeVisible();
		await expect(strip).toHaveCount(0);
	});

	await test.step('a refusal from 11 minutes ago does not count', async () => {
		clock.offset = -11 * 60_000;
		expect(await simulator.sendTcp('kds-1', badMode)).toBe('Unable to parse data');
		clock.offset = 0;
		await expect.poll(() => rowsOnScreen(simulator.httpUrl)).toBe(2);
		await expect(strip).toHaveCount(0);
	});

	await test.step('three recent refusals: TCP duplicate, TCP bad mode, HTTP bad body', async () => {
		expect(await simulator.sendTcp('kds-1', tina)).toBe('DUPLICATE_ORDER_ID');
		expect(await simulator.sendTcp('kds-1', badMode)).toBe('Unable to parse data');
		const http = await simulator.sendHttp('create', { id: 'H-1' }, { devices: 'kds-1' });
		expect(http.status).toBe(422);
		await expect(strip).toHaveText(/^\W*3 messages refused in the last 10 min/);
	});

	await test.step("the duplicate's error stays off the valid card with the same id", async () => {
		const marker = cardById(page, 'T-7').getByRole('link', { name: /finding/ });
		await expect(marker).toHaveAccessibleName('1 finding');
		await expect(marker).not.toHaveCSS('background-color', 'rgb(220, 38, 38)');
	});

	await test.step('the kiosk has no strip and no ⚠ markers (they are the integrator’s)', async () => {
		await screenPage(page, simulator, 'kds-1', { kiosk: true });
		await expect(card(page, 'Tina')).toBeVisible();
		await expect(strip).toHaveCount(0);
		await expect(page.getByRole('link', { name: /finding/ })).toHaveCount(0);
		await screenPage(page, simulator, 'kds-1');
		await expect(strip).toBeVisible();
		await expect(card(page, 'Tina').getByRole('link', { name: '1 finding' })).toBeVisible();
	});

	await test.step("the strip opens the inspector on this screen's refusals, every one", async () => {
		await strip.click();
		await expect(page).toHaveURL(/\/inspector\?screen=kds-1&result=refused$/);
		await expect(page.getByRole('combobox', { name: 'Screen' })).toHaveValue('kds-1');
		await expect(page.getByRole('combobox', { name: 'Result' })).toHaveValue('refused');
		// The duplicate (an error finding), both bad modes and the HTTP 422: not Tina's create.
		await expect(rows(page)).toHaveCount(4);
		await expect(rows(page).filter({ hasText: 'T-7' })).toHaveText([/DUPLICATE_ORDER_ID/]);
		await page.getByRole('combobox', { name: 'Result' }).selectOption('Accepted and refused');
		await expect(rows(page)).toHaveCount(5);
	});

	const details = page.getByRole('region', { name: 'Message details' });
	await test.step('the duplicate: the bytes the POS got, and why apart', async () => {
		await rows(page).filter({ hasText: 'DUPLICATE_ORDER_ID' }).click();
		await expect(details.getByLabel('Bytes sent back')).toHaveText('DUPLICATE_ORDER_ID');
		const why = details.getByRole('region', { name: /^Why/ });
		await expect(why).toContainText('T-7');
		await expect(details.getByRole('listitem', { name: /^Error / })).toHaveCount(1);
	});

	await test.step('the bad mode: "Unable to parse data" and nothing more on the wire', async () => {
		await rows(page).filter({ hasText: 'Unable to parse data' }).first().click();
		await expect(details.getByLabel('Bytes sent back')).toHaveText('Unable to parse data');
		await expect(details.getByRole('region', { name: /^Why/ })).toContainText(
			'order.mode: expected one of'
		);
	});

	await test.step('the HTTP refusal: its status, the body as sent, and the reasons', async () => {
		await rows(page).filter({ hasText: 'HTTP' }).click();
		await expect(details).toContainText('HTTP 422');
		const body = details.getByLabel('Bytes sent back');
		const sent = JSON.parse((await body.textContent()) ?? '');
		expect(sent).toMatchObject({ message: expect.stringContaining('name') });
		// The core's error findings, one per line: what the POS must fix.
		const errors = details.getByRole('listitem', { name: /^Error / });
		await expect(errors.first()).toBeVisible();
		const why = details.getByRole('region', { name: /^Why/ });
		for (const text of await errors.locator('> div:nth-child(2)').allTextContents())
			await expect(why).toContainText(text.trim());
	});

	await test.step('a line client: the id, then the newline that its message ended with', async () => {
		const lina = `${JSON.stringify(create(order('L-1', 'Lina', [line('1', 'Tea')])))}\n`;
		expect(await simulator.sendTcp('kds-1', lina)).toBe('L-1\n');
		await rows(page).filter({ hasText: 'L-1' }).click();
		await expect(details.getByLabel('Bytes sent back')).toHaveText('L-1↵');
		await expect(details).toContainText('the string, then a newline (↵)');
	});
});

test('edit a refused payload, send the edited copy, and find the edit logged', async ({
	page,
	simulator
}) => {
	expect(await simulator.sendTcp('kds-1', badMode)).toBe('Unable to parse data');
	await expect.poll(() => rowsOnScreen(simulator.httpUrl)).toBe(1);
	const [{ id: original }] = (await (
		await fetch(`${simulator.httpUrl}/api/admin/messages`)
	).json()) as Array<{ id: number }>;
	await page.goto(`${simulator.httpUrl}/inspector?screen=kds-1`);
	await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
	await rows(page).first().click();
	const details = page.getByRole('region', { name: 'Message details' });
	const editor = details.getByRole('textbox', { name: 'Edited payload' });
	const check = details.getByRole('status', { name: 'JSON check' });
	const send = details.getByRole('button', { name: 'Send edited copy' });

	await test.step('Edit opens the payload, pretty-printed and JSON-checked', async () => {
		await details.getByRole('button', { name: 'Edit', exact: true }).click();
		await expect(editor).toHaveValue(/"mode": "Dine In"/);
		await expect(check).toHaveText('Valid JSON');
		await editor.fill('{"command": "create-order", "order": {');
		await expect(check).toContainText('Not JSON:');
		await expect(editor).toHaveAttribute('aria-invalid', 'true');
		await expect(send).toBeDisabled();
	});

	await test.step('the edited copy goes to the screen and its answer shows', async () => {
		await editor.fill(
			JSON.stringify(create(order('M-1', 'Mo', [line('1', 'Tea')], { mode: 'For Here' })), null, 2)
		);
		await expect(check).toHaveText('Valid JSON');
		await send.click();
		await expect(details.getByRole('status', { name: 'Re-send result' })).toHaveText(
			'Re-sent, answered: M-1'
		);
		expect((await simulator.screenJson('kds-1')).cards.map((c) => c.id)).toEqual(['M-1']);
	});

	await test.step('the log records it as an edit of the refused message', async () => {
		await expect(rows(page)).toHaveCount(2);
		const copy = rows(page).first();
		await expect(copy).toContainText(`inspector edit of #${original}`);
		await expect(copy).toContainText('M-1');
		await copy.click();
		await expect(details).toContainText(`edited copy of #${original}`);
		await expect(details.getByLabel('Bytes sent back')).toHaveText('M-1');
	});
});

/** Messages to kds-1 in the log (the strip reads the same log). */
async function rowsOnScreen(httpUrl: string): Promise<number> {
	const res = await fetch(`${httpUrl}/api/admin/messages?screen=kds-1`);
	return ((await res.json()) as unknown[]).length;
}
