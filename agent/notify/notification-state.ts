/**
 * What notifications leave on each screen (contract 2.13, 4.4, 6, 8): the takeout statuses of the
 * takeout queue (takeout-queue.ts) and the open pop-ups (popups.ts), kept in the agent's SQLite
 * database, in every snapshot of the screen and sent to its browsers whenever they change.
 *
 * It depends on the engine and nothing depends back: it adds its part to the fan-out's snapshots
 * and is told by the fan-out when a browser opens a screen (queued notifications go then). The
 * relay knows nothing of it: http-stack.ts gives the relay an `onPopupAck` callback that calls
 * `acknowledge` here.
 */
import type { Database } from '../store/sqlite.ts';
import type { NotificationState } from '#core/relay';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import { prepareNotificationTables } from '../store/notification-store.ts';
import { Popups } from './popups.ts';
import {
	TakeoutQueue,
	type Delivery,
	type SendOutcome,
	type SendResult,
	type TakeoutRequest
} from './takeout-queue.ts';

export type {
	CallbackBody,
	Delivery,
	SendOutcome,
	SendResult,
	TakeoutKind,
	TakeoutRequest
} from './takeout-queue.ts';
export { DEFAULT_EXPIRATION_MS, RETRY_INTERVAL_MS } from './takeout-queue.ts';
export { MAX_POPUPS } from './popups.ts';

export interface NotificationsOptions {
	engine: Engine;
	database: Database;
	logger: Logger;
}

export class Notifications {
	private readonly engine: Engine;
	private readonly takeoutQueue: TakeoutQueue;
	private readonly popups: Popups;
	private readonly unsubscribe: Array<() => void> = [];
	private closed = false;
	private readonly readyListeners = new Set<(screenId: string, orderId: string) => void>();

	constructor(options: NotificationsOptions) {
		this.engine = options.engine;
		const sql = prepareNotificationTables(options.database);
		this.popups = new Popups(options.database, sql);
		this.takeoutQueue = new TakeoutQueue({
			engine: this.engine,
			database: options.database,
			sql,
			logger: options.logger,
			changed: (screenId) => this.publish(screenId)
		});
		this.engine.fanout.addSnapshotPart((screenId) => ({ notifications: this.state(screenId) }));
		this.unsubscribe.push(
			this.engine.fanout.onJoin((screenId) => this.takeoutQueue.connect(screenId)),
			// A reset of the orders forgets what they left on the screens.
			this.engine.onReset((screenId) => this.forget(screenId))
		);
	}

	/** Re-arm what the store holds: queued deliveries, their expirations, callbacks still owed. */
	start(): void {
		this.takeoutQueue.start();
	}

	/**
	 * Customer arrived or estimated arrival update, to the named screens of a location that have
	 * the order live (on the screen or on hold); the others are `absent`. Delivered now where a
	 * browser shows the screen, queued elsewhere.
	 */
	takeout(request: TakeoutRequest): SendResult {
		return this.takeoutQueue.send(request);
	}

	/** A pop-up on each named screen; kept (and shown to browsers that open later) until acknowledged. */
	message(screenIds: readonly string[], message: string): SendResult {
		const notificationId = this.popups.add(screenIds, message, this.engine.now());
		const screens = screenIds.map((screenId) => {
			this.publish(screenId);
			const outcome: SendOutcome =
				this.engine.fanout.viewers(screenId) > 0 ? 'delivered' : 'queued';
			return { screenId, outcome };
		});
		return { notificationId, screens };
	}

	/** A pop-up was acknowledged on a screen: it goes from every browser of that screen. */
	acknowledge(screenId: string, popupId: string): boolean {
		const done = this.popups.acknowledge(screenId, popupId);
		if (done) this.publish(screenId);
		return done;
	}

	/**
	 * "Ready for pickup" on a screen's Take Out view: the order is marked ready on every screen of
	 * the screen's location that shows it (it is one customer order), durably, and their browsers
	 * are told. The listeners (the "ready" text) hear of it once per screen where it was new.
	 * False when the screen itself has no such order live.
	 */
	ready(screenId: string, orderId: string): boolean {
		const screen = this.engine.screen(screenId);
		if (!screen || this.closed) return false;
		const first = this.takeoutQueue.markReady(screenId, orderId);
		if (first === 'absent') return false;
		const marked = first === 'marked' ? [screenId] : [];
		for (const other of this.engine.screens.values()) {
			const otherId = other.config.id;
			if (otherId === screenId || other.location !== screen.location) continue;
			if (this.takeoutQueue.markReady(otherId, orderId) === 'marked') marked.push(otherId);
		}
		for (const id of marked) this.publish(id);
		if (first === 'marked') for (const listener of this.readyListeners) listener(screenId, orderId);
		return true;
	}

	/** Hear of each order marked ready for pickup (on the screen where it was tapped). */
	onReady(listener: (screenId: string, orderId: string) => void): () => void {
		this.readyListeners.add(listener);
		return () => this.readyListeners.delete(listener);
	}

	/** The screen's notification state: what a browser shows on the takeout view and as pop-ups. */
	state(screenId: string): NotificationState {
		return { takeout: this.takeoutQueue.statuses(screenId), popups: this.popups.of(screenId) };
	}

	/** Queued deliveries and those whose callback is still owed (inspection and tests). */
	deliveries(screenId?: string): Delivery[] {
		return this.takeoutQueue.deliveries(screenId);
	}

	/** Resolves once no callback is being posted (tests). */
	idle(): Promise<void> {
		return this.takeoutQueue.idle();
	}

	/**
	 * Forget everything notifications left on one screen, or on every screen (the admin reset):
	 * queued deliveries and callbacks still owed (no callback is posted for them), takeout
	 * statuses and pop-ups. Browsers showing the screen are told.
	 */
	forget(screenId?: string): void {
		this.takeoutQueue.forget(screenId);
		this.popups.forget(screenId);
		const screens = screenId === undefined ? [...this.engine.screens.keys()] : [screenId];
		for (const id of screens) this.publish(id);
	}

	/** Stop every timer and abandon callbacks in flight; what is owed stays in the store. */
	close(): void {
		this.closed = true;
		for (const unsubscribe of this.unsubscribe) unsubscribe();
		this.takeoutQueue.close();
	}

	private publish(screenId: string): void {
		if (this.closed || !this.engine.screen(screenId)) return;
		this.engine.fanout.send(screenId, {
			type: 'notifications',
			now: this.engine.now(),
			...this.state(screenId)
		});
	}
}
