import type { LocationSummary } from '$lib/ui/api';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, depends }) => {
	depends('app:locations');
	try {
		const res = await fetch('/api/locations');
		if (!res.ok) return { locations: null, problem: `The agent answered ${res.status}` };
		return { locations: (await res.json()) as LocationSummary[], problem: null };
	} catch {
		return { locations: null, problem: 'The agent is not reachable' };
	}
};
