/**
 * The Python fixture's certification run (python/kds_sim_fixture.py KdsSim.certify): a POS's
 * Python code performs each step over TCP (tests/integration/python/certify_pos.py); the report
 * and its JUnit come back to it. Then the whole suite with each sample POS client of
 * tests/clients doing the steps (tests/integration/python/certify_clients.py), graded as the
 * CLI's and the Playwright fixture's runs are (tests/helpers/certify-clients.ts). docs/certify.md.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import {
	certifyKitchen,
	SAMPLE_CLIENTS,
	sampleRunProblems,
	startClientEndpoint,
	type SampleClient
} from '../helpers/certify-clients.ts';
import { ROOT } from '../helpers/process.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent?.close());

/** A Python script of tests/integration/python, with the fixture on its path. */
function python(script: string, args: string[]) {
	return new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
		// Asynchronously: the simulator answers in this process.
		const child = spawn('python3', [join(ROOT, 'tests/integration/python', script), ...args], {
			env: { ...process.env, PYTHONPATH: join(ROOT, 'python'), PYTHONDONTWRITEBYTECODE: '1' }
		});
		let out = '';
		let err = '';
		child.stdout.on('data', (c: Buffer) => (out += c));
		child.stderr.on('data', (c: Buffer) => (err += c));
		child.on('close', (status: number | null) => resolve({ status, out, err }));
	});
}

it('sim.certify runs each step with the POS code, skips on its word, and returns the report', async () => {
	const run = await python('certify_pos.py', [agent.httpUrl]);
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

describe('the whole suite with the sample POS clients through sim.certify', () => {
	for (const client of ['careful', 'naive'] as const satisfies readonly SampleClient[]) {
		it(`the ${client} POS gets what it should`, async () => {
			const sim = await startTestAgent({ config: certifyKitchen() as never });
			const endpoint = await startClientEndpoint(sim.httpUrl, client);
			try {
				const run = await python('certify_clients.py', [
					sim.httpUrl,
					SAMPLE_CLIENTS[client].capabilities.join(','),
					process.execPath,
					SAMPLE_CLIENTS[client].script
				]);
				expect(run.status, run.err.slice(-4000)).toBe(0);
				const report = JSON.parse(run.out) as Parameters<typeof sampleRunProblems>[1];
				expect(sampleRunProblems(client, report)).toEqual([]);
				expect(report.scenarios.length).toBe(38);
			} finally {
				await sim.close();
				await endpoint.close();
			}
		}, 300_000);
	}
});
