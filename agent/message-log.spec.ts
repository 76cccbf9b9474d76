/**
 * The inspector's log and its disk: what is handed over, in which batches, and what is kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageLog, type MessageEntry, type NewEntry } from './message-log.ts';

function entry(orderId: string): NewEntry {
	return {
		at: 0,
		interface: 'tcp',
		source: '127.0.0.1:5000',
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId,
		result: orderId,
		ok: true,
		raw: `{"command":"create-order","order":{"id":"${orderId}"}}`,
		findings: []
	};
}

function fakeDisk() {
	const batches: MessageEntry[][] = [];
	return { batches, appendMessages: (e: MessageEntry[]) => batches.push(e), clearMessages() {} };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('MessageLog on disk', () => {
	it('hands new entries over in one batch a quarter of a second later', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 10 });
		log.record(entry('A'));
		log.record(entry('B'));
		vi.advanceTimersByTime(249);
		expect(disk.batches).toEqual([]);
		vi.advanceTimersByTime(1);
		expect(disk.batches.map((b) => b.map((e) => e.orderId))).toEqual([['A', 'B']]);
	});

	it('under a burst hands over only the newest `retention` entries, the ones it keeps', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 10 });
		const ids = Array.from({ length: 100 }, (_, i) => `O-${i + 1}`);
		for (const id of ids) log.record(entry(id));
		log.flush();
		expect(disk.batches).toHaveLength(1);
		expect(disk.batches[0].map((e) => e.orderId)).toEqual(ids.slice(-10));
		expect(disk.batches[0].map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => 91 + i));
		// What the inspector lists is the same newest ten.
		expect(log.list().map((e) => e.orderId)).toEqual(ids.slice(-10).reverse());
	});
});
