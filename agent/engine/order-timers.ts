/**
 * One timer per order on the engine's clock, kept in line with the committed orders: the
 * scheduler hold-releases.ts (fire a held order at its start time) and auto-cook.ts (bump an
 * order its time after it reached the queue) share. The rule of when is theirs; this module keeps
 * the timers: set (replacing the order's last), cancelled when the order is removed, listed by
 * `scheduled()`, all cancelled by `close()`.
 */
import type { OrderRecord } from '#core/order-machine';
import type { Timer } from '../clock.ts';
import type { Engine } from './engine.ts';

export interface ScheduledOrder {
	screenId: string;
	orderId: string;
	/** When it is due, in ms on the engine's clock. */
	at: number;
}

interface Entry extends ScheduledOrder {
	/** What the rule timed it from (auto-cook: when it reached the queue), if anything. */
	from?: number;
	timer: Timer;
}

export class OrderTimers {
	private readonly timers = new Map<string, Entry>();
	private readonly unsubscribe: () => void;

	/**
	 * `track` brings one order's timer in line with its committed record (every change but a
	 * removal, which cancels the timer here); `skip`, when given and true for a commit's screen,
	 * passes over that commit whole (a screen the rule does not apply to, and no timer running).
	 */
	constructor(
		private readonly engine: Engine,
		track: (screenId: string, record: OrderRecord) => void,
		skip?: (screenId: string) => boolean
	) {
		this.unsubscribe = engine.onCommitted((screenId, changes) => {
			if (skip?.(screenId)) return;
			for (const change of changes) {
				if (change.type === 'order.removed') this.cancel(screenId, change.id);
				else track(screenId, change.record);
			}
		});
	}

	/** How many timers run. */
	get size(): number {
		return this.timers.size;
	}

	/** The order's timer: when it is due and what it was timed from. */
	get(screenId: string, orderId: string): { at: number; from?: number } | undefined {
		return this.timers.get(keyOf(screenId, orderId));
	}

	/** Run `due` at `at`, replacing the order's timer if it has one. */
	set(screenId: string, orderId: string, at: number, due: () => void, from?: number): void {
		const key = keyOf(screenId, orderId);
		this.cancel(screenId, orderId);
		const timer = this.engine.clock.at(at, () => {
			this.timers.delete(key);
			due();
		});
		this.timers.set(key, { screenId, orderId, at, from, timer });
	}

	cancel(screenId: string, orderId: string): void {
		const key = keyOf(screenId, orderId);
		this.timers.get(key)?.timer.cancel();
		this.timers.delete(key);
	}

	/** When each order is due, soonest first (for tests and tools). */
	scheduled(): ScheduledOrder[] {
		return [...this.timers.values()]
			.map(({ screenId, orderId, at }) => ({ screenId, orderId, at }))
			.sort((a, b) => a.at - b.at);
	}

	/** Stop listening and cancel every timer. */
	close(): void {
		this.unsubscribe();
		for (const { timer } of this.timers.values()) timer.cancel();
		this.timers.clear();
	}
}

const keyOf = (screenId: string, orderId: string) => `${screenId}\u0000${orderId}`;
