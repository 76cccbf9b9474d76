/**
 * The takeout notifications of the contract (2.13, 4.4, 8): customer arrived and estimated arrival
 * update, for the takeout view of the screens that have the order.
 *
 * A screen counts as connected while at least one browser shows it (the engine's fan-out counts
 * them). A notification for a screen that is not connected is queued, durably, and retried: at
 * once when a browser opens the screen, and every RETRY_INTERVAL_MS, until it is delivered or its
 * expiration passes (retry.expiration; default two minutes after submission). Then the outcome is
 * posted to retry.notificationUrl, if given, in the background, through the agent's one webhook
 * sender (webhook.ts: timed out, logged with the URL redacted, tried at most WEBHOOK_ATTEMPTS
 * times). Queue, takeout statuses and callbacks owed are in the agent's SQLite database and survive
 * a restart; every timer reads the engine's clock.
 */
import { transaction, type Database } from '../store/sqlite.ts';
import type { TakeoutStatus } from '#core/relay';
import type { Retry } from '#core/notification-schema';
import { isLive } from '#core/screen';
import type { Timer } from '../clock.ts';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import { WebhookSender, type WebhookOutcome } from './webhook.ts';
import {
	toDelivery,
	type NotificationStatements,
	type Delivery,
	type DeliveryRow,
	type TakeoutKind,
	type TakeoutRow
} from '../store/notification-store.ts';

export type { Delivery, TakeoutKind };

/** When retry.expiration is absent, retrying stops this long after submission (contract 8). */
export const DEFAULT_EXPIRATION_MS = 2 * 60_000;
/** A queued notification is tried this often (and whenever a browser opens the screen). */
export const RETRY_INTERVAL_MS = 10_000;

/** What happened on one screen at send time. */
export type SendOutcome = 'delivered' | 'queued' | 'absent';

export interface SendResult {
	notificationId: string;
	screens: Array<{ screenId: string; outcome: SendOutcome }>;
}

export interface TakeoutRequest {
	kind: TakeoutKind;
	orderId: string;
	locationId: string;
	screenIds: readonly string[];
	/** Estimated arrival update: minutes until the customer is expected. */
	minutes?: number;
	retry?: Retry;
}

/** The body POSTed to retry.notificationUrl once retrying ends on one screen. */
export interface CallbackBody {
	notificationId: string;
	notification: TakeoutKind;
	orderId: string;
	locationId: string;
	deviceId: string;
	outcome: 'delivered' | 'expired';
	/** Delivery attempts: the one at send time, each retry, and the one that delivered. */
	attempts: number;
	submittedAt: string;
	finishedAt: string;
	expiration: string;
	minutes?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export interface TakeoutQueueOptions {
	engine: Engine;
	database: Database;
	sql: NotificationStatements;
	logger: Logger;
	/** A screen's takeout statuses changed: its browsers are to be told. */
	changed: (screenId: string) => void;
}

export class TakeoutQueue {
	private readonly engine: Engine;
	private readonly db: Database;
	private readonly logger: Logger;
	private readonly changed: (screenId: string) => void;
	/** Retry and expiration timers of pending deliveries, by delivery id. */
	private readonly timers = new Map<string, Timer[]>();
	private readonly callbackTimers = new Map<string, Timer>();
	private readonly callbacks: WebhookSender;
	private closed = false;
	private readonly sql: NotificationStatements;

	constructor(options: TakeoutQueueOptions) {
		this.engine = options.engine;
		this.db = options.database;
		this.logger = options.logger;
		this.changed = options.changed;
		this.sql = options.sql;
		this.callbacks = new WebhookSender({
			clock: this.engine.clock,
			logger: this.logger,
			name: 'notification callback'
		});
	}

	private connected(screenId: string): number {
		return this.engine.fanout.viewers(screenId);
	}

	private get now(): number {
		return this.engine.clock.now();
	}

	/** Re-arm what the store holds: queued deliveries, their expirations, callbacks still owed. */
	start(): void {
		for (const row of this.sql.all.all() as unknown as DeliveryRow[]) {
			const delivery = toDelivery(row);
			if (delivery.status === 'pending') this.arm(delivery);
			else if (delivery.callbackDueAt !== null) this.scheduleCallback(delivery);
			else this.sql.forget.run(delivery.id);
		}
	}

	/**
	 * Customer arrived or estimated arrival update, to the named screens of a location that have
	 * the order live (on the screen or on hold); the others are `absent` and nothing is done
	 * there. Delivered now where a browser shows the screen, queued elsewhere.
	 */
	send(request: TakeoutRequest): SendResult {
		const at = this.now;
		const notificationId = crypto.randomUUID();
		const expiration = request.retry?.expiration;
		const expiresAt = expiration ? Date.parse(expiration) : at + DEFAULT_EXPIRATION_MS;
		const screens: SendResult['screens'] = [];
		const queued: Delivery[] = [];
		transaction(this.db, () => {
			for (const screenId of request.screenIds) {
				const record = this.engine.screen(screenId)?.state.orders.get(request.orderId);
				if (!record || !isLive(record)) {
					screens.push({ screenId, outcome: 'absent' });
				} else if (this.connected(screenId) > 0) {
					this.applyTakeout(screenId, request.kind, request.orderId, at, request.minutes);
					screens.push({ screenId, outcome: 'delivered' });
				} else {
					const row = {
						id: `${notificationId}:${screenId}`,
						notification_id: notificationId,
						kind: request.kind,
						location_id: request.locationId,
						screen_id: screenId,
						order_id: request.orderId,
						minutes: request.minutes ?? null,
						notification_url: request.retry?.notificationUrl ?? null,
						submitted_at: at,
						expires_at: expiresAt
					};
					this.sql.insertDelivery.run(row);
					queued.push(toDelivery(this.sql.delivery.get(row.id) as unknown as DeliveryRow));
					screens.push({ screenId, outcome: 'queued' });
				}
			}
		})();
		for (const { screenId, outcome } of screens) {
			if (outcome === 'delivered') this.changed(screenId);
		}
		for (const delivery of queued) this.arm(delivery);
		if (queued.length > 0) {
			this.logger.info(
				{ notificationId, orderId: request.orderId, screens: queued.map((d) => d.screenId) },
				`${request.kind} queued until ${iso(expiresAt)}: screen not connected`
			);
		}
		return { notificationId, screens };
	}

	/** A browser opened the screen: deliver what was queued for it, oldest first. */
	connect(screenId: string): void {
		if (this.closed) return;
		const pending = (this.sql.pendingOf.all(screenId) as unknown as DeliveryRow[]).map(toDelivery);
		if (pending.length === 0) return;
		for (const delivery of pending) this.deliver(delivery, delivery.attempts + 1);
		this.changed(screenId);
	}

	/** Queued deliveries and those whose callback is still owed (inspection and tests). */
	deliveries(screenId?: string): Delivery[] {
		const all = (this.sql.all.all() as unknown as DeliveryRow[]).map(toDelivery);
		return screenId ? all.filter((d) => d.screenId === screenId) : all;
	}

	/** Resolves once no callback is being posted (tests). */
	async idle(): Promise<void> {
		await this.callbacks.idle();
	}

	/**
	 * Forget the queued deliveries and callbacks still owed (no callback is posted for them) and
	 * the takeout statuses of one screen, or of every screen (the admin reset).
	 */
	forget(screenId?: string): void {
		for (const delivery of this.deliveries(screenId)) {
			for (const t of this.timers.get(delivery.id) ?? []) t.cancel();
			this.timers.delete(delivery.id);
			this.callbackTimers.get(delivery.id)?.cancel();
			this.callbackTimers.delete(delivery.id);
			this.sql.forget.run(delivery.id);
		}
		if (screenId === undefined) this.sql.dropAllTakeout.run();
		else this.sql.dropScreenTakeout.run(screenId);
	}

	/** Stop every timer and abandon callbacks in flight; what is owed stays in the store. */
	close(): void {
		this.closed = true;
		for (const timers of this.timers.values()) for (const t of timers) t.cancel();
		this.timers.clear();
		for (const t of this.callbackTimers.values()) t.cancel();
		this.callbackTimers.clear();
		this.callbacks.close();
	}

	/** The takeout rows of orders the screen has now; rows left by an earlier order of the same id go. */
	statuses(screenId: string): TakeoutStatus[] {
		const orders = this.engine.screen(screenId)?.state.orders;
		const out: TakeoutStatus[] = [];
		for (const row of this.sql.takeoutOf.all(screenId) as unknown as TakeoutRow[]) {
			const record = orders?.get(row.order_id);
			if (!record || row.updated_at < record.context.receivedAt) {
				this.sql.dropTakeout.run(screenId, row.order_id);
				continue;
			}
			if (!isLive(record)) continue;
			const status: TakeoutStatus = { orderId: row.order_id };
			if (row.arrived_at !== null) status.arrivedAt = row.arrived_at;
			if (row.eta_at !== null) status.etaAt = row.eta_at;
			if (row.ready_at !== null) status.readyAt = row.ready_at;
			out.push(status);
		}
		return out;
	}

	/**
	 * The customer arrived (when the POS said so) or is expected `minutes` after the POS said so,
	 * however late the delivery: the countdown on the screen is the customer's, not the queue's.
	 */
	private applyTakeout(
		screenId: string,
		kind: TakeoutKind,
		orderId: string,
		submittedAt: number,
		minutes: number | undefined
	): void {
		const record = this.engine.screen(screenId)?.state.orders.get(orderId);
		if (!record) return;
		const current = this.currentRow(screenId, orderId, record.context.receivedAt);
		let arrivedAt = current?.arrived_at ?? null;
		let etaAt = current?.eta_at ?? null;
		if (kind === 'customer-arrived') arrivedAt ??= submittedAt;
		else etaAt = submittedAt + (minutes ?? 0) * 60_000;
		this.sql.putTakeout.run(
			screenId,
			orderId,
			arrivedAt,
			etaAt,
			current?.ready_at ?? null,
			this.now
		);
	}

	/** The takeout row of the order as it is now; one left by an earlier order of the id is none. */
	private currentRow(screenId: string, orderId: string, receivedAt: number) {
		const rows = this.sql.takeoutOf.all(screenId) as unknown as TakeoutRow[];
		const found = rows.find((r) => r.order_id === orderId);
		return found && found.updated_at >= receivedAt ? found : undefined;
	}

	/**
	 * The kitchen marked the order ready for pickup on this screen (the Take Out view's step): kept
	 * with its takeout status, the first time counting. `absent` when the screen has no such order
	 * live (bumped, removed, never there); the caller tells the screen's browsers.
	 */
	markReady(screenId: string, orderId: string): 'marked' | 'already' | 'absent' {
		const record = this.engine.screen(screenId)?.state.orders.get(orderId);
		if (!record || !isLive(record)) return 'absent';
		const current = this.currentRow(screenId, orderId, record.context.receivedAt);
		if (current?.ready_at != null) return 'already';
		this.sql.putTakeout.run(
			screenId,
			orderId,
			current?.arrived_at ?? null,
			current?.eta_at ?? null,
			this.now,
			this.now
		);
		return 'marked';
	}

	/** Retry timer and expiration timer of a queued delivery. */
	private arm(delivery: Delivery): void {
		if (this.closed) return;
		const timers: Timer[] = [];
		this.timers.set(delivery.id, timers);
		const expire = () => this.expire(delivery.id);
		if (delivery.expiresAt <= this.now) {
			timers.push(this.soon(expire));
			return;
		}
		timers.push(this.engine.clock.at(delivery.expiresAt, expire));
		const retry = () => {
			const current = this.pendingDelivery(delivery.id);
			if (!current || this.now >= current.expiresAt) return;
			if (this.connected(current.screenId) > 0) {
				this.deliver(current, current.attempts + 1);
				this.changed(current.screenId);
				return;
			}
			this.sql.attempted.run(current.attempts + 1, current.id);
			const next = this.now + RETRY_INTERVAL_MS;
			if (next < current.expiresAt) timers.push(this.engine.clock.at(next, retry));
		};
		const first = this.now + RETRY_INTERVAL_MS;
		if (first < delivery.expiresAt) timers.push(this.engine.clock.at(first, retry));
	}

	private pendingDelivery(id: string): Delivery | undefined {
		const row = this.sql.delivery.get(id) as unknown as DeliveryRow | undefined;
		return row && row.status === 'pending' ? toDelivery(row) : undefined;
	}

	/** Run `fn` once the current work is done, off the clock (it is due already). */
	private soon(fn: () => void): Timer {
		const handle = setImmediate(fn);
		return { cancel: () => clearImmediate(handle) };
	}

	private deliver(delivery: Delivery, attempts: number): void {
		const at = this.now;
		transaction(this.db, () => {
			this.applyTakeout(
				delivery.screenId,
				delivery.kind,
				delivery.orderId,
				delivery.submittedAt,
				delivery.minutes ?? undefined
			);
			this.finish(delivery, 'delivered', attempts, at);
		})();
		this.logger.info(
			{ notificationId: delivery.notificationId, screen: delivery.screenId, attempts },
			`${delivery.kind} delivered after ${at - delivery.submittedAt} ms`
		);
	}

	private expire(id: string): void {
		const delivery = this.pendingDelivery(id);
		if (!delivery || this.closed) return;
		this.finish(delivery, 'expired', delivery.attempts, this.now);
		this.logger.warn(
			{ notificationId: delivery.notificationId, screen: delivery.screenId },
			`${delivery.kind} for order ${delivery.orderId} expired: no browser showed screen ${delivery.screenId} before ${iso(delivery.expiresAt)}`
		);
	}

	private finish(
		delivery: Delivery,
		status: 'delivered' | 'expired',
		attempts: number,
		at: number
	): void {
		for (const t of this.timers.get(delivery.id) ?? []) t.cancel();
		this.timers.delete(delivery.id);
		const due = delivery.notificationUrl ? at : null;
		this.sql.finish.run(status, attempts, at, due, delivery.id);
		if (due === null) {
			this.sql.forget.run(delivery.id);
			return;
		}
		this.scheduleCallback({
			...delivery,
			status,
			attempts,
			finishedAt: at,
			callbackDueAt: due
		});
	}

	/** Post the outcome to retry.notificationUrl, from the try the store says is next. */
	private scheduleCallback(delivery: Delivery): void {
		if (this.closed || delivery.callbackDueAt === null) return;
		const { id } = delivery;
		const handle = this.callbacks.send(
			{
				log: { notificationId: delivery.notificationId },
				prepare: (attempt) => this.callbackTry(id, attempt),
				settle: (outcome) => this.callbackSettled(id, outcome)
			},
			{ attempt: delivery.callbackAttempts + 1, at: delivery.callbackDueAt }
		);
		this.callbackTimers.set(id, handle);
	}

	/** The body of try `attempt`, counted in the store before it goes: a crash mid-request uses it up. */
	private callbackTry(id: string, attempt: number) {
		const row = this.sql.delivery.get(id) as unknown as DeliveryRow | undefined;
		if (!row || this.closed || row.status === 'pending' || !row.notification_url) return null;
		const delivery = toDelivery(row);
		this.sql.callbackTried.run(attempt, delivery.callbackDueAt, id);
		const body: CallbackBody = {
			notificationId: delivery.notificationId,
			notification: delivery.kind,
			orderId: delivery.orderId,
			locationId: delivery.locationId,
			deviceId: delivery.screenId,
			outcome: delivery.status === 'delivered' ? 'delivered' : 'expired',
			attempts: delivery.attempts,
			submittedAt: iso(delivery.submittedAt),
			finishedAt: iso(delivery.finishedAt ?? this.now),
			expiration: iso(delivery.expiresAt),
			...(delivery.minutes !== null ? { minutes: delivery.minutes } : {})
		};
		return { url: row.notification_url, body, note: `(${body.outcome})` };
	}

	private callbackSettled(id: string, outcome: WebhookOutcome): void {
		if (!outcome.ok && outcome.retryAt !== null) {
			this.sql.callbackTried.run(outcome.attempt, outcome.retryAt, id);
		} else {
			this.callbackTimers.delete(id);
			this.sql.forget.run(id);
		}
	}
}
