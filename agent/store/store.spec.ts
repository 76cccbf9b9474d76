/**
 * The order store's file format: a data directory written by an earlier version opens with its
 * orders intact, and one written by a newer version is refused with a message that says so.
 */
import { DatabaseSync as Database } from 'node:sqlite';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from './store.ts';
import type { OrderRecord } from '#core/order-machine';

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'kds-store-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function record(id: string, seq: number, state: OrderRecord['state'] = 'active'): OrderRecord {
	return {
		state,
		context: {
			id,
			fields: { id, name: `Guest ${seq}`, mode: 'ToGo', time: '2026-11-23T12:00:00.000Z' },
			items: [{ lineId: '1', name: 'Burger', qty: 1 }],
			seq,
			receivedAt: 1_000 + seq,
			queuedAt: 1_000 + seq,
			updatedAt: 1_000 + seq
		}
	} as OrderRecord;
}

/** A kds.sqlite as schema 2 (and 1) wrote it: orders in a WITHOUT ROWID table. */
function writeSchema2(records: Array<[screenId: string, OrderRecord]>, version = 2): void {
	const db = new Database(join(dataDir, 'kds.sqlite'));
	db.exec(`
		CREATE TABLE orders (
			screen_id TEXT NOT NULL,
			order_id TEXT NOT NULL,
			state TEXT NOT NULL,
			context TEXT NOT NULL,
			PRIMARY KEY (screen_id, order_id)
		) WITHOUT ROWID;
	`);
	if (version === 1) db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, raw TEXT)');
	const put = db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?)');
	for (const [screenId, r] of records)
		put.run(screenId, r.context.id, r.state, JSON.stringify(r.context));
	db.exec(`PRAGMA user_version = ${version}`);
	db.close();
}

const byId = (records: OrderRecord[] = []) =>
	Object.fromEntries(records.map((r) => [r.context.id, r]));

describe('the order store on disk', () => {
	it.each([1, 2])('opens a data directory of schema %i with every order as it was', (version) => {
		const before: Array<[string, OrderRecord]> = [
			['kds-1', record('A-1', 1)],
			['kds-1', record('A-2', 2, 'bumped')],
			['kds-2', record('A-1', 1, 'cancelled')]
		];
		writeSchema2(before, version);

		const store = new Store({ dataDir });
		const loaded = store.load();
		expect(byId(loaded.get('kds-1'))).toEqual({ 'A-1': before[0][1], 'A-2': before[1][1] });
		expect(byId(loaded.get('kds-2'))).toEqual({ 'A-1': before[2][1] });

		// The same order changed after the migration is still one row, not two.
		store.commit([
			{
				screenId: 'kds-1',
				changes: [
					{
						type: 'order.event',
						id: 'A-1',
						event: { type: 'order.bumped', at: 5 },
						record: record('A-1', 1, 'bumped'),
						itemsKept: false
					}
				]
			}
		]);
		store.close();

		const reopened = new Store({ dataDir });
		const again = reopened.load();
		expect(again.get('kds-1')).toHaveLength(2);
		expect(byId(again.get('kds-1'))['A-1'].state).toBe('bumped');
		reopened.close();

		const db = new Database(join(dataDir, 'kds.sqlite'), { readOnly: true });
		expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
		// Schema 1's message table went with schema 2.
		expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
			{ name: 'orders' }
		]);
		db.close();
	});

	it('keeps the items when a change leaves them as they were, and after a clear', () => {
		const store = new Store({ dataDir });
		const created = record('A-1', 1);
		store.commit([
			{ screenId: 'kds-1', changes: [{ type: 'order.created', input: null!, record: created }] }
		]);
		// A bump: same items array, new state and fields.
		const bumped: OrderRecord = {
			state: 'bumped',
			context: { ...created.context, bumpedAt: 9, updatedAt: 9 }
		};
		const bump = { type: 'order.bumped', at: 9 } as const;
		store.commit([
			{
				screenId: 'kds-1',
				changes: [{ type: 'order.event', id: 'A-1', event: bump, record: bumped, itemsKept: true }]
			}
		]);
		store.close();

		const reopened = new Store({ dataDir });
		const [loaded] = reopened.load().get('kds-1')!;
		expect(loaded).toEqual(bumped);
		// The same change after the screen was cleared writes the whole order again.
		reopened.clear('kds-1');
		const recalled: OrderRecord = {
			state: 'active',
			context: { ...loaded.context, recalledAt: 10 }
		};
		const recall = { type: 'order.recalled', at: 10 } as const;
		reopened.commit([
			{
				screenId: 'kds-1',
				changes: [
					{ type: 'order.event', id: 'A-1', event: recall, record: recalled, itemsKept: true }
				]
			}
		]);
		expect(reopened.load().get('kds-1')).toEqual([recalled]);
		reopened.close();
	});

	it('refuses a file that is not a database, or a data directory that is a file, naming it', () => {
		const file = join(dataDir, 'kds.sqlite');
		writeFileSync(file, 'these are not the orders you are looking for '.repeat(200));
		expect(() => new Store({ dataDir })).toThrow(
			`Cannot open the order store ${file}: file is not a database. Move the file away, or start with another --data-dir.`
		);
		expect(readFileSync(file, 'utf8')).toMatch(/^these are not the orders/);

		const notADir = join(dataDir, 'kds.sqlite', 'data');
		expect(() => new Store({ dataDir: notADir })).toThrow(
			new RegExp(`^Cannot create the data directory ${notADir}: ENOTDIR`)
		);
	});

	it('refuses a data directory written by a newer version, and leaves it alone', () => {
		const db = new Database(join(dataDir, 'kds.sqlite'));
		db.exec('CREATE TABLE orders (x)');
		db.exec('PRAGMA user_version = 99');
		db.close();
		expect(() => new Store({ dataDir })).toThrow(
			`The data directory was written by a newer version (schema 99, this one knows 3): ${join(dataDir, 'kds.sqlite')}. Start that version, or this one with another --data-dir.`
		);
		const after = new Database(join(dataDir, 'kds.sqlite'), { readOnly: true });
		expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: 99 });
		after.close();
	});
});

describe('the WAL', () => {
	it('has its index in the process (no -shm file) and the file to itself while open; the orders are all there after', () => {
		const store = new Store({ dataDir });
		const file = join(dataDir, 'kds.sqlite');
		const a = record('L-1', 1);
		store.commit([
			{ screenId: 'kds-1', changes: [{ type: 'order.created', input: null!, record: a }] }
		]);
		expect(existsSync(`${file}-wal`)).toBe(true);
		expect(existsSync(`${file}-shm`)).toBe(false);
		// Another connection (the sqlite3 shell, another process) is told so, rather than reading half.
		const other = new Database(file, { readOnly: true });
		try {
			expect(() => other.prepare('SELECT count(*) AS n FROM orders').get()).toThrow(
				'database is locked'
			);
		} finally {
			other.close();
		}
		store.close();
		const after = new Database(file, { readOnly: true });
		expect(after.prepare('SELECT order_id FROM orders').all()).toEqual([{ order_id: 'L-1' }]);
		after.close();
		const reopened = new Store({ dataDir });
		expect(reopened.load().get('kds-1')).toEqual([a]);
		reopened.close();
	});

	it('is checkpointed by SQLite itself once it passes 16 MiB, and never grows far beyond', () => {
		const store = new Store({ dataDir });
		try {
			const wal = join(dataDir, 'kds.sqlite-wal');
			const db = join(dataDir, 'kds.sqlite');
			const big = (i: number): OrderRecord => {
				const r = record(`W-${i}`, i);
				r.context.items = [{ lineId: '1', name: 'Burger '.repeat(400), qty: 1 }] as never;
				return r;
			};
			let sizes = { wal: 0, db: statSync(db).size };
			// About 3 KB a row: 8,000 rows are about 24 MiB of pages, past the 4096-page mark.
			for (let i = 0; i < 8000; i += 100) {
				store.commit([
					{
						screenId: 'kds-1',
						changes: Array.from({ length: 100 }, (_, k) => ({
							type: 'order.created',
							input: {},
							record: big(i + k)
						})) as never
					}
				]);
				sizes = { wal: Math.max(sizes.wal, statSync(wal).size), db: statSync(db).size };
			}
			// Checkpointed: the rows reached the database file; the WAL stayed near 16 MiB.
			expect(sizes.db).toBeGreaterThan(10 * 1024 * 1024);
			expect(sizes.wal).toBeLessThan(18 * 1024 * 1024);
			expect(sizes.wal).toBeGreaterThan(15 * 1024 * 1024);
		} finally {
			store.close();
		}
	});
});
