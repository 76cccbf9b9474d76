/**
 * The inspector's log and its disk: what is handed over, in which batches, and what is kept.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RAW_IS_JSON } from '#core/message-entry';
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
	const keptFrom: number[] = [];
	return {
		batches,
		keptFrom,
		appendMessages: (e: MessageEntry[], keepFrom: number) => {
			batches.push(e);
			keptFrom.push(keepFrom);
		},
		clearMessages() {}
	};
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

	it('under a burst larger than the retention hands over only the newest, never the older ones', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 10 });
		const ids = Array.from({ length: 100 }, (_, i) => `O-${i + 1}`);
		for (const id of ids) log.record(entry(id));
		expect(disk.batches).toEqual([]);
		vi.advanceTimersByTime(250);
		// One batch: the newest ten (what the log keeps); the 90 before were never handed over.
		expect(disk.batches.map((b) => b.map((e) => e.orderId))).toEqual([ids.slice(-10)]);
		expect(disk.batches[0].map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => 91 + i));
		// What the inspector lists is the same newest ten.
		expect(log.list().map((e) => e.orderId)).toEqual(ids.slice(-10).reverse());
		vi.advanceTimersByTime(1000);
		expect(disk.batches).toHaveLength(1);
	});

	it('hands a payload cut to its limit over as text, no longer marked as the JSON it was', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 10 });
		const big = { ...entry('BIG'), raw: JSON.stringify({ id: 'BIG', pad: 'x'.repeat(70_000) }) };
		const small = { ...entry('SMALL') };
		for (const e of [big, small]) (e as { [RAW_IS_JSON]?: boolean })[RAW_IS_JSON] = true;
		log.record(big);
		log.record(small);
		vi.advanceTimersByTime(250);
		const [cut, whole] = disk.batches[0] as Array<MessageEntry & { [RAW_IS_JSON]?: boolean }>;
		expect(cut.raw).toMatch(/… \(70\d{3} characters in all\)$/);
		expect(() => JSON.parse(cut.raw)).toThrow();
		expect(cut[RAW_IS_JSON]).toBe(false);
		expect(whole[RAW_IS_JSON]).toBe(true);
	});

	it('writes a large batch in parts, one per turn of the event loop, and all of it at flush', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 2000 });
		for (let i = 1; i <= 600; i++) log.record(entry(`O-${i}`));
		vi.advanceTimersByTime(250);
		expect(disk.batches.map((b) => b.length)).toEqual([256]);
		vi.runOnlyPendingTimers(); // the next turn (setImmediate)
		expect(disk.batches.map((b) => b.length)).toEqual([256, 256]);
		for (let i = 601; i <= 610; i++) log.record(entry(`O-${i}`));
		log.flush();
		expect(disk.batches.map((b) => b.length)).toEqual([256, 256, 98]);
		const written = disk.batches.flat().map((e) => e.id);
		expect(written).toEqual(Array.from({ length: 610 }, (_, i) => i + 1));
	});
});

describe('MessageLog payload budget', () => {
	const big = (id: string, chars: number): NewEntry => ({
		...entry(id),
		raw: id.padEnd(chars, '[')
	});

	it('keeps the newest entries whose payloads fit the budget, fewer than the retention', () => {
		const disk = fakeDisk();
		const log = new MessageLog({ disk, retention: 100, payloadBudget: 10_000 });
		for (let i = 1; i <= 30; i++) log.record(big(`B${i}`, 3_000));
		// 3 × 3,000 characters fit in 10,000; a fourth would not.
		expect(log.list().map((e) => e.orderId)).toEqual(['B30', 'B29', 'B28']);
		expect(log.get(27)).toBeUndefined();
		log.flush();
		// The disk gets only what the log still shows, and may drop everything older.
		expect(disk.batches[0].map((e) => e.orderId)).toEqual(['B28', 'B29', 'B30']);
		expect(disk.keptFrom).toEqual([28]);
		// Small entries fill the room again, up to the retention.
		for (let i = 1; i <= 150; i++) log.record(entry(`S${i}`));
		expect(log.list()).toHaveLength(100);
		expect(log.list().at(-1)!.orderId).toBe('S51');
	});

	it('always keeps the newest entry, even one larger than the budget', () => {
		const log = new MessageLog({ retention: 10, payloadBudget: 100 });
		log.record(entry('A'));
		log.record(big('B', 5_000));
		expect(log.list().map((e) => e.orderId)).toEqual(['B']);
	});

	it('applies the budget to what an earlier run saved', () => {
		const saved = Array.from({ length: 5 }, (_, i) => ({ ...big(`P${i + 1}`, 400), id: i + 1 }));
		const log = new MessageLog({ saved, retention: 10, payloadBudget: 1_000 });
		expect(log.list().map((e) => e.orderId)).toEqual(['P5', 'P4']);
		expect(log.record(entry('N')).id).toBe(6);
	});
});

describe('MessageLog memory', () => {
	it('keeps 64 KiB of a huge payload, not the whole payload behind it', () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const log = new MessageLog({ retention: 200 });
		gc();
		const before = process.memoryUsage().heapUsed;
		for (let i = 0; i < 100; i++) {
			// 1 MB each, every one its own string (as each message off the wire is).
			log.record({ ...entry(`H${i}`), raw: `${i}`.padEnd(1_000_000, `x${i}`) });
		}
		gc();
		const grown = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
		expect(log.list({ limit: 1 })[0].raw).toMatch(/… \(1000000 characters in all\)$/);
		// 100 × 64 KiB kept is about 6 MiB; the whole payloads would be about 95 MiB.
		expect(grown).toBeLessThan(30);
	});
});

describe('MessageLog resume (the stream’s Last-Event-ID)', () => {
	const orderIds = (list: MessageEntry[] | null) => list?.map((e) => e.orderId) ?? null;

	it('gives what came after an id, oldest first; nothing after the newest', () => {
		const log = new MessageLog({ retention: 10 });
		expect(log.lastId).toBe(0);
		expect(log.since(0)).toEqual([]);
		for (const id of ['A', 'B', 'C']) log.record(entry(id));
		expect(log.lastId).toBe(3);
		expect(orderIds(log.since(0))).toEqual(['A', 'B', 'C']);
		expect(orderIds(log.since(1))).toEqual(['B', 'C']);
		expect(log.since(3)).toEqual([]);
	});

	it('says it cannot (null) when some of it was dropped, cleared, or the id was never given', () => {
		const log = new MessageLog({ retention: 3 });
		for (const id of ['A', 'B', 'C', 'D', 'E']) log.record(entry(id));
		// Ids 3 to 5 are held: resuming after 2 misses nothing it lost, after 1 it lost id 2.
		expect(orderIds(log.since(2))).toEqual(['C', 'D', 'E']);
		expect(log.since(1)).toBeNull();
		expect(log.since(6)).toBeNull();
		expect(log.since(-1)).toBeNull();
		expect(log.since(2.5)).toBeNull();
		log.clear();
		expect(log.since(2)).toBeNull();
		log.record(entry('F'));
		expect(orderIds(log.since(5))).toEqual(['F']);
	});
});
