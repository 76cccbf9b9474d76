/**
 * Holds and courses: when an auto-held order leaves the holds list (its start time, pickupTime
 * minus prepTimeDuration), and what firing a held course does to the items. Pure, shared by the
 * agent (which schedules the release) and the UI (which shows it).
 */
import type { ItemView } from './content.ts';
import { ISO_DURATION } from './field-schemas.ts';

const MS = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 } as const;

/**
 * The length of an ISO 8601 duration in ms: PnW, PnD, PTnH, PTnM, PTnS and their combinations
 * (P1DT2H30M), fractions allowed (PT0.5H). A day is 24 hours. Durations with years or months
 * have no fixed length and are no prep time: null, as for anything that is not a duration.
 */
export function durationMs(iso: string): number | null {
	const m = ISO_DURATION.exec(iso);
	if (!m) return null;
	const [, years, months, weeks, days, , hours, minutes, seconds] = m;
	if (years || months) return null;
	const part = (value: string | undefined, unit: number) =>
		value ? Number.parseFloat(value) * unit : 0;
	return (
		part(weeks, MS.W) +
		part(days, MS.D) +
		part(hours, MS.H) +
		part(minutes, MS.M) +
		part(seconds, MS.S)
	);
}

/** The fields a start time is read from (an order, or a held order's card fields). */
export interface HoldTiming {
	pickupTime?: string;
	prepTimeDuration?: string;
}

/** When preparation must start: pickupTime − prepTimeDuration (ms), or null without both. */
export function startTime(order: HoldTiming): number | null {
	if (!order.pickupTime || !order.prepTimeDuration) return null;
	const pickup = Date.parse(order.pickupTime);
	const prep = durationMs(order.prepTimeDuration);
	if (Number.isNaN(pickup) || prep === null) return null;
	return pickup - prep;
}

/**
 * The start time of an order that auto hold puts in the holds list: set when it has a pickupTime
 * and a prepTimeDuration and the start is still in the future; null otherwise (it goes straight
 * to the queue).
 */
export function holdStart(order: HoldTiming, now: number): number | null {
	const start = startTime(order);
	return start !== null && start > now ? start : null;
}

/** Courses match as the card groups them: trimmed, and '' for items without a course. */
function courseOf(item: ItemView): string {
	return item.course?.trim() ?? '';
}

/** True when a live item of `course` ('' = items without a course) is on hold. */
export function hasHeldCourse(items: readonly ItemView[], course: string): boolean {
	const wanted = course.trim();
	return items.some((i) => !i.deleted && i.courseStatus === 'hold' && courseOf(i) === wanted);
}

/**
 * Fire a course: its live items on hold get courseStatus 'fire' and are marked changed, so the
 * card highlights them. Other items, and the course's items in another status, are untouched.
 */
export function fireCourse(items: readonly ItemView[], course: string, at: number): ItemView[] {
	const wanted = course.trim();
	return items.map((item) =>
		!item.deleted && item.courseStatus === 'hold' && courseOf(item) === wanted
			? { ...item, courseStatus: 'fire', change: 'updated', changedAt: at }
			: item
	);
}
