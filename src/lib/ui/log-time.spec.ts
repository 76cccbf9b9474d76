import { expect, it } from 'vitest';
import { formatTime } from './log-time';

it("formats the time with milliseconds in the location's zone, labelled, never the browser's", () => {
	const at = Date.UTC(2025, 0, 2, 15, 5, 7, 42);
	expect(formatTime(at, 'America/Chicago')).toBe('09:05:07.042 CST');
	expect(formatTime(Date.UTC(2025, 6, 2, 15, 5, 7, 42), 'America/Chicago')).toBe(
		'10:05:07.042 CDT'
	);
	expect(formatTime(at, 'America/Chicago', { date: true })).toBe('2025-01-02 09:05:07.042 CST');
	expect(formatTime(at)).toBe('15:05:07.042 UTC');
	expect(formatTime(at, 'Not/AZone')).toBe('15:05:07.042 UTC');
});
