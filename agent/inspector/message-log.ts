/**
 * The inspector's record of every message the simulator received, over TCP or HTTP, accepted or
 * refused: when, from where, which command and order, the reply, the raw payload and (once the
 * conformance check runs) its findings. Bounded: the newest `retention` entries are kept, in
 * memory and on disk; older ones are dropped, never the orders. Writing them costs the thread
 * that answers nothing but a hand-over: new entries go to the store's worker thread in batches
 * (store-thread.ts), which writes them to a file of their own.
 */
import type { Finding } from '#core/conformance';
import type { MessageEntry } from '#core/message-entry';

export type { Finding, MessageEntry };

export type NewEntry = Omit<MessageEntry, 'id'>;

export interface MessageFilter {
	screen?: string;
	orderId?: string;
	severity?: Finding['severity'];
	limit?: number;
}

/** Where the log is kept on disk (the store's worker thread); without one, memory only. */
export interface MessageDisk {
	appendMessages(entries: MessageEntry[]): void;
	clearMessages(): void;
}

export const DEFAULT_RETENTION = 2000;
const MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * A string of its own: V8 keeps a slice as a view of the whole string it came from, so the
 * 64 KiB kept of a 1 MiB message would keep all 1 MiB alive for as long as the entry lives
 * (2000 entries: up to 2 GB).
 */
const copyOf = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
/**
 * New entries are handed to the disk in one batch per this many ms: what kill -9 can cost the
 * log. Under a burst only the newest `retention` of a batch are handed over; the older ones
 * would be pruned as soon as written.
 */
const FLUSH_AFTER_MS = 250;

export class MessageLog {
	/**
	 * Oldest first. May hold up to `slack` entries beyond the retention (trimming one entry per
	 * message would shift the whole array every time); only the newest `retention` are visible.
	 */
	private entries: MessageEntry[];
	private readonly slack: number;
	private nextId: number;
	private unsaved: MessageEntry[] = [];
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	private listeners = new Set<(entry: MessageEntry) => void>();
	private disk: MessageDisk | null;
	readonly retention: number;

	constructor(
		options: {
			disk?: MessageDisk | null;
			/** What an earlier run wrote, oldest first. */
			saved?: MessageEntry[];
			retention?: number;
		} = {}
	) {
		this.disk = options.disk ?? null;
		this.retention = options.retention ?? DEFAULT_RETENTION;
		this.slack = Math.max(16, Math.ceil(this.retention / 8));
		this.entries = (options.saved ?? []).slice(-this.retention);
		this.nextId = (this.entries.at(-1)?.id ?? 0) + 1;
	}

	/** Record a message; returns the stored entry (its id can be used to re-send it). */
	record(entry: NewEntry): MessageEntry {
		const raw =
			entry.raw.length > MAX_PAYLOAD_BYTES
				? `${copyOf(entry.raw.slice(0, MAX_PAYLOAD_BYTES))}… (${entry.raw.length} characters in all)`
				: entry.raw;
		const stored: MessageEntry = { ...entry, raw, id: this.nextId++ };
		this.entries.push(stored);
		if (this.entries.length > this.retention + this.slack)
			this.entries.splice(0, this.entries.length - this.retention);
		for (const listener of this.listeners) listener(stored);
		if (this.disk) {
			this.unsaved.push(stored);
			if (this.unsaved.length > this.retention + this.slack)
				this.unsaved.splice(0, this.unsaved.length - this.retention);
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
		this.disk?.clearMessages();
	}

	/** Hand the entries not yet handed over to the disk. */
	flush(): void {
		if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
		this.flushTimer = undefined;
		if (!this.disk || this.unsaved.length === 0) return;
		const batch = this.unsaved;
		this.unsaved = [];
		this.disk.appendMessages(batch.length > this.retention ? batch.slice(-this.retention) : batch);
	}
}
