/**
 * A clock that ticks once a second, for card timers. One per page, so every timer on the screen
 * changes in the same frame.
 */
export class Ticker {
	/** Browser time (ms), updated every `intervalMs`. */
	now = $state(Date.now());
	#timer: ReturnType<typeof setInterval> | undefined;

	start(intervalMs = 1000): void {
		this.stop();
		this.now = Date.now();
		this.#timer = setInterval(() => (this.now = Date.now()), intervalMs);
	}

	stop(): void {
		clearInterval(this.#timer);
		this.#timer = undefined;
	}
}
