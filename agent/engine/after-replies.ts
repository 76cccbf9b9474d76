/**
 * Work that must never delay a reply (the inspector's findings and log entries for a message):
 * it runs once the replies of the current turn are written, that is right after the engine's next
 * commit, or on the next turn of the event loop when nothing is committed.
 */
export class AfterReplies {
	private jobs: Array<() => void> = [];
	private scheduled = false;

	/** Run `job` once the replies of this turn are written. */
	add(job: () => void): void {
		this.jobs.push(job);
		if (!this.scheduled) {
			this.scheduled = true;
			setImmediate(() => {
				this.scheduled = false;
				this.run();
			});
		}
	}

	/** The replies are written (the engine calls this after acknowledging a commit). */
	run(): void {
		const jobs = this.jobs;
		if (jobs.length === 0) return;
		this.jobs = [];
		for (const job of jobs) job();
	}
}
