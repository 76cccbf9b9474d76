import type { LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';

/** The screens, for the screen filter; the log itself is followed by the page. */
export const load: PageLoad = async ({ fetch }) => {
	try {
		const res = await fetch('/api/locations');
		return { locations: res.ok ? ((await res.json()) as LocationSummary[]) : [] };
	} catch {
		return { locations: [] as LocationSummary[] };
	}
};
