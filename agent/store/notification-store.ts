/**
 * The notification tables, beside the orders in the agent's SQLite database: the queue of
 * deliveries (one row per notification per screen that no browser showed), the takeout status
 * of orders, and the open pop-ups. Plain statements; the rules are in agent/notify/ (takeout-queue.ts,
 * popups.ts).
 */
import type { Database, Statement } from './sqlite.ts';

export type TakeoutKind = 'customer-arrived' | 'estimated-arrival-update';

/** A queued delivery of one notification to one screen (one row of the queue table). */
export interface Delivery {
	id: string;
	notificationId: string;
	kind: TakeoutKind;
	locationId: string;
	screenId: string;
	orderId: string;
	minutes: number | null;
	notificationUrl: string | null;
	submittedAt: number;
	expiresAt: number;
	status: 'pending' | 'delivered' | 'expired';
	attempts: number;
	finishedAt: number | null;
	callbackAttempts: number;
	/** When the next callback try is due; null when no callback is owed. */
	callbackDueAt: number | null;
}

const SCHEMA = `
	CREATE TABLE IF NOT EXISTS notification_deliveries (
		id TEXT PRIMARY KEY,
		notification_id TEXT NOT NULL,
		kind TEXT NOT NULL,
		location_id TEXT NOT NULL,
		screen_id TEXT NOT NULL,
		order_id TEXT NOT NULL,
		minutes INTEGER,
		notification_url TEXT,
		submitted_at INTEGER NOT NULL,
		expires_at INTEGER NOT NULL,
		status TEXT NOT NULL,
		attempts INTEGER NOT NULL,
		finished_at INTEGER,
		callback_attempts INTEGER NOT NULL DEFAULT 0,
		callback_due_at INTEGER
	);
	CREATE TABLE IF NOT EXISTS takeout_status (
		screen_id TEXT NOT NULL,
		order_id TEXT NOT NULL,
		arrived_at INTEGER,
		eta_at INTEGER,
		updated_at INTEGER NOT NULL,
		-- When the kitchen marked the order ready for pickup (the Take Out view's step).
		ready_at INTEGER,
		PRIMARY KEY (screen_id, order_id)
	) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS popups (
		screen_id TEXT NOT NULL,
		id TEXT NOT NULL,
		message TEXT NOT NULL,
		at INTEGER NOT NULL,
		UNIQUE (screen_id, id)
	);
`;

export interface DeliveryRow {
	id: string;
	notification_id: string;
	kind: TakeoutKind;
	location_id: string;
	screen_id: string;
	order_id: string;
	minutes: number | null;
	notification_url: string | null;
	submitted_at: number;
	expires_at: number;
	status: Delivery['status'];
	attempts: number;
	finished_at: number | null;
	callback_attempts: number;
	callback_due_at: number | null;
}

export interface TakeoutRow {
	order_id: string;
	arrived_at: number | null;
	eta_at: number | null;
	ready_at: number | null;
	updated_at: number;
}

export function toDelivery(row: DeliveryRow): Delivery {
	return {
		id: row.id,
		notificationId: row.notification_id,
		kind: row.kind,
		locationId: row.location_id,
		screenId: row.screen_id,
		orderId: row.order_id,
		minutes: row.minutes,
		notificationUrl: row.notification_url,
		submittedAt: row.submitted_at,
		expiresAt: row.expires_at,
		status: row.status,
		attempts: row.attempts,
		finishedAt: row.finished_at,
		callbackAttempts: row.callback_attempts,
		callbackDueAt: row.callback_due_at
	};
}

/** The prepared statements of the notification tables. */
export type NotificationStatements = Record<
	| 'insertDelivery'
	| 'delivery'
	| 'pendingOf'
	| 'all'
	| 'attempted'
	| 'finish'
	| 'callbackTried'
	| 'forget'
	| 'takeoutOf'
	| 'putTakeout'
	| 'dropTakeout'
	| 'dropScreenTakeout'
	| 'dropAllTakeout'
	| 'popupsOf'
	| 'putPopup'
	| 'trimPopups'
	| 'ackPopup'
	| 'dropScreenPopups'
	| 'dropAllPopups',
	Statement
>;

/** Create the tables if needed and prepare the statements, once. */
export function prepareNotificationTables(db: Database): NotificationStatements {
	db.exec(SCHEMA);
	// A database written before the Take Out view's ready step has no ready_at column yet.
	const columns = db.prepare('PRAGMA table_info(takeout_status)').all() as Array<{ name: string }>;
	if (!columns.some((c) => c.name === 'ready_at')) {
		db.exec('ALTER TABLE takeout_status ADD COLUMN ready_at INTEGER');
	}
	return {
		insertDelivery: db.prepare(
			`INSERT INTO notification_deliveries (id, notification_id, kind, location_id, screen_id,
				order_id, minutes, notification_url, submitted_at, expires_at, status, attempts)
			 VALUES (@id, @notification_id, @kind, @location_id, @screen_id, @order_id, @minutes,
				@notification_url, @submitted_at, @expires_at, 'pending', 1)`
		),
		delivery: db.prepare('SELECT * FROM notification_deliveries WHERE id = ?'),
		pendingOf: db.prepare(
			`SELECT * FROM notification_deliveries WHERE status = 'pending' AND screen_id = ?
			 ORDER BY submitted_at, rowid`
		),
		all: db.prepare('SELECT * FROM notification_deliveries ORDER BY submitted_at, rowid'),
		attempted: db.prepare('UPDATE notification_deliveries SET attempts = ? WHERE id = ?'),
		finish: db.prepare(
			`UPDATE notification_deliveries SET status = ?, attempts = ?, finished_at = ?,
				callback_due_at = ? WHERE id = ?`
		),
		callbackTried: db.prepare(
			'UPDATE notification_deliveries SET callback_attempts = ?, callback_due_at = ? WHERE id = ?'
		),
		forget: db.prepare('DELETE FROM notification_deliveries WHERE id = ?'),
		takeoutOf: db.prepare(
			`SELECT order_id, arrived_at, eta_at, ready_at, updated_at FROM takeout_status
			 WHERE screen_id = ?`
		),
		putTakeout: db.prepare(
			`INSERT INTO takeout_status (screen_id, order_id, arrived_at, eta_at, ready_at, updated_at)
			 VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (screen_id, order_id) DO UPDATE SET
				arrived_at = excluded.arrived_at, eta_at = excluded.eta_at,
				ready_at = excluded.ready_at, updated_at = excluded.updated_at`
		),
		dropTakeout: db.prepare('DELETE FROM takeout_status WHERE screen_id = ? AND order_id = ?'),
		dropScreenTakeout: db.prepare('DELETE FROM takeout_status WHERE screen_id = ?'),
		dropAllTakeout: db.prepare('DELETE FROM takeout_status'),
		popupsOf: db.prepare('SELECT id, message, at FROM popups WHERE screen_id = ? ORDER BY rowid'),
		putPopup: db.prepare('INSERT INTO popups (screen_id, id, message, at) VALUES (?, ?, ?, ?)'),
		trimPopups: db.prepare(
			`DELETE FROM popups WHERE screen_id = ? AND rowid NOT IN
				(SELECT rowid FROM popups WHERE screen_id = ? ORDER BY rowid DESC LIMIT ?)`
		),
		ackPopup: db.prepare('DELETE FROM popups WHERE screen_id = ? AND id = ?'),
		dropScreenPopups: db.prepare('DELETE FROM popups WHERE screen_id = ?'),
		dropAllPopups: db.prepare('DELETE FROM popups')
	};
}
