import type { SmsEntry } from '#core/sms';
import type { LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';

/** The outbox, newest first; `?order=`, `?location=` and `?screen=` narrow it as in GET /api/sms. */
export const load: PageLoad = async ({ fetch, url, depends }) => {
	depends('app:sms');
	const query = new URLSearchParams();
	for (const key of ['location', 'order', 'screen', 'kind']) {
		const value = url.searchParams.get(key);
		if (value) query.set(key, value);
	}
	const filter = query.toString();
	try {
		// The locations, for their time zones: every time shows in its location's zone.
		const [res, places] = await Promise.all([
			fetch(`/api/sms${filter ? `?${filter}` : ''}`),
			fetch('/api/locations')
		]);
		const locations = places.ok ? ((await places.json()) as LocationSummary[]) : [];
		if (res.status === 403) {
			return {
				texts: null,
				filter,
				locations,
				problem:
					'The texts show customer phone numbers: sign this browser in with the admin token at /access'
			};
		}
		if (!res.ok)
			return { texts: null, filter, locations, problem: `The agent answered ${res.status}` };
		return { texts: (await res.json()) as SmsEntry[], filter, locations, problem: null };
	} catch {
		return {
			texts: null,
			filter,
			locations: [] as LocationSummary[],
			problem: 'The agent is not reachable'
		};
	}
};
