/**
 * How order fields read on a card: display name, mode label, timers. Pure; shared by the screen
 * route and by tests that look cards up by their display name.
 */
import type { OrderFields } from '../content.ts';
import type { OrderMode } from '../order-schema.ts';
import { DEFAULT_TIMERS, type ScreenSettings, type ScreenTimers } from '../relay.ts';

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

/** `4:07`, or `1:02:07` past an hour; never negative (clock skew). */
export function formatElapsed(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const s = total % 60;
	const m = Math.floor(total / 60) % 60;
	const h = Math.floor(total / 3600);
	const ss = String(s).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
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

export function timerLevel(elapsedMs: number, timers: ScreenTimers): TimerLevel {
	const seconds = elapsedMs / 1000;
	if (seconds >= timers.lateAfter) return 'late';
	if (seconds >= timers.warnAfter) return 'warn';
	return 'ok';
}

/** How long an added or changed item stays highlighted. */
export const CHANGE_HIGHLIGHT_MS = 30_000;
