import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '#core/relay';
import type { OrderCommand } from '#core/order-schema';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { createLogger } from '../log.ts';
import {
	DEFAULT_EXPIRATION_MS,
	MAX_POPUPS,
	Notifications,
	RETRY_INTERVAL_MS
} from './notification-state.ts';
import { Store } from '../store/store.ts';

const T0 = Date.parse('2026-11-22T18:00:00Z');

let clock: ManualClock;
let store: Store;
let engine: Engine;
let notifications: Notifications;
/** A browser opening a screen, as the relay joins it to the fan-out: returns its leave(). */
const browse = (screen: string) => engine.fanout.join(screen);
/** The notification messages the screens' browsers were sent. */
let sent: Array<{ screen: string; message: ServerMessage }>;

beforeEach(() => {
	clock = new ManualClock(T0);
	store = new Store({ dataDir: null });
	const logger = createLogger('silent');
	engine = new Engine({ config: parseConfig(DEFAULT_CONFIG), store, logger, clock });
	sent = [];
	for (const screen of ['kds-1', 'kds-2']) {
		engine.fanout.subscribe(screen, (message) => {
			if (message.type === 'notifications') sent.push({ screen, message });
		});
	}
	notifications = new Notifications({ engine, database: store.database, logger });
	notifications.start();
});
afterEach(() => {
	notifications.close();
	store.close();
});

async function run(screen: string, command: OrderCommand): Promise<void> {
	const decision = engine.decide(screen, command);
	if (!decision.ok) throw new Error(decision.code);
	await engine.commit([{ screenId: screen, changes: decision.changes }]);
}

const create = (id: string, screen = 'kds-1') =>
	run(screen, {
		command: 'create-order',
		order: { id, name: id, time: new Date(T0).toISOString(), mode: 'ToGo', items: [] }
	});

const arrived = (orderId: string, screenIds = ['kds-1']) =>
	notifications.takeout({ kind: 'customer-arrived', orderId, locationId: 'loc-1', screenIds });
const eta = (orderId: string, minutes: number, screenIds = ['kds-1']) =>
	notifications.takeout({
		kind: 'estimated-arrival-update',
		orderId,
		locationId: 'loc-1',
		screenIds,
		minutes
	});

describe('takeout state', () => {
	it('keeps the first arrival; each ETA replaces the last; both go in the snapshot', async () => {
		browse('kds-1');
		await create('A');
		expect(eta('A', 10).screens).toEqual([{ screenId: 'kds-1', outcome: 'delivered' }]);
		clock.advance(60_000);
		arrived('A');
		clock.advance(60_000);
		arrived('A');
		eta('A', 2);
		expect(notifications.state('kds-1').takeout).toEqual([
			{ orderId: 'A', arrivedAt: T0 + 60_000, etaAt: T0 + 120_000 + 2 * 60_000 }
		]);
		const snapshot = engine.fanout.snapshot('kds-1');
		expect(snapshot.type === 'snapshot' && snapshot.notifications).toEqual(
			notifications.state('kds-1')
		);
		expect(sent).toHaveLength(4);
	});

	it('is only where the order is live; an order bumped and created again starts afresh', async () => {
		browse('kds-1');
		browse('kds-2');
		await create('B');
		expect(arrived('B', ['kds-1', 'kds-2']).screens.map((s) => s.outcome)).toEqual([
			'delivered',
			'absent'
		]);
		expect(sent.map((s) => s.screen)).toEqual(['kds-1']);

		clock.advance(1000);
		engine.runAction('kds-1', 'bump', 'B');
		await engine.settled();
		expect(notifications.state('kds-1').takeout).toEqual([]);
		expect(arrived('B').screens[0].outcome).toBe('absent');

		clock.advance(1000);
		await create('B');
		expect(notifications.state('kds-1').takeout).toEqual([]);
		eta('B', 5);
		expect(notifications.state('kds-1').takeout).toEqual([
			{ orderId: 'B', etaAt: T0 + 2000 + 5 * 60_000 }
		]);
	});
});

describe('queue', () => {
	it('retries every interval, counting attempts, and delivers when a browser connects', async () => {
		await create('Q');
		expect(arrived('Q').screens).toEqual([{ screenId: 'kds-1', outcome: 'queued' }]);
		expect(sent).toEqual([]);
		clock.advance(2 * RETRY_INTERVAL_MS + 5000);
		expect(notifications.deliveries()).toMatchObject([{ status: 'pending', attempts: 3 }]);

		browse('kds-1'); // delivered as the browser opens the screen
		clock.advance(RETRY_INTERVAL_MS - 5000);
		expect(notifications.state('kds-1').takeout).toEqual([{ orderId: 'Q', arrivedAt: T0 }]);
		expect(notifications.deliveries()).toEqual([]); // no callback URL: nothing more owed
		expect(sent.at(-1)?.message).toMatchObject({ type: 'notifications' });
	});

	it('a browser opening the screen gets what was queued at once, oldest first', async () => {
		await create('R');
		eta('R', 10);
		clock.advance(1000);
		eta('R', 3);
		browse('kds-1');
		expect(notifications.state('kds-1').takeout).toEqual([
			{ orderId: 'R', etaAt: T0 + 1000 + 3 * 60_000 }
		]);
	});

	it('expires at the default expiration, and nothing fires after close()', async () => {
		await create('S');
		await create('U');
		arrived('S');
		clock.advance(DEFAULT_EXPIRATION_MS - 1);
		expect(notifications.deliveries()).toHaveLength(1);
		clock.advance(1);
		expect(notifications.deliveries()).toEqual([]);
		const leave = browse('kds-1');
		expect(notifications.state('kds-1').takeout).toEqual([]);

		leave();
		arrived('U');
		notifications.close();
		clock.advance(DEFAULT_EXPIRATION_MS);
		expect(notifications.deliveries()).toMatchObject([{ status: 'pending', orderId: 'U' }]);
	});
});

describe('pop-ups', () => {
	it('are kept until acknowledged, per screen, the newest MAX_POPUPS of them', () => {
		const { notificationId } = notifications.message(['kds-1', 'kds-2'], 'Hello');
		expect(notifications.state('kds-2').popups).toEqual([
			{ id: notificationId, message: 'Hello', at: T0 }
		]);
		expect(notifications.acknowledge('kds-1', notificationId)).toBe(true);
		expect(notifications.acknowledge('kds-1', notificationId)).toBe(false);
		expect(notifications.state('kds-1').popups).toEqual([]);
		expect(notifications.state('kds-2').popups).toHaveLength(1);
		for (let i = 0; i < MAX_POPUPS + 3; i++) notifications.message(['kds-1'], `m${i}`);
		const popups = notifications.state('kds-1').popups;
		expect(popups).toHaveLength(MAX_POPUPS);
		expect(popups[0].message).toBe('m3');
	});
});
