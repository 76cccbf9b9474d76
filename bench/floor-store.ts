/**
 * The durable part both floor servers share (floor-tcp-server.ts, floor-http-server.ts): each
 * accepted order is kept in memory (a screen must know its orders to judge the next command)
 * and stored as one SQLite row (node:sqlite, opened with the agent's own settings: WAL,
 * synchronous=NORMAL, exclusive locking, its WAL checkpoint size), committed once per turn of the
 * event loop together with every other order of that turn (the agent's group commit); only then is
 * it answered. Since 2026-11-26 the settings are the agent's own (durablePragmas): before, the
 * floor ran on SQLite's defaults (checkpoint at 1000 pages, locks taken per transaction) while the
 * agent did not, which flattered the agent's ratio. Its WAL is flushed in the background after
 * commits, as the agent's is (agent/store/wal-flush.ts), since 2026-12-01.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { durablePragmas } from '../agent/store/store.ts';
import { WalFlush } from '../agent/store/wal-flush.ts';

export class FloorStore<Client> {
	private orders = new Map<string, unknown>();
	private pending: Array<{ client: Client; id: string; body: string }> = [];
	private scheduled = false;
	private commit: (rows: Array<{ id: string; body: string }>) => void;

	constructor(
		dataDir: string,
		private answer: (client: Client, id: string) => void
	) {
		const file = join(dataDir, 'floor.sqlite');
		const db = new DatabaseSync(file);
		for (const pragma of durablePragmas(file)) db.exec(pragma);
		db.exec(
			'CREATE TABLE IF NOT EXISTS orders (order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)'
		);
		const put = db.prepare('INSERT OR REPLACE INTO orders (order_id, body) VALUES (?, ?)');
		const walFlush = new WalFlush(`${file}-wal`);
		this.commit = (rows) => {
			db.exec('BEGIN');
			try {
				for (const row of rows) put.run(row.id, row.body);
				db.exec('COMMIT');
			} catch (err) {
				db.exec('ROLLBACK');
				throw err;
			}
			walFlush.written();
		};
	}

	/** The order kept under `id` (a partial update merges into it). */
	get(id: string): unknown {
		return this.orders.get(id);
	}

	/** Keep `order`, store its text `body`, and answer `client` once it is committed. */
	accept(client: Client, id: string, order: unknown, body: string): void {
		this.orders.set(id, order);
		this.pending.push({ client, id, body });
		if (!this.scheduled) {
			this.scheduled = true;
			setImmediate(() => this.flush());
		}
	}

	private flush(): void {
		this.scheduled = false;
		const work = this.pending;
		this.pending = [];
		this.commit(work);
		for (const { client, id } of work) this.answer(client, id);
	}
}
