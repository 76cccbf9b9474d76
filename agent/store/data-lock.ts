/**
 * One simulator per data directory. The lock is an exclusive SQLite lock on `kds.lock` in the
 * directory (a POSIX record lock underneath): the kernel drops it when its process ends in any way,
 * kill -9 included, so a stale lock never blocks a restart. Next to it, `kds.lock.json` names the
 * holder (process id, command, start time) so a second simulator can say who has the directory.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Database, SQLITE_BUSY, sqliteCode } from './sqlite.ts';
import { StoreError } from './store.ts';

export const LOCK_FILE = 'kds.lock';
export const HOLDER_FILE = 'kds.lock.json';

export interface DataLock {
	/** Release the lock (also released by the kernel when the process ends). */
	release(): void;
}

interface Holder {
	pid: number;
	command: string;
	since: string;
}

function holderOf(dir: string): string {
	try {
		const holder = JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')) as Partial<Holder>;
		if (typeof holder.pid !== 'number') return 'another process';
		const command =
			typeof holder.command === 'string' && holder.command ? ` (${holder.command})` : '';
		return `process ${holder.pid}${command}`;
	} catch {
		return 'another process';
	}
}

/**
 * Take the directory, creating it if needed. Throws a StoreError (one sentence naming the directory
 * and the holder) when another simulator has it.
 */
export function lockDataDir(dataDir: string): DataLock {
	const dir = resolve(dataDir);
	try {
		mkdirSync(dir, { recursive: true });
	} catch (err) {
		throw new StoreError(
			`Cannot create the data directory ${dataDir}: ${(err as Error).message}. Start with another --data-dir.`
		);
	}
	let db: Database | undefined;
	try {
		db = new Database(join(dir, LOCK_FILE));
		// The file's content is nothing but the lock: no journal on disk, no fsync (the commit below
		// cost 3-14 ms of the start-up with them; npm run bench -- start).
		db.exec('PRAGMA journal_mode = MEMORY');
		db.exec('PRAGMA synchronous = OFF');
		db.exec('PRAGMA locking_mode = EXCLUSIVE');
		// BEGIN EXCLUSIVE takes the write lock now; in exclusive locking mode it is kept after COMMIT.
		db.exec('BEGIN EXCLUSIVE');
		db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, since TEXT)');
		db.exec('COMMIT');
	} catch (err) {
		db?.close();
		if (sqliteCode(err) === SQLITE_BUSY) {
			throw new StoreError(
				`The data directory ${dir} is in use by another simulator, ${holderOf(dir)}: stop it, or start this one with another --data-dir.`
			);
		}
		throw new StoreError(
			`Cannot lock the data directory ${dir}: ${(err as Error).message}. Start with another --data-dir.`
		);
	}
	const holder: Holder = {
		pid: process.pid,
		// The script's name (not its path) and the flags: enough to tell which simulator it is.
		command: [basename(process.argv[1] ?? 'node'), ...process.argv.slice(2)]
			.join(' ')
			.slice(0, 200),
		since: new Date().toISOString()
	};
	try {
		writeFileSync(join(dir, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
	} catch {
		// Only a courtesy for the next simulator's message; the lock itself holds.
	}
	const locked = db;
	let released = false;
	return {
		release() {
			if (released) return;
			released = true;
			try {
				rmSync(join(dir, HOLDER_FILE), { force: true });
			} catch {
				// nothing to do: a stale holder file only names a process that no longer has the lock
			}
			locked.close();
		}
	};
}
