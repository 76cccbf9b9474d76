/**
 * The webhook tables, beside the orders in the agent's SQLite database: the endpoints (those of
 * the config file, written again at each start, and those added at run time), one row per event
 * sent to one endpoint (its body as sent, its status and schedule), one row per attempt (the
 * portal's log), and the order records' uuids. Plain statements; the rules are in
 * agent/notify/webhooks.ts.
 */
import type { Database, Statement } from './sqlite.ts';

const SCHEMA = `
	CREATE TABLE IF NOT EXISTS webhook_endpoints (
		id TEXT PRIMARY KEY,
		brand TEXT NOT NULL,
		-- The endpoint as the config schema outputs it (JSON).
		config TEXT NOT NULL,
		origin TEXT NOT NULL,
		removed INTEGER NOT NULL DEFAULT 0,
		seq INTEGER NOT NULL
	);
	CREATE TABLE IF NOT EXISTS webhook_deliveries (
		n INTEGER PRIMARY KEY AUTOINCREMENT,
		id TEXT NOT NULL UNIQUE,
		endpoint TEXT NOT NULL,
		event TEXT NOT NULL,
		-- What makes the event once-only (an order's visit at a location, one bump): null for none.
		dedupe TEXT,
		order_id TEXT,
		device TEXT,
		body TEXT NOT NULL,
		status TEXT NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		max_attempts INTEGER NOT NULL,
		next_at INTEGER,
		created_at INTEGER NOT NULL,
		resend_of TEXT,
		UNIQUE (endpoint, dedupe)
	);
	CREATE INDEX IF NOT EXISTS webhook_deliveries_pending
		ON webhook_deliveries (status) WHERE status = 'pending';
	CREATE TABLE IF NOT EXISTS webhook_attempts (
		delivery TEXT NOT NULL,
		attempt INTEGER NOT NULL,
		at INTEGER NOT NULL,
		-- null while in flight, and when there was no answer
		status INTEGER,
		answer TEXT NOT NULL,
		-- null while in flight
		ok INTEGER,
		PRIMARY KEY (delivery, attempt)
	) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS webhook_orders (
		brand TEXT NOT NULL,
		location TEXT NOT NULL,
		order_id TEXT NOT NULL,
		visit INTEGER NOT NULL,
		uuid TEXT NOT NULL,
		PRIMARY KEY (brand, location, order_id, visit)
	) WITHOUT ROWID;
`;

export interface EndpointRow {
	id: string;
	brand: string;
	config: string;
	origin: 'config' | 'runtime';
	removed: number;
	seq: number;
}

export interface DeliveryRow {
	n: number;
	id: string;
	endpoint: string;
	event: string;
	dedupe: string | null;
	order_id: string | null;
	device: string | null;
	body: string;
	status: 'pending' | 'delivered' | 'failed';
	attempts: number;
	max_attempts: number;
	next_at: number | null;
	created_at: number;
	resend_of: string | null;
}

export interface AttemptRow {
	delivery: string;
	attempt: number;
	at: number;
	status: number | null;
	answer: string;
	ok: number | null;
}

export type WebhookStatements = Record<
	| 'endpoints'
	| 'putEndpoint'
	| 'removeEndpoint'
	| 'maxEndpointSeq'
	| 'insertDelivery'
	| 'delivery'
	| 'deliveriesOf'
	| 'pending'
	| 'startAttempt'
	| 'insertAttempt'
	| 'settleAttempt'
	| 'settleDelivery'
	| 'attemptsOf'
	| 'putOrder'
	| 'orderUuid'
	| 'pruneDeliveries',
	Statement
>;

/** Create the tables if needed and prepare the statements, once. */
export function prepareWebhookTables(db: Database): WebhookStatements {
	db.exec(SCHEMA);
	return {
		endpoints: db.prepare('SELECT * FROM webhook_endpoints ORDER BY seq'),
		putEndpoint: db.prepare(
			`INSERT INTO webhook_endpoints (id, brand, config, origin, removed, seq)
			 VALUES (@id, @brand, @config, @origin, 0, @seq)
			 ON CONFLICT (id) DO UPDATE SET brand = excluded.brand, config = excluded.config,
				origin = excluded.origin, removed = 0`
		),
		removeEndpoint: db.prepare('UPDATE webhook_endpoints SET removed = 1 WHERE id = ?'),
		maxEndpointSeq: db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM webhook_endpoints'),
		insertDelivery: db.prepare(
			`INSERT OR IGNORE INTO webhook_deliveries (id, endpoint, event, dedupe, order_id, device,
				body, status, attempts, max_attempts, next_at, created_at, resend_of)
			 VALUES (@id, @endpoint, @event, @dedupe, @order_id, @device, @body, 'pending', 0,
				@max_attempts, @next_at, @created_at, @resend_of)`
		),
		delivery: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
		deliveriesOf: db.prepare(
			`SELECT * FROM webhook_deliveries
			 WHERE endpoint = @endpoint
			   AND (@event IS NULL OR event = @event)
			   AND (@order IS NULL OR order_id = @order)
			   AND (@status IS NULL OR status = @status)
			 ORDER BY n DESC LIMIT @limit`
		),
		pending: db.prepare(`SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY n`),
		startAttempt: db.prepare(
			'UPDATE webhook_deliveries SET attempts = ?, next_at = NULL WHERE id = ?'
		),
		insertAttempt: db.prepare(
			`INSERT OR REPLACE INTO webhook_attempts (delivery, attempt, at, status, answer, ok)
			 VALUES (?, ?, ?, NULL, ?, NULL)`
		),
		settleAttempt: db.prepare(
			'UPDATE webhook_attempts SET status = ?, answer = ?, ok = ? WHERE delivery = ? AND attempt = ?'
		),
		settleDelivery: db.prepare(
			'UPDATE webhook_deliveries SET status = ?, attempts = ?, next_at = ? WHERE id = ?'
		),
		attemptsOf: db.prepare('SELECT * FROM webhook_attempts WHERE delivery = ? ORDER BY attempt'),
		putOrder: db.prepare(
			`INSERT OR IGNORE INTO webhook_orders (brand, location, order_id, visit, uuid)
			 VALUES (?, ?, ?, ?, ?)`
		),
		orderUuid: db.prepare(
			`SELECT uuid FROM webhook_orders WHERE brand = ? AND location = ? AND order_id = ?
			 AND visit <= ? ORDER BY visit DESC LIMIT 1`
		),
		pruneDeliveries: db.prepare(
			`DELETE FROM webhook_deliveries WHERE n <= ? AND status != 'pending'`
		)
	};
}
