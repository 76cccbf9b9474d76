import { describe, expect, it } from 'vitest';
import type { ScreenSettings } from '../relay.ts';
import {
	displayName,
	formatClock,
	formatElapsed,
	modeLabel,
	timerLevel,
	timersFor,
	zonedFormat
} from './format';

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

	it('formats elapsed time', () => {
		expect(formatElapsed(0)).toBe('0:00');
		expect(formatElapsed(-5000)).toBe('0:00');
		expect(formatElapsed(65_000)).toBe('1:05');
		expect(formatElapsed(3_723_000)).toBe('1:02:03');
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
