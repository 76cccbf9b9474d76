/**
 * The certification report (docs/certify.md), in three forms from one object: JSON (the
 * record), JUnit XML (one test case per scenario, for any CI) and a printable HTML page (the
 * summary first). Customer data (names, phone numbers, addresses, staff names) is redacted by
 * the project's one redaction (#core/redact) from the transcript and the evidence lines before
 * anything is hashed or written; a SHA-256 over the
 * scenarios' ids and versions and the redacted transcript lets a reader check nothing was edited.
 */
import { createHash } from 'node:crypto';
import { SCENARIOS, SUITE_VERSION } from '#core/certify/catalog';
import type { ScenarioVerdict } from '#core/certify/evidence';
import type { MessageEntry } from '#core/message-entry';
import { Redactor } from '#core/redact';
import type { CertifyRuns } from './run.ts';

export const REPORT_SCHEMA_VERSION = 1;

export const DISCLAIMER =
	'This report is produced by kds-sim, an open-source simulator. It is not the kitchen display vendor’s certification and grants no production credentials; it records what the simulator observed.';

export interface TranscriptEntry {
	id: number;
	at: string;
	scenario: string;
	interface: 'tcp' | 'http';
	command: string | null;
	orderId: string | null;
	result: string;
	ok: boolean;
	fault: string | null;
	findings: string[];
	payload: string;
}

export interface CertifyReport {
	schemaVersion: number;
	suiteVersion: string;
	runId: string;
	seed: number;
	simulator: { name: 'kds-sim'; version: string };
	notVendorCertification: string;
	capabilities: string[];
	target: { screen: string; location: string };
	startedAt: string;
	endedAt: string | null;
	verdict: 'PASS' | 'FAIL' | 'WARN';
	counts: Record<ScenarioVerdict['verdict'], number>;
	scenarios: ScenarioVerdict[];
	transcript: TranscriptEntry[];
	/** SHA-256 (hex) of the canonical JSON of {suiteVersion, scenarios: [id, version], transcript}. */
	sha256: string;
}

/** The hash a reader recomputes: sha256 of JSON.stringify({suiteVersion, scenarios, transcript}). */
export function reportHash(
	report: Pick<CertifyReport, 'suiteVersion' | 'scenarios' | 'transcript'>
): string {
	const canonical = JSON.stringify({
		suiteVersion: report.suiteVersion,
		scenarios: report.scenarios.map((s) => [s.id, s.version]),
		transcript: report.transcript
	});
	return createHash('sha256').update(canonical).digest('hex');
}

export function buildReport(runs: CertifyRuns, version: string): CertifyReport | null {
	const run = runs.current();
	if (!run) return null;
	// One redactor for the whole report: the same customer, the same stand-in everywhere.
	const redactor = new Redactor();
	const rows: Array<{ scenario: string; m: MessageEntry; payload: string }> = [];
	for (const step of run.steps) {
		for (const m of step.evidence?.messages ?? [])
			rows.push({ scenario: step.scenario.id, m, payload: redactor.message(m.raw) });
	}
	const transcript: TranscriptEntry[] = rows.map(({ scenario, m, payload }) => ({
		id: m.id,
		at: new Date(m.at).toISOString(),
		scenario,
		interface: m.interface,
		command: m.command,
		orderId: m.orderId,
		result: redactor.text(m.result),
		ok: m.ok,
		fault: m.fault ?? null,
		findings: m.findings.map((f) => f.code),
		payload
	}));
	const scenarios = runs.verdicts().map((v) => ({
		...v,
		reason: redactor.text(v.reason),
		seen: v.seen.map((s) => ({ ...s, what: redactor.text(s.what) }))
	}));
	const counts = { PASS: 0, FAIL: 0, WARN: 0, SKIPPED: 0, NOT_APPLICABLE: 0 };
	for (const s of scenarios) counts[s.verdict] += 1;
	const body = { suiteVersion: SUITE_VERSION, scenarios, transcript };
	return {
		schemaVersion: REPORT_SCHEMA_VERSION,
		suiteVersion: SUITE_VERSION,
		runId: run.runId,
		seed: run.seed,
		simulator: { name: 'kds-sim', version },
		notVendorCertification: DISCLAIMER,
		capabilities: run.capabilities,
		target: { screen: run.target.screen, location: run.target.location },
		startedAt: new Date(run.startedAt).toISOString(),
		endedAt: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
		verdict: runs.overall(),
		counts,
		scenarios,
		transcript,
		sha256: reportHash(body)
	};
}

const xml = (s: string) =>
	s
		// eslint-disable-next-line no-control-regex -- XML 1.0 has no place for these: dropped
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');

/** JUnit XML: one testsuite per group, one testcase per scenario; failure / skipped elements. */
export function junitXml(report: CertifyReport): string {
	const groups = new Map<string, ScenarioVerdict[]>();
	for (const s of report.scenarios) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
	const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
	const fails = report.counts.FAIL;
	const skipped = report.counts.SKIPPED + report.counts.NOT_APPLICABLE;
	out.push(
		`<testsuites name="kds-sim certify ${xml(report.runId)}" tests="${report.scenarios.length}" failures="${fails}" errors="0" skipped="${skipped}">`
	);
	for (const [group, list] of groups) {
		const f = list.filter((s) => s.verdict === 'FAIL').length;
		const k = list.filter((s) => s.verdict === 'SKIPPED' || s.verdict === 'NOT_APPLICABLE').length;
		out.push(
			`  <testsuite name="${xml(group)}" tests="${list.length}" failures="${f}" errors="0" skipped="${k}" timestamp="${xml(report.startedAt.slice(0, 19))}">`
		);
		out.push('    <properties>');
		out.push(`      <property name="suiteVersion" value="${xml(report.suiteVersion)}"/>`);
		out.push(`      <property name="seed" value="${report.seed}"/>`);
		out.push(`      <property name="sha256" value="${report.sha256}"/>`);
		out.push(`      <property name="capabilities" value="${xml(report.capabilities.join(','))}"/>`);
		out.push('    </properties>');
		for (const s of list) {
			const evidence = s.seen.map((e) => `${e.ref} ${e.what}`).join('\n');
			out.push(
				`    <testcase classname="kds-sim.certify.${xml(group)}" name="${xml(`${s.id} ${s.title}`)}" time="0">`
			);
			if (s.verdict === 'FAIL')
				out.push(
					`      <failure message="${xml(s.reason)}" type="FAIL">${xml(`Expected: ${s.expected}\nSeen:\n${evidence}`)}</failure>`
				);
			else if (s.verdict === 'SKIPPED' || s.verdict === 'NOT_APPLICABLE')
				out.push(`      <skipped message="${xml(`${s.verdict}: ${s.reason}`)}"/>`);
			else if (s.verdict === 'WARN')
				out.push(`      <system-out>${xml(`WARN: ${s.reason}\n${evidence}`)}</system-out>`);
			out.push('    </testcase>');
		}
		out.push('  </testsuite>');
	}
	out.push('</testsuites>');
	return `${out.join('\n')}\n`;
}

const html = (s: string) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLOURS: Record<string, string> = {
	PASS: '#166534',
	FAIL: '#b91c1c',
	WARN: '#a16207',
	SKIPPED: '#475569',
	NOT_APPLICABLE: '#64748b'
};

/** A printable page: the summary first, then each scenario with its evidence. */
export function reportHtml(report: CertifyReport): string {
	const badge = (v: string) =>
		`<span class="badge" style="background:${COLOURS[v] ?? '#333'}">${html(v.replace('_', ' '))}</span>`;
	const rows = report.scenarios
		.map(
			(s) =>
				`<tr><td><code>${html(s.id)}</code></td><td>${html(s.title)}</td><td>${badge(s.verdict)}</td><td>${html(s.reason)}</td></tr>`
		)
		.join('\n');
	const details = report.scenarios
		.filter((s) => s.verdict !== 'NOT_APPLICABLE')
		.map(
			(s) => `<section class="scenario">
<h3>${badge(s.verdict)} <code>${html(s.id)}</code> v${s.version}: ${html(s.title)}</h3>
<p><strong>Why:</strong> ${html(s.reason)}</p>
<p><strong>Expected:</strong> ${html(s.expected)}</p>
${s.seen.length > 0 ? `<ul class="seen">${s.seen.map((e) => `<li><code>${html(e.ref)}</code> ${html(e.what)}</li>`).join('')}</ul>` : '<p class="none">Nothing observed.</p>'}
</section>`
		)
		.join('\n');
	const c = report.counts;
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kds-sim certification report ${html(report.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#111;margin:2rem auto;max-width:60rem;padding:0 1rem}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
h3{font-size:1rem;margin:.2rem 0}
.verdict{font-size:2rem;font-weight:700}.badge{color:#fff;border-radius:3px;padding:0 .4em;font-size:.8rem;font-weight:600;white-space:nowrap}
.disclaimer{border:2px solid #a16207;background:#fefce8;padding:.5rem .75rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dt{font-weight:600}dd{margin:0}
.scenario{break-inside:avoid;margin:1rem 0;padding-top:.25rem;border-top:1px solid #eee}.seen{font-size:.85rem;margin:.25rem 0}
code{font-size:.85em;word-break:break-all}td:first-child code{white-space:nowrap;word-break:normal}.none{color:#666}
@media print{body{margin:0;max-width:none}a{color:inherit}}
</style></head><body>
<h1>Is this POS ready? kds-sim certification report</h1>
<p class="verdict" style="color:${COLOURS[report.verdict]}">${html(report.verdict)}</p>
<p>${c.PASS} passed · ${c.FAIL} failed · ${c.WARN} warned · ${c.SKIPPED} skipped · ${c.NOT_APPLICABLE} not applicable</p>
<p class="disclaimer"><strong>Not the vendor’s certification.</strong> ${html(report.notVendorCertification)}</p>
<dl>
<dt>Run</dt><dd><code>${html(report.runId)}</code>, seed ${report.seed}</dd>
<dt>Suite</dt><dd>${html(report.suiteVersion)} (report schema ${report.schemaVersion})</dd>
<dt>Simulator</dt><dd>kds-sim ${html(report.simulator.version)}</dd>
<dt>Declared</dt><dd>${html(report.capabilities.join(', '))}</dd>
<dt>Screen</dt><dd>${html(report.target.screen)} at ${html(report.target.location)}</dd>
<dt>Time</dt><dd>${html(report.startedAt)} – ${html(report.endedAt ?? 'in progress')}</dd>
<dt>SHA-256</dt><dd><code>${report.sha256}</code></dd>
</dl>
<h2>Summary</h2>
<table><thead><tr><th>Scenario</th><th>What</th><th>Verdict</th><th>Why</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Each scenario, with its evidence</h2>
${details}
<h2>Transcript</h2>
<p>${report.transcript.length} messages, customer data redacted (names, phone numbers, addresses). Whole in the JSON report.</p>
</body></html>
`;
}

/** The catalog, as GET /api/admin/certify/scenarios answers it. */
export function catalog() {
	return { suiteVersion: SUITE_VERSION, scenarios: SCENARIOS };
}
