/**
 * The self-working cook (docs/testing.md): on a screen whose settings have `autoBump` (its own,
 * or its location's), every order on the screen is bumped `afterSeconds` (or its mode's time in
 * `byMode`) after it reached the queue, give or take up to `jitterSeconds` (default a tenth of
 * the time), through the same screen action a cook's tap sends, so every consequence of a bump
 * (webhooks, SMS, recall list) follows. For CI runs without a browser.
 *
 * A listener of the engine's commits, as hold-releases.ts is (./order-timers.ts): a timer per order on the clock,
 * set when the order reaches the queue (created, fired from the holds list, recalled), dropped
 * when it leaves it (bumped by hand, removed, held). Orders already on a screen at start-up are
 * timed from when they reached the queue; one already past its time is bumped at once. A screen
 * without the setting costs one property read per commit.
 */
import type { OrderRecord } from '#core/order-machine';
import type { AutoBump } from '#core/relay';
import type { Engine } from './engine.ts';
import type { Logger } from '../log.ts';
import { OrderTimers } from './order-timers.ts';

export interface AutoCook {
	/** When each order will be bumped, by screen and order id (for tests and tools). */
	scheduled(): Array<{ screenId: string; orderId: string; at: number }>;
	close(): void;
}

/** When `record` is due to be bumped, from `start` (ms), with `random` in [0, 1) for the jitter. */
export function autoBumpAt(setting: AutoBump, mode: string, start: number, random: number): number {
	const seconds = setting.byMode?.[mode] ?? setting.afterSeconds;
	const jitter = setting.jitterSeconds ?? seconds / 10;
	return start + Math.max(0, seconds + (random * 2 - 1) * jitter) * 1000;
}

export function startAutoCook(
	engine: Engine,
	logger: Logger,
	random: () => number = Math.random
): AutoCook {
	// A screen without the setting, while no timer runs, costs one property read per commit.
	const timers: OrderTimers = new OrderTimers(
		engine,
		track,
		(screenId) => !engine.screen(screenId)?.config.settings.autoBump && timers.size === 0
	);

	function track(screenId: string, record: OrderRecord): void {
		const setting = engine.screen(screenId)?.config.settings.autoBump;
		const orderId = record.context.id;
		if (!setting || (record.state !== 'active' && record.state !== 'cancelled')) {
			return timers.cancel(screenId, orderId);
		}
		const start = record.context.recalledAt ?? record.context.queuedAt;
		if (timers.get(screenId, orderId)?.from === start) return; // an update: it keeps its time
		timers.cancel(screenId, orderId);
		const at = autoBumpAt(setting, record.context.fields.mode, start, random());
		const bump = () => {
			if (engine.runAction(screenId, 'bump', orderId))
				logger.debug({ screen: screenId, id: orderId }, 'bumped by the self-working cook');
		};
		if (at <= engine.now()) return bump();
		timers.set(screenId, orderId, at, bump, start);
	}

	for (const [screenId, screen] of engine.screens) {
		if (!screen.config.settings.autoBump || screen.remote) continue;
		for (const record of [...screen.state.orders.values()]) track(screenId, record);
	}

	return { scheduled: () => timers.scheduled(), close: () => timers.close() };
}
