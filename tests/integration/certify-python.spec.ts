/**
 * The Python fixture's certification run (python/kds_sim_fixture.py KdsSim.certify): a POS's
 * Python code performs each step over TCP (tests/integration/python/certify_pos.py); the report
 * and its JUnit come back to it. docs/certify.md.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { ROOT } from '../helpers/process.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent?.close());

it('sim.certify runs each step with the POS code, skips on its word, and returns the report', async () => {
	const run = await new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
		// Asynchronously: the simulator answers in this process.
		const child = spawn(
			'python3',
			[join(ROOT, 'tests/integration/python/certify_pos.py'), agent.httpUrl],
			{
				env: { ...process.env, PYTHONPATH: join(ROOT, 'python'), PYTHONDONTWRITEBYTECODE: '1' }
			}
		);
		let out = '';
		let err = '';
		child.stdout.on('data', (c: Buffer) => (out += c));
		child.stderr.on('data', (c: Buffer) => (err += c));
		child.on('close', (status: number | null) => resolve({ status, out, err }));
	});
	expect(run.status, run.err).toBe(0);
	const { report, junit } = JSON.parse(run.out) as {
		report: { verdict: string; scenarios: Array<{ id: string; verdict: string; reason: string }> };
		junit: string;
	};
	expect(report.verdict).toBe('PASS');
	expect(report.scenarios.map((s) => [s.id, s.verdict, s.reason])).toEqual([
		['KDS-CERT-TCP-001', 'PASS', 'accepted as the step asks'],
		['KDS-CERT-TCP-004', 'SKIPPED', 'no rush orders at our counter'],
		['KDS-CERT-BAD-001', 'PASS', expect.stringMatching(/DUPLICATE_ORDER_ID: expected/)]
	]);
	expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
}, 120_000);
