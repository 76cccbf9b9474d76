import type { DiscoveredList, Integration, LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, depends }) => {
	depends('app:locations');
	try {
		const [res, heard, access] = await Promise.all([
			fetch('/api/locations'),
			fetch('/api/discovered').catch(() => null),
			// Tokens and ports for the examples; guarded (403 off loopback without the admin token).
			fetch('/api/admin/integration').catch(() => null)
		]);
		const integration = access?.ok ? ((await access.json()) as Integration) : null;
		if (!res.ok)
			return {
				locations: null,
				discovered: null,
				integration,
				problem: `The agent answered ${res.status}`
			};
		// Screens heard on the network (docs/fleet.md); an agent without the route lists none.
		const discovered = heard?.ok ? ((await heard.json()) as DiscoveredList) : null;
		return {
			locations: (await res.json()) as LocationSummary[],
			discovered,
			integration,
			problem: null
		};
	} catch {
		return {
			locations: null,
			discovered: null,
			integration: null,
			problem: 'The agent is not reachable'
		};
	}
};
