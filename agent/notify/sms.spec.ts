/**
 * The SMS outbox on an engine with a store and a ManualClock (no sockets): texts survive a
 * restart and are not sent again. Over real TCP and HTTP: tests/integration/sms.spec.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, OrderCommand } from '#core/order-schema';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { createLogger } from '../log.ts';
import { SmsOutbox, type OutboxLimits } from './sms.ts';
import { Store } from '../store/store.ts';

const T0 = Date.parse('2026-11-22T09:00:00Z');
const logger = createLogger('silent');
const order = (id: string): Order => ({
	id,
	name: id,
	time: new Date(T0).toISOString(),
	mode: 'ToGo',
	phoneNumber: '+15551234567',
	items: []
});

let dataDir: string;
beforeEach(async () => {
	dataDir = await mkdtemp(join(tmpdir(), 'kds-sms-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

function open(clock: ManualClock, limits?: OutboxLimits) {
	const store = new Store({ dataDir });
	const config = structuredClone(DEFAULT_CONFIG) as { brands: Array<{ sms?: object }> };
	config.brands[0].sms = { enabled: true };
	const engine = new Engine({ config: parseConfig(config), store, logger, clock });
	const outbox = new SmsOutbox(engine, store.database, logger, limits);
	const run = (command: OrderCommand) =>
		new Promise<void>((resolve) => engine.runCommand('kds-1', command, () => resolve()));
	const act = async (action: 'bump' | 'recall', id: string) => {
		expect(engine.runAction('kds-1', action, id)).toBe(true);
		await engine.settled();
	};
	return {
		engine,
		store,
		outbox,
		run,
		act,
		close() {
			outbox.close();
			store.close();
		}
	};
}

describe('SMS outbox', () => {
	it('has the text on disk before the order that caused it is acknowledged', async () => {
		const sim = open(new ManualClock(T0));
		const rows = sim.store.database.prepare('SELECT order_id, kind FROM sms_outbox');
		const onDiskAtAck = await new Promise<unknown[]>((resolve) =>
			sim.engine.runCommand('kds-1', { command: 'create-order', order: order('A1') }, () =>
				resolve(rows.all())
			)
		);
		expect(onDiskAtAck).toEqual([{ order_id: 'A1', kind: 'received' }]);
		sim.close();
	});

	it('writes the texts of a commit in the orders own transaction: one COMMIT for orders and texts', async () => {
		const sim = open(new ManualClock(T0));
		const db = sim.store.database;
		const statements: string[] = [];
		const exec = db.exec.bind(db);
		db.exec = (sql: string) => {
			statements.push(sql);
			exec(sql);
		};
		// Two creates in one turn: one group commit, two texts.
		await Promise.all([
			sim.run({ command: 'create-order', order: order('G1') }),
			sim.run({ command: 'create-order', order: order('G2') })
		]);
		expect(statements).toEqual(['BEGIN', 'COMMIT']);
		expect(sim.outbox.list().map((e) => [e.orderId, e.kind])).toEqual([
			['G2', 'received'],
			['G1', 'received']
		]);
		// A bump's text reads the visit of the order's "received" text, written in the same way.
		await sim.act('bump', 'G1');
		expect(sim.outbox.list({ order: 'G1' }).map((e) => e.kind)).toEqual(['bumped', 'received']);
		sim.close();
	});

	it('is kept across a restart, and a recall and bump after it sends no second "bumped"', async () => {
		const clock = new ManualClock(T0);
		const first = open(clock);
		await first.run({ command: 'create-order', order: order('P1') });
		await first.act('bump', 'P1');
		first.close();

		const second = open(clock);
		try {
			expect(second.outbox.list().map((s) => [s.orderId, s.kind])).toEqual([
				['P1', 'bumped'],
				['P1', 'received']
			]);
			clock.advance(60_000);
			await second.act('recall', 'P1');
			await second.act('bump', 'P1');
			expect(second.outbox.list()).toHaveLength(2);
		} finally {
			second.close();
		}
	});

	it('keeps the newest texts, pruning the older ones in steps rather than after every text', async () => {
		const sim = open(new ManualClock(T0), { keep: 5, step: 3 });
		const held: number[] = [];
		for (let i = 1; i <= 14; i++) {
			await sim.run({ command: 'create-order', order: order(`L${i}`) });
			held.push(sim.outbox.list().length);
		}
		// Up to 5 kept; the 6th text prunes back to 5, then 3 more may wait for the next prune.
		expect(held).toEqual([1, 2, 3, 4, 5, 5, 6, 7, 5, 6, 7, 5, 6, 7]);
		// Always the newest ones, newest first.
		expect(sim.outbox.list().map((e) => e.orderId)).toEqual([
			'L14',
			'L13',
			'L12',
			'L11',
			'L10',
			'L9',
			'L8'
		]);
		sim.close();
	});

	it('sends nothing after close', async () => {
		const app = open(new ManualClock(T0));
		app.outbox.close();
		await app.run({ command: 'create-order', order: order('P2') });
		expect(app.outbox.list()).toEqual([]);
		app.close();
	});
});
