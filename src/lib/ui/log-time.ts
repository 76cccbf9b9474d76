/** When a logged message came, as the inspector and the SMS outbox show it. */
import { zonedFormat } from '#core/view/format';

/**
 * Wall-clock time with milliseconds in the location's time zone, with its short name:
 * `18:40:07.125 CST`; `date` puts the day first (`2026-11-23 18:40:07.125 CST`). Never the
 * browser's zone: without a zone (or one the browser does not know), UTC, labelled so.
 */
export function formatTime(
	at: number,
	timeZone?: string,
	options: { date?: boolean; ms?: boolean } = {}
): string {
	const ms = options.ms ?? true;
	const fields: Intl.DateTimeFormatOptions = {
		...(options.date ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		...(ms ? { fractionalSecondDigits: 3 as const } : {}),
		hourCycle: 'h23'
	};
	const format = zonedFormat(timeZone, 'en-US', fields);
	const part: Record<string, string> = {};
	for (const { type, value } of format.formatToParts(at)) part[type] = value;
	const seconds = ms ? `${part.second}.${part.fractionalSecond}` : part.second;
	const time = `${part.hour}:${part.minute}:${seconds} ${part.timeZoneName}`;
	return options.date ? `${part.year}-${part.month}-${part.day} ${time}` : time;
}

/** The time zone of the location a screen belongs to (null when the screen is not known). */
export function zoneOfScreen(
	locations: readonly { timezone?: string; screens: readonly { id: string }[] }[],
	screenId: string | undefined
): string | null {
	if (!screenId) return null;
	return locations.find((l) => l.screens.some((s) => s.id === screenId))?.timezone ?? null;
}
