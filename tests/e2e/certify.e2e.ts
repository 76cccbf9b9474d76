/**
 * The guided Certify page in a real browser, at 1280x720 and on a 1024x600 tablet: a person
 * declares what the POS does, picks three scenarios and walks them, the test playing the POS
 * itself (its orders over TCP): each step shows the instruction and what the simulator saw, a tick
 * once the POS did it, Done, Skip with a reason, and the verdict as it goes; at the end the
 * report's downloads, which answer with the run's verdicts. Also the inspector's Export of a
 * stretch of its log as a session file.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/fixtures.ts';

const SHOTS = process.env.KDS_SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
	const path = SHOTS ? `${SHOTS}/${name}.png` : test.info().outputPath(`${name}.png`);
	await page.screenshot({ path, fullPage: false });
}

const create = (id: string, extra: object = {}) => ({
	command: 'create-order',
	order: {
		id,
		name: 'Chloé 🌮',
		time: '2026-12-07T05:00:00Z',
		mode: 'ToGo',
		items: [
			{ lineId: '1', name: '抹茶ラテ', qty: 1, mods: [{ name: 'Oat milk' }] },
			{ lineId: '2', name: 'Cheeseburger', qty: 2, mods: [{ name: 'No onion' }, { name: 'Bacon' }] }
		],
		...extra
	}
});

for (const viewport of [
	{ width: 1280, height: 720 },
	{ width: 1024, height: 600 }
]) {
	const size = `${viewport.width}x${viewport.height}`;
	test.describe(`Certify page at ${size}`, () => {
		test.use({ viewport });
		// Four steps, each waiting on the page's one-second look at the run, and a fault: more than
		// the default minute on a busy two-core machine.
		test.setTimeout(150_000);

		test('a person completes a short guided run while the POS sends', async ({
			page,
			simulator
		}) => {
			await test.step('the home page links to it; the POS declares TCP and picks three scenarios', async () => {
				await page.goto(`${simulator.httpUrl}/`);
				await page.getByRole('link', { name: 'Certify a POS' }).click();
				await expect(page.getByRole('heading', { name: 'Certify a POS' })).toBeVisible();
				const form = page.getByRole('form', { name: 'Start a run' });
				await expect(form.getByRole('checkbox', { name: 'TCP (port 9104)' })).toBeChecked();
				await form.getByText(/^Scenarios: all that apply/).click();
				for (const id of [
					'KDS-CERT-TCP-001',
					'KDS-CERT-TCP-004',
					'KDS-CERT-TCP-009',
					'KDS-CERT-BAD-002'
				])
					await form.getByRole('checkbox', { name: new RegExp(`^${id} `) }).check();
				await expect(form.getByText('Scenarios: 4 chosen')).toBeVisible();
				await expect(form.getByText('4 scenarios on the first screen')).toBeVisible();
				await expect(form.getByRole('button', { name: 'Start the run' })).toBeInViewport();
				await shot(page, `certify-${size}-start`);
				await form.getByRole('button', { name: 'Start the run' }).click();
			});

			const step = page.getByRole('region', { name: 'Current step' });
			const saw = step.getByRole('region', { name: 'What the simulator saw' });
			const list = page.getByRole('navigation', { name: 'Scenarios' });

			await test.step('step 1: the instruction, nothing seen yet, then the tick once the POS sends', async () => {
				await expect(step.getByText('Step 1 of 4')).toBeVisible();
				await expect(step.getByLabel('Instruction')).toContainText(
					'Send a new order over TCP whose items each have a lineId, most with modifiers.'
				);
				await expect(saw.getByLabel('Seen: the POS did it')).toHaveCount(0);
				const { host, port } = simulator.screens[0].tcp;
				await expect(step.getByLabel('Where the POS sends')).toHaveText(
					`Send to TCP ${host}:${port} (screen kds-1)`
				);
				await expect(list.locator('[aria-current="step"]')).toContainText('KDS-CERT-TCP-001');
				expect(await simulator.sendTcp('kds-1', create('C-1'))).toBe('C-1');
				await expect(saw.getByLabel('Seen: the POS did it')).toBeVisible();
				await expect(saw).toContainText('PASS');
				await shot(page, `certify-${size}-step-seen`);
				await expect(step.getByRole('button', { name: 'Done: next step' })).toBeInViewport();
				await step.getByRole('button', { name: 'Done: next step' }).click();
			});

			await test.step('step 2 is skipped with a reason', async () => {
				await expect(step.getByText('Step 2 of 4')).toBeVisible();
				await expect(step.getByRole('heading', { level: 2 })).toHaveText('Priority over TCP');
				await expect(page.getByLabel('Verdict so far')).toHaveText('So far: PASS 1 PASS');
				await step.getByRole('button', { name: 'Skip…' }).click();
				const skip = step.getByRole('form', { name: 'Skip this step' });
				await expect(skip.getByRole('button', { name: 'Skip with this reason' })).toBeDisabled();
				await skip.getByRole('textbox').fill('Our POS has no rush flag yet');
				await shot(page, `certify-${size}-skip`);
				await skip.getByRole('button', { name: 'Skip with this reason' }).click();
				await expect(
					list.getByRole('listitem').filter({ hasText: 'KDS-CERT-TCP-004' })
				).toContainText('SKIPPED');
			});

			await test.step('step 3: create then cancel, ticked, done; the verdict so far follows', async () => {
				await expect(step.getByText('Step 3 of 4')).toBeVisible();
				expect(await simulator.sendTcp('kds-1', create('X-9'))).toBe('X-9');
				expect(
					await simulator.sendTcp('kds-1', { command: 'cancel-order', order: { id: 'X-9' } })
				).toBe('X-9');
				await expect(saw.getByLabel('Seen: the POS did it')).toBeVisible();
				await expect(page.getByLabel('Verdict so far')).toContainText('1 PASS, 1 SKIPPED');
				await shot(page, `certify-${size}-step-3`);
				await step.getByRole('button', { name: 'Done: next step' }).click();
			});

			await test.step('step 4, the bad day: the connection is reset; the order is lost until re-sent', async () => {
				await expect(step.getByText('Step 4 of 4')).toBeVisible();
				await expect(step.getByLabel('Instruction')).toContainText('send it again');
				const reset = await simulator.sendTcp('kds-1', create('B-2')).catch((err: Error) => err);
				expect(reset).not.toBe('B-2');
				await expect(saw).toContainText('FAIL');
				await expect(saw.getByLabel('Seen: the POS did it')).toHaveCount(0);
				await shot(page, `certify-${size}-bad-day-lost`);
				expect(await simulator.sendTcp('kds-1', create('B-2'))).toBe('B-2');
				await expect(saw.getByLabel('Seen: the POS did it')).toBeVisible();
				await step.getByRole('button', { name: 'Done: next step' }).click();
			});

			await test.step('the run is finished: the verdict, each scenario, the reports', async () => {
				const done = page.getByRole('region', { name: 'Run finished' });
				await expect(done.getByRole('heading', { name: /Run finished/ })).toContainText('PASS');
				const rows = done.getByRole('row');
				await expect(rows.filter({ hasText: 'KDS-CERT-TCP-001' })).toContainText('PASS');
				await expect(rows.filter({ hasText: 'KDS-CERT-TCP-004' })).toContainText(
					'Skipped: Our POS has no rush flag yet'
				);
				await expect(rows.filter({ hasText: 'KDS-CERT-TCP-009' })).toContainText('PASS');
				await expect(rows.filter({ hasText: 'KDS-CERT-BAD-002' })).toContainText('PASS');
				const reports = done.getByRole('navigation', { name: 'Report' });
				await shot(page, `certify-${size}-finished`);
				const json = await reports
					.getByRole('link', { name: 'Report (JSON)' })
					.getAttribute('href');
				const report = (await (await page.request.get(`${simulator.httpUrl}${json}`)).json()) as {
					scenarios: Array<{ id: string; verdict: string }>;
				};
				expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual([
					['KDS-CERT-TCP-001', 'PASS'],
					['KDS-CERT-TCP-004', 'SKIPPED'],
					['KDS-CERT-TCP-009', 'PASS'],
					['KDS-CERT-BAD-002', 'PASS']
				]);
				const junit = await reports
					.getByRole('link', { name: 'JUnit XML (for CI)' })
					.getAttribute('href');
				expect(await (await page.request.get(`${simulator.httpUrl}${junit}`)).text()).toContain(
					'<testsuite'
				);
				const transcript = await reports
					.getByRole('link', { name: /Transcript/ })
					.getAttribute('href');
				const lines = (await (await page.request.get(`${simulator.httpUrl}${transcript}`)).text())
					.trimEnd()
					.split('\n');
				// The header, then C-1, X-9 and its cancel, B-2 reset, and B-2 again.
				expect(lines).toHaveLength(6);
				expect(lines.join('\n')).not.toContain('Chloé');
			});
		});
	});
}

test.describe('Inspector export', () => {
	test('downloads the selected stretch of the log as a session file', async ({
		page,
		simulator
	}) => {
		for (const id of ['E-1', 'E-2', 'E-3'])
			expect(await simulator.sendTcp('kds-1', create(id))).toBe(id);
		await page.goto(`${simulator.httpUrl}/inspector`);
		await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
		await page.getByRole('button', { name: '⤓ Export' }).click();
		const bar = page.getByRole('region', { name: 'Export session' });
		await expect(bar.getByRole('link', { name: 'Download 3 messages (.jsonl)' })).toBeVisible();
		const rows = page.getByRole('region', { name: 'Messages' }).getByRole('row');
		await rows.filter({ hasText: 'E-2' }).click();
		await bar.getByRole('button', { name: 'From the selected' }).click();
		const link = bar.getByRole('link', { name: 'Download 2 messages (.jsonl)' });
		await expect(link).toBeVisible();
		await shot(page, 'inspector-export-1280x720');
		const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
		expect(download.suggestedFilename()).toMatch(/^kds-session-.*\.jsonl$/);
		const text = await (await download.createReadStream()).toArray();
		const lines = Buffer.concat(text).toString('utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(3);
		expect(JSON.parse(lines[0])).toMatchObject({ format: 'kds-sim-session', messages: 2 });
		expect(lines.slice(1).map((l) => JSON.parse(JSON.parse(l).text).order.id)).toEqual([
			'E-2',
			'E-3'
		]);
		expect(lines.join('\n')).toContain('Customer 1');
		expect(lines.join('\n')).not.toContain('Chloé');
	});
});
