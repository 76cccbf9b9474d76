import { error, isHttpError } from '@sveltejs/kit';
import { browser } from '$app/env';
import type { ScreenInfo } from '#core/relay';
import { readChangeMarks } from '#core/view/format';
import { preconnectScreen } from '#lib/ui/screen-session.svelte.ts';
import type { PageLoad } from './$types';

/**
 * The screen's name and settings, for the first paint. An unknown screen is a 404; an agent
 * that is not up yet is not an error: the page connects when it comes up (kiosks boot first).
 * `denied`: the agent refuses this browser the screen's orders (customer data; from another host
 * without the admin token), so the page says how to sign in instead of reconnecting forever.
 *
 * The screen's socket is opened first, and both requests go out together: the snapshot comes
 * while the page's code and these load (#lib/ui/early-socket.ts), and the cards are drawn as soon
 * as the page starts (docs/performance.md, "a screen page opened").
 */
export const load: PageLoad = async ({ params, fetch, url }) => {
	if (browser) preconnectScreen(params.id);
	const kiosk = url.searchParams.has('kiosk');
	const cols = Number(url.searchParams.get('cols')) || null;
	// ?cursor=none: no mouse pointer over the page (a kiosk on a touch panel, docs/raspberry-pi.md).
	const hideCursor = url.searchParams.get('cursor') === 'none';
	// ?scale=1.25: type size for this browser (clamped by screenMetrics), over the screen setting.
	const scale = Number(url.searchParams.get('scale')) || null;
	// ?changeMarks=seen|<seconds>: how long NEW / CHANGED marks last here, over the screen setting.
	const changeMarks = readChangeMarks(url.searchParams.get('changeMarks'));
	const access = fetch('/api/access')
		.then(async (res) => res.ok && ((await res.json()) as { granted: boolean }).granted === false)
		// The agent is not up yet: the page connects when it comes up.
		.catch(() => false);
	const screen = fetch(`/api/screens/${encodeURIComponent(params.id)}`);
	// Handled before the first await: a refused request is no unhandled rejection meanwhile.
	screen.catch(() => {});
	const denied = await access;
	try {
		const res = await screen;
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
