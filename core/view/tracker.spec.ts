import { describe, expect, it } from 'vitest';
import type { ScreenRole } from '../expo.ts';
import type { OrderRecord } from '../order-machine.ts';
import type { Order } from '../order-schema.ts';
import { createRecord, step } from '../order-step.ts';
import { READY_SHOWN_MS, trackerBoard, widestPiece } from './tracker.ts';

const T0 = Date.parse('2026-12-02T12:00:00Z');
function record(id: string, at: number, over: Partial<Order> = {}, held = false): OrderRecord {
	return createRecord({
		order: {
			id,
			name: `Guest ${id}`,
			time: '2026-12-02T12:00:00Z',
			mode: 'ToGo',
			items: [],
			...over
		},
		at,
		seq: 1,
		held
	});
}
const bumped = (r: OrderRecord, at: number) => step(r, { type: 'order.bumped', at })!;
const cancelled = (r: OrderRecord, at: number) => step(r, { type: 'order.cancelled', at })!;
const screen = (
	role: ScreenRole,
	records: OrderRecord[],
	readyAt: Array<[string, number]> = []
) => ({
	role,
	records,
	readyAt: new Map(readyAt)
});
const names = (entries: Array<{ name: string; number: string }>) =>
	entries.map((e) => `${e.name} ${e.number}`);

describe('the order tracker', () => {
	it('Preparing while a screen works on it; Ready once every screen holding it bumped it', () => {
		const a = record('A1', T0, { checkNumber: '101' });
		const b = record('B2', T0 + 1000, { name: '陳さん 🍜' });
		const board = trackerBoard(
			[screen('station', [bumped(a, T0 + 5000), b]), screen('station', [a, bumped(b, T0 + 6000)])],
			T0 + 10_000
		);
		expect(names(board.preparing)).toEqual(['Guest A1 101', '陳さん 🍜 B2']);
		expect(board.ready).toEqual([]);
		const done = trackerBoard(
			[
				screen('station', [bumped(a, T0 + 5000), bumped(b, T0 + 7000)]),
				screen('station', [bumped(a, T0 + 8000), bumped(b, T0 + 6000)])
			],
			T0 + 10_000
		);
		expect(done.ready).toEqual([
			{ orderId: 'A1', name: 'Guest A1', number: '101', since: T0 + 8000 },
			{ orderId: 'B2', name: '陳さん 🍜', number: 'B2', since: T0 + 7000 }
		]);
	});

	it('with an expo, the expo’s bump makes it Ready; "Ready for pickup" does at once', () => {
		const a = record('A1', T0);
		const b = record('B2', T0);
		const board = trackerBoard(
			[screen('station', [a, b]), screen('expo', [bumped(a, T0 + 3000), b], [['B2', T0 + 4000]])],
			T0 + 10_000
		);
		expect(board.preparing).toEqual([]);
		expect(names(board.ready)).toEqual(['Guest B2 B2', 'Guest A1 A1']);
	});

	it('leaves out cancelled orders, orders only held, and Ready ones after a while', () => {
		const a = record('A1', T0);
		const held = record('H1', T0, {}, true);
		const c = record('C1', T0);
		const board = trackerBoard(
			[screen('station', [bumped(a, T0 + 1000), held, cancelled(c, T0 + 2000)])],
			T0 + 1000 + READY_SHOWN_MS
		);
		expect(board).toEqual({ preparing: [], ready: [] });
	});
});

describe('widestPiece', () => {
	it.each([
		['Ana', 3],
		['Bartholomew Featherstonehaugh-Wolfeschlegel', 18],
		['Christopher-Alexander 3', 12],
		['陳さん 🍜', 6],
		['', 0]
	] as const)('%s → %d', (name, width) => {
		expect(widestPiece(name)).toBe(width);
	});
});
