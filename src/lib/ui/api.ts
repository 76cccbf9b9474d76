/** Shapes of the agent's simulator API (`/api/...`) as the UI reads them. */

export interface ScreenSummary {
	id: string;
	name: string;
	/** Cards on the screen now (active and cancelled orders). */
	orderCount: number;
	tcp: { host: string; port: number };
}

export interface LocationSummary {
	id: string;
	name: string;
	brand?: string;
	/** The location's IANA time zone (`America/Chicago`); absent from agents before it was sent. */
	timezone?: string;
	screens: ScreenSummary[];
}
