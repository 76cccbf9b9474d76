/**
 * The one clock every rule and timer of the agent reads: hold release, notification retries and
 * expirations, the time stamps on orders (and so the timers on cards). Tests use a ManualClock
 * and move time forward instead of sleeping.
 */
export interface Timer {
	cancel(): void;
}

export interface Clock {
	now(): number;
	/** Call `fn` once the clock reaches `at` (ms since epoch). */
	at(at: number, fn: () => void): Timer;
}

export const systemClock: Clock = {
	now: () => Date.now(),
	at(at, fn) {
		// Long delays are re-armed in steps: setTimeout cannot wait more than ~24.8 days.
		let handle: NodeJS.Timeout;
		const arm = () => {
			const delay = at - Date.now();
			if (delay <= 0) return void fn();
			handle = setTimeout(arm, Math.min(delay, 2 ** 31 - 1));
			handle.unref?.();
		};
		arm();
		return { cancel: () => clearTimeout(handle) };
	}
};

/** A clock that moves only when told to; timers due by then fire in time order. */
export class ManualClock implements Clock {
	private timers: Array<{ at: number; fn: () => void; seq: number }> = [];
	private seq = 0;

	constructor(private time = Date.now()) {}

	now(): number {
		return this.time;
	}

	at(at: number, fn: () => void): Timer {
		const timer = { at, fn, seq: this.seq++ };
		this.timers.push(timer);
		return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
	}

	/** Move time forward by `ms`, firing every timer that falls due, in order. */
	advance(ms: number): void {
		this.set(this.time + ms);
	}

	set(time: number): void {
		for (;;) {
			const due = this.timers
				.filter((t) => t.at <= time)
				.sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
			if (!due) break;
			this.timers = this.timers.filter((t) => t !== due);
			this.time = Math.max(this.time, due.at);
			due.fn();
		}
		this.time = Math.max(this.time, time);
	}
}

/** The system clock shifted by `offset` ms, which can be changed at any time. */
export function offsetClock(offset: number): Clock & { offset: number } {
	const clock = {
		offset,
		now: () => Date.now() + clock.offset,
		at: (at: number, fn: () => void) => systemClock.at(at - clock.offset, fn)
	};
	return clock;
}
