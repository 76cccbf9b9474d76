/**
 * The webhooks' deliveries on an engine with a store (no agent): written in the orders' own
 * transaction, sent once it is committed. What a receiver gets end to end:
 * webhooks.spec.ts.
 */
import { afterEach, expect, it } from 'vitest';
import type { Order, OrderCommand } from '#core/order-schema';
import { ManualClock } from '../../agent/clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../../agent/config.ts';
import { Engine } from '../../agent/engine/engine.ts';
import { createLogger } from '../../agent/log.ts';
import { Store } from '../../agent/store/store.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { Webhooks } from '../../agent/notify/webhooks.ts';

const T0 = Date.parse('2026-11-22T09:00:00Z');
const logger = createLogger('silent');
const order = (id: string): Order => ({
	id,
	name: id,
	time: new Date(T0).toISOString(),
	mode: 'ToGo',
	items: []
});

const closing: Array<() => unknown> = [];
afterEach(async () => {
	for (const close of closing.splice(0).reverse()) await close();
});

it('writes the deliveries of a commit in the orders own transaction (a savepoint of it), and sends them once committed', async () => {
	const receiver: Receiver = await startReceiver();
	closing.push(() => receiver.close());
	const config = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG & {
		brands: Array<{ webhooks?: object[] }>;
	};
	config.brands[0].webhooks = [{ url: receiver.url, triggers: ['KDS Order Created'] }];
	const store = new Store({ dataDir: null });
	const engine = new Engine({
		config: parseConfig(config),
		store,
		logger,
		clock: new ManualClock(T0)
	});
	const webhooks = new Webhooks(engine, store.database, logger);
	closing.push(() => store.close());
	closing.push(() => webhooks.close());
	const db = store.database;
	const statements: string[] = [];
	const exec = db.exec.bind(db);
	db.exec = (sql: string) => {
		statements.push(sql);
		exec(sql);
	};
	const run = (command: OrderCommand) =>
		new Promise<void>((resolve) => engine.runCommand('kds-1', command, () => resolve()));
	// Two creates in one turn: one group commit, two deliveries.
	await Promise.all([
		run({ command: 'create-order', order: order('W1') }),
		run({ command: 'create-order', order: order('W2') })
	]);
	expect(statements).toEqual(['BEGIN', 'SAVEPOINT kds_1', 'RELEASE kds_1', 'COMMIT']);
	const got = await receiver.waitFor(2);
	expect(
		got.map((r) => [r.body.triggeredAction, r.body.data.supplierOrderId ?? r.body.data.id]).sort()
	).toEqual([
		['KDS Order Created', 'W1'],
		['KDS Order Created', 'W2']
	]);
});
