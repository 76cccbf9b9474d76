/**
 * The two sample POS clients of tests/clients as a certification run meets them (docs/certify.md
 * "The sample clients"): the kitchen they are certified on, their webhook endpoint, what each
 * declares, and the verdicts each must get, written once for every way the suite is run with
 * them: `kds-sim certify --exec` (tests/integration/certify-clients.spec.ts), the Playwright
 * fixture (tests/e2e/certify-clients.e2e.ts) and the Python fixture
 * (tests/integration/certify-python.spec.ts).
 */
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import type { Capability } from './certify.ts';
import { ROOT } from './process.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

export const ALL_CAPABILITIES: Capability[] = [
	'tcp',
	'http',
	'courses',
	'itemGroups',
	'notifications',
	'webhooks',
	'scheduled'
];

export type SampleClient = 'careful' | 'naive';

export const SAMPLE_CLIENTS: Record<
	SampleClient,
	{
		/** The client program, run once per step with the step in CERTIFY_STEP. */
		script: string;
		/** What it declares at the start of the run. */
		capabilities: Capability[];
		/** Its webhook endpoint answers 409 to an event it has already seen (the naive one). */
		refusesSeenEvents: boolean;
	}
> = {
	careful: {
		script: join(ROOT, 'tests/clients/certify_careful.mjs'),
		capabilities: ALL_CAPABILITIES,
		refusesSeenEvents: false
	},
	naive: {
		script: join(ROOT, 'tests/clients/certify_naive.mjs'),
		capabilities: ['tcp', 'http', 'notifications', 'webhooks'],
		refusesSeenEvents: true
	}
};

/** The shell command that runs a sample client for one step (`--exec`), on this Node. */
export function clientCommand(client: SampleClient): string {
	return `${JSON.stringify(process.execPath)} ${JSON.stringify(SAMPLE_CLIENTS[client].script)}`;
}

/** The demo kitchen, its first screen holding future orders (a scheduled order is held). */
export function certifyKitchen() {
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	return config;
}

/**
 * The client's webhook endpoint (a real receiver on loopback), registered on the simulator for
 * KDS Order Created (the vendor's portal step, here the admin API). Close it after the run.
 */
export async function startClientEndpoint(
	httpUrl: string,
	client: SampleClient
): Promise<Receiver> {
	const receiver = await startReceiver();
	const seen = new Set<string>();
	receiver.answer((_n, req) => {
		const order = String(req.body?.supplierOrderId ?? req.body?.data?.supplierOrderId ?? req.raw);
		const status = SAMPLE_CLIENTS[client].refusesSeenEvents && seen.has(order) ? 409 : 200;
		seen.add(order);
		return { status, body: status < 300 ? 'ok' : 'already have it' };
	});
	const res = await fetch(`${httpUrl}/api/admin/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ url: receiver.url, triggers: ['KDS Order Created'] })
	});
	if (res.status !== 201) {
		await receiver.close();
		throw new Error(`registering the webhook endpoint: ${res.status} ${await res.text()}`);
	}
	return receiver;
}

/**
 * What the naive POS fails, in the catalog's order, each with the reason it must be failed for
 * (docs/certify.md's table): no modifiers; partial updates that only add; HTTP times without an
 * offset; an endpoint that refuses the same event delivered twice; never reading a reply;
 * retrying at once; giving up on an error status; re-sending under a new id after a time-out.
 */
export const NAIVE_FAILS: Array<[id: string, reason: RegExp]> = [
	['KDS-CERT-TCP-001', /no item carried modifiers/],
	['KDS-CERT-TCP-008', /no itemsToUpdate/],
	['KDS-CERT-HTTP-001', /no item carried modifiers/],
	['KDS-CERT-HTTP-008', /no itemsToUpdate/],
	['KDS-CERT-HTTP-010', /KDS-TIME-NO-OFFSET/],
	['KDS-CERT-HOOK-002', /answered 409, not 2xx/],
	['KDS-CERT-BAD-001', /KDS-FAULT-NEVER-RESENT|neither sent it again/],
	['KDS-CERT-BAD-003', /^KDS-FAULT-RETRY-STORM/],
	['KDS-CERT-BAD-004', /^KDS-FAULT-RETRY-STORM: .* while it was rebooting/],
	['KDS-CERT-BAD-006', /KDS-FAULT-NEVER-RESENT|neither sent it again/],
	['KDS-CERT-BAD-101', /^KDS-FAULT-ORDER-LOST/],
	['KDS-CERT-BAD-102', /^KDS-FAULT-ORDER-LOST/],
	['KDS-CERT-BAD-103', /^KDS-FAULT-ORDER-LOST/],
	['KDS-CERT-BAD-105', /^KDS-FAULT-RESENT-NEW-ID/],
	['KDS-CERT-BAD-106', /^two tickets for one order/],
	['KDS-CERT-BAD-107', /^KDS-FAULT-ORDER-LOST/]
];

/**
 * What the naive POS does right, or does not declare, and must not be called wrong for: an
 * immediate retry after a reset before commit, a new id after a dropped request that kept
 * nothing; courses it does not declare.
 */
export const NAIVE_OTHERS: Record<string, string> = {
	'KDS-CERT-BAD-002': 'PASS',
	'KDS-CERT-BAD-104': 'PASS',
	'KDS-CERT-TCP-003': 'NOT_APPLICABLE'
};

/** What is read of a report (CertifyReport, or its JSON as another process wrote it). */
type Graded = {
	verdict: string;
	scenarios: Array<{ id: string; verdict: string; reason: string }>;
};

/**
 * Where a run's report departs from what the sample client must get, one line each (empty: as
 * expected). The careful POS: every scenario PASS. The naive one: exactly NAIVE_FAILS FAIL, each
 * for its reason, NAIVE_OTHERS as said, the run FAIL.
 */
export function sampleRunProblems(client: SampleClient, report: Graded): string[] {
	const problems: string[] = [];
	const line = (s: Graded['scenarios'][number]) => `${s.id} ${s.verdict}: ${s.reason}`;
	if (client === 'careful') {
		for (const s of report.scenarios) if (s.verdict !== 'PASS') problems.push(line(s));
		if (report.verdict !== 'PASS') problems.push(`run verdict ${report.verdict}, expected PASS`);
		return problems;
	}
	const byId = new Map(report.scenarios.map((s) => [s.id, s]));
	const failed = report.scenarios.filter((s) => s.verdict === 'FAIL').map((s) => s.id);
	const expected = NAIVE_FAILS.map(([id]) => id);
	if (failed.join() !== expected.join())
		problems.push(`FAIL: ${failed.join(', ') || 'none'}; expected exactly ${expected.join(', ')}`);
	for (const [id, reason] of NAIVE_FAILS) {
		const s = byId.get(id);
		if (!s) problems.push(`${id} missing from the report`);
		else if (s.verdict !== 'FAIL' || !reason.test(s.reason))
			problems.push(`${line(s)} (expected FAIL: ${reason})`);
	}
	for (const [id, verdict] of Object.entries(NAIVE_OTHERS)) {
		const s = byId.get(id);
		if (s?.verdict !== verdict)
			problems.push(`${s ? line(s) : `${id} missing`} (expected ${verdict})`);
	}
	if (report.verdict !== 'FAIL') problems.push(`run verdict ${report.verdict}, expected FAIL`);
	return problems;
}
