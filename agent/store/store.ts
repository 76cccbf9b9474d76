/**
 * Durable order store: SQLite through node:sqlite (sqlite.ts), in WAL mode. The engine commits every
 * accepted command here before the reply is written, so an acknowledged order survives a crash
 * (kill -9) and a restart. One row per order per screen holds the order's machine state and
 * context; a change overwrites it, so replaying never duplicates an order.
 *
 * The context is kept in two columns: its items, and the rest. Most changes (bump, recall,
 * cancel, a partial update of fields) leave the items as they were (the core says so:
 * `itemsKept`), and then only the small rest is serialised and written.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OrderContext, OrderRecord } from '#core/order-machine';
import type { ScreenChange } from '#core/screen';
import { Database, pragmaValue, transaction, type Statement } from './sqlite.ts';
import { WalFlush } from './wal-flush.ts';

export type SyncMode = 'normal' | 'full';

export interface StoreOptions {
	/** Directory for kds.sqlite; null keeps everything in memory (tests). */
	dataDir: string | null;
	/**
	 * normal: a committed order survives the process being killed (the default);
	 * full: it also survives power loss, at the cost of an fsync per command.
	 */
	sync?: SyncMode;
	/**
	 * A background flush of the WAL failed (wal-flush.ts): only the checkpoints are slower
	 * without it, nothing is lost. Told once.
	 */
	onWalFlushError?: (err: Error) => void;
}

/** The order store cannot be opened: a one-sentence reason that names the file. */
export class StoreError extends Error {}

export interface ScreenBatch {
	screenId: string;
	changes: readonly ScreenChange[];
}

const SCHEMA_VERSION = 3;

/**
 * The WAL is checkpointed by SQLite itself, in the commit that takes it past this many pages (16
 * MiB), as the durable floor's is (there at SQLite's default, 1000). Each checkpoint syncs the WAL
 * and the database file, waits the thread that answers cannot spend answering: at 4096 pages
 * there are a quarter as many, and pages changed again within one are copied once. Measured
 * against 1000 (2026-11-26, one connection, 9 rounds of 4,000 creates, load 8-10): the same
 * CPU per create, the rate 139% (docs/performance.md, "Store worker round").
 */
const AUTO_CHECKPOINT_PAGES = 4096;

/**
 * How the order store opens its SQLite file, in order (see open() for why each): the durable floor
 * of the benches (bench/floor-store.ts) opens its file the same way, so that the ratio to it
 * measures the agent's code, not a setting.
 */
export function durablePragmas(file: string, sync?: SyncMode): string[] {
	return [
		...(file === ':memory:' ? [] : ['PRAGMA locking_mode = EXCLUSIVE']),
		'PRAGMA journal_mode = WAL',
		`PRAGMA synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`,
		'PRAGMA busy_timeout = 5000',
		`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`
	];
}

/**
 * A rowid table with a unique key rather than a WITHOUT ROWID table: an order's row (about 1.5 KB
 * for ten items) is far larger than SQLite's advice for WITHOUT ROWID tables (a twentieth of a
 * page), so new rows are appended in rowid order and only the small key index is kept in id order.
 * Measured: a commit of ten new orders costs half as much.
 */
export const ORDERS_TABLE = `
	screen_id TEXT NOT NULL,
	order_id TEXT NOT NULL,
	state TEXT NOT NULL,
	-- the context as JSON, without its items
	context TEXT NOT NULL,
	-- the context's items, a JSON array
	items TEXT NOT NULL,
	UNIQUE (screen_id, order_id)`;

/** Insert or overwrite one order's row: screen, order id, state, context and items. */
export const PUT_ORDER = `INSERT INTO orders (screen_id, order_id, state, context, items) VALUES (?, ?, ?, ?, ?)
	ON CONFLICT (screen_id, order_id) DO UPDATE
	SET state = excluded.state, context = excluded.context, items = excluded.items`;

export class Store {
	private db: Database;
	private putOrder: Statement;
	private putOrderKeepItems: Statement;
	private deleteOrder: Statement;
	private closed = false;
	/** Writes the WAL in the background so that checkpoints are short; none in memory, with full sync or on Windows. */
	readonly walFlush: WalFlush | null = null;
	private commitMany: (
		batches: readonly ScreenBatch[],
		within?: (batches: readonly ScreenBatch[]) => void
	) => void;
	/** The database file; null in memory. */
	readonly file: string | null = null;

	constructor(readonly options: StoreOptions) {
		let file = ':memory:';
		if (options.dataDir) {
			try {
				mkdirSync(options.dataDir, { recursive: true });
			} catch (err) {
				throw new StoreError(
					`Cannot create the data directory ${options.dataDir}: ${(err as Error).message}. Start with another --data-dir.`
				);
			}
			file = join(options.dataDir, 'kds.sqlite');
			this.file = file;
		}
		this.db = this.open(file, options.sync);
		// With full sync every commit already syncs the WAL: nothing would be left to flush. Not on
		// Windows, whose FlushFileBuffers needs a handle opened for writing: the store's checkpoints
		// are there as they were.
		if (this.file && options.sync !== 'full' && process.platform !== 'win32')
			this.walFlush = new WalFlush(`${this.file}-wal`, { onError: options.onWalFlushError });
		this.putOrder = this.db.prepare(PUT_ORDER);
		this.putOrderKeepItems = this.db.prepare(
			'UPDATE orders SET state = ?, context = ? WHERE screen_id = ? AND order_id = ?'
		);
		this.deleteOrder = this.db.prepare('DELETE FROM orders WHERE screen_id = ? AND order_id = ?');
		this.commitMany = transaction(
			this.db,
			(batches: readonly ScreenBatch[], within?: (batches: readonly ScreenBatch[]) => void) => {
				for (const { screenId, changes } of batches) {
					for (const change of changes) {
						if (change.type === 'order.removed') this.deleteOrder.run(screenId, change.id);
						else
							this.put(screenId, change.record, change.type === 'order.event' && change.itemsKept);
					}
				}
				within?.(batches);
			}
		);
	}

	private open(file: string, sync: SyncMode | undefined): Database {
		let db: Database | undefined;
		try {
			db = new Database(file);
			// Set before WAL mode is entered: the WAL's index then lives in this process's memory (no
			// -shm file), and the file lock is taken once and held until close, where SQLite takes and
			// releases its locks around every transaction (6 fcntl calls per commit, none now). The
			// data directory is this process's alone anyway (data-lock.ts); another connection (the
			// sqlite3 shell) is told "database is locked" until the agent stops. Measured 2026-11-26
			// against the build before (bench/ab.bench.ts, alternating rounds, load 3.3-4.6): CPU per
			// TCP create at one connection 86-94%, at 50 connections 81% (docs/performance.md, "Store
			// and GC, fifth round").
			for (const pragma of durablePragmas(file, sync)) db.exec(pragma);
			this.migrate(db, file);
			// A damaged file stops the start (one sentence) rather than failing commits later, or
			// showing fewer orders than were acknowledged: SQLite's quick check reads every page once.
			if (file !== ':memory:') {
				const check = pragmaValue(db, 'quick_check(1)');
				if (check !== 'ok') {
					// The first finding, without SQLite's "*** in database main ***" heading.
					const finding = String(check)
						.split('\n')
						.find((line) => line.trim() && !line.startsWith('***'));
					throw new StoreError(
						`The order store ${file} is damaged (${finding ?? 'quick check failed'}). Move the file away, or start with another --data-dir.`
					);
				}
			}
			return db;
		} catch (err) {
			db?.close();
			if (err instanceof StoreError) throw err;
			throw new StoreError(
				`Cannot open the order store ${file}: ${(err as Error).message}. Move the file away, or start with another --data-dir.`
			);
		}
	}

	private put(screenId: string, { state, context }: OrderRecord, itemsKept: boolean): void {
		const { items, ...rest } = context;
		const head = JSON.stringify(rest);
		// Items as they were: the row keeps its copy, unless it is gone (a screen cleared since).
		if (itemsKept && this.putOrderKeepItems.run(state, head, screenId, context.id).changes === 1)
			return;
		this.putOrder.run(screenId, context.id, state, head, JSON.stringify(items));
	}

	private migrate(db: Database, file: string): void {
		const version = pragmaValue(db, 'user_version') as number;
		if (version > SCHEMA_VERSION) {
			throw new StoreError(
				`The data directory was written by a newer version (schema ${version}, this one knows ${SCHEMA_VERSION}): ${file}. Start that version, or this one with another --data-dir.`
			);
		}
		if (version === SCHEMA_VERSION) return;
		// One transaction: a migration that stops half-way leaves the data as it was.
		transaction(db, () => {
			if (version < 1) db.exec(`CREATE TABLE orders (${ORDERS_TABLE})`);
			// Schema 2: the inspector's log moved to a file of its own (message-file.ts).
			if (version < 2) db.exec('DROP TABLE IF EXISTS messages');
			if (version === 1 || version === 2) {
				// Schemas 1 and 2 kept the orders in a WITHOUT ROWID table: copy them over.
				db.exec(`
					CREATE TABLE orders_v3 (${ORDERS_TABLE});
					INSERT INTO orders_v3 (screen_id, order_id, state, context, items)
						SELECT screen_id, order_id, state, json_remove(context, '$.items'),
							coalesce(json_extract(context, '$.items'), '[]')
						FROM orders;
					DROP TABLE orders;
					ALTER TABLE orders_v3 RENAME TO orders;
				`);
			}
			db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
		})();
	}

	/**
	 * The database, for modules that keep tables of their own next to the orders (they create
	 * them with CREATE TABLE IF NOT EXISTS); their writes share the orders' durability.
	 */
	get database(): Database {
		return this.db;
	}

	/**
	 * Every stored order, by screen. Rows are read one at a time (`iterate`), not all at once: the
	 * rows' JSON text of every order alive together with the orders parsed from it made the heap
	 * peak at start about twice the orders' size, and V8 keeps a heap that grew (issue 28: a
	 * restored order cost a third more memory than a live one).
	 */
	load(): Map<string, OrderRecord[]> {
		const byScreen = new Map<string, OrderRecord[]>();
		const rows = this.db
			.prepare('SELECT screen_id, state, context, items FROM orders')
			.iterate() as unknown as IterableIterator<{
			screen_id: string;
			state: OrderRecord['state'];
			context: string;
			items: string;
		}>;
		for (const row of rows) {
			let list = byScreen.get(row.screen_id);
			if (!list) byScreen.set(row.screen_id, (list = []));
			// The items spliced into the context's text and parsed with it: JSON.parse sizes the object
			// for every key it reads, where `items` set afterwards gave each restored context a
			// property array of its own (which a live one no longer has, #core/order-machine).
			const context = (
				row.context.length > 2
					? JSON.parse(`${row.context.slice(0, -1)},"items":${row.items}}`)
					: { ...JSON.parse(row.context), items: JSON.parse(row.items) }
			) as OrderContext;
			list.push({ state: row.state, context });
		}
		return byScreen;
	}

	/**
	 * Commit changes to one or more screens in one transaction: all or nothing. `within` runs in
	 * the same transaction after the orders' rows: rows of other tables of this database that the
	 * changes decide (the SMS outbox's texts) are committed with them, in one WAL commit.
	 */
	commit(
		batches: readonly ScreenBatch[],
		within?: (batches: readonly ScreenBatch[]) => void
	): void {
		this.commitMany(batches, within);
		this.walFlush?.written();
	}

	/** Forget one screen's orders, or every order. */
	clear(screenId?: string): void {
		if (screenId) this.db.prepare('DELETE FROM orders WHERE screen_id = ?').run(screenId);
		else this.db.exec('DELETE FROM orders');
		this.walFlush?.written();
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.walFlush?.close();
		this.db.close();
	}
}
