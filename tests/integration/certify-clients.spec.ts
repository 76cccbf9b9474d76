/**
 * The whole certification suite, run through `kds-sim certify --exec` with the two sample POS
 * clients of tests/clients (docs/certify.md): the careful one passes every scenario it declares;
 * the naive one fails exactly the scenarios it should, each for the stated reason. The report's
 * files are read as a CI run would: the exit code, report.json, the JUnit file, the HTML page.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseTestResults } from 'test-results-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { ROOT } from '../helpers/process.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const ALL = 'tcp,http,courses,itemGroups,notifications,webhooks,scheduled';

/** The demo kitchen, its first screen holding future orders (a scheduled order is held). */
function kitchen() {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	return config;
}

function certify(
	args: string[],
	input = ''
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = execFile(
			process.execPath,
			['--import', 'tsx', 'agent/cli/cli.ts', 'certify', ...args],
			{ cwd: ROOT, timeout: 240_000 },
			(err, stdout, stderr) =>
				resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		);
		child.stdin?.end(input);
	});
}

let agent: RunningAgent | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
	await agent?.close();
	await receiver?.close();
	agent = receiver = undefined;
});

/** A simulator, and the POS's webhook endpoint registered for KDS Order Created (the portal step). */
async function setUp(answer: (orders: Set<string>, order: string) => number) {
	agent = await startTestAgent({ config: kitchen() as never });
	receiver = await startReceiver();
	const seen = new Set<string>();
	receiver.answer((_n, req) => {
		const order = String(req.body?.supplierOrderId ?? req.body?.data?.supplierOrderId ?? req.raw);
		const status = answer(seen, order);
		seen.add(order);
		return { status, body: status < 300 ? 'ok' : 'already have it' };
	});
	const res = await fetch(`${agent.httpUrl}/api/admin/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ url: receiver.url, triggers: ['KDS Order Created'] })
	});
	expect(res.status).toBe(201);
	return agent;
}

type Report = {
	verdict: string;
	scenarios: Array<{ id: string; verdict: string; reason: string }>;
	transcript: Array<{ payload: string }>;
};

describe('kds-sim certify with the sample POS clients', () => {
	it('the careful POS passes every scenario it declares: exit 0, PASS, JUnit without failures', async () => {
		const sim = await setUp(() => 200);
		const out = mkdtempSync(join(tmpdir(), 'kds-cert-careful-'));
		const run = await certify([
			'--url',
			sim.httpUrl,
			'--capabilities',
			ALL,
			'--seed',
			'44',
			'--out',
			out,
			'--exec',
			'node tests/clients/certify_careful.mjs'
		]);
		const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
		const notPassed = report.scenarios
			.filter((s) => s.verdict !== 'PASS')
			.map((s) => `${s.id} ${s.verdict}: ${s.reason}`);
		expect(notPassed).toEqual([]);
		expect(run.code, run.stderr).toBe(0);
		expect(report.verdict).toBe('PASS');
		expect(run.stdout).toMatch(/^Verdict: PASS \(\d+ PASS\); report in /m);
		const junit = parseTestResults({ type: 'junit', files: [join(out, 'report.junit.xml')] });
		expect([junit.status, junit.failed, junit.passed]).toEqual([
			'PASS',
			0,
			report.scenarios.length
		]);
		expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
			'Not the vendor’s certification.'
		);
		expect(report.transcript.map((t) => t.payload).join('\n')).not.toContain('Zoë');
	}, 300_000);

	it('the naive POS fails exactly what it should, each for the stated reason: exit 1', async () => {
		// Its endpoint refuses an event it has already seen (the same order delivered twice).
		const sim = await setUp((seen, order) => (seen.has(order) ? 409 : 200));
		const out = mkdtempSync(join(tmpdir(), 'kds-cert-naive-'));
		const run = await certify([
			'--url',
			sim.httpUrl,
			'--capabilities',
			'tcp,http,notifications,webhooks',
			'--seed',
			'44',
			'--out',
			out,
			'--exec',
			'node tests/clients/certify_naive.mjs'
		]);
		expect(run.code, run.stderr).toBe(1);
		const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
		const verdicts = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict]));
		const reasons = Object.fromEntries(report.scenarios.map((s) => [s.id, s.reason]));
		const failed = Object.keys(verdicts).filter((id) => verdicts[id] === 'FAIL');
		expect(failed, JSON.stringify(reasons, null, 1)).toEqual([
			'KDS-CERT-TCP-001',
			'KDS-CERT-TCP-008',
			'KDS-CERT-HTTP-001',
			'KDS-CERT-HTTP-008',
			'KDS-CERT-HTTP-010',
			'KDS-CERT-HOOK-002',
			'KDS-CERT-BAD-001',
			'KDS-CERT-BAD-003',
			'KDS-CERT-BAD-004',
			'KDS-CERT-BAD-006',
			'KDS-CERT-BAD-101',
			'KDS-CERT-BAD-102',
			'KDS-CERT-BAD-103',
			'KDS-CERT-BAD-105',
			'KDS-CERT-BAD-106',
			'KDS-CERT-BAD-107'
		]);
		// No modifiers; partial updates that only add; HTTP times without offset.
		expect(reasons['KDS-CERT-TCP-001']).toMatch(/no item carried modifiers/);
		expect(reasons['KDS-CERT-HTTP-008']).toMatch(/no itemsToUpdate/);
		expect(reasons['KDS-CERT-HTTP-010']).toMatch(/KDS-TIME-NO-OFFSET/);
		// Its endpoint refuses the same event delivered twice.
		expect(reasons['KDS-CERT-HOOK-002']).toMatch(/answered 409, not 2xx/);
		// Never reads a reply: a lost reply or none at all goes unnoticed.
		expect(reasons['KDS-CERT-BAD-001']).toMatch(/KDS-FAULT-NEVER-RESENT|neither sent it again/);
		expect(reasons['KDS-CERT-BAD-006']).toMatch(/KDS-FAULT-NEVER-RESENT|neither sent it again/);
		// Retries at once: a storm against a screen that is down; a rebooting screen: it gives up.
		expect(reasons['KDS-CERT-BAD-003']).toMatch(/^KDS-FAULT-RETRY-STORM/);
		expect(reasons['KDS-CERT-BAD-004']).toMatch(
			/^KDS-FAULT-RETRY-STORM: .* while it was rebooting/
		);
		// Gives up on an error status: the order is lost (503, 429, 500, the screen offline).
		for (const id of [
			'KDS-CERT-BAD-101',
			'KDS-CERT-BAD-102',
			'KDS-CERT-BAD-103',
			'KDS-CERT-BAD-107'
		])
			expect(reasons[id], id).toMatch(/^KDS-FAULT-ORDER-LOST/);
		// Re-sends under a new id after a time-out: two tickets for one order.
		expect(reasons['KDS-CERT-BAD-105']).toMatch(/^KDS-FAULT-RESENT-NEW-ID/);
		expect(reasons['KDS-CERT-BAD-106']).toMatch(/^two tickets for one order/);
		// What it does right is not called wrong: a reset retried at once, a new id after a drop.
		expect(verdicts['KDS-CERT-BAD-002']).toBe('PASS');
		expect(verdicts['KDS-CERT-BAD-104']).toBe('PASS');
		expect(verdicts['KDS-CERT-TCP-003']).toBe('NOT_APPLICABLE');
		expect(run.stdout).toMatch(/^FAIL KDS-CERT-BAD-003: KDS-FAULT-RETRY-STORM/m);
		// Read by a JUnit consumer CI reporting tools use (test-results-parser, of testbeats).
		const junit = parseTestResults({ type: 'junit', files: [join(out, 'report.junit.xml')] });
		const cases = junit.suites.flatMap((suite) => suite.cases);
		expect(junit.status).toBe('FAIL');
		expect(cases.length).toBe(report.scenarios.length);
		expect(cases.filter((c) => c.status === 'FAIL').map((c) => c.name.split(' ')[0])).toEqual(
			failed
		);
		expect(cases.find((c) => c.name.startsWith('KDS-CERT-BAD-003'))?.failure).toMatch(
			/^KDS-FAULT-RETRY-STORM/
		);
		expect(cases.filter((c) => c.status === 'SKIP').length).toBe(6);
	}, 300_000);

	it('by hand: each instruction printed, answered on standard input (skip with a reason, stop)', async () => {
		const sim = await setUp(() => 200);
		const out = mkdtempSync(join(tmpdir(), 'kds-cert-hand-'));
		const run = await certify(
			[
				'--url',
				sim.httpUrl,
				'--capabilities',
				'tcp',
				'--scenarios',
				'KDS-CERT-TCP-001,KDS-CERT-TCP-004,KDS-CERT-BAD-001',
				'--out',
				out
			],
			'skip our menu has no modifiers\nstop\n'
		);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toContain(
			'KDS-CERT-TCP-001 A create with line ids and modifiers over TCP\n  Send a new order over TCP whose items each have a lineId, most with modifiers.'
		);
		const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
		expect(report.scenarios.map((s) => [s.id, s.verdict, s.reason])).toEqual([
			['KDS-CERT-TCP-001', 'SKIPPED', 'our menu has no modifiers'],
			['KDS-CERT-TCP-004', 'SKIPPED', 'the run was stopped during this step'],
			['KDS-CERT-BAD-001', 'SKIPPED', 'not reached: the run was stopped first']
		]);
	}, 60_000);

	it('refuses a bad command line with exit code 2, and a simulator it cannot reach', async () => {
		const bad = await certify(['--capabilities', 'tcp,fax']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/invalid --capabilities "tcp,fax" .*unknown: fax/);
		const none = await certify(['--url', 'http://127.0.0.1:1', '--capabilities', 'tcp']);
		expect(none.code).toBe(2);
		expect(none.stderr).toMatch(/cannot reach the simulator at http:\/\/127\.0\.0\.1:1/);
	}, 60_000);
});
