/**
 * The WebSocket protocol between the agent and a browser showing one screen (`/ws?screen=<id>`).
 *
 * On connect the agent sends a `snapshot` of the screen; then one `change` per screen change, in
 * order, each with the next `seq`. A browser that sees a gap (or reconnects) asks again and gets a
 * fresh snapshot, which replaces everything it had. Changes carry machine events, not results:
 * the browser replays them on its own order actors (the shared order machine), so agent and UI
 * apply the same rules.
 */
import * as z from 'zod';
import type {
	OrderContext,
	OrderEvent,
	OrderInput,
	OrderRecord,
	OrderStateName
} from './order-machine.ts';
import type { Order, PartialOrder } from './order-schema.ts';
import { expected, formatErrors, parseWith } from './parse.ts';
import { SCREEN_ACTIONS, type ScreenChange } from './screen.ts';

/*
 * Every message type below is a zod schema with its type inferred from it, and both edges parse
 * with them: the agent what a browser sends (agent/ws/browser-relay.ts), the browser what the
 * agent sends (src/lib/ui/connection.svelte.ts). The orders inside (an order, a patch, a record's
 * context) were validated field by field at the agent's own edge (order-schema.ts) and are the
 * agent's output here, so the relay checks only the shape the UI keys on (an object with a string
 * id, a record's state and numbers): re-parsing every order with its full schema on every change
 * to every browser would cost more than the rest of the message, and the orders' output form
 * (nulls made absent, generated line ids) is not their input form.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object with a string `id`: an order or patch as the agent already validated it. */
const orderShaped = <T>(what: string) =>
	z.custom<T>((v) => isObject(v) && typeof v.id === 'string', {
		error: (i) => expected(`${what} (an object with a string id)`, i.input)
	});

/** A union on `type`: an unknown type is named with the types it could be. */
function byType<
	const T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]
>(options: T) {
	const types = options.map((o) => JSON.stringify((o as unknown as z.ZodObject).shape.type.value));
	return z.discriminatedUnion('type', options, {
		error: (i) =>
			isObject(i.input)
				? expected(`one of ${types.join(', ')}`, i.input.type)
				: expected('an object', i.input)
	});
}

const num = () => z.number({ error: (i) => expected('a finite number', i.input) });
const text = () => z.string({ error: (i) => expected('a string', i.input) });

const ORDER_STATES = [
	'held',
	'active',
	'cancelled',
	'bumped'
] as const satisfies readonly OrderStateName[];

const OrderContextSchema = z.custom<OrderContext>(
	(v) =>
		isObject(v) &&
		typeof v.id === 'string' &&
		typeof v.seq === 'number' &&
		typeof v.receivedAt === 'number' &&
		typeof v.queuedAt === 'number' &&
		Array.isArray(v.items),
	{
		error: (i) => expected('an order context (id, seq, receivedAt, queuedAt, items)', i.input)
	}
);

export const OrderRecordSchema = z.object({
	state: z.enum(ORDER_STATES),
	context: OrderContextSchema
});

const OrderInputSchema = z.object({
	order: orderShaped<Order>('an order'),
	at: num(),
	seq: num(),
	held: z.boolean().optional(),
	combinedWith: text().optional()
});

const StationMarkSchema = z.object({
	station: text(),
	name: text(),
	items: z.array(z.object({ lineId: text(), name: text(), qty: num() })),
	doneAt: num().optional()
});

const at = num();
export const OrderEventSchema = byType([
	z.object({ type: z.literal('order.updated'), order: orderShaped<Order>('an order'), at }),
	z.object({
		type: z.literal('order.patched'),
		patch: orderShaped<PartialOrder>('a partial order'),
		at
	}),
	z.object({ type: z.literal('order.cancelled'), at }),
	z.object({ type: z.literal('order.fired'), at, seq: num() }),
	z.object({ type: z.literal('order.bumped'), at }),
	z.object({ type: z.literal('order.recalled'), at }),
	/** A course on hold fired from the screen; '' is the items without a course. */
	z.object({ type: z.literal('course.fired'), course: text(), at }),
	/** On an expo: a station's part of the order (core/expo.ts). */
	z.object({ type: z.literal('station.marked'), mark: StationMarkSchema, at }),
	/** A cook's mark on an item, and on the ticket (core/cook-marks.ts). */
	z.object({ type: z.literal('item.marked'), lineId: text(), done: z.boolean(), at }),
	z.object({ type: z.literal('order.started'), started: z.boolean(), at })
]);

/** A change as relayed: the machine input or event, without the agent's computed record. */
export const RelayChangeSchema = byType([
	z.object({ type: z.literal('order.created'), id: text(), input: OrderInputSchema }),
	z.object({ type: z.literal('order.event'), id: text(), event: OrderEventSchema }),
	z.object({ type: z.literal('order.removed'), id: text() })
]);
export type RelayChange = z.output<typeof RelayChangeSchema>;

export const ScreenTimersSchema = z.object({
	/** Seconds after which a ticket turns yellow, and red. */
	warnAfter: num(),
	lateAfter: num()
});
export type ScreenTimers = z.output<typeof ScreenTimersSchema>;

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

/** The self-working cook's setting (docs/testing.md): seconds per order mode, give or take. */
export const AutoBumpSchema = z.object({
	afterSeconds: num(),
	byMode: z.partialRecord(z.string(), num()).optional(),
	/** Each order is bumped up to this many seconds earlier or later (default: a tenth of its time). */
	jitterSeconds: num().optional()
});
export type AutoBump = z.output<typeof AutoBumpSchema>;

/** Per-screen settings the browser needs. */
export const ScreenSettingsSchema = z.object({
	timers: ScreenTimersSchema.extend({
		byMode: z.partialRecord(z.string(), ScreenTimersSchema).optional()
	}),
	autoHoldFutureOrders: z.boolean(),
	/** Key (KeyboardEvent.key) to action: 'bump:1'..'bump:9', 'select:prev', 'select:next', 'bump:selected', 'recall'. */
	keymap: z.record(z.string(), z.string()),
	/** Type size on this screen's cards, times the size for its window (1 = as designed). */
	scale: num().optional(),
	/** Order mode to a colour (`#rgb`/`#rrggbb`) for the card header strip and mode chip. */
	modeColors: z.record(z.string(), z.string()).optional(),
	/** The self-working cook: bump each order this long after it reached the queue. */
	autoBump: AutoBumpSchema.optional(),
	/** How long NEW / CHANGED marks last: 'seen' (until a cook saw the card) or seconds. */
	changeMarks: z.union([z.literal('seen'), num()]).optional(),
	/** Combine Orders: a new order of a recent order's name joins its ticket (core/combine.ts). */
	combineOrders: z.boolean().optional(),
	/** Lines drawn bold on red (core/view/alerts.ts); absent: the default list. */
	alertWords: z.array(z.string()).optional()
});
export type ScreenSettings = z.output<typeof ScreenSettingsSchema>;

export const ScreenInfoSchema = z.object({
	id: text(),
	name: text(),
	locationId: text(),
	locationName: text(),
	/** The location's time zone (IANA name), for pickup times and clocks. */
	timezone: text(),
	settings: ScreenSettingsSchema
});
export type ScreenInfo = z.output<typeof ScreenInfoSchema>;

/**
 * What the notifications said about one order (agent clock, ms since epoch): the customer
 * arrived, and when they are expected; and when the kitchen marked it ready for pickup (the Take
 * Out view's step). Shown on the screen's takeout view.
 */
export const TakeoutStatusSchema = z.object({
	orderId: text(),
	arrivedAt: num().optional(),
	etaAt: num().optional(),
	readyAt: num().optional()
});
export type TakeoutStatus = z.output<typeof TakeoutStatusSchema>;

/** A send-message pop-up: shown on every browser of the screen until one acknowledges it. */
export const PopupSchema = z.object({
	id: text(),
	message: text(),
	/** When it was sent (agent clock). */
	at: num()
});
export type Popup = z.output<typeof PopupSchema>;

/** Everything the notifications left on a screen: the takeout view's statuses, open pop-ups. */
const notificationFields = {
	takeout: z.array(TakeoutStatusSchema),
	popups: z.array(PopupSchema)
};
export const NotificationStateSchema = z.object(notificationFields);
export type NotificationState = z.output<typeof NotificationStateSchema>;

export const ServerMessageSchema = byType([
	z.object({
		type: z.literal('snapshot'),
		seq: num(),
		screen: ScreenInfoSchema,
		records: z.array(OrderRecordSchema),
		now: num(),
		notifications: NotificationStateSchema.optional()
	}),
	z.object({ type: z.literal('change'), seq: num(), change: RelayChangeSchema, now: num() }),
	z.object({ type: z.literal('pong'), now: num() }),
	z.object({ type: z.literal('error'), code: text(), message: text() }),
	/**
	 * The screen's whole notification state, sent whenever it changes (and in each snapshot).
	 * Each one replaces the last, so it needs no sequence number.
	 */
	z.object({ type: z.literal('notifications'), now: num(), ...notificationFields })
]);
export type ServerMessage = z.output<typeof ServerMessageSchema>;

export const ClientMessageSchema = byType([
	z.object({ type: z.literal('resync') }),
	/** A liveness probe (browsers cannot see WebSocket pings); answered with a pong. */
	z.object({ type: z.literal('ping') }),
	/**
	 * fire-course fires `course` ('' = the items without a course) of order `orderId`;
	 * item-done / item-undo mark the item `lineId` of it.
	 */
	z.object({
		type: z.literal('action'),
		action: z.enum(SCREEN_ACTIONS),
		orderId: text().optional(),
		course: text().optional(),
		lineId: text().optional()
	}),
	/** OK on a pop-up: it is cleared on every browser of the screen. */
	z.object({ type: z.literal('popup.ack'), id: text() }),
	/** "Ready for pickup" on the Take Out view: every screen of the location showing the order. */
	z.object({ type: z.literal('takeout.ready'), orderId: text() })
]);
export type ClientMessage = z.output<typeof ClientMessageSchema>;

/** Parse one relay message's text: the message, or one line naming every bad field by path. */
function parseMessage<S extends z.ZodType>(
	schema: S,
	data: string
): { ok: true; message: z.output<S> } | { ok: false; error: string } {
	let json: unknown;
	try {
		json = JSON.parse(data);
	} catch {
		return { ok: false, error: 'not valid JSON' };
	}
	const result = parseWith(schema, json, [], { keepNulls: true });
	return result.ok
		? { ok: true, message: result.value }
		: { ok: false, error: formatErrors(result.errors) };
}

/** What a browser sent the agent. */
export const parseClientMessage = (data: string) => parseMessage(ClientMessageSchema, data);
/** What the agent sent a browser. */
export const parseServerMessage = (data: string) => parseMessage(ServerMessageSchema, data);

// The machine's own types and the relay's schemas must describe the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameEvent: Same<z.output<typeof OrderEventSchema>, OrderEvent> = true;
const sameInput: Same<z.output<typeof OrderInputSchema>, OrderInput> = true;
const sameRecord: Same<z.output<typeof OrderRecordSchema>, OrderRecord> = true;
void [sameEvent, sameInput, sameRecord];

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
