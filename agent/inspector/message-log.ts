/**
 * The inspector's record of every message the simulator received, over TCP or HTTP, accepted or
 * refused: when, from where, which command and order, the reply, the raw payload and (once the
 * conformance check runs) its findings. Bounded: the newest `retention` entries are kept, in
 * memory and on disk; older ones are dropped, never the orders. New entries go to the disk in
 * batches (store/message-file.ts appends each batch to a file), FLUSH_AFTER_MS after the first:
 * only those the log still keeps then, so a burst beyond the retention is never serialized whole.
 */
import type { Finding } from '#core/conformance';
import { isRefusal, RAW_IS_JSON, type MessageEntry } from '#core/message-entry';

export type { Finding, MessageEntry };

export type NewEntry = Omit<MessageEntry, 'id'>;

export interface MessageFilter {
	screen?: string;
	orderId?: string;
	severity?: Finding['severity'];
	/** Only the messages refused (any reply but acceptance), or only those accepted. */
	result?: 'refused' | 'accepted';
	limit?: number;
}

/** Where the log is kept on disk (store/message-file.ts); without one, memory only. */
export interface MessageDisk {
	/**
	 * Write the entries (oldest first); every entry older than `keepFrom` (an id) may go: the log
	 * no longer shows it.
	 */
	appendMessages(entries: MessageEntry[], keepFrom: number): void;
	clearMessages(): void;
}

export const DEFAULT_RETENTION = 2000;
const MAX_PAYLOAD_BYTES = 64 * 1024;
/**
 * What all kept payloads together may hold, in characters (8 Mi): the newest entries are kept up
 * to the retention or this, whichever comes first. Without it, 2000 entries of 64 KiB each (a
 * client sending deeply nested or padded messages) would hold 128 MiB in this thread, as much
 * again in the disk's file: more than the pending-bytes budget allows all
 * connections together. Ordinary orders (1-2 KB) never reach it.
 */
export const DEFAULT_PAYLOAD_BUDGET = 8 * 1024 * 1024;

/**
 * A string of its own: V8 keeps a slice as a view of the whole string it came from, so the
 * 64 KiB kept of a 1 MiB message would keep all 1 MiB alive for as long as the entry lives
 * (2000 entries: up to 2 GB).
 */
const copyOf = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
/**
 * New entries are handed to the disk in one batch per this many ms: what kill -9 can cost the
 * log. Only the entries the log still keeps then are handed over (at most the retention): under
 * a burst faster than the retention per 250 ms, the older ones are never serialized nor written,
 * as they would be pruned as soon as written. (From 2026-11-26 morning to noon a batch went at 64
 * entries too, which wrote every entry of a burst: 4-16% more on the answering thread per TCP
 * create than the worker design before it; docs/performance.md, "Store worker round".)
 */
const FLUSH_AFTER_MS = 250;
/**
 * A batch is written this many entries at a time, the next part on the next turn of the event
 * loop, so replies never wait behind a whole batch: an entry's JSON line costs ~4.5 µs, 2000 of
 * them ~10 ms; 256, ~1 ms.
 */
const WRITE_CHUNK = 256;

export class MessageLog {
	/**
	 * Oldest first; the visible ones are those from `first` on. Entries before it are dropped in
	 * one splice once there are `slack` of them (dropping one per message would shift the whole
	 * array every time).
	 */
	private entries: MessageEntry[];
	private first = 0;
	/** Characters of payload (`raw`) of the visible entries. */
	private payload = 0;
	private readonly slack: number;
	private nextId: number;
	private unsaved: MessageEntry[] = [];
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	/** Handed over to be written, oldest first; those before `writeAt` are written. */
	private writing: MessageEntry[] = [];
	private writeAt = 0;
	private writeNext: ReturnType<typeof setImmediate> | undefined;
	private listeners = new Set<(entry: MessageEntry) => void>();
	private disk: MessageDisk | null;
	readonly retention: number;
	readonly payloadBudget: number;

	constructor(
		options: {
			disk?: MessageDisk | null;
			/** What an earlier run wrote, oldest first. */
			saved?: MessageEntry[];
			retention?: number;
			/** Characters all kept payloads may hold together (DEFAULT_PAYLOAD_BUDGET). */
			payloadBudget?: number;
		} = {}
	) {
		this.disk = options.disk ?? null;
		this.retention = options.retention ?? DEFAULT_RETENTION;
		this.payloadBudget = options.payloadBudget ?? DEFAULT_PAYLOAD_BUDGET;
		this.slack = Math.max(16, Math.ceil(this.retention / 8));
		this.entries = (options.saved ?? []).slice(-this.retention);
		for (const e of this.entries) this.payload += e.raw.length;
		this.trim();
		this.nextId = (this.entries.at(-1)?.id ?? 0) + 1;
	}

	/**
	 * Record a message, taken over (a fresh object per message: it becomes the stored entry, with
	 * its id, rather than a copy that would double what lives for `retention` more messages);
	 * returns it (its id can be used to re-send it).
	 */
	record(entry: NewEntry): MessageEntry {
		const cut = entry.raw.length > MAX_PAYLOAD_BYTES;
		const raw = cut
			? `${copyOf(entry.raw.slice(0, MAX_PAYLOAD_BYTES))}… (${entry.raw.length} characters in all)`
			: entry.raw;
		const stored = entry as MessageEntry & { [RAW_IS_JSON]?: boolean };
		// A cut payload is no longer the JSON text it was: the file must escape it as any text.
		if (cut && stored[RAW_IS_JSON]) stored[RAW_IS_JSON] = false;
		stored.raw = raw;
		stored.id = this.nextId++;
		this.entries.push(stored);
		this.payload += raw.length;
		this.trim();
		for (const listener of this.listeners) listener(stored);
		if (this.disk) {
			const unsaved = this.unsaved;
			unsaved.push(stored);
			// A burst beyond the retention: those the log no longer keeps go before they are written
			// (one splice per `retention` entries, so the list stays under twice the retention).
			if (unsaved.length >= 2 * this.retention) this.unsaved = this.visibleOf(unsaved);
			this.flushTimer ??= setTimeout(() => {
				this.flushTimer = undefined;
				this.take();
				this.writeSome();
			}, FLUSH_AFTER_MS);
		}
		return stored;
	}

	/** Hide the oldest entries while over the retention or the payload budget (never the newest). */
	private trim(): void {
		const entries = this.entries;
		while (
			entries.length - this.first > 1 &&
			(entries.length - this.first > this.retention || this.payload > this.payloadBudget)
		) {
			this.payload -= entries[this.first].raw.length;
			this.first++;
		}
		if (this.first >= this.slack) {
			entries.splice(0, this.first);
			this.first = 0;
		}
	}

	/** Id of the oldest visible entry (the next id when there is none). */
	private get oldestId(): number {
		return this.entries[this.first]?.id ?? this.nextId;
	}

	/** The entries of `list` (oldest first) that are still visible. */
	private visibleOf(list: MessageEntry[]): MessageEntry[] {
		const from = this.oldestId;
		let i = 0;
		while (i < list.length && list[i].id < from) i++;
		return i === 0 ? list : list.slice(i);
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
			if (filter.result && isRefusal(e) !== (filter.result === 'refused')) continue;
			out.push(e);
		}
		return out;
	}

	/** The id of the newest entry (0 before the first). */
	get lastId(): number {
		return this.nextId - 1;
	}

	/**
	 * The entries that came after the one with id `id`, oldest first: what a stream that resumes
	 * from that id (its Last-Event-ID) missed. Null when the log no longer holds them all (dropped
	 * by the retention or the payload budget, or cleared), or when this log never gave that id.
	 */
	since(id: number): MessageEntry[] | null {
		if (!Number.isSafeInteger(id) || id < 0 || id > this.lastId || id + 1 < this.oldestId) {
			return null;
		}
		const out: MessageEntry[] = [];
		for (let i = this.entries.length - 1; i >= this.first && this.entries[i].id > id; i--) {
			out.push(this.entries[i]);
		}
		return out.reverse();
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
		this.first = 0;
		this.payload = 0;
		this.unsaved = [];
		this.writing = [];
		this.writeAt = 0;
		this.disk?.clearMessages();
	}

	/** Write every entry not yet written, now (at shutdown). */
	flush(): void {
		if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
		this.flushTimer = undefined;
		this.take();
		this.writeSome(Infinity);
	}

	/** Move the new entries the log still keeps to those to be written. */
	private take(): void {
		if (this.unsaved.length === 0) return;
		const batch = this.visibleOf(this.unsaved);
		this.unsaved = [];
		if (this.writeAt >= this.writing.length) {
			this.writing = batch;
			this.writeAt = 0;
		} else {
			for (const e of batch) this.writing.push(e);
		}
	}

	/** Write up to `most` of those to be written that the log still keeps; the rest next turn. */
	private writeSome(most = WRITE_CHUNK): void {
		if (this.writeNext !== undefined) clearImmediate(this.writeNext);
		this.writeNext = undefined;
		const writing = this.writing;
		const from = this.oldestId;
		let at = this.writeAt;
		while (at < writing.length && writing[at].id < from) at++;
		const end = Math.min(writing.length, at + most);
		if (this.disk && end > at) this.disk.appendMessages(writing.slice(at, end), from);
		this.writeAt = end;
		if (end < writing.length) this.writeNext = setImmediate(() => this.writeSome());
		else {
			this.writing = [];
			this.writeAt = 0;
		}
	}
}
