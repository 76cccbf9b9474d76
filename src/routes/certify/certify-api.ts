/**
 * The certification run's admin API (agent/http/certify-api.ts, docs/certify.md) as the Certify
 * page reads it: the catalog, the run's state, and the person's moves (start, done, skip, stop).
 * The shapes are the API's answers (agent/http/certify-api.ts documents RunState); the catalog's
 * and the judge's types are the core's own.
 */
import { CAPABILITIES, type Scenario } from '#core/certify/catalog';
import type { EvidenceItem, StepStatus, Verdict } from '#core/certify/evidence';

export const CERTIFY_URL = '/api/admin/certify';

export type { Verdict, StepStatus };

/** A scenario of the catalog, as GET /api/admin/certify/scenarios lists it. */
export type CatalogScenario = Scenario;

export interface Catalog {
	suiteVersion: string;
	scenarios: CatalogScenario[];
}

export type SeenItem = EvidenceItem;

export interface RunState {
	runId: string;
	suiteVersion: string;
	seed: number;
	capabilities: string[];
	target: { screen: string; location: string; tcp: { host: string; port: number } };
	state: 'running' | 'finished';
	startedAt: string;
	endedAt: string | null;
	verdict: 'PASS' | 'FAIL' | 'WARN';
	counts: Record<Verdict, number>;
	current: null | {
		index: number;
		id: string;
		title: string;
		group: string;
		instruction: string;
		step: CatalogScenario['step'];
		simulator: string;
		checks: string;
		faults: string[];
		armError: string | null;
		startedAt: string;
		live: { verdict: Verdict; reason: string | null; seen: SeenItem[] };
	};
	steps: Array<{
		id: string;
		title: string;
		group: string;
		status: StepStatus;
		skipReason: string | null;
		verdict: Verdict | null;
		reason: string | null;
	}>;
}

/** An answer the page shows: the state, or the API's words for why not. */
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

async function call<T>(
	path: string,
	init: RequestInit = {},
	fetchImpl: typeof fetch = (input, options) => fetch(input, options)
): Promise<Answer<T>> {
	try {
		const res = await fetchImpl(path, init);
		const body = (await res.json().catch(() => null)) as
			(T & { message?: string; errors?: Array<{ path: string; message: string }> }) | null;
		if (res.ok && body !== null) return { ok: true, value: body };
		const errors = body?.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
		return {
			ok: false,
			status: res.status,
			message:
				res.status === 403
					? 'The Certify page works from the simulator host, or with an admin token'
					: (errors ?? body?.message ?? `The simulator answered ${res.status}`)
		};
	} catch {
		return { ok: false, status: 0, message: 'The simulator is not reachable' };
	}
}

const post = (body?: unknown): RequestInit =>
	body === undefined
		? { method: 'POST' }
		: {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body)
			};

export const certifyApi = {
	catalog: (f?: typeof fetch) => call<Catalog>(`${CERTIFY_URL}/scenarios`, {}, f),
	state: (f?: typeof fetch) => call<RunState>(CERTIFY_URL, {}, f),
	start: (
		options: { capabilities: string[]; seed?: number; screen?: string; scenarios?: string[] },
		f?: typeof fetch
	) => call<RunState>(CERTIFY_URL, post(options), f),
	advance: (f?: typeof fetch) => call<RunState>(`${CERTIFY_URL}/advance`, post(), f),
	skip: (reason: string, f?: typeof fetch) =>
		call<RunState>(`${CERTIFY_URL}/skip`, post({ reason }), f),
	stop: (f?: typeof fetch) => call<RunState>(`${CERTIFY_URL}/stop`, post(), f)
};

/** The report's downloads (GET /api/admin/certify/report?format=…). */
export const REPORTS = [
	{ format: 'html', label: 'Printable report (HTML)' },
	{ format: 'json', label: 'Report (JSON)' },
	{ format: 'junit', label: 'JUnit XML (for CI)' }
] as const;

export const reportUrl = (format: string) => `${CERTIFY_URL}/report?format=${format}`;

/** The run's messages as a session file (core/session.ts), for kds-sim replay. */
export function transcriptUrl(run: Pick<RunState, 'startedAt' | 'endedAt'>): string {
	const query = new URLSearchParams({ since: run.startedAt });
	if (run.endedAt) query.set('until', run.endedAt);
	return `/api/admin/messages/session?${query}`;
}

/** What a POS can declare it does, interfaces first (the catalog's list). */
export const DECLARABLE: readonly string[] = CAPABILITIES;

export const CAPABILITY_LABELS: Record<(typeof CAPABILITIES)[number], string> = {
	tcp: 'TCP (port 9104)',
	http: 'HTTP integrator API',
	courses: 'Courses',
	itemGroups: 'Item groups',
	notifications: 'Notifications',
	webhooks: 'Webhooks',
	scheduled: 'Scheduled orders'
};

export const GROUP_LABELS: Record<string, string> = {
	'good-day': 'The good day',
	'talks-back': 'The kitchen talks back',
	'bad-day': 'The bad day'
};
