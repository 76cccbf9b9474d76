/**
 * Work that must never delay a reply (the inspector's findings and log entries for a message):
 * it runs once the replies of the current turn are written, that is right after the engine's next
 * commit, or on the next turn of the event loop when nothing is committed.
 */
/** A job as an object (one per TCP message: its state and its work, without a closure). */
export interface AfterReply {
	run(): void;
}

export class AfterReplies {
	private jobs: Array<(() => void) | AfterReply> = [];
	private scheduled = false;
	/** The engine is acknowledging a commit and calls run() right after: add() schedules nothing. */
	private runDue = false;

	/** Run `job` once the replies of this turn are written. */
	add(job: (() => void) | AfterReply): void {
		this.jobs.push(job);
		if (!this.scheduled && !this.runDue) {
			this.scheduled = true;
			setImmediate(() => {
				this.scheduled = false;
				this.run();
			});
		}
	}

	/**
	 * The engine acknowledges a commit now and calls run() once the replies are written: a job
	 * added meanwhile (each TCP message's inspector work) waits for that, not for a turn of the
	 * event loop of its own (one empty turn, an epoll_wait, per message on one connection).
	 */
	due(): void {
		this.runDue = true;
	}

	/** The replies are written (the engine calls this after acknowledging a commit). */
	run(): void {
		this.runDue = false;
		const jobs = this.jobs;
		if (jobs.length === 0) return;
		this.jobs = [];
		// Indexed: no iterator or result objects whatever tier the code runs in.
		for (let i = 0; i < jobs.length; i++) {
			const job = jobs[i];
			if (typeof job === 'function') job();
			else job.run();
		}
	}
}
