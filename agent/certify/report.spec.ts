import { createHash } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseTestResults } from 'test-results-parser';
import { describe, expect, it } from 'vitest';
import type { MessageEntry } from '#core/message-entry';
import { buildReport, junitXml, reportHtml } from './report.ts';
import { CertifyRuns, type CertifyDeps } from './run.ts';

/** A run over a fake simulator: a log the test writes, no faults, no webhooks. */
function fakeRun() {
	const log: MessageEntry[] = [];
	let now = 1_000;
	const deps: CertifyDeps = {
		now: () => now,
		messages: {
			get lastId() {
				return log.length;
			},
			since: (id) => log.filter((m) => m.id > id),
			list: () => [...log].reverse()
		},
		faults: {
			add: () => ({ ok: true, added: [] }),
			remove: () => true,
			touchedList: () => []
		},
		webhooks: { endpoints: () => [], deliveries: () => [], resend: () => undefined },
		target: () => ({ screen: 'kds-1', location: 'loc-1', tcp: { host: '127.0.0.1', port: 9104 } }),
		version: '9.9.9'
	};
	const receive = (raw: string, over: Partial<MessageEntry> = {}) => {
		now += 10;
		log.push({
			id: log.length + 1,
			at: now,
			interface: 'tcp',
			source: '127.0.0.1:5000',
			screenIds: ['kds-1'],
			command: 'create-order',
			orderId: 'R-1',
			result: 'R-1',
			ok: true,
			raw,
			findings: [],
			...over
		});
	};
	return { runs: new CertifyRuns(deps), receive };
}

const order = {
	command: 'create-order',
	order: {
		id: 'R-1',
		name: 'María José <Ortega> & "Co"',
		phoneNumber: '+14155550123',
		deliveryAddress: '1 Main St, Springfield',
		time: 1_800_000_000_000,
		mode: 'Delivery',
		items: [{ lineId: '1', name: '寿司 Sushi 🍣', qty: 2, mods: [{ name: 'No wasabi' }] }]
	}
};

describe('the certification report', () => {
	it('redacts customer data, and its SHA-256 is what a reader recomputes; an edit shows', async () => {
		const { runs, receive } = fakeRun();
		runs.start({
			capabilities: ['tcp'],
			seed: 5,
			scenarios: ['KDS-CERT-TCP-001', 'KDS-CERT-TCP-004']
		});
		receive(JSON.stringify(order));
		await runs.advance();
		await runs.skip('no priority orders');
		const report = buildReport(runs, '9.9.9')!;
		expect(report.verdict).toBe('PASS');
		const text = JSON.stringify(report);
		for (const secret of ['María', 'Ortega', '4155550123', 'Main St'])
			expect(text).not.toContain(secret);
		expect(report.transcript[0].payload).toContain('寿司 Sushi 🍣');
		expect(report.transcript[0].scenario).toBe('KDS-CERT-TCP-001');
		const recompute = (r: typeof report) =>
			createHash('sha256')
				.update(
					JSON.stringify({
						suiteVersion: r.suiteVersion,
						scenarios: r.scenarios.map((s) => [s.id, s.version]),
						transcript: r.transcript
					})
				)
				.digest('hex');
		expect(recompute(report)).toBe(report.sha256);
		const edited = structuredClone(report);
		edited.transcript[0].result = 'R-2';
		expect(recompute(edited)).not.toBe(report.sha256);
	});

	it('writes JUnit a JUnit consumer reads, with escaped text, and HTML with the summary first', async () => {
		const { runs, receive } = fakeRun();
		runs.start({ capabilities: ['tcp'], scenarios: ['KDS-CERT-TCP-001', 'KDS-CERT-TCP-003'] });
		receive(JSON.stringify(order), {
			ok: false,
			result: 'Unable to parse data',
			why: 'mode: expected one of <For Here>, got "Drive" & more'
		});
		await runs.advance();
		const report = buildReport(runs, '9.9.9')!;
		const xml = junitXml(report);
		const file = join(mkdtempSync(join(tmpdir(), 'kds-junit-')), 'report.junit.xml');
		writeFileSync(file, xml);
		const parsed = parseTestResults({ type: 'junit', files: [file] });
		const cases = parsed.suites.flatMap((s) => s.cases);
		expect(cases.map((c) => [c.name.split(' ')[0], c.status])).toEqual([
			['KDS-CERT-TCP-001', 'FAIL'],
			['KDS-CERT-TCP-003', 'SKIP']
		]);
		expect(cases[0].failure).toBe(
			'the create was refused: mode: expected one of <For Here>, got "Drive" & more'
		);
		const html = reportHtml(report);
		expect(html.indexOf('<h2>Summary</h2>')).toBeLessThan(html.indexOf('<h2>Each scenario'));
		expect(html).toContain('expected one of &lt;For Here&gt;, got &quot;Drive&quot; &amp; more');
		expect(html).not.toContain('<For Here>');
	});
});
