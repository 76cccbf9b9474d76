import { error, isHttpError } from '@sveltejs/kit';
import type { PageLoad } from './$types';
import type { TrackerView } from '#core/view/tracker';

export type { TrackerEntry } from '#core/view/tracker';

/**
 * A location's order tracker (GET /api/tracker/<location>), reloaded by the page every few
 * seconds. An unknown location is a 404; an agent that is not reachable or refuses this browser
 * the names (from another host without the admin token) is said on the page, which keeps trying.
 */
export const load: PageLoad = async ({ params, fetch, depends }) => {
	depends('app:tracker');
	try {
		const res = await fetch(`/api/tracker/${encodeURIComponent(params.location)}`);
		if (res.status === 404) error(404, `Unknown location ${params.location}`);
		if (res.status === 403) {
			return {
				tracker: null,
				problem:
					'The tracker shows customer names: sign this browser in with the admin token at /access'
			};
		}
		if (!res.ok) return { tracker: null, problem: `The agent answered ${res.status}` };
		return { tracker: (await res.json()) as TrackerView, problem: null };
	} catch (err) {
		if (isHttpError(err)) throw err;
		return { tracker: null, problem: 'The kitchen is not reachable' };
	}
};
