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
	// ?cursor=none: no mouse pointer over the page (a kiosk on a touch panel, docs/raspberry-pi.md).
	const hideCursor = url.searchParams.get('cursor') === 'none';
	try {
		const res = await fetch(`/api/screens/${encodeURIComponent(params.id)}`);
		if (res.status === 404) error(404, `Unknown screen ${params.id}`);
		if (res.ok)
			return {
				id: params.id,
				info: (await res.json()) as ScreenInfo,
				kiosk,
				cols,
				hideCursor
			};
	} catch (err) {
		if (isHttpError(err)) throw err;
	}
	return { id: params.id, info: null, kiosk, cols, hideCursor };
};
