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
import {
	certifyKitchen,
	clientCommand,
	SAMPLE_CLIENTS,
	sampleRunProblems,
	startClientEndpoint,
	type SampleClient
} from '../helpers/certify-clients.ts';
import { ROOT } from '../helpers/process.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import type { Receiver } from '../helpers/webhook-receiver.ts';

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

/** A simulator, and the client's webhook endpoint registered for KDS Order Created. */
async function setUp(client: SampleClient) {
	agent = await startTestAgent({ config: certifyKitchen() as never });
	receiver = await startClientEndpoint(agent.httpUrl, client);
	return agent;
}

/** `kds-sim certify --exec` with a sample client, its whole suite, the report in `out`. */
function certifyWith(client: SampleClient, url: string, out: string) {
	return certify([
		'--url',
		url,
		'--capabilities',
		SAMPLE_CLIENTS[client].capabilities.join(','),
		'--seed',
		'44',
		'--out',
		out,
		'--exec',
		clientCommand(client)
	]);
}

type Report = {
	verdict: string;
	scenarios: Array<{ id: string; verdict: string; reason: string }>;
	transcript: Array<{ payload: string }>;
};

describe('kds-sim certify with the sample POS clients', () => {
	it('the careful POS passes every scenario it declares: exit 0, PASS, JUnit without failures', async () => {
		const sim = await setUp('careful');
		const out = mkdtempSync(join(tmpdir(), 'kds-cert-careful-'));
		const run = await certifyWith('careful', sim.httpUrl, out);
		const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
		expect(sampleRunProblems('careful', report)).toEqual([]);
		expect(run.code, run.stderr).toBe(0);
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
		const sim = await setUp('naive');
		const out = mkdtempSync(join(tmpdir(), 'kds-cert-naive-'));
		const run = await certifyWith('naive', sim.httpUrl, out);
		expect(run.code, run.stderr).toBe(1);
		const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
		// The rule (which scenarios, for which reasons) is tests/helpers/certify-clients.ts's.
		expect(sampleRunProblems('naive', report)).toEqual([]);
		const failed = report.scenarios.filter((s) => s.verdict === 'FAIL').map((s) => s.id);
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
		const sim = await setUp('careful');
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
