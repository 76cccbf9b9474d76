/**
 * The WebSocket protocol between the agent and a browser showing one screen (`/ws?screen=<id>`).
 *
 * On connect the agent sends a `snapshot` of the screen; then one `change` per screen change, in
 * order, each with the next `seq`. A browser that sees a gap (or reconnects) asks again and gets a
 * fresh snapshot, which replaces everything it had. Changes carry machine events, not results:
 * the browser replays them on its own order actors (the shared order machine), so agent and UI
 * apply the same rules.
 */
import type { OrderEvent, OrderInput, OrderRecord } from './order-machine';
import type { ScreenAction, ScreenChange } from './screen';

/** A change as relayed: the machine input or event, without the agent's computed record. */
export type RelayChange =
	| { type: 'order.created'; id: string; input: OrderInput }
	| { type: 'order.event'; id: string; event: OrderEvent }
	| { type: 'order.removed'; id: string };

export interface ScreenTimers {
	/** Seconds after which a ticket turns yellow, and red. */
	warnAfter: number;
	lateAfter: number;
}

/** A screen's timers when its config sets none: the config's defaults and the cards' fallback. */
export const DEFAULT_TIMERS: Readonly<ScreenTimers> = Object.freeze({
	warnAfter: 300,
	lateAfter: 480
});

/** The `scale` screen setting's range (and `?scale=`'s, clamped). */
export const MIN_SCALE = 0.5;
export const MAX_SCALE = 3;
/** `#rgb` or `#rrggbb`: the colours the `modeColors` screen setting takes. */
export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Per-screen settings the browser needs. */
export interface ScreenSettings {
	timers: ScreenTimers & { byMode?: Partial<Record<string, ScreenTimers>> };
	autoHoldFutureOrders: boolean;
	/** Key (KeyboardEvent.key) to action: 'bump:1'..'bump:9', 'select:prev', 'select:next', 'bump:selected', 'recall'. */
	keymap: Record<string, string>;
	/** Type size on this screen's cards, times the size for its window (1 = as designed). */
	scale?: number;
	/** Order mode to a colour (`#rgb`/`#rrggbb`) for the card header strip and mode chip. */
	modeColors?: Record<string, string>;
	/** The self-working cook: bump each order this long after it reached the queue. */
	autoBump?: AutoBump;
}

/** The self-working cook's setting (docs/testing.md): seconds per order mode, give or take. */
export interface AutoBump {
	afterSeconds: number;
	byMode?: Partial<Record<string, number>>;
	/** Each order is bumped up to this many seconds earlier or later (default: a tenth of its time). */
	jitterSeconds?: number;
}

export interface ScreenInfo {
	id: string;
	name: string;
	locationId: string;
	locationName: string;
	/** The location's time zone (IANA name), for pickup times and clocks. */
	timezone: string;
	settings: ScreenSettings;
}

/**
 * What the notifications said about one order (agent clock, ms since epoch): the customer
 * arrived, and when they are expected. Shown on the screen's takeout view.
 */
export interface TakeoutStatus {
	orderId: string;
	arrivedAt?: number;
	etaAt?: number;
}

/** A send-message pop-up: shown on every browser of the screen until one acknowledges it. */
export interface Popup {
	id: string;
	message: string;
	/** When it was sent (agent clock). */
	at: number;
}

/** Everything the notifications left on a screen: the takeout view's statuses, open pop-ups. */
export interface NotificationState {
	takeout: TakeoutStatus[];
	popups: Popup[];
}

export type ServerMessage =
	| {
			type: 'snapshot';
			seq: number;
			screen: ScreenInfo;
			records: OrderRecord[];
			now: number;
			notifications?: NotificationState;
	  }
	| { type: 'change'; seq: number; change: RelayChange; now: number }
	| { type: 'pong'; now: number }
	| { type: 'error'; code: string; message: string }
	/**
	 * The screen's whole notification state, sent whenever it changes (and in each snapshot).
	 * Each one replaces the last, so it needs no sequence number.
	 */
	| ({ type: 'notifications'; now: number } & NotificationState);

export type ClientMessage =
	| { type: 'resync' }
	/** A liveness probe (browsers cannot see WebSocket pings); answered with a pong. */
	| { type: 'ping' }
	/** fire-course fires `course` ('' = the items without a course) of order `orderId`. */
	| { type: 'action'; action: ScreenAction; orderId?: string; course?: string }
	/** OK on a pop-up: it is cleared on every browser of the screen. */
	| { type: 'popup.ack'; id: string };

export function toRelayChange(change: ScreenChange): RelayChange {
	switch (change.type) {
		case 'order.created':
			return { type: 'order.created', id: change.record.context.id, input: change.input };
		case 'order.event':
			return { type: 'order.event', id: change.id, event: change.event };
		case 'order.removed':
			return change;
	}
}
