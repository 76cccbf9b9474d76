import type { LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';
import { certifyApi } from './certify-api.ts';

/** The catalog, the run in progress (or the last), and the screens a run can certify on. */
export const load: PageLoad = async ({ fetch }) => {
	const [catalog, state, locations] = await Promise.all([
		certifyApi.catalog(fetch),
		certifyApi.state(fetch),
		fetch('/api/locations')
			.then(async (res) => (res.ok ? ((await res.json()) as LocationSummary[]) : []))
			.catch(() => [] as LocationSummary[])
	]);
	return { catalog, run: state.ok ? state.value : null, locations };
};
