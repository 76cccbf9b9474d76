/**
 * Hold release: every held order with a start time (pickupTime − prepTimeDuration) has a timer
 * on the engine's clock that fires it onto the queue at that time, through the same screen
 * action a cook's Fire button sends. Timers are set when a held order is committed (created,
 * updated), and for the held orders in the store at start-up, so a restart loses no release.
 */
import { startTime } from '#core/holds';
import type { OrderRecord } from '#core/order-machine';
import type { Engine } from './engine.ts';
import type { Logger } from '../log.ts';
import { OrderTimers } from './order-timers.ts';

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
	const timers = new OrderTimers(engine, (screenId, record) =>
		track(screenId, record, record.context.id)
	);

	function fire(screenId: string, orderId: string): void {
		timers.cancel(screenId, orderId);
		if (engine.runAction(screenId, 'fire', orderId)) {
			logger.debug({ screen: screenId, id: orderId }, 'held order released');
		}
	}

	/** Bring the timer of one order in line with its committed record. */
	function track(screenId: string, record: OrderRecord | undefined, orderId: string): void {
		const current = timers.get(screenId, orderId);
		if (!record || record.state !== 'held') return timers.cancel(screenId, orderId);
		const at = startTime(record.context.fields);
		if (at === null) {
			// The update took the start time away: nothing left to wait for.
			if (current) fire(screenId, orderId);
			return;
		}
		if (at <= engine.now()) return fire(screenId, orderId);
		if (current?.at === at) return;
		timers.set(screenId, orderId, at, () => fire(screenId, orderId));
	}

	// Held orders from the store: a release due while the agent was down fires now.
	for (const [screenId, screen] of engine.screens) {
		for (const record of [...screen.state.orders.values()]) {
			if (record.state === 'held') track(screenId, record, record.context.id);
		}
	}

	return { scheduled: () => timers.scheduled(), close: () => timers.close() };
}
