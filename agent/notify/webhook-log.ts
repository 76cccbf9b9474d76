/**
 * The webhooks' delivery log (the portal's log, docs/webhooks.md): deliveries of an endpoint by
 * event, order and status, one delivery with its attempts, and the retention (the newest
 * DELIVERY_LIMIT kept; pending ones always).
 */
import type { Database } from '../store/sqlite.ts';
import type {
	WebhookAttempt,
	WebhookBody,
	WebhookDelivery,
	WebhookDeliveryStatus,
	WebhookEvent
} from '#core/webhooks';
import type { AttemptRow, DeliveryRow, WebhookStatements } from '../store/webhook-store.ts';

/** The newest deliveries kept (pending ones are always kept). */
export const DELIVERY_LIMIT = 10_000;

export interface DeliveryFilter {
	event?: WebhookEvent;
	order?: string;
	status?: WebhookDeliveryStatus;
	/** At most this many, newest first (default 200). */
	limit?: number;
}

export class WebhookLog {
	private inserts = 0;

	constructor(
		private readonly db: Database,
		private readonly st: WebhookStatements
	) {}

	deliveries(endpointId: string, filter: DeliveryFilter = {}): WebhookDelivery[] {
		const rows = this.st.deliveriesOf.all({
			endpoint: endpointId,
			event: filter.event ?? null,
			order: filter.order ?? null,
			status: filter.status ?? null,
			limit: filter.limit ?? 200
		}) as unknown as DeliveryRow[];
		return rows.map((row) => this.deliveryOf(row));
	}

	delivery(id: string): WebhookDelivery | undefined {
		const row = this.row(id);
		return row && this.deliveryOf(row);
	}

	/** A delivery's stored row. */
	row(id: string): DeliveryRow | undefined {
		return this.st.delivery.get(id) as unknown as DeliveryRow | undefined;
	}

	/** A delivery was written (its row number): every 1,000th, the oldest past the limit go. */
	written(rowNumber: number): void {
		if (++this.inserts % 1000 === 0) this.prune(rowNumber);
	}

	private deliveryOf(row: DeliveryRow): WebhookDelivery {
		const attempts = this.st.attemptsOf.all(row.id) as unknown as AttemptRow[];
		return {
			id: row.id,
			endpoint: row.endpoint,
			event: row.event as WebhookEvent,
			order: row.order_id,
			device: row.device,
			status: row.status,
			attempts: row.attempts,
			maxAttempts: row.max_attempts,
			nextAt:
				row.status === 'pending' && row.next_at !== null
					? new Date(row.next_at).toISOString()
					: null,
			createdAt: new Date(row.created_at).toISOString(),
			resendOf: row.resend_of,
			log: attempts.map((a): WebhookAttempt => ({
				attempt: a.attempt,
				at: new Date(a.at).toISOString(),
				status: a.status,
				answer: a.answer,
				ok: a.ok === 1
			})),
			body: JSON.parse(row.body) as WebhookBody
		};
	}

	private prune(newest: number): void {
		const cutoff = newest - DELIVERY_LIMIT;
		if (cutoff <= 0) return;
		this.db
			.prepare(
				`DELETE FROM webhook_attempts WHERE delivery IN
				 (SELECT id FROM webhook_deliveries WHERE n <= ? AND status != 'pending')`
			)
			.run(cutoff);
		this.st.pruneDeliveries.run(cutoff);
	}
}
