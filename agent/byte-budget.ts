/**
 * One budget for the bytes every connection holds for a message it has not finished sending: TCP
 * messages being framed and HTTP bodies being read count against the same total. Past it, the
 * holders that started their message last are evicted first (their connection is closed), until
 * the total is back under the budget: a flood of unfinished messages costs its senders, not the
 * memory of the agent, and a client that sends whole messages is never the one that goes.
 */

/** 64 MiB: with the agent's own ~100 MB, well inside a 1 GB Raspberry Pi. */
export const DEFAULT_PENDING_BUDGET_BYTES = 64 * 1024 * 1024;

/** One connection's unfinished message, as the budget sees it. */
export interface Holder {
	/** Close the connection (the budget has already forgotten the holder). */
	evict(): void;
}

/**
 * A holder's place in the budget: its bytes and its neighbours in the order messages started,
 * kept on the holder itself (one object per holder, reused for each of its messages). Until
 * 2026-11-26 a Map held them: an HTTP body is charged when its headers arrive and released when
 * it is read, so every request inserted into and deleted from the Map, ~1 µs per call in the
 * agent's profiles (2-3 µs per request), where linking costs a few field writes.
 */
interface Link {
	readonly holder: Holder;
	bytes: number;
	/** Started before it (older), after it (newer); null at the ends. */
	older: Link | null;
	newer: Link | null;
	linked: boolean;
}

const LINK = Symbol('kds.budgetLink');
type Linked = Holder & { [LINK]?: Link };

export class ByteBudget {
	/** Bytes held now, over all holders. */
	private total = 0;
	private count = 0;
	/** The newest of the holders with bytes, linked in the order their messages started. */
	private newest: Link | null = null;

	constructor(readonly limit: number = DEFAULT_PENDING_BUDGET_BYTES) {
		if (!Number.isSafeInteger(limit) || limit < 1) {
			throw new RangeError(`the pending-bytes budget must be a positive integer, got ${limit}`);
		}
	}

	/** Bytes held now by every unfinished message. */
	get bytes(): number {
		return this.total;
	}

	/** Unfinished messages now. */
	get holders(): number {
		return this.count;
	}

	/**
	 * The holder now holds `bytes` (0: its message is done or gone). Returns false when the holder
	 * was evicted to keep the total under the budget: the caller stops reading from it.
	 */
	set(holder: Holder, bytes: number): boolean {
		const h = holder as Linked;
		let link = h[LINK];
		if (bytes <= 0) {
			if (link !== undefined && link.linked) this.unlink(link);
			return true;
		}
		if (link === undefined) {
			link = { holder, bytes: 0, older: null, newer: null, linked: false };
			h[LINK] = link;
		}
		if (!link.linked) this.append(link);
		this.total += bytes - link.bytes;
		link.bytes = bytes;
		if (this.total <= this.limit) return true;
		let evictedSelf = false;
		// Newest first, each time from the newest still held (an eviction may release others).
		while (this.total > this.limit && this.newest !== null) {
			const victim = this.newest;
			this.unlink(victim);
			if (victim === link) evictedSelf = true;
			victim.holder.evict();
		}
		return !evictedSelf;
	}

	/** Forget the holder (its connection closed). */
	release(holder: Holder): void {
		this.set(holder, 0);
	}

	private append(link: Link): void {
		link.linked = true;
		link.bytes = 0;
		link.older = this.newest;
		link.newer = null;
		if (this.newest !== null) this.newest.newer = link;
		this.newest = link;
		this.count++;
	}

	private unlink(link: Link): void {
		this.total -= link.bytes;
		link.bytes = 0;
		link.linked = false;
		if (link.older !== null) link.older.newer = link.newer;
		if (link.newer !== null) link.newer.older = link.older;
		else this.newest = link.older;
		link.older = link.newer = null;
		this.count--;
	}
}
