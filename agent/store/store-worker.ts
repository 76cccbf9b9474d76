/**
 * The store's worker thread: the disk work that no reply waits for, kept off the thread that
 * answers TCP and HTTP.
 *
 * - The inspector's log (messages.sqlite, its own file, so this thread never waits for the
 *   orders' write lock nor makes the main thread wait for it): entries arrive in batches,
 *   are written in one transaction per batch, and those the log no longer shows (beyond the
 *   retention or its payload budget, message-log.ts) are dropped.
 * - Checkpoints of the orders' WAL (kds.sqlite): a PASSIVE checkpoint every CHECKPOINT_EVERY_MS
 *   copies committed pages into the database file without blocking the main thread's commits,
 *   so that thread never stalls for one (its own automatic checkpoint stays as a backstop).
 *
 * Started by StoreThread (store-thread.ts); see there for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessageEntry } from '#core/message-entry';
import { Database, transaction } from './sqlite.ts';
import type { StoreWorkerData, ToStoreWorker } from './store-thread.ts';

const CHECKPOINT_EVERY_MS = 50;

const { messagesFile, ordersFile, retention } = workerData as StoreWorkerData;

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
const checkpoints = setInterval(() => {
	try {
		checkpoint.get();
	} catch {
		// Busy or failed: the next round, or the main thread's own checkpoint, catches up.
	}
}, CHECKPOINT_EVERY_MS);

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
