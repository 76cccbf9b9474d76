/**
 * Durable order store: SQLite through better-sqlite3, in WAL mode. The engine commits every
 * accepted command here before the reply is written, so an acknowledged order survives a crash
 * (kill -9) and a restart. One row per order per screen holds the order's machine state and
 * context; a change overwrites it, so replaying never duplicates an order.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OrderRecord } from '../src/lib/core/order-machine.ts';
import type { ScreenChange } from '../src/lib/core/screen.ts';

export type SyncMode = 'normal' | 'full';

export interface StoreOptions {
	/** Directory for kds.sqlite; null keeps everything in memory (tests). */
	dataDir: string | null;
	/**
	 * normal: a committed order survives the process being killed (the default);
	 * full: it also survives power loss, at the cost of an fsync per command.
	 */
	sync?: SyncMode;
}

export interface ScreenBatch {
	screenId: string;
	changes: readonly ScreenChange[];
}

const SCHEMA_VERSION = 3;

/**
 * A rowid table with a unique key rather than a WITHOUT ROWID table: an order's row (its context as
 * JSON, about 1.5 KB for ten items) is far larger than SQLite's advice for WITHOUT ROWID tables
 * (a twentieth of a page), so new rows are appended in rowid order and only the small key index is
 * kept in id order. Measured: a commit of ten new orders costs half as much.
 */
const ORDERS_TABLE = `
	screen_id TEXT NOT NULL,
	order_id TEXT NOT NULL,
	state TEXT NOT NULL,
	context TEXT NOT NULL,
	UNIQUE (screen_id, order_id)`;

export class Store {
	private db: Database.Database;
	private putOrder: Database.Statement;
	private deleteOrder: Database.Statement;
	private commitMany: (batches: readonly ScreenBatch[]) => void;
	/** The database file; null in memory. */
	readonly file: string | null = null;

	constructor(readonly options: StoreOptions) {
		let file = ':memory:';
		if (options.dataDir) {
			mkdirSync(options.dataDir, { recursive: true });
			file = join(options.dataDir, 'kds.sqlite');
			this.file = file;
		}
		this.db = new Database(file);
		this.db.pragma('journal_mode = WAL');
		this.db.pragma(`synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
		this.db.pragma('busy_timeout = 5000');
		this.migrate();
		this.putOrder = this.db.prepare(
			`INSERT INTO orders (screen_id, order_id, state, context) VALUES (?, ?, ?, ?)
			 ON CONFLICT (screen_id, order_id) DO UPDATE SET state = excluded.state, context = excluded.context`
		);
		this.deleteOrder = this.db.prepare('DELETE FROM orders WHERE screen_id = ? AND order_id = ?');
		this.commitMany = this.db.transaction((batches: readonly ScreenBatch[]) => {
			for (const { screenId, changes } of batches) {
				for (const change of changes) {
					if (change.type === 'order.removed') {
						this.deleteOrder.run(screenId, change.id);
					} else {
						const { state, context } = change.record;
						this.putOrder.run(screenId, context.id, state, JSON.stringify(context));
					}
				}
			}
		});
	}

	private migrate(): void {
		const version = this.db.pragma('user_version', { simple: true }) as number;
		if (version > SCHEMA_VERSION) {
			throw new Error(
				`The data directory was written by a newer version (schema ${version}, this one knows ${SCHEMA_VERSION})`
			);
		}
		if (version === SCHEMA_VERSION) return;
		// One transaction: a migration that stops half-way leaves the data as it was.
		this.db.transaction(() => {
			if (version < 1) this.db.exec(`CREATE TABLE orders (${ORDERS_TABLE})`);
			// Schema 2: the inspector's log moved to a file of its own (store-thread.ts).
			if (version < 2) this.db.exec('DROP TABLE IF EXISTS messages');
			if (version === 1 || version === 2) {
				// Schemas 1 and 2 kept the orders in a WITHOUT ROWID table: copy them over.
				this.db.exec(`
					CREATE TABLE orders_v3 (${ORDERS_TABLE});
					INSERT INTO orders_v3 (screen_id, order_id, state, context)
						SELECT screen_id, order_id, state, context FROM orders;
					DROP TABLE orders;
					ALTER TABLE orders_v3 RENAME TO orders;
				`);
			}
			this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
		})();
	}

	/**
	 * Pages the WAL may grow to before a commit checkpoints it itself (SQLite's default: 1000).
	 * Raised when the store's worker thread checkpoints, so commits on this thread do not stall
	 * for one; the limit stays as a backstop.
	 */
	autoCheckpointAt(pages: number): void {
		this.db.pragma(`wal_autocheckpoint = ${pages}`);
	}

	/**
	 * The database, for modules that keep tables of their own next to the orders (they create
	 * them with CREATE TABLE IF NOT EXISTS); their writes share the orders' durability.
	 */
	get database(): Database.Database {
		return this.db;
	}

	/** Every stored order, by screen. */
	load(): Map<string, OrderRecord[]> {
		const byScreen = new Map<string, OrderRecord[]>();
		const rows = this.db.prepare('SELECT screen_id, state, context FROM orders').all() as Array<{
			screen_id: string;
			state: OrderRecord['state'];
			context: string;
		}>;
		for (const row of rows) {
			let list = byScreen.get(row.screen_id);
			if (!list) byScreen.set(row.screen_id, (list = []));
			list.push({ state: row.state, context: JSON.parse(row.context) });
		}
		return byScreen;
	}

	/** Commit changes to one or more screens in one transaction: all or nothing. */
	commit(batches: readonly ScreenBatch[]): void {
		this.commitMany(batches);
	}

	/** Forget one screen's orders, or every order. */
	clear(screenId?: string): void {
		if (screenId) this.db.prepare('DELETE FROM orders WHERE screen_id = ?').run(screenId);
		else this.db.exec('DELETE FROM orders');
	}

	close(): void {
		if (this.db.open) this.db.close();
	}
}
