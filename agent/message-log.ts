/**
 * The inspector's record of every message the simulator received, over TCP or HTTP, accepted or
 * refused: when, from where, which command and order, the reply, the raw payload and (once the
 * conformance check runs) its findings. Bounded: the newest `retention` entries are kept, in
 * memory and in SQLite; older ones are dropped, never the orders. Writes are batched per turn of
 * the event loop so the log adds no commit to the hot path.
 */
import type Database from 'better-sqlite3';
import type { Finding } from '../src/lib/core/conformance.ts';

export type { Finding };

export interface MessageEntry {
	id: number;
	at: number;
	interface: 'tcp' | 'http';
	/** Peer address and port. */
	source: string;
	/** Screens the message was addressed to. */
	screenIds: string[];
	/** TCP: create-order …; HTTP: method and path. */
	command: string | null;
	orderId: string | null;
	/** TCP: the reply string; HTTP: the status code and, when refused, the message. */
	result: string;
	ok: boolean;
	/** The payload as received (text, truncated to `maxPayloadBytes`). */
	raw: string;
	findings: Finding[];
}

export type NewEntry = Omit<MessageEntry, 'id'>;

export interface MessageFilter {
	screen?: string;
	orderId?: string;
	severity?: Finding['severity'];
	limit?: number;
}

export const DEFAULT_RETENTION = 2000;
const MAX_PAYLOAD_BYTES = 64 * 1024;

export class MessageLog {
	private entries: MessageEntry[] = [];
	private nextId = 1;
	private unsaved: MessageEntry[] = [];
	private flushScheduled = false;
	private listeners = new Set<(entry: MessageEntry) => void>();
	private insert?: Database.Statement;
	private prune?: Database.Statement;

	constructor(
		private db: Database.Database | null,
		readonly retention = DEFAULT_RETENTION
	) {
		if (!db) return;
		db.exec(`CREATE TABLE IF NOT EXISTS messages (
			id INTEGER PRIMARY KEY,
			entry TEXT NOT NULL
		)`);
		this.insert = db.prepare('INSERT INTO messages (id, entry) VALUES (?, ?)');
		this.prune = db.prepare('DELETE FROM messages WHERE id <= ?');
		const rows = db
			.prepare('SELECT entry FROM messages ORDER BY id DESC LIMIT ?')
			.all(retention) as Array<{ entry: string }>;
		this.entries = rows.map((r) => JSON.parse(r.entry) as MessageEntry).reverse();
		this.nextId = (this.entries.at(-1)?.id ?? 0) + 1;
	}

	/** Record a message; returns the stored entry (its id can be used to re-send it). */
	record(entry: NewEntry): MessageEntry {
		const raw =
			entry.raw.length > MAX_PAYLOAD_BYTES
				? `${entry.raw.slice(0, MAX_PAYLOAD_BYTES)}… (${entry.raw.length} characters in all)`
				: entry.raw;
		const stored: MessageEntry = { ...entry, raw, id: this.nextId++ };
		this.entries.push(stored);
		if (this.entries.length > this.retention)
			this.entries.splice(0, this.entries.length - this.retention);
		for (const listener of this.listeners) listener(stored);
		if (this.db) {
			this.unsaved.push(stored);
			if (!this.flushScheduled) {
				this.flushScheduled = true;
				setImmediate(() => this.flush());
			}
		}
		return stored;
	}

	/** Newest first. */
	list(filter: MessageFilter = {}): MessageEntry[] {
		const out: MessageEntry[] = [];
		const limit = filter.limit ?? this.retention;
		for (let i = this.entries.length - 1; i >= 0 && out.length < limit; i--) {
			const e = this.entries[i];
			if (filter.screen && !e.screenIds.includes(filter.screen)) continue;
			if (filter.orderId && e.orderId !== filter.orderId) continue;
			if (filter.severity && !e.findings.some((f) => f.severity === filter.severity)) continue;
			out.push(e);
		}
		return out;
	}

	get(id: number): MessageEntry | undefined {
		return this.entries.find((e) => e.id === id);
	}

	subscribe(listener: (entry: MessageEntry) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Forget every entry (the reset control). */
	clear(): void {
		this.entries = [];
		this.unsaved = [];
		this.db?.exec('DELETE FROM messages');
	}

	flush(): void {
		this.flushScheduled = false;
		if (!this.db || this.unsaved.length === 0) return;
		const batch = this.unsaved;
		this.unsaved = [];
		try {
			this.db.transaction(() => {
				for (const e of batch) this.insert!.run(e.id, JSON.stringify(e));
				this.prune!.run(batch.at(-1)!.id - this.retention);
			})();
		} catch {
			// The inspector is best effort; the orders have their own commits.
		}
	}
}
