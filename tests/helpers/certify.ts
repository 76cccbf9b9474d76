/**
 * A certification run from a POS's own test suite (docs/certify.md): `simulator.certify({
 * capabilities, onStep })` starts a run on the simulator (its admin API), hands each step to
 * `onStep`, where the POS's code performs it, moves on, and resolves with the report (JSON).
 * `certifyHelpers(baseUrl, headers)` gives the same against any running simulator (a
 * container's: pass `{'x-admin-token': …}`).
 */
import type { Capability, HarnessStep } from '#core/certify/catalog';
import type { CertifyReport } from '../../agent/certify/report.ts';

export type { Capability, CertifyReport, HarnessStep };

/** One step, as `onStep` gets it: what to do, and where. */
export interface CertifyStep {
	index: number;
	/** The scenario's id, e.g. KDS-CERT-BAD-001. */
	id: string;
	title: string;
	/** The sentence a person reads. */
	instruction: string;
	/** What a harness does: the interface, the actions in order, what the order must carry. */
	step: HarnessStep;
	/** What the simulator does meanwhile (the faults it armed). */
	simulator: string;
	runId: string;
	/** The screen certified on: its id, its location (x-location-id) and its TCP endpoint. */
	target: { screen: string; location: string; tcp: { host: string; port: number } };
}

export interface CertifyOptions {
	capabilities: Capability[];
	seed?: number;
	screen?: string;
	/** Only these scenario ids. */
	scenarios?: string[];
	/**
	 * Perform the step with the POS's own code. Resolve when done; `{skip: reason}` skips it. A
	 * throw is the POS failing the step: the run moves on and the judge says what was missing.
	 */
	onStep(step: CertifyStep): Promise<void | { skip: string }>;
}

export interface CertifyHelpers {
	/** Run the suite; resolves with the report (its `verdict`, each scenario's with evidence). */
	certify(options: CertifyOptions): Promise<CertifyReport>;
	/** The last run's report as JUnit XML or printable HTML (for a CI artefact). */
	certifyReport(format: 'junit' | 'html'): Promise<string>;
}

export function certifyHelpers(
	baseUrl: string,
	headers: Record<string, string> = {}
): CertifyHelpers {
	const call = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${baseUrl}${path}`, {
			method,
			headers: {
				...headers,
				...(body === undefined ? {} : { 'content-type': 'application/json' })
			},
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const text = await res.text();
		if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
		return text;
	};
	type State = {
		runId: string;
		state: string;
		target: CertifyStep['target'];
		current: Omit<CertifyStep, 'runId' | 'target'> | null;
	};
	const state = async (method: string, path: string, body?: unknown) =>
		JSON.parse(await call(method, path, body)) as State;
	return {
		async certify({ onStep, ...start }) {
			let run = await state('POST', '/api/admin/certify', start);
			while (run.state === 'running' && run.current) {
				const { index, id, title, instruction, step, simulator } = run.current;
				let outcome: void | { skip: string };
				try {
					outcome = await onStep({
						index,
						id,
						title,
						instruction,
						step,
						simulator,
						runId: run.runId,
						target: run.target
					});
				} catch {
					outcome = undefined;
				}
				run = outcome?.skip
					? await state('POST', '/api/admin/certify/skip', { reason: outcome.skip })
					: await state('POST', '/api/admin/certify/advance');
			}
			return JSON.parse(await call('GET', '/api/admin/certify/report')) as CertifyReport;
		},
		certifyReport: (format) => call('GET', `/api/admin/certify/report?format=${format}`)
	};
}
