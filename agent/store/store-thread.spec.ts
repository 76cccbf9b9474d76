/**
 * The store's disk thread (store-thread.ts): the agent starts it only once the screens' ports
 * answer, so what the inspector's log hands it before then is queued, and written once it runs.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { MessageEntry } from '#core/message-entry';
import { createLogger } from '../log.ts';
import { Store } from './store.ts';
import { StoreThread } from './store-thread.ts';

const logger = createLogger('silent');
let dir: string;
let store: Store;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kds-store-thread-'));
	store = new Store({ dataDir: dir });
});
afterEach(() => {
	store.close();
	rmSync(dir, { recursive: true, force: true });
});

function entry(id: number): MessageEntry {
	return {
		id,
		at: 1_700_000_000_000 + id,
		interface: 'tcp',
		source: '127.0.0.1:5000',
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId: `A${id}`,
		result: `A${id}`,
		ok: true,
		raw: `{"command":"create-order","order":{"id":"A${id}"}}`,
		findings: []
	};
}

const thread = () =>
	new StoreThread({ dataDir: dir, ordersFile: store.file!, retention: 100, logger });
const savedIds = () => StoreThread.loadMessages(dir, 100, logger).map((e) => e.id);

it('writes what was handed to it before it started, in order, once started', async () => {
	const disk = thread();
	disk.appendMessages([entry(1), entry(2)], 1);
	disk.appendMessages([entry(3)], 1);
	expect(savedIds()).toEqual([]);
	disk.start();
	disk.appendMessages([entry(4)], 1);
	await disk.close();
	expect(savedIds()).toEqual([1, 2, 3, 4]);
});

it('closed without being started, still writes what it was handed', async () => {
	const disk = thread();
	disk.appendMessages([entry(7)], 7);
	await disk.close();
	expect(savedIds()).toEqual([7]);
});

it('a clear handed over before the start empties the log, after the entries before it', async () => {
	const disk = thread();
	disk.appendMessages([entry(1)], 1);
	disk.clearMessages();
	disk.appendMessages([entry(2)], 2);
	disk.start();
	await disk.close();
	expect(savedIds()).toEqual([2]);
});

it("runs its worker with a small young generation, whatever the machine's memory", async () => {
	const disk = thread();
	disk.start();
	// V8 sizes a thread's young generation from the machine's memory: 48 MiB on a 24 GB one.
	expect(disk.resourceLimits.maxYoungGenerationSizeMb).toBe(3);
	await disk.close();
});

it("checkpoints the orders' WAL into kds.sqlite once rows are committed, counted in shared memory", async () => {
	const disk = thread();
	store.countRowsIn(disk.rowsWritten);
	disk.start();
	const file = join(dir, 'kds.sqlite');
	const before = statSync(file).size;
	const created = (i: number) => {
		const context = {
			id: `A-${i}`,
			fields: { id: `A-${i}`, name: `Guest ${i}`, mode: 'ToGo', time: '2026-11-23T12:00:00.000Z' },
			items: [{ lineId: '1', name: 'Burger '.repeat(40), qty: 1 }],
			seq: i,
			receivedAt: 1_000 + i,
			queuedAt: 1_000 + i,
			updatedAt: 1_000 + i
		};
		return { type: 'order.created', input: {}, record: { state: 'active', context } } as never;
	};
	// More rows than CHECKPOINT_AFTER_ROWS, in commits of ten: the main thread counts each row.
	for (let i = 0; i < 600; i += 10) {
		store.commit([
			{ screenId: 'kds-1', changes: Array.from({ length: 10 }, (_, k) => created(i + k)) }
		]);
	}
	expect(Atomics.load(disk.rowsWritten, 0)).toBe(600);
	// Committed pages live in the WAL until a checkpoint copies them into the database file.
	const until = Date.now() + 10_000;
	while (statSync(file).size <= before && Date.now() < until)
		await new Promise((r) => setTimeout(r, 20));
	expect(statSync(file).size).toBeGreaterThan(before + 600 * 280);
	await disk.close();
});
