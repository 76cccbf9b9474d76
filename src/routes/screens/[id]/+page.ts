import { error, isHttpError } from '@sveltejs/kit';
import type { ScreenInfo } from '#core/relay';
import { readChangeMarks } from '#core/view/format';
import type { PageLoad } from './$types';

/**
 * The screen's name and settings, for the first paint. An unknown screen is a 404; an agent
 * that is not up yet is not an error: the page connects when it comes up (kiosks boot first).
 * `denied`: the agent refuses this browser the screen's orders (customer data; from another host
 * without the admin token), so the page says how to sign in instead of reconnecting forever.
 */
export const load: PageLoad = async ({ params, fetch, url }) => {
	const kiosk = url.searchParams.has('kiosk');
	const cols = Number(url.searchParams.get('cols')) || null;
	// ?cursor=none: no mouse pointer over the page (a kiosk on a touch panel, docs/raspberry-pi.md).
	const hideCursor = url.searchParams.get('cursor') === 'none';
	// ?scale=1.25: type size for this browser (clamped by screenMetrics), over the screen setting.
	const scale = Number(url.searchParams.get('scale')) || null;
	// ?changeMarks=seen|<seconds>: how long NEW / CHANGED marks last here, over the screen setting.
	const changeMarks = readChangeMarks(url.searchParams.get('changeMarks'));
	let denied = false;
	try {
		const access = await fetch('/api/access');
		if (access.ok) denied = ((await access.json()) as { granted: boolean }).granted === false;
	} catch {
		// The agent is not up yet: the page connects when it comes up.
	}
	try {
		const res = await fetch(`/api/screens/${encodeURIComponent(params.id)}`);
		if (res.status === 404) error(404, `Unknown screen ${params.id}`);
		if (res.ok) {
			return {
				id: params.id,
				info: (await res.json()) as ScreenInfo,
				kiosk,
				cols,
				denied,
				hideCursor,
				scale,
				changeMarks
			};
		}
	} catch (err) {
		if (isHttpError(err)) throw err;
	}
	return { id: params.id, info: null, kiosk, cols, denied, hideCursor, scale, changeMarks };
};
