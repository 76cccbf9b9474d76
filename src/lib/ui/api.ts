/** Shapes of the agent's simulator API (`/api/...`) as the UI reads them. */

export interface ScreenSummary {
	id: string;
	name: string;
	/** Cards on the screen now (active and cancelled orders). */
	orderCount: number;
	tcp: { host: string; port: number };
	/** A screen another simulator hosts (docs/fleet.md): where, and whether its copy is current. */
	remote?: { url: string; state: 'live' | 'connecting' | 'unreachable' };
}

/** A screen heard announcing itself on the network (GET /api/discovered). */
export interface HeardScreen {
	name: string;
	address: string;
	version: string;
	identifier: string;
	announcing: boolean;
	/** The remote screen it was adopted as, or null. */
	screenId: string | null;
	/** The config entry (a location's `screens[]`) that adds it as a remote screen. */
	snippet: object;
}

export interface DiscoveredList {
	listening: boolean;
	adoptingInto: string | null;
	screens: HeardScreen[];
}

export interface LocationSummary {
	id: string;
	name: string;
	brand?: string;
	/** The location's IANA time zone (`America/Chicago`); absent from agents before it was sent. */
	timezone?: string;
	screens: ScreenSummary[];
}

/** GET /api/admin/integration: what a POS needs to reach this simulator (guarded: tokens). */
export interface Integration {
	brands: Array<{
		name: string;
		token: string;
		locations: Array<{
			id: string;
			name: string;
			screens: Array<{ id: string; name: string; tcp: { host: string; port: number } }>;
		}>;
	}>;
}
