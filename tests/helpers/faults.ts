/**
 * Typed helpers for faults on cue (docs/faults.md), over the admin API: they work against any
 * running simulator (the test fixture's, a container's) given its base URL. A refused fault
 * throws with the simulator's field-path errors.
 */
import type { FaultSpecInput } from '#core/fault-kinds';
import type { Fault } from '#core/fault-firing';
import type { ResilienceReport } from '#core/fault-findings';

export type { Fault, FaultSpecInput, ResilienceReport };

export interface FaultHelpers {
	/** Add one fault; resolves with it as listed (its id, its seed). */
	addFault(spec: FaultSpecInput): Promise<Fault>;
	/**
	 * Add several, all or none; or a profile (`{profile: 'flaky-wifi', screen}`): built in or the
	 * config's own; without a screen, as the config's `on` puts it.
	 */
	addFaults(specs: FaultSpecInput[] | { profile: string; screen?: string }): Promise<Fault[]>;
	/** Every fault, with how often each fired. */
	listFaults(): Promise<Fault[]>;
	removeFault(id: string): Promise<void>;
	/** Remove every fault. */
	resetFaults(): Promise<void>;
	/** What each client did after each fault (the inspector's judgement), as JSON. */
	faultReport(): Promise<ResilienceReport>;
}

export function faultHelpers(baseUrl: string, headers: Record<string, string> = {}): FaultHelpers {
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
		const json = text ? (JSON.parse(text) as unknown) : undefined;
		if (res.status >= 400)
			throw new Error(
				`${method} ${path}: ${res.status} ${(json as { message?: string })?.message ?? text}`
			);
		return json;
	};
	return {
		async addFault(spec) {
			return ((await call('POST', '/api/admin/faults', spec)) as { added: Fault[] }).added[0];
		},
		async addFaults(specs) {
			const body = Array.isArray(specs) ? { faults: specs } : specs;
			return ((await call('POST', '/api/admin/faults', body)) as { added: Fault[] }).added;
		},
		async listFaults() {
			return ((await call('GET', '/api/admin/faults')) as { faults: Fault[] }).faults;
		},
		async removeFault(id) {
			await call('DELETE', `/api/admin/faults/${encodeURIComponent(id)}`);
		},
		async resetFaults() {
			await call('POST', '/api/admin/faults/reset');
		},
		async faultReport() {
			return (await call('GET', '/api/admin/faults/report')) as ResilienceReport;
		}
	};
}
