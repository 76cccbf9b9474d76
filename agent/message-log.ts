/**
 * The inspector's record of every message the simulator received, over TCP or HTTP, accepted or
 * refused: when, from where, which command and order, the reply, the raw payload and (once the
 * conformance check runs) its findings. Bounded: the newest `retention` entries are kept, in
 * memory and in SQLite; older ones are dropped, never the orders. Writes add no commit to the hot
 * path: new entries ride along in the next order commit (Store.alsoCommit), and are written in a
 * transaction of their own only when no order is committed within FLUSH_AFTER_MS.
 */
import type Database from 'better-sqlite3';
import type { Finding } from '../src/lib/core/conformance.ts';
import type { MessageEntry } from '../src/lib/core/message-entry.ts';

export type { Finding, MessageEntry };

export type NewEntry = Omit<MessageEntry, 'id'>;

export interface MessageFilter {
	screen?: string;
	orderId?: string;
	severity?: Finding['severity'];
	limit?: number;
}

export const DEFAULT_RETENTION = 2000;
const MAX_PAYLOAD_BYTES = 64 * 1024;
/** How long new entries wait for an order commit to ride along in (ms). */
const FLUSH_AFTER_MS = 10;

export class MessageLog {
	/**
	 * Oldest first. May hold up to `slack` entries beyond the retention (trimming one entry per
	 * message would shift the whole array every time); only the newest `retention` are visible.
	 */
	private entries: MessageEntry[] = [];
	private readonly slack: number;
	private nextId = 1;
	private unsaved: MessageEntry[] = [];
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	private listeners = new Set<(entry: MessageEntry) => void>();
	private insert?: Database.Statement;
	private prune?: Database.Statement;

	constructor(
		private db: Database.Database | null,
		readonly retention = DEFAULT_RETENTION
	) {
		this.slack = Math.max(16, Math.ceil(retention / 8));
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
		if (this.entries.length > this.retention + this.slack)
			this.entries.splice(0, this.entries.length - this.retention);
		for (const listener of this.listeners) listener(stored);
		if (this.db) {
			this.unsaved.push(stored);
			this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
		}
		return stored;
	}

	/** Index of the oldest visible entry. */
	private get first(): number {
		return Math.max(0, this.entries.length - this.retention);
	}

	/** Newest first. */
	list(filter: MessageFilter = {}): MessageEntry[] {
		const out: MessageEntry[] = [];
		const limit = filter.limit ?? this.retention;
		const first = this.first;
		for (let i = this.entries.length - 1; i >= first && out.length < limit; i--) {
			const e = this.entries[i];
			if (filter.screen && !e.screenIds.includes(filter.screen)) continue;
			if (filter.orderId && e.orderId !== filter.orderId) continue;
			if (filter.severity && !e.findings.some((f) => f.severity === filter.severity)) continue;
			out.push(e);
		}
		return out;
	}

	get(id: number): MessageEntry | undefined {
		for (let i = this.entries.length - 1; i >= this.first; i--) {
			if (this.entries[i].id === id) return this.entries[i];
		}
		return undefined;
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

	/** Write the entries not yet written, in a transaction of their own. */
	flush(): void {
		if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
		this.flushTimer = undefined;
		if (!this.db || this.unsaved.length === 0) return;
		try {
			this.db.transaction(() => this.writeUnsaved())();
		} catch {
			// The inspector is best effort; the orders have their own commits.
		}
	}

	/**
	 * Write the entries not yet written, inside the caller's transaction (an order commit, see
	 * Store.alsoCommit). Never throws: the inspector is best effort and must not fail a commit.
	 */
	writeUnsaved(): void {
		if (!this.db || this.unsaved.length === 0) return;
		const batch = this.unsaved;
		this.unsaved = [];
		try {
			for (const e of batch) this.insert!.run(e.id, JSON.stringify(e));
			this.prune!.run(batch.at(-1)!.id - this.retention);
		} catch {
			// The inspector is best effort; the orders have their own commits.
		}
	}
}
