import type { DiscoveredList, LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, depends }) => {
	depends('app:locations');
	try {
		const [res, heard] = await Promise.all([
			fetch('/api/locations'),
			fetch('/api/discovered').catch(() => null)
		]);
		if (!res.ok)
			return { locations: null, discovered: null, problem: `The agent answered ${res.status}` };
		// Screens heard on the network (docs/fleet.md); an agent without the route lists none.
		const discovered = heard?.ok ? ((await heard.json()) as DiscoveredList) : null;
		return { locations: (await res.json()) as LocationSummary[], discovered, problem: null };
	} catch {
		return { locations: null, discovered: null, problem: 'The agent is not reachable' };
	}
};
