/**
 * The store's worker thread: the disk work that no reply waits for, kept off the thread that
 * answers TCP and HTTP.
 *
 * - The inspector's log (messages.sqlite, its own file, so this thread never waits for the
 *   orders' write lock nor makes the main thread wait for it): entries arrive in batches,
 *   are written in one transaction per batch, and those the log no longer shows (beyond the
 *   retention or its payload budget, message-log.ts) are dropped.
 * - Checkpoints of the orders' WAL (kds.sqlite): a PASSIVE checkpoint copies committed pages into
 *   the database file without blocking the main thread's commits, so that thread never stalls for
 *   one (its own automatic checkpoint stays as a backstop). One is made once CHECKPOINT_AFTER_ROWS
 *   rows were committed since the last, or CHECKPOINT_AT_LEAST_EVERY_MS after it when fewer were:
 *   each checkpoint syncs the WAL and the database file and copies every page changed since the
 *   last (the table's last page and the key index's pages again each time), so checkpointing
 *   every 50 ms whatever was written cost this thread more CPU per order than the main thread's
 *   whole commit (issue 28: 183 -> 152 µs of CPU per TCP create, load 15).
 *
 * Started by StoreThread (store-thread.ts); see there for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessageEntry } from '#core/message-entry';
import { Database, transaction } from './sqlite.ts';
import type { StoreWorkerData, ToStoreWorker } from './store-thread.ts';

/** How often the worker looks at how much was committed. */
const CHECKPOINT_POLL_MS = 50;
/** A checkpoint once this many rows were committed since the last (a few MiB of WAL at most). */
const CHECKPOINT_AFTER_ROWS = 500;
/** …or this long after the last, when anything was committed at all. */
const CHECKPOINT_AT_LEAST_EVERY_MS = 500;

const { messagesFile, ordersFile, retention, rowsWritten } = workerData as StoreWorkerData;
const rows = new Int32Array(rowsWritten);

const messages = new Database(messagesFile);
messages.exec('PRAGMA journal_mode = WAL');
// Best effort: the inspector's log needs no fsync; the orders have their own durability.
messages.exec('PRAGMA synchronous = OFF');
messages.exec('CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)');
const insert = messages.prepare('INSERT OR REPLACE INTO messages (id, entry) VALUES (?, ?)');
const prune = messages.prepare('DELETE FROM messages WHERE id <= ?');
const append = transaction(messages, (entries: MessageEntry[], keepFrom: number) => {
	for (const e of entries) insert.run(e.id, JSON.stringify(e));
	prune.run(Math.max(keepFrom - 1, entries[entries.length - 1].id - retention));
});

const orders = new Database(ordersFile);
const checkpoint = orders.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// From 0: rows committed before this thread started are checkpointed too.
let rowsAtCheckpoint = 0;
let lastCheckpoint = Date.now();
const checkpoints = setInterval(() => {
	const now = Atomics.load(rows, 0);
	// Int32 wraps after 2^31 rows: the difference still counts right (|0).
	const since = (now - rowsAtCheckpoint) | 0;
	if (since === 0) return;
	if (since < CHECKPOINT_AFTER_ROWS && Date.now() - lastCheckpoint < CHECKPOINT_AT_LEAST_EVERY_MS)
		return;
	rowsAtCheckpoint = now;
	lastCheckpoint = Date.now();
	try {
		checkpoint.get();
	} catch {
		// Busy or failed: the next round, or the main thread's own checkpoint, catches up.
	}
}, CHECKPOINT_POLL_MS);

parentPort!.on('message', (message: ToStoreWorker) => {
	switch (message.type) {
		case 'messages':
			if (message.entries.length > 0) append(message.entries, message.keepFrom);
			break;
		case 'clear-messages':
			messages.exec('DELETE FROM messages');
			break;
		case 'close':
			clearInterval(checkpoints);
			orders.close();
			messages.close();
			parentPort!.close();
			break;
	}
});
