import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallTime } from '../tests/helpers/wall-time.ts';
import { dailyTimes, isIsoDateTime, normaliseDateTime } from './times.ts';

const CHICAGO = 'America/Chicago';

/** What each serialiser prints by default, and how the screen reads it (in Chicago). */
const CLIENT_FORMS: Array<[string, string, string, string[]]> = [
	// [client, as sent, as read, outcome codes]
	[
		'Python datetime.now().isoformat()',
		'2026-11-24T02:00:59.729233',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-NO-OFFSET', 'KDS-TIME-FRACTION']
	],
	[
		'Python isoformat() at a whole second',
		'2026-11-24T02:00:59',
		'2026-11-24T02:00:59-06:00',
		['KDS-TIME-NO-OFFSET']
	],
	[
		'Python aware isoformat()',
		'2026-11-24T02:00:59.729233-06:00',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-FRACTION']
	],
	['JavaScript toISOString()', '2026-11-24T08:00:59.729Z', '2026-11-24T08:00:59.729Z', []],
	[
		'Java LocalDateTime.toString()',
		'2026-11-24T02:00:59.729233100',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-NO-OFFSET', 'KDS-TIME-FRACTION']
	],
	[
		'Java LocalDateTime.toString() at zero seconds',
		'2026-11-24T02:00',
		'2026-11-24T02:00:00-06:00',
		['KDS-TIME-NO-OFFSET']
	],
	[
		'Java OffsetDateTime.toString()',
		'2026-11-24T02:00:59.729233100-06:00',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-FRACTION']
	],
	[
		'Java Instant.toString()',
		'2026-11-24T08:00:59.729233100Z',
		'2026-11-24T08:00:59.729Z',
		['KDS-TIME-FRACTION']
	],
	[
		'.NET DateTime.Now.ToString("o")',
		'2026-11-24T02:00:59.7292330-06:00',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-FRACTION']
	],
	[
		'.NET DateTime.UtcNow.ToString("o")',
		'2026-11-24T08:00:59.7292330Z',
		'2026-11-24T08:00:59.729Z',
		['KDS-TIME-FRACTION']
	],
	[
		'.NET unspecified kind ToString("o")',
		'2026-11-24T02:00:59.7292330',
		'2026-11-24T02:00:59.729-06:00',
		['KDS-TIME-NO-OFFSET', 'KDS-TIME-FRACTION']
	],
	['PHP DATE_ATOM / date("c")', '2026-11-24T02:00:59-06:00', '2026-11-24T02:00:59-06:00', []],
	[
		'PHP DATE_ISO8601 (±hhmm)',
		'2026-11-24T02:00:59-0600',
		'2026-11-24T02:00:59-06:00',
		['KDS-TIME-OFFSET-BASIC']
	],
	[
		'an offset in hours only (±hh)',
		'2026-11-24T13:30:00+05',
		'2026-11-24T13:30:00+05:00',
		['KDS-TIME-OFFSET-BASIC']
	],
	[
		'a half-hour offset, basic form',
		'2026-11-24T13:30:00+0530',
		'2026-11-24T13:30:00+05:30',
		['KDS-TIME-OFFSET-BASIC']
	],
	['one fractional digit', '2026-11-24T08:00:59.7Z', '2026-11-24T08:00:59.7Z', []]
];

describe('ISO 8601 forms the serialisers send', () => {
	it.each(CLIENT_FORMS)('%s: %s reads as %s', (_client, sent, read, codes) => {
		expect(isIsoDateTime(sent)).toBe(true);
		const result = normaliseDateTime(sent, ['time'], CHICAGO);
		expect(result.value).toBe(read);
		expect(result.outcomes.map((o) => o.code)).toEqual(codes);
		for (const outcome of result.outcomes) expect(outcome.path).toEqual(['time']);
		// Every engine reads the result as the same instant.
		expect(Number.isNaN(Date.parse(result.value))).toBe(false);
	});

	it('says what it read a local time as, and in which zone', () => {
		const [outcome] = normaliseDateTime('2026-11-24T02:00:59.729233', ['time'], CHICAGO).outcomes;
		expect(outcome.message).toBe(
			`"2026-11-24T02:00:59.729233" has no offset: read as 2026-11-24T02:00:59.729-06:00 (America/Chicago), the local time of the screen's location`
		);
	});

	it('reads a local time with the offset in force on that day (daylight saving)', () => {
		expect(normaliseDateTime('2026-07-01T12:00:00', [], CHICAGO).value).toBe(
			'2026-07-01T12:00:00-05:00'
		);
		expect(normaliseDateTime('2026-01-01T12:00:00', [], CHICAGO).value).toBe(
			'2026-01-01T12:00:00-06:00'
		);
		expect(normaliseDateTime('2026-07-01T12:00:00', [], 'Asia/Kolkata').value).toBe(
			'2026-07-01T12:00:00+05:30'
		);
	});

	it('reads a local time as UTC when no zone is given, or the zone is unknown, and says so', () => {
		expect(normaliseDateTime('2026-07-01T12:00:00', []).value).toBe('2026-07-01T12:00:00+00:00');
		const unknown = normaliseDateTime('2026-07-01T12:00:00', [], 'Mars/Olympus');
		expect(unknown.value).toBe('2026-07-01T12:00:00+00:00');
		expect(unknown.outcomes[0].message).toContain(
			`the location's time zone "Mars/Olympus" is unknown`
		);
	});

	it.each([
		'2026-11-22',
		'2026-11-22T18',
		'2026-11-22 18:05:00Z',
		'2026-13-01T00:00:00Z',
		'2026-02-29T00:00:00Z',
		'2026-04-31T00:00:00Z',
		'2026-11-22T24:00:00Z',
		'2026-11-22T18:60:00Z',
		'2026-11-22T18:05:60Z',
		'2026-11-22T18:05:00.Z',
		'2026-11-22T18:05:00.1234567890Z',
		'2026-11-22T18:05:00+24:00',
		'2026-11-22T18:05:00+05:60',
		'2026-11-22T18:05:00+5',
		'2026-11-22T18:05:00 Z',
		'yesterday',
		''
	])('refuses %j', (text) => {
		expect(isIsoDateTime(text)).toBe(false);
	});

	it('accepts a leap day', () => {
		expect(isIsoDateTime('2028-02-29T00:00:00Z')).toBe(true);
	});
});

describe('every offset form reads as the same instant (seeded)', () => {
	const offsets = fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m - (m % 15));
	const instants = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) });

	it('Z, ±hh:mm, ±hhmm, ±hh and 0 to 9 digits agree with the instant sent', () => {
		fc.assert(
			fc.property(instants, offsets, fc.integer({ min: 0, max: 9 }), (ms, offset, digits) => {
				const wall = new Date(ms + offset * 60000).toISOString().slice(0, 23);
				const base = wall.slice(0, 19);
				const fraction = digits === 0 ? '' : `.${(wall.slice(20) + '123456').slice(0, digits)}`;
				const sign = offset < 0 ? '-' : '+';
				const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
				const mm = String(Math.abs(offset) % 60).padStart(2, '0');
				const forms = [`${sign}${hh}:${mm}`, `${sign}${hh}${mm}`];
				if (mm === '00') forms.push(`${sign}${hh}`);
				if (offset === 0) forms.push('Z');
				const expected =
					Date.parse(`${base}${digits === 0 ? '' : wall.slice(19, 20 + Math.min(digits, 3))}Z`) -
					offset * 60000;
				for (const zone of forms) {
					const text = `${base}${fraction}${zone}`;
					expect(isIsoDateTime(text), text).toBe(true);
					expect(Date.parse(normaliseDateTime(text, []).value), text).toBe(expected);
				}
			}),
			{ seed: 1324, numRuns: 300 }
		);
	});

	it('a local time read in a zone comes back as that wall time in that zone', () => {
		const zones = fc.constantFrom('America/Chicago', 'Europe/Berlin', 'Asia/Kolkata', 'UTC');
		fc.assert(
			fc.property(instants, zones, (ms, zone) => {
				const wall = new Date(ms).toISOString().slice(0, 19);
				const read = normaliseDateTime(wall, [], zone).value;
				const shown = wallTime(Date.parse(read), zone);
				// Only a wall time that a daylight-saving change skips may differ.
				if (shown !== wall)
					expect(Math.abs(Date.parse(`${shown}Z`) - Date.parse(`${wall}Z`))).toBe(3600000);
				expect(read.startsWith(wall)).toBe(true);
			}),
			{ seed: 1325, numRuns: 300 }
		);
	});
});

describe('dailyTimes', () => {
	it("gives the last and next 01:00 in the location's zone", () => {
		// 2026-12-02 12:00 UTC is 06:00 in Chicago (CST, UTC-6): last 01:00 CST was 07:00 UTC.
		expect(dailyTimes('01:00', 'America/Chicago', Date.parse('2026-12-02T12:00:00Z'))).toEqual({
			last: Date.parse('2026-12-02T07:00:00Z'),
			next: Date.parse('2026-12-03T07:00:00Z')
		});
		// 06:30 UTC is 00:30 in Chicago: the last 01:00 was the day before.
		expect(dailyTimes('01:00', 'America/Chicago', Date.parse('2026-12-02T06:30:00Z'))).toEqual({
			last: Date.parse('2026-12-01T07:00:00Z'),
			next: Date.parse('2026-12-02T07:00:00Z')
		});
		expect(dailyTimes('23:59', 'Asia/Tokyo', Date.parse('2026-12-31T15:00:00Z'))).toEqual({
			last: Date.parse('2026-12-31T14:59:00Z'),
			next: Date.parse('2027-01-01T14:59:00Z')
		});
	});

	it('follows a daylight-saving change (Chicago, 2026-11-01)', () => {
		expect(dailyTimes('04:00', 'America/Chicago', Date.parse('2026-11-01T12:00:00Z'))).toEqual({
			last: Date.parse('2026-11-01T10:00:00Z'),
			next: Date.parse('2026-11-02T10:00:00Z')
		});
		expect(dailyTimes('04:00', 'America/Chicago', Date.parse('2026-10-31T12:00:00Z')).next).toBe(
			Date.parse('2026-11-01T10:00:00Z')
		);
	});
});
