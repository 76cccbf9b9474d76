/**
 * ISO 8601 date-times as POS clients send them, and how the screen reads each one.
 *
 * Accepted: `YYYY-MM-DDTHH:MM[:SS[.f]]` with 0 to 9 fractional digits, then an offset `Z`,
 * `±hh:mm`, `±hhmm`, `±hh`, or none. That covers the defaults of the common serialisers: Python
 * `isoformat()` (naive: no offset, 6 digits), JavaScript `toISOString()`, Java `LocalDateTime` /
 * `OffsetDateTime` / `Instant` `toString()` (seconds left out when zero, up to 9 digits), .NET
 * `"o"` (7 digits), PHP `DATE_ATOM` and `"c"`.
 *
 * A time with no offset is the local time of the screen's location, read in its time zone (an
 * input: this module is pure, the agent passes the location's IANA name). Forms that
 * `Date.parse` does not read the same way everywhere (no offset, `±hhmm`, `±hh`, more than three
 * fractional digits) are normalised to `YYYY-MM-DDTHH:MM:SS.sss±hh:mm` (or `Z`), the wall time
 * kept: what the card and the hold timer then read. Each normalisation is an outcome with the
 * rule it falls under (see rules.ts).
 */
import type { Outcome } from './outcome.ts';

/** Groups: 1 date, 2 hh, 3 mm, 4 ss, 5 fraction, 6 offset. */
const ISO_DATE_TIME =
	/^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The forms every JavaScript engine reads alike (RFC 3339 with at most milliseconds): kept as
 * given. The common case, so it is tested first and alone.
 */
const PLAIN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
	return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function validDate(date: string): boolean {
	const year = Number(date.slice(0, 4));
	const month = Number(date.slice(5, 7));
	const day = Number(date.slice(8, 10));
	if (month < 1 || month > 12 || day < 1) return false;
	const last = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1];
	return day <= last;
}

function validOffset(offset: string | undefined): boolean {
	if (offset === undefined || offset === 'Z') return true;
	const hours = Number(offset.slice(1, 3));
	const minutes = offset.length > 3 ? Number(offset.slice(-2)) : 0;
	return hours <= 23 && minutes <= 59;
}

/** Whether `text` is an ISO 8601 date-time this module accepts (a real calendar date and time). */
export function isIsoDateTime(text: string): boolean {
	const m = ISO_DATE_TIME.exec(text);
	if (!m) return false;
	if (Number(m[2]) > 23 || Number(m[3]) > 59 || (m[4] !== undefined && Number(m[4]) > 59)) {
		return false;
	}
	return validDate(m[1]) && validOffset(m[6]);
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter for the zone, or null when the zone name is not one the runtime knows. */
function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
	let format = formatters.get(timeZone);
	if (format === undefined) {
		try {
			format = new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
				era: 'short'
			});
		} catch {
			format = null;
		}
		formatters.set(timeZone, format);
	}
	return format;
}

/** UTC ms of a wall time read as if it were UTC (years below 100 included). */
function wallAsUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
	const date = new Date(0);
	date.setUTCFullYear(y, mo - 1, d);
	date.setUTCHours(h, mi, s, 0);
	return date.getTime();
}

/** The zone's offset from UTC (minutes) at an instant. */
function offsetAt(format: Intl.DateTimeFormat, utcMs: number): number {
	const seconds = Math.floor(utcMs / 1000) * 1000;
	const parts: Record<string, string> = {};
	for (const part of format.formatToParts(seconds)) parts[part.type] = part.value;
	let year = Number(parts.year);
	if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
	const wall = wallAsUtc(
		year,
		Number(parts.month),
		Number(parts.day),
		Number(parts.hour),
		Number(parts.minute),
		Number(parts.second)
	);
	return Math.round((wall - seconds) / 60000);
}

/**
 * The zone's offset (minutes) for a wall time given as if it were UTC: the offset in force at
 * that moment (in a daylight-saving change, one of the two).
 */
function offsetForWall(format: Intl.DateTimeFormat, wall: number): number {
	const first = offsetAt(format, wall);
	const second = offsetAt(format, wall - first * 60000);
	if (first === second) return first;
	const third = offsetAt(format, wall - second * 60000);
	return third === second ? second : Math.max(first, second);
}

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const abs = Math.abs(minutes);
	return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** What normalise did to one date-time: its value and the outcomes at `path`. */
export interface NormalisedTime {
	value: string;
	outcomes: Outcome[];
}

/**
 * Read an accepted ISO 8601 date-time (see isIsoDateTime) the way the screen does: forms every
 * engine reads alike are returned as they are with no outcome (the same string, so callers can
 * compare); the rest are rewritten as described at the top, each change an outcome at `path`.
 * `timeZone` is the IANA name of the screen's location; an unknown name reads as UTC and says so.
 */
export function normaliseDateTime(
	text: string,
	path: ReadonlyArray<string | number>,
	timeZone = 'UTC'
): NormalisedTime {
	if (PLAIN.test(text)) return { value: text, outcomes: [] };
	const m = ISO_DATE_TIME.exec(text);
	if (!m) return { value: text, outcomes: [] };
	const [, date, hh, mm, ss = '00', fraction = '', offset] = m;
	const outcomes: Outcome[] = [];
	const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
	let zone: string;
	if (offset === undefined) {
		const known = formatterFor(timeZone);
		const format = known ?? (formatterFor('UTC') as Intl.DateTimeFormat);
		const wall = wallAsUtc(
			Number(date.slice(0, 4)),
			Number(date.slice(5, 7)),
			Number(date.slice(8, 10)),
			Number(hh),
			Number(mm),
			Number(ss)
		);
		zone = formatOffset(offsetForWall(format, wall));
		const where = known
			? timeZone
			: `UTC: the location's time zone ${JSON.stringify(timeZone)} is unknown`;
		const value = `${date}T${hh}:${mm}:${ss}${millis}${zone}`;
		outcomes.push({
			code: 'KDS-TIME-NO-OFFSET',
			path,
			message: `${JSON.stringify(text)} has no offset: read as ${value} (${where}), the local time of the screen's location`
		});
	} else if (offset === 'Z' || offset.length === 6) {
		zone = offset;
	} else {
		zone = offset.length === 3 ? `${offset}:00` : `${offset.slice(0, 3)}:${offset.slice(3)}`;
		outcomes.push({
			code: 'KDS-TIME-OFFSET-BASIC',
			path,
			message: `offset ${offset} read as ${zone}`
		});
	}
	if (fraction.length > 3) {
		outcomes.push({
			code: 'KDS-TIME-FRACTION',
			path,
			message: `${fraction.length} fractional digits: the screen keeps milliseconds (${millis.slice(1)})`
		});
	}
	return { value: `${date}T${hh}:${mm}:${ss}${millis}${zone}`, outcomes };
}

/** The instant (UTC ms) of the wall time `h`:`m` on the day `dayShift` days after `utcMs`'s own, in `format`'s zone. */
function wallInstant(
	format: Intl.DateTimeFormat,
	utcMs: number,
	dayShift: number,
	h: number,
	m: number
): number {
	const parts: Record<string, string> = {};
	for (const part of format.formatToParts(utcMs)) parts[part.type] = part.value;
	const wall = wallAsUtc(
		Number(parts.year),
		Number(parts.month),
		Number(parts.day) + dayShift,
		h,
		m,
		0
	);
	return wall - offsetForWall(format, wall) * 60000;
}

/**
 * A daily time of a location (`"01:00"`, in its IANA zone; an unknown zone reads as UTC): the last
 * instant it was reached at or before `now`, and the next one after `now` (UTC ms). A wall time a
 * daylight-saving change skips is taken at the offset in force before it.
 */
export function dailyTimes(
	hhmm: string,
	timeZone: string,
	now: number
): { last: number; next: number } {
	const [h, m] = hhmm.split(':').map(Number);
	const format = formatterFor(timeZone) ?? (formatterFor('UTC') as Intl.DateTimeFormat);
	const today = wallInstant(format, now, 0, h, m);
	if (today <= now) return { last: today, next: wallInstant(format, now, 1, h, m) };
	return { last: wallInstant(format, now, -1, h, m), next: today };
}

/** `HH:MM`, 00:00 to 23:59: a daily time as the config gives it. */
export const DAILY_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
