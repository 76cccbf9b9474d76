/**
 * Hold release: every held order with a start time (pickupTime − prepTimeDuration) has a timer
 * on the engine's clock that fires it onto the queue at that time, through the same screen
 * action a cook's Fire button sends. Timers are set when a held order is committed (created,
 * updated), and for the held orders in the store at start-up, so a restart loses no release.
 */
import { startTime } from '#core/holds';
import type { OrderRecord } from '#core/order-machine';
import type { ScreenChange } from '#core/screen';
import type { Timer } from '../clock.ts';
import type { Engine } from './engine.ts';
import type { Logger } from '../log.ts';

export interface HoldReleases {
	/** When each held order will be fired, by screen and order id (for tests and tools). */
	scheduled(): Array<{ screenId: string; orderId: string; at: number }>;
	/** Cancel every timer and stop listening. */
	close(): void;
}

/**
 * Watch the engine's committed changes and keep one release timer per held order:
 * - a held order with a start time in the future: fired at the start time;
 * - its start time changed by an update: re-timed, or fired at once when the start is now past
 *   or the update removed pickupTime or prepTimeDuration;
 * - it left the holds list (fired by hand, cancelled, removed): its timer is cancelled.
 * A held order that never had a start time (held by other means) waits for a hand fire.
 */
export function startHoldReleases(engine: Engine, logger: Logger): HoldReleases {
	const timers = new Map<string, { screenId: string; orderId: string; at: number; timer: Timer }>();
	const keyOf = (screenId: string, orderId: string) => `${screenId}\u0000${orderId}`;

	function cancel(key: string): void {
		timers.get(key)?.timer.cancel();
		timers.delete(key);
	}

	function fire(screenId: string, orderId: string): void {
		cancel(keyOf(screenId, orderId));
		if (engine.runAction(screenId, 'fire', orderId)) {
			logger.debug({ screen: screenId, id: orderId }, 'held order released');
		}
	}

	/** Bring the timer of one order in line with its committed record. */
	function track(screenId: string, record: OrderRecord | undefined, orderId: string): void {
		const key = keyOf(screenId, orderId);
		const current = timers.get(key);
		if (!record || record.state !== 'held') return cancel(key);
		const at = startTime(record.context.fields);
		if (at === null) {
			// The update took the start time away: nothing left to wait for.
			if (current) fire(screenId, orderId);
			return;
		}
		if (at <= engine.now()) return fire(screenId, orderId);
		if (current?.at === at) return;
		cancel(key);
		const timer = engine.clock.at(at, () => {
			timers.delete(key);
			fire(screenId, orderId);
		});
		timers.set(key, { screenId, orderId, at, timer });
	}

	function onChanges(screenId: string, changes: readonly ScreenChange[]): void {
		for (const change of changes) {
			if (change.type === 'order.removed') cancel(keyOf(screenId, change.id));
			else track(screenId, change.record, change.record.context.id);
		}
	}

	const unsubscribe = engine.onCommitted(onChanges);
	// Held orders from the store: a release due while the agent was down fires now.
	for (const [screenId, screen] of engine.screens) {
		for (const record of [...screen.state.orders.values()]) {
			if (record.state === 'held') track(screenId, record, record.context.id);
		}
	}

	return {
		scheduled: () =>
			[...timers.values()]
				.map(({ screenId, orderId, at }) => ({ screenId, orderId, at }))
				.sort((a, b) => a.at - b.at),
		close() {
			unsubscribe();
			for (const { timer } of timers.values()) timer.cancel();
			timers.clear();
		}
	};
}
