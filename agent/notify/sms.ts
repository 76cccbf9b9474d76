/**
 * Customer texts, simulated, once a brand or location enables them (off by default): "received"
 * when an order is created, "bumped" when it is bumped, "ready" when the Take Out view marks it
 * ready for pickup, each when its trigger is on; written to an outbox table next to the orders (so they survive a restart), listed by
 * GET /api/sms and the /sms page, and forwarded as JSON to the brand's webhook when one is set
 * (through the agent's one webhook sender, webhook.ts: bounded tries, the URL redacted in logs).
 *
 * One order, one pair of texts per location. An order sent to several screens of a location (HTTP
 * fan-out, or the same id over TCP to each) is one customer order: its texts belong to its visit,
 * which starts when the id is created while no screen of the location shows it, and ends when no
 * screen shows it any more. "received" is sent once per visit; "bumped" when the last screen still
 * showing the order bumps it (and not for a cancelled order). An id created again after that is a
 * new order, with new texts. Held orders get "received" on create: the customer did order.
 */
import { transaction, type Database, type Statement } from '../store/sqlite.ts';
import type { OrderRecord } from '#core/order-machine';
import { isLive } from '#core/screen';
import {
	smsSettings,
	smsText,
	smsTriggered,
	undeliverableReason,
	wantsSms,
	type SmsEntry,
	type SmsForwarded,
	type SmsKind,
	type SmsOverride,
	type SmsSettings,
	type SmsStatus
} from '#core/sms';
import { CommitOutbox } from '../engine/commit-outbox.ts';
import type { Engine, Screen } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import { createdAndBumped, elsewhere, visitStart } from './order-visits.ts';
import { WebhookSender } from './webhook.ts';

/** The outbox keeps the newest texts only. */
export const OUTBOX_LIMIT = 10_000;

/**
 * The older texts are pruned in steps: once the outbox holds this many over OUTBOX_LIMIT, the
 * oldest go in one DELETE (so it holds 10,000 to 10,999 texts). A DELETE after every INSERT cost
 * a create with a phone number about 3 µs of its ~14 µs of outbox work.
 */
export const PRUNE_STEP = 1_000;

/** The outbox's table (created with the orders' database; bench/commit.bench.ts makes it too). */
export const SMS_OUTBOX_TABLE = `CREATE TABLE IF NOT EXISTS sms_outbox (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		brand TEXT NOT NULL,
		location TEXT NOT NULL,
		order_id TEXT NOT NULL,
		screen TEXT NOT NULL,
		kind TEXT NOT NULL,
		-- The visit of the order at the location (receivedAt of its first screen): dedupe key.
		visit INTEGER NOT NULL,
		recipient TEXT NOT NULL,
		text TEXT NOT NULL,
		status TEXT NOT NULL,
		reason TEXT,
		created_at INTEGER NOT NULL,
		forwarded TEXT,
		forward_attempts INTEGER NOT NULL DEFAULT 0,
		forward_error TEXT,
		UNIQUE (brand, location, order_id, kind, visit)
	);
`;

/** One text; positional parameters: binding twelve named ones from an object cost ~3 µs more per text. */
export const INSERT_TEXT = `INSERT OR IGNORE INTO sms_outbox
	 (brand, location, order_id, screen, kind, visit, recipient, text, status, reason, created_at, forwarded)
	 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The texts up to an id: the oldest, pruned in steps (PRUNE_STEP). */
export const PRUNE_TEXTS = 'DELETE FROM sms_outbox WHERE id <= ?';

export interface SmsFilter {
	location?: string;
	order?: string;
	screen?: string;
	kind?: SmsKind;
	/** At most this many, newest first (default 200). */
	limit?: number;
}

interface Row {
	id: number;
	brand: string;
	location: string;
	order_id: string;
	screen: string;
	kind: SmsKind;
	recipient: string;
	text: string;
	status: SmsStatus;
	reason: string | null;
	created_at: number;
	forwarded: SmsForwarded;
	forward_attempts: number;
	forward_error: string | null;
}

function entryOf(row: Row): SmsEntry {
	return {
		id: row.id,
		brand: row.brand,
		location: row.location,
		orderId: row.order_id,
		screen: row.screen,
		kind: row.kind,
		to: row.recipient,
		text: row.text,
		status: row.status,
		reason: row.reason,
		createdAt: new Date(row.created_at).toISOString(),
		forwarded: row.forwarded,
		forwardAttempts: row.forward_attempts,
		forwardError: row.forward_error
	};
}

/** A location without settings of its own, as a key. */
const NO_LOCATION_SMS: SmsOverride = {};
/** Settings merged once per brand and location (configs are never changed in place). */
const merged = new WeakMap<SmsOverride, WeakMap<SmsOverride, SmsSettings>>();

/** smsSettings of a screen's brand and location, merged once rather than twice per order. */
function settingsOf(screen: Screen): SmsSettings {
	const brand = screen.brand.sms;
	const location = screen.location.sms ?? NO_LOCATION_SMS;
	let byLocation = merged.get(brand);
	if (byLocation === undefined) merged.set(brand, (byLocation = new WeakMap()));
	let settings = byLocation.get(location);
	if (settings === undefined) {
		settings = smsSettings(brand, screen.location.sms);
		byLocation.set(location, settings);
	}
	return settings;
}

interface QueuedText {
	screenId: string;
	orderId: string;
	webhook: boolean;
	row: Omit<Row, 'id' | 'forward_attempts' | 'forward_error'> & { visit: number };
}

export interface OutboxLimits {
	/** Keep the newest this many texts (OUTBOX_LIMIT). */
	keep: number;
	/** Prune once this many more are held (PRUNE_STEP). */
	step: number;
}

export class SmsOutbox {
	private closed = false;
	private unsubscribe: () => void;
	private webhook: WebhookSender;
	private insert: Statement;
	private lastVisit: Statement;
	private byId: Statement;
	private setForwarded: Statement;
	private select: Statement;
	private prune: Statement;
	/** Texts decided, written in the orders' transaction and forwarded once it is committed. */
	private outbox: CommitOutbox<QueuedText, { text: QueuedText; id: number }>;
	private writeMany: (texts: QueuedText[]) => Array<{ text: QueuedText; id: number }>;
	/** The id at which the next prune is due (0: at the first text past the limit). */
	private pruneAt = 0;

	constructor(
		private engine: Engine,
		private db: Database,
		private logger: Logger,
		private limits: OutboxLimits = { keep: OUTBOX_LIMIT, step: PRUNE_STEP }
	) {
		this.webhook = new WebhookSender({ clock: engine.clock, logger, name: 'SMS webhook' });
		db.exec(SMS_OUTBOX_TABLE);
		this.insert = db.prepare(INSERT_TEXT);
		this.lastVisit = db.prepare(
			`SELECT max(visit) AS visit FROM sms_outbox
			 WHERE brand = ? AND location = ? AND order_id = ? AND kind = 'received' AND visit <= ?`
		);
		this.byId = db.prepare('SELECT * FROM sms_outbox WHERE id = ?');
		this.setForwarded = db.prepare(
			'UPDATE sms_outbox SET forwarded = ?, forward_attempts = ?, forward_error = ? WHERE id = ?'
		);
		this.select = db.prepare(
			`SELECT * FROM sms_outbox
			 WHERE (@location IS NULL OR location = @location)
			   AND (@order IS NULL OR order_id = @order)
			   AND (@screen IS NULL OR screen = @screen)
			   AND (@kind IS NULL OR kind = @kind)
			 ORDER BY id DESC LIMIT @limit`
		);
		this.prune = db.prepare(PRUNE_TEXTS);
		this.writeMany = transaction(db, (texts: QueuedText[]) => this.writeRows(texts));
		// Texts are decided and written inside the orders' own transaction (one WAL commit for the
		// orders and their texts, not two), and forwarded once it is committed.
		const on = {
			created: (screen: Screen, record: OrderRecord) => this.onCreated(screen, record),
			bumped: (screen: Screen, record: OrderRecord) => this.onBumped(screen, record)
		};
		this.outbox = new CommitOutbox(engine, {
			decide: (batches) => {
				for (const { screenId, changes } of batches)
					createdAndBumped(engine, screenId, changes, on);
			},
			write: (texts, inCommit) => this.write(texts, inCommit),
			send: (written) => this.forwardWritten(written)
		});
		// A reset of the orders forgets the texts they triggered.
		const offReset = engine.onReset((screenId) => this.forget(screenId));
		this.unsubscribe = () => {
			this.outbox.close();
			offReset();
		};
		// Forwards cut short by a restart are tried again.
		const pending = db
			.prepare(`SELECT * FROM sms_outbox WHERE forwarded = 'pending' ORDER BY id`)
			.all() as unknown as Row[];
		for (const row of pending) this.forward(row.id, row.forward_attempts);
	}

	/** The outbox, newest first. */
	list(filter: SmsFilter = {}): SmsEntry[] {
		const rows = this.select.all({
			location: filter.location ?? null,
			order: filter.order ?? null,
			screen: filter.screen ?? null,
			kind: filter.kind ?? null,
			limit: filter.limit ?? 200
		}) as unknown as Row[];
		return rows.map(entryOf);
	}

	/** Forget the texts one screen triggered, or every text (the admin reset). */
	forget(screenId?: string): void {
		if (screenId === undefined) this.db.prepare('DELETE FROM sms_outbox').run();
		else this.db.prepare('DELETE FROM sms_outbox WHERE screen = ?').run(screenId);
	}

	/** Stop texting and forwarding (the store is about to close). */
	close(): void {
		this.closed = true;
		this.unsubscribe();
		this.webhook.close();
	}

	/** Whether the screen's location sends `kind` texts at all (its brand's settings under its own). */
	private triggered(screen: Screen, kind: SmsKind): boolean {
		return smsTriggered(settingsOf(screen), kind);
	}

	private onCreated(screen: Screen, record: OrderRecord): void {
		if (!this.triggered(screen, 'received') || !wantsSms(record.context.fields)) return;
		// Another screen still showing the id: the same customer order; its visit started there.
		this.send(screen, record, 'received', visitStart(this.engine, screen, record));
	}

	private onBumped(screen: Screen, record: OrderRecord): void {
		if (!this.triggered(screen, 'bumped') || !wantsSms(record.context.fields)) return;
		if (record.context.cancelledAt !== undefined) return;
		if (elsewhere(this.engine, screen, record.context.id).some(isLive)) return;
		this.outbox.flush(); // the visit's "received" may still be queued
		const { visit } = this.lastVisit.get(
			screen.brand.id,
			screen.location.id,
			record.context.id,
			record.context.receivedAt
		) as { visit: number | null };
		this.send(screen, record, 'bumped', visit ?? record.context.receivedAt);
	}

	/**
	 * The order was marked ready for pickup on the screen's Take Out view (notification-state.ts):
	 * the "ready" text, once per visit like the others, when the trigger is on, the customer wants
	 * texts and the order is not cancelled. Written at once (this is not an engine commit).
	 */
	ready(screenId: string, orderId: string): void {
		const screen = this.engine.screen(screenId);
		const record = screen?.state.orders.get(orderId);
		if (this.closed || !screen || !record) return;
		if (!this.triggered(screen, 'ready') || !wantsSms(record.context.fields)) return;
		if (record.context.cancelledAt !== undefined) return;
		this.outbox.flush();
		const { visit } = this.lastVisit.get(
			screen.brand.id,
			screen.location.id,
			orderId,
			record.context.receivedAt
		) as { visit: number | null };
		// Without a "received" text (that trigger off) the visit starts on the first screen showing it.
		this.send(screen, record, 'ready', visit ?? visitStart(this.engine, screen, record));
		this.outbox.flush();
	}

	/**
	 * Decide the text now; write it with every other text of the same commit in the orders' own
	 * transaction (the outbox, ../engine/commit-outbox.ts), so it is committed with the command that
	 * caused it, before that is acknowledged. Texts are decided in a commit or by `ready`, which
	 * writes at once, so outside them the queue is always empty.
	 */
	private send(screen: Screen, record: OrderRecord, kind: SmsKind, visit: number): void {
		const { fields } = record.context;
		const to = (fields.phoneNumber ?? '').trim();
		const reason = undeliverableReason(to);
		const webhook = screen.brand.sms.webhookUrl;
		this.outbox.queue({
			screenId: screen.config.id,
			orderId: record.context.id,
			webhook: Boolean(webhook),
			row: {
				brand: screen.brand.id,
				location: screen.location.id,
				order_id: record.context.id,
				screen: screen.config.id,
				kind,
				visit,
				recipient: to,
				text: smsText(settingsOf(screen).texts[kind], fields.customerArrivedUrl),
				status: reason ? 'undeliverable' : 'sent',
				reason,
				created_at: this.engine.now(),
				forwarded: webhook ? 'pending' : null
			}
		});
	}

	/**
	 * Write texts: in a commit, in the orders' transaction; outside one, in a transaction of their
	 * own. Those that were new, with their ids.
	 */
	private write(texts: QueuedText[], inCommit: boolean): Array<{ text: QueuedText; id: number }> {
		const written: Array<{ text: QueuedText; id: number }> = [];
		if (inCommit) {
			for (const text of texts) {
				try {
					written.push(...this.writeRows([text]));
				} catch (err) {
					this.unwritten(text, err);
				}
			}
			return written;
		}
		try {
			return this.writeMany(texts);
		} catch {
			// One text that cannot be written must not cost the others theirs: one at a time.
			for (const text of texts) {
				try {
					written.push(...this.writeMany([text]));
				} catch (err) {
					this.unwritten(text, err);
				}
			}
			return written;
		}
	}

	private unwritten(text: QueuedText, err: unknown): void {
		this.logger.error(
			{ err, screen: text.screenId, id: text.orderId, kind: text.row.kind },
			'an SMS could not be written to the outbox'
		);
	}

	/** The texts just committed: logged, and forwarded to their brand's webhook. */
	private forwardWritten(written: Array<{ text: QueuedText; id: number }>): void {
		for (const { text, id } of written) {
			const { screenId: screen, orderId, row } = text;
			this.logger.debug({ screen, id: orderId, kind: row.kind, to: row.recipient }, 'SMS');
			if (text.webhook) this.forward(id, 0);
		}
	}

	/** Insert the texts (in whatever transaction is open); those that were new, with their ids. */
	private writeRows(texts: QueuedText[]): Array<{ text: QueuedText; id: number }> {
		const written: Array<{ text: QueuedText; id: number }> = [];
		for (const text of texts) {
			const r = text.row;
			const result = this.insert.run(
				r.brand,
				r.location,
				r.order_id,
				r.screen,
				r.kind,
				r.visit,
				r.recipient,
				r.text,
				r.status,
				r.reason,
				r.created_at,
				r.forwarded
			);
			if (result.changes === 0) continue; // this visit already has its text
			const id = Number(result.lastInsertRowid);
			// Ids only grow (AUTOINCREMENT): the newest `keep` are those above id - keep.
			if (id > this.limits.keep && id >= this.pruneAt) {
				this.prune.run(id - this.limits.keep);
				this.pruneAt = id + this.limits.step;
			}
			written.push({ text, id });
		}
		return written;
	}

	/** POST the text to its brand's webhook (from try `attemptsSoFar + 1`); never throws. */
	private forward(id: number, attemptsSoFar: number): void {
		this.webhook.send(
			{
				log: { sms: id },
				prepare: (attempt) => {
					const row = this.byId.get(id) as unknown as Row | undefined;
					if (!row) return null;
					const url = this.brandWebhook(row.brand);
					if (!url) {
						this.setForward(id, 'failed', attempt - 1, 'no webhook configured any more');
						return null;
					}
					const { forwarded: _f, forwardAttempts: _a, forwardError: _e, ...body } = entryOf(row);
					return { url, body };
				},
				settle: (outcome) =>
					outcome.ok
						? this.setForward(id, 'delivered', outcome.attempt, null)
						: this.setForward(
								id,
								outcome.retryAt === null ? 'failed' : 'pending',
								outcome.attempt,
								outcome.error
							)
			},
			{ attempt: attemptsSoFar + 1 }
		);
	}

	private brandWebhook(brandId: string): string | undefined {
		for (const screen of this.engine.screens.values()) {
			if (screen.brand.id === brandId) return screen.brand.sms.webhookUrl;
		}
		return undefined;
	}

	private setForward(id: number, state: SmsForwarded, attempts: number, error: string | null) {
		this.setForwarded.run(state, attempts, error, id);
	}
}
