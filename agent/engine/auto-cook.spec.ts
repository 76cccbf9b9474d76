/**
 * The self-working cook on an engine with an in-memory store and a ManualClock: bumps after the
 * mode's time with its jitter, re-times a recalled order, leaves alone what a hand bumped, and
 * takes over orders already on the screen at start-up (tests/integration/webhooks.spec.ts drives
 * it end to end with a receiver).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderCommand } from '#core/order-schema';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { autoBumpAt, startAutoCook, type AutoCook } from './auto-cook.ts';
import { Engine } from './engine.ts';
import { createLogger } from '../log.ts';
import { Store } from '../store/store.ts';

const T0 = Date.parse('2026-11-22T09:00:00Z');
const order = (id: string, mode: Order['mode'] = 'ToGo'): Order => ({
	id,
	name: id,
	time: '2026-11-22T09:00:00Z',
	mode,
	items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
});

const open: Array<{ cook: AutoCook; store: Store }> = [];
afterEach(() => {
	for (const { cook, store } of open.splice(0)) {
		cook.close();
		store.close();
	}
});

function setup(autoBump: object | undefined, where: 'screen' | 'location' = 'screen') {
	const clock = new ManualClock(T0);
	const store = new Store({ dataDir: null });
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{
			locations: Array<Record<string, unknown> & { screens: Array<Record<string, unknown>> }>;
		}>;
	};
	if (where === 'screen') config.brands[0].locations[0].screens[0].settings = { autoBump };
	else config.brands[0].locations[0].autoBump = autoBump;
	const engine = new Engine({
		config: parseConfig(config),
		store,
		logger: createLogger('silent'),
		clock
	});
	// No jitter draw: random() = 0.5 is the time itself.
	const cook = startAutoCook(engine, createLogger('silent'), () => 0.5);
	open.push({ cook, store });
	const run = (screen: string, command: OrderCommand) =>
		new Promise<void>((resolve, reject) =>
			engine.runCommand(screen, command, (d) => (d?.ok ? resolve() : reject(new Error('refused'))))
		);
	const stateOf = (screen: string, id: string) =>
		engine.screen(screen)?.state.orders.get(id)?.state;
	return { clock, engine, cook, run, stateOf };
}

describe('the self-working cook', () => {
	it('bumps each order after its mode time; other screens keep theirs', async () => {
		const { clock, engine, cook, run, stateOf } = setup({
			afterSeconds: 60,
			byMode: { DriveThru: 20 }
		});
		await run('kds-1', { command: 'create-order', order: order('A') });
		await run('kds-1', { command: 'create-order', order: order('B', 'DriveThru') });
		await run('kds-2', { command: 'create-order', order: order('C') });
		expect(cook.scheduled()).toEqual([
			{ screenId: 'kds-1', orderId: 'B', at: T0 + 20_000 },
			{ screenId: 'kds-1', orderId: 'A', at: T0 + 60_000 }
		]);
		clock.advance(20_000);
		await engine.settled();
		expect([stateOf('kds-1', 'A'), stateOf('kds-1', 'B')]).toEqual(['active', 'bumped']);
		clock.advance(40_000);
		await engine.settled();
		expect(stateOf('kds-1', 'A')).toBe('bumped');
		expect(stateOf('kds-2', 'C')).toBe('active');
		expect(cook.scheduled()).toEqual([]);
	});

	it('a hand bump cancels the timer; a recall times the order again', async () => {
		const { clock, engine, cook, run, stateOf } = setup({ afterSeconds: 30 });
		await run('kds-1', { command: 'create-order', order: order('A') });
		clock.advance(10_000);
		expect(engine.runAction('kds-1', 'bump', 'A')).toBe(true);
		await engine.settled();
		expect(cook.scheduled()).toEqual([]);
		clock.advance(5_000);
		expect(engine.runAction('kds-1', 'recall', 'A')).toBe(true);
		await engine.settled();
		expect(cook.scheduled()).toEqual([{ screenId: 'kds-1', orderId: 'A', at: T0 + 45_000 }]);
		clock.advance(30_000);
		await engine.settled();
		expect(stateOf('kds-1', 'A')).toBe('bumped');
	});

	it("a location's setting applies to each of its screens", async () => {
		const { cook, run } = setup({ afterSeconds: 5, jitterSeconds: 0 }, 'location');
		await run('kds-1', { command: 'create-order', order: order('A') });
		await run('kds-2', { command: 'create-order', order: order('A') });
		expect(cook.scheduled().map((s) => [s.screenId, s.at])).toEqual([
			['kds-1', T0 + 5_000],
			['kds-2', T0 + 5_000]
		]);
	});

	it('jitter: the time give or take jitterSeconds, a tenth of the time by default, never before the start', () => {
		const setting = { afterSeconds: 100 };
		expect(autoBumpAt(setting, 'ToGo', T0, 0)).toBe(T0 + 90_000);
		expect(autoBumpAt(setting, 'ToGo', T0, 0.999999)).toBeCloseTo(T0 + 110_000, -2);
		expect(autoBumpAt({ afterSeconds: 1, jitterSeconds: 5 }, 'ToGo', T0, 0)).toBe(T0);
	});
});
