/**
 * The durable part both floor servers share (floor-tcp-server.ts, floor-http-server.ts): each
 * accepted order is kept in memory (a screen must know its orders to judge the next command)
 * and stored as one SQLite row (node:sqlite, WAL, synchronous=NORMAL, as the agent), committed once per turn
 * of the event loop together with every other order of that turn (the agent's group commit);
 * only then is it answered.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

export class FloorStore<Client> {
	private orders = new Map<string, unknown>();
	private pending: Array<{ client: Client; id: string; body: string }> = [];
	private scheduled = false;
	private commit: (rows: Array<{ id: string; body: string }>) => void;

	constructor(
		dataDir: string,
		private answer: (client: Client, id: string) => void
	) {
		const db = new DatabaseSync(join(dataDir, 'floor.sqlite'));
		db.exec('PRAGMA journal_mode = WAL');
		db.exec('PRAGMA synchronous = NORMAL');
		db.exec(
			'CREATE TABLE IF NOT EXISTS orders (order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)'
		);
		const put = db.prepare('INSERT OR REPLACE INTO orders (order_id, body) VALUES (?, ?)');
		this.commit = (rows) => {
			db.exec('BEGIN');
			try {
				for (const row of rows) put.run(row.id, row.body);
				db.exec('COMMIT');
			} catch (err) {
				db.exec('ROLLBACK');
				throw err;
			}
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
