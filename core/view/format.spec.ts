import { describe, expect, it } from 'vitest';
import type { ScreenSettings } from '../relay.ts';
import {
	cardTiming,
	changeMark,
	displayName,
	dueAt,
	formatClock,
	formatAgo,
	formatElapsed,
	formatIn,
	itemCount,
	modeLabel,
	readChangeMarks,
	timerLevel,
	timersFor,
	zonedFormat
} from './format.ts';

describe('displayName', () => {
	it('appends check number and origin source to the name', () => {
		expect(displayName({ name: 'Table 12' })).toBe('Table 12');
		expect(displayName({ name: 'Table 12', checkNumber: '88' })).toBe('Table 12 #88');
		expect(displayName({ name: 'Priya', originSource: 'DoorDash' })).toBe('Priya · DoorDash');
	});
});

describe('modeLabel', () => {
	it('reads Delivery Handoff only for Delivery with deliveryHandoff', () => {
		expect(modeLabel({ mode: 'Delivery', deliveryHandoff: true })).toBe('Delivery Handoff');
		expect(modeLabel({ mode: 'Delivery' })).toBe('Delivery');
		expect(modeLabel({ mode: 'Pickup', deliveryHandoff: true })).toBe('Pickup');
		expect(modeLabel({ mode: 'ToGo' })).toBe('To Go');
	});
});

describe('timers', () => {
	const settings: ScreenSettings = {
		timers: {
			warnAfter: 300,
			lateAfter: 480,
			byMode: { DriveThru: { warnAfter: 60, lateAfter: 120 } }
		},
		autoHoldFutureOrders: false,
		keymap: {}
	};

	it('formats elapsed time as a duration: m:ss under ten minutes, then minutes', () => {
		expect(formatElapsed(0)).toBe('0:00');
		expect(formatElapsed(-5000)).toBe('0:00');
		expect(formatElapsed(65_000)).toBe('1:05');
		expect(formatElapsed(599_999)).toBe('9:59');
		// Past ten minutes nothing reads like a clock time (`10:33`).
		expect(formatElapsed(633_000)).toBe('10 min');
		expect(formatElapsed(3_600_000)).toBe('1 h');
		expect(formatElapsed(3_723_000)).toBe('1 h 02 min');
	});

	it('says how long ago an order was placed in minutes, hours, then whole days', () => {
		expect(formatAgo(45)).toBe('45 min');
		expect(formatAgo(185)).toBe('3 h 05 min');
		expect(formatAgo(24 * 60 - 1)).toBe('23 h 59 min');
		expect(formatAgo(24 * 60)).toBe('1 d');
		expect(formatAgo(223 * 60 + 59)).toBe('9 d');
		expect(formatAgo(-3)).toBe('0 min');
	});

	it('reads a time to come in whole minutes, rounded up', () => {
		expect(formatIn(0)).toBe('now');
		expect(formatIn(-1)).toBe('now');
		expect(formatIn(1)).toBe('in 1 min');
		expect(formatIn(360_000)).toBe('in 6 min');
		expect(formatIn(359_000)).toBe('in 6 min');
		expect(formatIn(2 * 3600_000 + 40 * 60_000)).toBe('in 2 h 40 min');
	});

	it('counts items in words', () => {
		expect([0, 1, 2].map(itemCount)).toEqual(['0 items', '1 item', '2 items']);
	});

	it('a scheduled ticket is neither yellow nor red before it is due, then counts from due', () => {
		const timers = { warnAfter: 300, lateAfter: 480 };
		const pickup = Date.parse('2026-11-22T15:00:00Z');
		const queued = pickup - 3 * 3600_000;
		const fields = { pickupTime: new Date(pickup).toISOString() };
		// Without prepTimeDuration it is due when starting later could not make pickup.
		expect(dueAt(fields, timers)).toBe(pickup - 480_000);
		expect(cardTiming(queued + 2 * 3600_000, { queuedAt: queued }, fields, timers).level).toBe(
			'scheduled'
		);
		expect(cardTiming(pickup - 480_000, { queuedAt: queued }, fields, timers).level).toBe('ok');
		expect(cardTiming(pickup - 480_000 + 300_000, { queuedAt: queued }, fields, timers).level).toBe(
			'warn'
		);
		expect(cardTiming(pickup, { queuedAt: queued }, fields, timers).level).toBe('late');
		// With prepTimeDuration: its start, pickup − prep.
		const prep = { ...fields, prepTimeDuration: 'PT45M' };
		expect(dueAt(prep, timers)).toBe(pickup - 45 * 60_000);
		expect(cardTiming(pickup - 46 * 60_000, { queuedAt: queued }, prep, timers).level).toBe(
			'scheduled'
		);
		// No pickupTime (or an unreadable one): the timer counts from arrival as always.
		expect(cardTiming(queued + 600_000, { queuedAt: queued }, {}, timers)).toEqual({
			level: 'late',
			due: null
		});
		expect(dueAt({ pickupTime: 'soon' }, timers)).toBeNull();
		// Fired early from the holds list by a cook: counts from then, never scheduled.
		const fired = { queuedAt: queued + 600_000, receivedAt: queued };
		expect(cardTiming(queued + 600_000, fired, prep, timers)).toEqual({ level: 'ok', due: null });
	});

	it('turns yellow then red at the screen thresholds, per mode when set', () => {
		const base = timersFor(settings, 'ToGo');
		expect([299_000, 300_000, 479_000, 480_000].map((ms) => timerLevel(ms, base))).toEqual([
			'ok',
			'warn',
			'warn',
			'late'
		]);
		const drive = timersFor(settings, 'DriveThru');
		expect(timerLevel(61_000, drive)).toBe('warn');
		expect(timerLevel(121_000, drive)).toBe('late');
		expect(timersFor(undefined, 'ToGo')).toEqual({ warnAfter: 300, lateAfter: 480 });
	});
});

describe('formatClock', () => {
	const at = Date.UTC(2026, 10, 23, 18, 40);
	const inChicago = zonedFormat('America/Chicago', [], { hour: '2-digit', minute: '2-digit' });

	it("shows the location's zone, labelled with its short name", () => {
		const text = formatClock(new Date(at).toISOString(), 'America/Chicago');
		expect(text).toMatch(/12:40\s?PM CST$|^12:40 CST$/);
		expect(text).toBe(inChicago.format(at));
	});

	it('never the runtime zone: UTC, labelled, without a zone or with an unknown one', () => {
		expect(formatClock(at)).toMatch(/UTC$/);
		expect(formatClock(at, 'Mars/Olympus')).toBe(formatClock(at));
		expect(formatClock('not a time', 'America/Chicago')).toBe('not a time');
	});

	it('keeps one formatter per zone and fields', () => {
		expect(zonedFormat('America/Chicago', [], { hour: '2-digit', minute: '2-digit' })).toBe(
			inChicago
		);
	});
});

describe('changeMark: NEW / CHANGED until the cook has seen the card, or for a time', () => {
	const added = { change: 'added' as const, changedAt: 1_000 };
	const updated = { change: 'updated' as const, changedAt: 1_000 };

	it("'seen' (the default): marked however long ago, until seen at or after the change", () => {
		expect(changeMark(added, 1_000 + 3_600_000)).toBe('added');
		expect(changeMark(updated, 1_000 + 3_600_000, 'seen')).toBe('updated');
		expect(changeMark(added, 90_000, 'seen', 999)).toBe('added');
		expect(changeMark(added, 90_000, 'seen', 1_000)).toBeNull();
		expect(changeMark(added, 90_000, 'seen', 5_000)).toBeNull();
	});

	it('seconds: marked for that long, and not once seen', () => {
		expect(changeMark(added, 1_000 + 29_999, 30)).toBe('added');
		expect(changeMark(added, 1_000 + 30_000, 30)).toBeNull();
		expect(changeMark(added, 1_000 + 5_000, 30, 2_000)).toBeNull();
	});

	it('never on a removed item, an item the create sent, or one with no time', () => {
		expect(changeMark({ ...added, deleted: true }, 1_000)).toBeNull();
		expect(changeMark({}, 1_000)).toBeNull();
		expect(changeMark({ change: 'added' }, 1_000)).toBeNull();
	});
});

describe('readChangeMarks: the query parameter and the setting', () => {
	it("takes 'seen' and seconds above 0; anything else is left to the default", () => {
		expect(readChangeMarks('seen')).toBe('seen');
		expect(readChangeMarks('30')).toBe(30);
		expect(readChangeMarks(' 7.5 ')).toBe(7.5);
		expect(readChangeMarks(45)).toBe(45);
		for (const bad of [
			null,
			undefined,
			'',
			' ',
			'0',
			'-3',
			'abc',
			'Infinity',
			'SEEN',
			0,
			NaN,
			{}
		]) {
			expect(readChangeMarks(bad), String(bad)).toBeUndefined();
		}
	});
});
