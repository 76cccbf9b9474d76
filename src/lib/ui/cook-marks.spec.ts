import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '#core/order-machine';
import type { ScreenInfo } from '#core/relay';
import type { KdsItem } from '#core/order-schema';
import { createRecord, step, type ActionTarget } from '#core/screen';
import { CookMarks, markableLines, stepLine } from './cook-marks.svelte';
import { OrderBoard } from './orders.svelte';
import type { ScreenActionName } from './screen-session.svelte';

const T0 = 1_795_338_000_000;
const TIME = new Date(T0).toISOString();
const SCREEN: ScreenInfo = {
	id: 'kds-1',
	name: 'Grill',
	locationId: 'loc-1',
	locationName: 'Demo Kitchen',
	timezone: 'UTC',
	settings: { timers: { warnAfter: 300, lateAfter: 480 }, autoHoldFutureOrders: false, keymap: {} }
};
const item = (lineId: string): KdsItem => ({ lineId, name: `Item ${lineId}`, qty: 1, mods: [] });

/** A board holding one order A (items 1-3, item 2 removed by an update) in `state`. */
function boardWith(events: Parameters<typeof step>[1][] = []) {
	let record: OrderRecord = createRecord({
		order: {
			id: 'A',
			name: 'A',
			time: TIME,
			mode: 'ToGo',
			items: [item('1'), item('2'), item('3')]
		},
		at: T0,
		seq: 1
	});
	const update = {
		type: 'order.updated' as const,
		order: { id: 'A', name: 'A', time: TIME, mode: 'ToGo' as const, items: [item('1'), item('3')] },
		at: T0 + 1
	};
	for (const e of [update, ...events]) record = step(record, e) ?? record;
	const board = new OrderBoard();
	board.receive({ type: 'snapshot', seq: 0, screen: SCREEN, records: [record], now: T0 });
	const entry = board.get('A');
	if (!entry) throw new Error('no entry');
	return entry;
}

function recorder() {
	const sent: Array<[ScreenActionName, string, ActionTarget]> = [];
	const marks = new CookMarks((action, orderId, target) => {
		sent.push([action, orderId, target]);
		return true;
	});
	return { sent, marks };
}

describe('stepLine', () => {
	it('moves and wraps; starts at the first (or last) line', () => {
		const lines = ['1', '3', '4'];
		expect(stepLine(lines, null, 1)).toBe('1');
		expect(stepLine(lines, null, -1)).toBe('4');
		expect(stepLine(lines, '1', 1)).toBe('3');
		expect(stepLine(lines, '4', 1)).toBe('1');
		expect(stepLine(lines, '1', -1)).toBe('4');
		expect(stepLine(lines, 'gone', 1)).toBe('1');
		expect(stepLine([], null, 1)).toBeNull();
	});
});

describe('CookMarks', () => {
	it('an item removed by an update is not markable', () => {
		expect(markableLines(boardWith())).toEqual(['1', '3']);
	});

	it('toggles by what the card shows: done, then undo', () => {
		const { sent, marks } = recorder();
		expect(marks.toggleItem(boardWith(), '1')).toBe(true);
		const done = boardWith([{ type: 'item.marked', lineId: '1', done: true, at: T0 + 2 }]);
		expect(marks.toggleItem(done, '1')).toBe(true);
		expect(marks.toggleItem(done, '2')).toBe(false);
		expect(sent).toEqual([
			['item-done', 'A', { lineId: '1' }],
			['item-undo', 'A', { lineId: '1' }]
		]);
	});

	it('the bump bar: without a cursor the first item not done; with one, the item under it', () => {
		const { sent, marks } = recorder();
		const done = boardWith([{ type: 'item.marked', lineId: '1', done: true, at: T0 + 2 }]);
		marks.toggleAtCursor(done);
		marks.move(done, 1);
		expect(marks.cursor).toEqual({ orderId: 'A', lineId: '1' });
		marks.toggleAtCursor(done);
		marks.move(done, 1);
		marks.move(done, 1);
		expect(marks.cursor).toEqual({ orderId: 'A', lineId: '1' });
		expect(sent.map(([a, , t]) => `${a} ${t.lineId}`)).toEqual(['item-done 3', 'item-undo 1']);
	});

	it('start and start-undo; nothing on a cancelled ticket', () => {
		const { sent, marks } = recorder();
		marks.toggleStarted(boardWith());
		marks.toggleStarted(boardWith([{ type: 'order.started', started: true, at: T0 + 2 }]));
		const cancelled = boardWith([{ type: 'order.cancelled', at: T0 + 2 }]);
		expect(marks.toggleStarted(cancelled)).toBe(false);
		expect(marks.toggleItem(cancelled, '1')).toBe(false);
		expect(sent.map(([a]) => a)).toEqual(['start', 'start-undo']);
	});
});
