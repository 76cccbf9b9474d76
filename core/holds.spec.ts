import { describe, expect, it } from 'vitest';
import type { ItemView } from './content.ts';
import { durationMs, fireCourse, hasHeldCourse, holdStart, startTime } from './holds.ts';

const MIN = 60_000;
const PICKUP = '2026-11-22T12:30:00Z';
const PICKUP_MS = Date.parse(PICKUP);

describe('durationMs', () => {
	it.each([
		['PT30M', 30 * MIN],
		['PT45M', 45 * MIN],
		['PT1H30M', 90 * MIN],
		['PT0.5H', 30 * MIN],
		['PT90S', 1.5 * MIN],
		['P1D', 24 * 60 * MIN],
		['P1DT2H', 26 * 60 * MIN],
		['P2W', 14 * 24 * 60 * MIN],
		['PT0S', 0]
	])('%s → %d ms', (iso, ms) => {
		expect(durationMs(iso)).toBe(ms);
	});

	it.each([['P1Y'], ['P1M'], ['P1Y2M'], ['P1MT5M']])(
		'%s has years or months, no fixed length: null',
		(iso) => {
			expect(durationMs(iso)).toBeNull();
		}
	);

	it.each([[''], ['P'], ['PT'], ['30M'], ['PT30'], ['pt30m'], ['PT-5M']])(
		'%j is not a duration: null',
		(iso) => {
			expect(durationMs(iso)).toBeNull();
		}
	);
});

describe('startTime and holdStart', () => {
	it('start is pickupTime minus prepTimeDuration', () => {
		expect(startTime({ pickupTime: PICKUP, prepTimeDuration: 'PT45M' })).toBe(PICKUP_MS - 45 * MIN);
	});

	it.each([
		['no pickupTime', { prepTimeDuration: 'PT45M' }],
		['no prepTimeDuration', { pickupTime: PICKUP }],
		['a prep time in months', { pickupTime: PICKUP, prepTimeDuration: 'P1M' }]
	])('null with %s', (_label, order) => {
		expect(startTime(order)).toBeNull();
		expect(holdStart(order, 0)).toBeNull();
	});

	it('held only while the start is in the future', () => {
		const order = { pickupTime: PICKUP, prepTimeDuration: 'PT30M' };
		const start = PICKUP_MS - 30 * MIN;
		expect(holdStart(order, start - 1)).toBe(start);
		expect(holdStart(order, start)).toBeNull();
		expect(holdStart(order, start + MIN)).toBeNull();
	});

	it('a pickupTime with an offset is read as the instant it names', () => {
		expect(startTime({ pickupTime: '2026-11-22T06:30:00-06:00', prepTimeDuration: 'PT1H' })).toBe(
			PICKUP_MS - 60 * MIN
		);
	});
});

describe('course fire', () => {
	const item = (lineId: string, over: Partial<ItemView> = {}): ItemView => ({
		lineId,
		name: `Item ${lineId}`,
		qty: 1,
		mods: [],
		...over
	});
	const items: ItemView[] = [
		item('1', { course: '1', courseStatus: 'fire' }),
		item('2', { course: '2', courseStatus: 'hold' }),
		item('3', { course: ' 2 ', courseStatus: 'hold' }),
		item('4', { course: '2', courseStatus: 'pickup' }),
		item('5', { course: '2', courseStatus: 'hold', deleted: true }),
		item('6', { courseStatus: 'hold' })
	];

	it('hasHeldCourse: a live item of the course is on hold', () => {
		expect(hasHeldCourse(items, '2')).toBe(true);
		expect(hasHeldCourse(items, ' 2')).toBe(true);
		expect(hasHeldCourse(items, '1')).toBe(false);
		expect(hasHeldCourse(items, '3')).toBe(false);
		expect(hasHeldCourse(items, '')).toBe(true);
		expect(
			hasHeldCourse([item('7', { course: '2', courseStatus: 'hold', deleted: true })], '2')
		).toBe(false);
	});

	it('fireCourse fires the held live items of that course only, marked changed', () => {
		const fired = fireCourse(items, '2', 1234);
		expect(
			fired.map((i) => [i.lineId, i.courseStatus, i.change ?? null, i.changedAt ?? null])
		).toEqual([
			['1', 'fire', null, null],
			['2', 'fire', 'updated', 1234],
			['3', 'fire', 'updated', 1234],
			['4', 'pickup', null, null],
			['5', 'hold', null, null],
			['6', 'hold', null, null]
		]);
		expect(fired[0]).toBe(items[0]);
	});

	it("course '' fires the items without a course", () => {
		expect(fireCourse(items, '', 1).find((i) => i.lineId === '6')?.courseStatus).toBe('fire');
	});
});
