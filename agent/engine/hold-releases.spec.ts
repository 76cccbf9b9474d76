/**
 * The hold release timers on an engine with an in-memory store and a ManualClock (no sockets):
 * the rules beside the ones tests/integration/holds.spec.ts drives over the interfaces.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '#core/screen';
import type { Order, OrderCommand } from '#core/order-schema';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from './engine.ts';
import { startHoldReleases, type HoldReleases } from './hold-releases.ts';
import { createLogger } from '../log.ts';
import { Store } from '../store/store.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-11-22T09:00:00Z');
const PICKUP = '2026-11-22T10:00:00Z';
const START = Date.parse(PICKUP) - 30 * MIN;

const order = (id: string, over: Partial<Order> = {}): Order => ({
	id,
	name: id,
	time: PICKUP,
	mode: 'Pickup',
	items: [],
	...over
});

let clock: ManualClock;
let store: Store;
let engine: Engine;
let holds: HoldReleases;

beforeEach(() => {
	clock = new ManualClock(T0);
	store = new Store({ dataDir: null });
	const config = structuredClone(DEFAULT_CONFIG) as {
		brands: Array<{ locations: Array<{ screens: Array<Record<string, unknown>> }> }>;
	};
	config.brands[0].locations[0].screens[0].settings = { autoHoldFutureOrders: true };
	engine = new Engine({
		config: parseConfig(config),
		store,
		logger: createLogger('silent'),
		clock
	});
	holds = startHoldReleases(engine, createLogger('silent'));
});
afterEach(() => {
	holds.close();
	store.close();
});

function run(command: OrderCommand): Promise<void> {
	return new Promise((resolve, reject) =>
		engine.runCommand('kds-1', command, (d) => (d?.ok ? resolve() : reject(new Error(String(d)))))
	);
}
const stateOf = (id: string) => engine.screen('kds-1')?.state.orders.get(id)?.state;

describe('hold release timers', () => {
	it('one timer per held order, at its start', async () => {
		await run({
			command: 'create-order',
			order: order('A', { pickupTime: PICKUP, prepTimeDuration: 'PT30M' })
		});
		await run({ command: 'create-order', order: order('B') });
		expect(holds.scheduled()).toEqual([{ screenId: 'kds-1', orderId: 'A', at: START }]);
	});

	it('a held order with no start time (held by other means) waits for a hand fire', async () => {
		const input = { order: order('H'), at: T0, seq: 1, held: true };
		await engine.commit([
			{
				screenId: 'kds-1',
				changes: [{ type: 'order.created', input, record: createRecord(input) }]
			}
		]);
		expect(holds.scheduled()).toEqual([]);
		clock.advance(24 * 60 * MIN);
		await engine.settled();
		expect(stateOf('H')).toBe('held');

		await run({
			command: 'partial-update-order',
			order: { id: 'H', pickupTime: '2026-11-23T12:00:00Z', prepTimeDuration: 'PT1H' }
		});
		expect(holds.scheduled()).toEqual([
			{ screenId: 'kds-1', orderId: 'H', at: Date.parse('2026-11-23T11:00:00Z') }
		]);
	});

	it('close cancels every timer: nothing fires afterwards', async () => {
		await run({
			command: 'create-order',
			order: order('A', { pickupTime: PICKUP, prepTimeDuration: 'PT30M' })
		});
		holds.close();
		expect(holds.scheduled()).toEqual([]);
		clock.set(START + MIN);
		await engine.settled();
		expect(stateOf('A')).toBe('held');
	});
});
