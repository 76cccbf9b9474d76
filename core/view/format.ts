/**
 * How order fields read on a card: display name, mode label, timers. Pure; shared by the screen
 * route and by tests that look cards up by their display name.
 */
import type { ItemView, OrderFields } from '../content.ts';
import type { OrderMode } from '../order-schema.ts';
import { DEFAULT_TIMERS, type ScreenSettings, type ScreenTimers } from '../relay.ts';
import { startTime } from '../holds.ts';

/**
 * The card title: the name with the check number and the third-party source appended, as the
 * contract describes both (`Table 12 #88`, `Priya · DoorDash`).
 */
export function displayName(
	fields: Pick<OrderFields, 'name' | 'checkNumber' | 'originSource'>
): string {
	let title = fields.name.trim() || 'Order';
	if (fields.checkNumber) title += ` #${fields.checkNumber}`;
	if (fields.originSource) title += ` · ${fields.originSource}`;
	return title;
}

const MODE_LABELS: Record<OrderMode, string> = {
	'For Here': 'For Here',
	ToGo: 'To Go',
	Pickup: 'Pickup',
	DriveThru: 'Drive-Thru',
	Delivery: 'Delivery',
	Curbside: 'Curbside'
};

/** The mode chip; a Delivery order with deliveryHandoff reads "Delivery Handoff". */
export function modeLabel(fields: Pick<OrderFields, 'mode' | 'deliveryHandoff'>): string {
	if (fields.mode === 'Delivery' && fields.deliveryHandoff) return 'Delivery Handoff';
	return MODE_LABELS[fields.mode] ?? fields.mode;
}

/**
 * A ticket's time, read as a duration: `4:07` (minutes and seconds) under ten minutes, then whole
 * minutes, `12 min`, and `1 h 02 min` past an hour, so nothing past ten minutes reads like a
 * clock time (`10:33`); never negative (clock skew).
 */
export function formatElapsed(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const m = Math.floor(total / 60);
	if (m < 10) return `${m}:${String(total % 60).padStart(2, '0')}`;
	return formatMinutes(m);
}

/** `12 min`, `1 h 02 min`, `3 h`: whole minutes as a duration. */
export function formatMinutes(minutes: number): string {
	const m = Math.max(0, Math.floor(minutes));
	if (m < 60) return `${m} min`;
	const h = Math.floor(m / 60);
	const rest = m % 60;
	return rest === 0 ? `${h} h` : `${h} h ${String(rest).padStart(2, '0')} min`;
}

/**
 * How long ago an order was placed, short enough for a card's header chip: `45 min`, `3 h 05 min`,
 * then whole days past a day (`9 d`): a re-sent order from last week must not read `223 h 59 min`
 * and run off a 7-inch card.
 */
export function formatAgo(minutes: number): string {
	const m = Math.max(0, Math.floor(minutes));
	return m < 24 * 60 ? formatMinutes(m) : `${Math.floor(m / (24 * 60))} d`;
}

/** A time still to come, rounded up to the minute: `in 6 min`, `in 2 h 40 min`; `now` at 0. */
export function formatIn(ms: number): string {
	const minutes = Math.ceil(ms / 60_000);
	return minutes <= 0 ? 'now' : `in ${formatMinutes(minutes)}`;
}

/**
 * Wall-clock time of an ISO date-time (or ms) in the location's time zone, with the zone's short
 * name, in the browser's language (`06:40 PM CST`, `18:40 MEZ`). The browser's own zone is never
 * used: without a zone (or with one the browser does not know) the time is shown in UTC,
 * labelled so.
 */
export function formatClock(iso: string | number, timeZone?: string): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return String(iso);
	return zonedFormat(timeZone, [], { hour: '2-digit', minute: '2-digit' }).format(date);
}

/** How long before it reached the screen an order must have been placed to be marked old. */
export const BACKDATED_MS = 10 * 60_000;

/**
 * The order's own `time` (when the POS placed it) as the card shows it: `short` (`12:05 PM`,
 * no zone: the header clock says which), `label` with the zone, and `backdated` when it was
 * placed at least BACKDATED_MS before the screen received it (a back-dated or re-sent order:
 * the timer counts from receipt, so the card says how old the order really is). Null without
 * a readable time.
 */
export function placedTime(
	time: string | undefined,
	receivedAt: number,
	timeZone?: string
): { at: number; short: string; label: string; backdated: boolean } | null {
	const at = time === undefined ? NaN : Date.parse(time);
	if (Number.isNaN(at)) return null;
	const label = formatClock(at, timeZone);
	const short = zonedFormat(timeZone, [], { hour: 'numeric', minute: '2-digit' })
		.formatToParts(at)
		.filter((part) => part.type !== 'timeZoneName')
		.map((part) => part.value)
		.join('')
		.trim();
	return { at, short, label, backdated: receivedAt - at >= BACKDATED_MS };
}

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A formatter for `timeZone` (UTC when none, or one this browser does not know) that ends with
 * the zone's short name. Kept per zone, language and fields: a card's render costs no new one.
 */
export function zonedFormat(
	timeZone: string | undefined,
	locales: string | string[],
	options: Intl.DateTimeFormatOptions
): Intl.DateTimeFormat {
	const key = JSON.stringify([timeZone, locales, options]);
	let format = formats.get(key);
	if (!format) {
		const fields = { ...options, timeZoneName: 'short' } as const;
		try {
			format = new Intl.DateTimeFormat(locales, { ...fields, timeZone: timeZone ?? 'UTC' });
		} catch {
			format = new Intl.DateTimeFormat(locales, { ...fields, timeZone: 'UTC' });
		}
		formats.set(key, format);
	}
	return format;
}

export type TimerLevel = 'ok' | 'warn' | 'late';

/** The thresholds for one order mode: timers.byMode[mode] when set, else the screen's. */
export function timersFor(settings: ScreenSettings | undefined, mode: string): ScreenTimers {
	const timers = settings?.timers;
	return timers?.byMode?.[mode] ?? timers ?? DEFAULT_TIMERS;
}

/**
 * When a ticket with a pickupTime is due to start: pickupTime − prepTimeDuration when both are
 * there (the hold's own start), else pickupTime − the late threshold (started later, it could not
 * be ready by pickup). Null without a readable pickupTime.
 */
export function dueAt(
	fields: Pick<OrderFields, 'pickupTime' | 'prepTimeDuration'>,
	timers: ScreenTimers
): number | null {
	if (!fields.pickupTime) return null;
	const start = startTime(fields);
	if (start !== null) return start;
	const pickup = Date.parse(fields.pickupTime);
	return Number.isNaN(pickup) ? null : pickup - timers.lateAfter * 1000;
}

/**
 * How a ticket's timer reads now. A ticket whose start is still ahead is `scheduled` (never
 * yellow or red before it is due); once due, its colour counts from the later of its arrival and
 * its start, so a scheduled order does not turn late the moment it is due. A ticket fired from
 * the holds list (queued after it was received) was started by a cook: never scheduled.
 */
export function cardTiming(
	now: number,
	times: { queuedAt: number; receivedAt?: number },
	fields: Pick<OrderFields, 'pickupTime' | 'prepTimeDuration'>,
	timers: ScreenTimers
): { level: TimerLevel | 'scheduled'; due: number | null } {
	const fired = times.receivedAt !== undefined && times.queuedAt > times.receivedAt;
	const due = fired ? null : dueAt(fields, timers);
	if (due !== null && now < due) return { level: 'scheduled', due };
	return { level: timerLevel(now - Math.max(times.queuedAt, due ?? 0), timers), due };
}

export function timerLevel(elapsedMs: number, timers: ScreenTimers): TimerLevel {
	const seconds = elapsedMs / 1000;
	if (seconds >= timers.lateAfter) return 'late';
	if (seconds >= timers.warnAfter) return 'warn';
	return 'ok';
}

/**
 * How long a NEW / CHANGED mark lasts (the `changeMarks` screen setting, or `?changeMarks=`):
 * `'seen'` (the default) until a cook has seen the card, a number of seconds for at most that long
 * (and also until seen). "Seen" is the browser's to say (src/routes/screens/[id]: the cook
 * selected the card, by a tap or the bump bar's arrows, and then moved on); the agent, which
 * cannot know, reports a mark as a browser that has not seen the card shows it.
 */
export type ChangeMarks = 'seen' | number;

/** The `changeMarks` setting's default: a mark lasts until the cook has seen the card. */
export const DEFAULT_CHANGE_MARKS: ChangeMarks = 'seen';

/**
 * Reads `changeMarks` from a URL query (`seen`, or seconds > 0) or a setting; undefined when it
 * is neither, so the caller falls back to the screen's setting or the default.
 */
export function readChangeMarks(value: unknown): ChangeMarks | undefined {
	if (value === 'seen') return 'seen';
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
		? seconds
		: undefined;
}

/**
 * The mark an item shows now: `added` (NEW), `updated` (CHANGED) or null. A removed item shows
 * its strike-through instead; a change at or before `seenAt` (when the cook saw the card, agent
 * clock) was seen; with a number of seconds the mark also goes that long after the change.
 */
export function changeMark(
	item: Pick<ItemView, 'deleted' | 'change' | 'changedAt'>,
	now: number,
	marks: ChangeMarks = DEFAULT_CHANGE_MARKS,
	seenAt?: number
): 'added' | 'updated' | null {
	if (item.deleted || item.change === undefined || item.changedAt === undefined) return null;
	if (seenAt !== undefined && item.changedAt <= seenAt) return null;
	if (typeof marks === 'number' && now - item.changedAt >= marks * 1000) return null;
	return item.change;
}

/** `1 item`, `3 items`. */
export function itemCount(n: number): string {
	return `${n} ${n === 1 ? 'item' : 'items'}`;
}
