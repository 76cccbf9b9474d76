/**
 * Auto Clear (docs/screens.md#auto-clear): a location's `autoClear.at` (a daily time in its time
 * zone, e.g. "01:00") removes every ticket of its screens — on screen, held and in the recall
 * list — as the vendor's nightly clear does; "clear now" (the admin API, the home page) does the
 * same at once. The orders are removed, not bumped: no webhook, no SMS, no screen communication,
 * no tracker "Ready" (the order simply leaves it), no count.
 *
 * No state is kept for it: at each clear time (and at start-up, for a clear the simulator was
 * stopped through) every order received before the last clear time is removed, so a simulator
 * that was not running at 1 AM clears at its next start what 1 AM would have cleared, and an
 * order that came after it stays.
 */
import { dailyTimes } from '#core/times';
import type { ScreenChange } from '#core/screen';
import type { LocationConfig } from '../config.ts';
import type { Timer } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { Engine, Screen } from './engine.ts';

export interface AutoClear {
	/** Remove every ticket of a location now; how many orders (per screen) went. Null: no such location. */
	clearNow(locationId: string): Promise<number | null>;
	/** When the location clears next (agent clock), or null without `autoClear`. */
	next(locationId: string): number | null;
	close(): void;
}

export function startAutoClear(engine: Engine, logger: Logger): AutoClear {
	const timers = new Map<string, { at: number; timer: Timer }>();

	/** The location's screens this simulator holds the orders of. */
	function screensOf(locationId: string): Screen[] {
		return [...engine.screens.values()].filter(
			(s) => s.location.id === locationId && !s.remote && !s.config.deleted
		);
	}

	/** Remove the orders of the location received before `before` (every one: Infinity). */
	async function clear(locationId: string, before: number, why: string): Promise<number> {
		await engine.settled();
		let count = 0;
		const batches = screensOf(locationId).map((screen) => {
			const changes: ScreenChange[] = [];
			for (const record of screen.state.orders.values())
				if (record.context.receivedAt < before)
					changes.push({ type: 'order.removed', id: record.context.id });
			count += changes.length;
			return { screenId: screen.config.id, changes };
		});
		if (count === 0) return 0;
		await engine.commit(batches);
		logger.info({ location: locationId, orders: count }, `auto clear (${why}): ${count} removed`);
		return count;
	}

	function schedule(location: LocationConfig): void {
		const at = location.autoClear?.at;
		if (!at) return;
		const { next } = dailyTimes(at, location.timezone, engine.now());
		const timer = engine.clock.at(next, () => {
			clear(location.id, next, at)
				.catch((err: unknown) => logger.error({ err, location: location.id }, 'auto clear failed'))
				.finally(() => schedule(location));
		});
		timers.set(location.id, { at: next, timer });
	}

	const locations = new Map<string, LocationConfig>();
	for (const screen of engine.screens.values()) locations.set(screen.location.id, screen.location);
	for (const location of locations.values()) {
		const at = location.autoClear?.at;
		if (!at) continue;
		// Catch up: a clear time passed while the simulator was stopped.
		const { last } = dailyTimes(at, location.timezone, engine.now());
		clear(location.id, last, `${at}, caught up at start`).catch((err: unknown) =>
			logger.error({ err, location: location.id }, 'auto clear failed')
		);
		schedule(location);
	}

	return {
		async clearNow(locationId) {
			if (screensOf(locationId).length === 0) return null;
			return clear(locationId, Infinity, 'clear now');
		},
		next: (locationId) => timers.get(locationId)?.at ?? null,
		close() {
			for (const { timer } of timers.values()) timer.cancel();
			timers.clear();
		}
	};
}
