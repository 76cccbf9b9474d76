import { error, isHttpError } from '@sveltejs/kit';
import type { ScreenInfo } from '$lib/core/relay';
import type { PageLoad } from './$types';

/**
 * The screen's name and settings, for the first paint. An unknown screen is a 404; an agent
 * that is not up yet is not an error: the page connects when it comes up (kiosks boot first).
 */
export const load: PageLoad = async ({ params, fetch, url }) => {
	const kiosk = url.searchParams.has('kiosk');
	const cols = Number(url.searchParams.get('cols')) || null;
	// ?scale=1.25: type size for this browser (clamped by screenMetrics), over the screen setting.
	const scale = Number(url.searchParams.get('scale')) || null;
	try {
		const res = await fetch(`/api/screens/${encodeURIComponent(params.id)}`);
		if (res.status === 404) error(404, `Unknown screen ${params.id}`);
		if (res.ok)
			return {
				id: params.id,
				info: (await res.json()) as ScreenInfo,
				kiosk,
				cols,
				scale
			};
	} catch (err) {
		if (isHttpError(err)) throw err;
	}
	return { id: params.id, info: null, kiosk, cols, scale };
};
