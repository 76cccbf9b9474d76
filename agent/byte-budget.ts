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

export class ByteBudget {
	/** Bytes held now, over all holders. */
	private total = 0;
	/** Holders with bytes, in the order their messages started (oldest first). */
	private readonly held = new Map<Holder, number>();

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
		return this.held.size;
	}

	/**
	 * The holder now holds `bytes` (0: its message is done or gone). Returns false when the holder
	 * was evicted to keep the total under the budget: the caller stops reading from it.
	 */
	set(holder: Holder, bytes: number): boolean {
		const before = this.held.get(holder);
		if (bytes <= 0) {
			if (before !== undefined) {
				this.total -= before;
				this.held.delete(holder);
			}
			return true;
		}
		this.total += bytes - (before ?? 0);
		this.held.set(holder, bytes);
		if (this.total <= this.limit) return true;
		let evictedSelf = false;
		// Newest first: Map keeps insertion order, so walk it backwards.
		const newestFirst = [...this.held.keys()].reverse();
		for (const victim of newestFirst) {
			if (this.total <= this.limit) break;
			this.total -= this.held.get(victim)!;
			this.held.delete(victim);
			if (victim === holder) evictedSelf = true;
			victim.evict();
		}
		return !evictedSelf;
	}

	/** Forget the holder (its connection closed). */
	release(holder: Holder): void {
		this.set(holder, 0);
	}
}
