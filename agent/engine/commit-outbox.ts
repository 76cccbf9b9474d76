/**
 * The transactional outbox, once: rows that committed changes owe (customer texts, webhook
 * deliveries) are decided and written inside the orders' own transaction (Engine.onCommitting: one
 * WAL commit for the orders and their rows, so nothing acknowledged loses its row), and sent only
 * once that transaction is committed (Engine.onCommitEnd, before any command of the commit is
 * acknowledged; a commit that fails sends nothing). Rows queued outside a commit (a device event,
 * a "ready" text) are written in a transaction of their own and sent at once.
 *
 * The owner says what differs: which rows the changes owe (`decide`, queueing them with `queue`),
 * how they are written (`write`) and how they are sent (`send`). agent/notify/sms.ts and
 * agent/notify/webhooks.ts use it.
 */
import type { ScreenBatch } from '../store/store.ts';
import type { Engine } from './engine.ts';

export interface CommitOutboxRows<Queued, Written> {
	/** Inside the orders' transaction: queue (CommitOutbox.queue) the rows these changes owe. */
	decide(batches: readonly ScreenBatch[]): void;
	/**
	 * Write the queued rows and return those written (a row already there is left out). `inCommit`:
	 * in the orders' open transaction; otherwise in a transaction of the owner's own. Must not throw
	 * for a row that cannot be written: log it and leave it out.
	 */
	write(queued: Queued[], inCommit: boolean): Written[];
	/** Send rows that are written and committed; never called with none. */
	send(written: Written[]): void;
}

export class CommitOutbox<Queued, Written> {
	private queued: Queued[] = [];
	/** Inside the orders' transaction (Engine.onCommitting): rows are written in it. */
	private inCommit = false;
	/** Rows written in the orders' transaction: sent once it is committed. */
	private held: Written[] = [];
	private readonly unsubscribe: Array<() => void>;

	constructor(
		engine: Pick<Engine, 'onCommitting' | 'onCommitEnd'>,
		private readonly rows: CommitOutboxRows<Queued, Written>
	) {
		this.unsubscribe = [
			engine.onCommitting((batches) => {
				this.inCommit = true;
				this.held = [];
				try {
					rows.decide(batches);
					this.flush();
				} finally {
					this.inCommit = false;
					this.queued = [];
				}
			}),
			engine.onCommitEnd(() => {
				const written = this.held;
				this.held = [];
				if (written.length > 0) rows.send(written);
			})
		];
	}

	/** Owe a row: written at the next flush (at the latest at the end of the commit deciding it). */
	queue(row: Queued): void {
		this.queued.push(row);
	}

	/**
	 * Write what is queued now: in a commit, in the orders' transaction (sent once it is
	 * committed); outside one, in a transaction of its own, then sent at once.
	 */
	flush(): void {
		if (this.queued.length === 0) return;
		const queued = this.queued;
		this.queued = [];
		const written = this.rows.write(queued, this.inCommit);
		if (this.inCommit) for (const row of written) this.held.push(row);
		else if (written.length > 0) this.rows.send(written);
	}

	/** Stop listening to the engine's commits. */
	close(): void {
		for (const unsubscribe of this.unsubscribe) unsubscribe();
	}
}
