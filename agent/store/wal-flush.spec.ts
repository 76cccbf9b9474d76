/**
 * The WAL's background flush (wal-flush.ts): one fdatasync of the WAL file, `delayMs` after the
 * first commit that wrote it, however many commits follow meanwhile; nothing while idle; a WAL
 * that is not there is not an error; other errors are told once and cost nothing else. Then the
 * same against a real store's WAL: the flush runs while SQLite holds the file, leaves no file
 * descriptor open, and none is made in memory or with full sync.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderRecord } from '#core/order-machine';
import { Store } from './store.ts';
import { WalFlush, type FlushFs } from './wal-flush.ts';

/** A file system whose calls wait until the test answers them, in order. */
function fakeFs() {
	const calls: Array<{
		call: string;
		arg: string | number;
		answer: (err?: NodeJS.ErrnoException) => void;
	}> = [];
	const fs: FlushFs = {
		open: (path, _flags, cb) =>
			calls.push({ call: 'open', arg: path, answer: (err) => cb(err ?? null, 7) }),
		fdatasync: (fd, cb) =>
			calls.push({ call: 'fdatasync', arg: fd, answer: (err) => cb(err ?? null) }),
		close: (fd, cb) => calls.push({ call: 'close', arg: fd, answer: (err) => cb(err ?? null) })
	};
	/** Answer every call made so far, and those they make, until none is left. */
	const settle = (err?: NodeJS.ErrnoException) => {
		while (calls.length > 0) calls.shift()!.answer(err);
	};
	return { fs, calls, settle };
}

const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
const eio = Object.assign(new Error('i/o error'), { code: 'EIO' });

describe('WalFlush', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('flushes the WAL once, delayMs after the first of many commits', () => {
		const { fs, calls, settle } = fakeFs();
		const flush = new WalFlush('/data/kds.sqlite-wal', { fs, delayMs: 100 });
		for (let i = 0; i < 50; i++) flush.written();
		vi.advanceTimersByTime(99);
		expect(calls).toEqual([]);
		vi.advanceTimersByTime(1);
		expect(calls.map((c) => [c.call, c.arg])).toEqual([['open', '/data/kds.sqlite-wal']]);
		calls.shift()!.answer();
		expect(calls.map((c) => [c.call, c.arg])).toEqual([['fdatasync', 7]]);
		calls.shift()!.answer();
		expect(calls.map((c) => [c.call, c.arg])).toEqual([['close', 7]]);
		settle();
		expect(flush.flushes).toBe(1);
		vi.advanceTimersByTime(10_000);
		expect(calls).toEqual([]);
	});

	it('does nothing while no commit comes', () => {
		const { fs, calls } = fakeFs();
		new WalFlush('/w', { fs, delayMs: 100 });
		vi.advanceTimersByTime(60_000);
		expect(calls).toEqual([]);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('flushes again after the running flush when commits came during it', () => {
		const { fs, calls, settle } = fakeFs();
		const flush = new WalFlush('/w', { fs, delayMs: 100 });
		flush.written();
		vi.advanceTimersByTime(100);
		expect(calls).toHaveLength(1); // open, not answered yet
		flush.written();
		flush.written();
		vi.advanceTimersByTime(1_000);
		expect(calls).toHaveLength(1); // no second flush beside the first
		settle();
		expect(flush.flushes).toBe(1);
		vi.advanceTimersByTime(100);
		expect(calls.map((c) => c.call)).toEqual(['open']);
		settle();
		expect(flush.flushes).toBe(2);
	});

	it('takes a WAL that is not there as nothing to flush, and tells any other error once', () => {
		const errors: Error[] = [];
		const { fs, calls, settle } = fakeFs();
		const flush = new WalFlush('/w', { fs, delayMs: 10, onError: (err) => errors.push(err) });
		flush.written();
		vi.advanceTimersByTime(10);
		settle(enoent);
		expect(errors).toEqual([]);
		for (let i = 0; i < 3; i++) {
			flush.written();
			vi.advanceTimersByTime(10);
			calls.shift()!.answer(); // open succeeds
			calls.shift()!.answer(eio); // the sync fails
			settle(); // close
		}
		expect(errors).toEqual([eio]);
		expect(flush.flushes).toBe(4);
		// It goes on flushing after an error.
		flush.written();
		vi.advanceTimersByTime(10);
		expect(calls.map((c) => c.call)).toEqual(['open']);
	});

	it('flushes nothing once closed, and its timer never keeps the process alive', () => {
		const { fs, calls } = fakeFs();
		const flush = new WalFlush('/w', { fs, delayMs: 100 });
		flush.written();
		expect(vi.getTimerCount()).toBe(1);
		flush.close();
		expect(vi.getTimerCount()).toBe(0);
		flush.written();
		vi.advanceTimersByTime(1_000);
		expect(calls).toEqual([]);
	});
});

describe("WalFlush on a real store's WAL", () => {
	let dataDir: string;
	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'kds-walflush-'));
	});
	afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

	const record = (id: string): OrderRecord =>
		({
			state: 'active',
			context: {
				id,
				fields: { id, name: 'Guest', mode: 'ToGo', time: '2026-12-01T12:00:00.000Z' },
				items: [{ lineId: '1', name: 'Burger', qty: 1 }],
				seq: 1,
				receivedAt: 1,
				queuedAt: 1,
				updatedAt: 1
			}
		}) as OrderRecord;
	const commit = (store: Store, id: string) =>
		store.commit([
			{ screenId: 'kds-1', changes: [{ type: 'order.created', id, record: record(id) } as never] }
		]);
	const openFds = () => readdirSync('/proc/self/fd').length;
	const until = async (done: () => boolean) => {
		for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
	};

	it.runIf(process.platform === 'linux')(
		'flushes the WAL after commits while SQLite holds it, and leaves no descriptor open',
		async () => {
			const errors: Error[] = [];
			const store = new Store({ dataDir, onWalFlushError: (err) => errors.push(err) });
			try {
				const flush = store.walFlush!;
				expect(flush.walFile).toBe(join(dataDir, 'kds.sqlite-wal'));
				const before = openFds();
				for (let i = 0; i < 20; i++) commit(store, `o-${i}`);
				await until(() => flush.flushes === 1);
				expect(flush.flushes).toBe(1);
				expect(openFds()).toBe(before);
				commit(store, 'o-last');
				await until(() => flush.flushes === 2);
				expect(flush.flushes).toBe(2);
				expect(errors).toEqual([]);
				expect(store.load().get('kds-1')).toHaveLength(21);
			} finally {
				store.close();
			}
		}
	);

	it('makes no flush on Windows, whose flush needs a handle opened for writing', () => {
		const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
		Object.defineProperty(process, 'platform', { value: 'win32' });
		let store: Store | undefined;
		try {
			store = new Store({ dataDir });
			expect(store.walFlush).toBeNull();
		} finally {
			Object.defineProperty(process, 'platform', platform);
			store?.close();
		}
		expect(process.platform).not.toBe('win32');
	});

	it('makes no flush for a store in memory or with full sync', () => {
		const memory = new Store({ dataDir: null });
		const full = new Store({ dataDir, sync: 'full' });
		try {
			expect(memory.walFlush).toBeNull();
			expect(full.walFlush).toBeNull();
		} finally {
			memory.close();
			full.close();
		}
	});
});
