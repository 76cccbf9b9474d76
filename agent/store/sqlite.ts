/**
 * SQLite for every store of the agent: Node's built-in `node:sqlite` (docs/storage.md gives the
 * measurements behind choosing it over better-sqlite3: nothing to compile at install, and
 * better-sqlite3 12 aborts the process on Node 24). The module adds only the two conveniences
 * node:sqlite leaves out: transactions as functions, and reading a pragma's value.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export { DatabaseSync as Database };
export type Statement = StatementSync;

/** SQLite's result code for a database locked by another connection (SQLITE_BUSY). */
export const SQLITE_BUSY = 5;

/** SQLite's primary result code of an error thrown by node:sqlite, if it is one. */
export function sqliteCode(err: unknown): number | undefined {
	const code = (err as { errcode?: unknown } | null)?.errcode;
	return typeof code === 'number' ? code & 0xff : undefined;
}

/** Transactions open per connection: a nested one becomes a savepoint. */
const depth = new WeakMap<DatabaseSync, number>();

/**
 * `fn` as a function that runs in one transaction: committed when it returns, rolled back when
 * it throws (and the error passed on). Called inside another, it runs in a savepoint of it.
 */
export function transaction<A extends unknown[], R>(
	db: DatabaseSync,
	fn: (...args: A) => R
): (...args: A) => R {
	return (...args: A): R => {
		const level = depth.get(db) ?? 0;
		const savepoint = `kds_${level}`;
		db.exec(level === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
		depth.set(db, level + 1);
		try {
			const result = fn(...args);
			db.exec(level === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
			return result;
		} catch (err) {
			if (level === 0) {
				try {
					db.exec('ROLLBACK');
				} catch {
					// SQLite rolled back already (a failed COMMIT, a full disk).
				}
			} else {
				db.exec(`ROLLBACK TO ${savepoint}`);
				db.exec(`RELEASE ${savepoint}`);
			}
			throw err;
		} finally {
			depth.set(db, level);
		}
	};
}

/** The value a pragma reads (`user_version`, `quick_check(1)`): its first column's. */
export function pragmaValue(db: DatabaseSync, pragma: string): unknown {
	const row = db.prepare(`PRAGMA ${pragma}`).get();
	return row === undefined ? undefined : Object.values(row)[0];
}
