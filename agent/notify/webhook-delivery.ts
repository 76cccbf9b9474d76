/**
 * The webhooks' deliveries (docs/webhooks.md): written in one transaction (in a commit, a
 * savepoint of the orders' own), then sent through the agent's one sender (./webhook.ts) on the
 * endpoint's schedule of attempts, each attempt written as started before its request goes and
 * settled after; after a restart, every pending delivery goes on from its next attempt.
 *
 * An agent killed while a request is in flight finds that attempt started and not settled when it
 * starts again: it counts the attempt as made (its answer unknown) and goes on with the next one
 * on the schedule, so no attempt is sent twice; a receiver that got the one cut short sees the
 * next with the same x-kds-delivery and a higher x-kds-attempt.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { WebhookBody, WebhookEvent } from '#core/webhooks';
import type { Logger } from '../log.ts';
import { transaction, type Database } from '../store/sqlite.ts';
import type { AttemptRow, DeliveryRow, WebhookStatements } from '../store/webhook-store.ts';
import type { Endpoint, WebhookEndpoints } from './webhook-endpoints.ts';
import type { WebhookLog } from './webhook-log.ts';
import type { WebhookSender } from './webhook.ts';

/** One event owed to one endpoint, decided and not yet written. */
export interface Queued {
	endpoint: Endpoint;
	event: WebhookEvent;
	/** What makes it once-only (an order's visit, one bump); null for none. */
	dedupe: string | null;
	orderId: string | null;
	device: string | null;
	body: WebhookBody;
	resendOf?: string | null;
}

/** A delivery written: its id and endpoint. */
export interface Written {
	id: string;
	endpoint: Endpoint;
}

export class WebhookDeliveries {
	private readonly writeMany: (queued: Queued[]) => Written[];

	constructor(
		private readonly db: Database,
		private readonly st: WebhookStatements,
		private readonly now: () => number,
		private readonly logger: Logger,
		private readonly sender: WebhookSender,
		private readonly endpoints: WebhookEndpoints,
		private readonly log: WebhookLog
	) {
		this.writeMany = transaction(db, (queued: Queued[]) => {
			const written: Written[] = [];
			const now = this.now();
			for (const q of queued) {
				const id = randomUUID();
				const result = this.st.insertDelivery.run({
					id,
					endpoint: q.endpoint.id,
					event: q.event,
					dedupe: q.dedupe,
					order_id: q.orderId,
					device: q.device,
					body: JSON.stringify(q.body),
					max_attempts: q.endpoint.attempts,
					next_at: now,
					created_at: now,
					resend_of: q.resendOf ?? null
				});
				if (result.changes === 0) continue; // this event was sent to this endpoint already
				written.push({ id, endpoint: q.endpoint });
				this.log.written(Number(result.lastInsertRowid));
			}
			return written;
		});
	}

	/**
	 * Write deliveries in one transaction (in a commit, a savepoint of the orders' transaction):
	 * all of them or none. Those that were new.
	 */
	write(queued: Queued[]): Written[] {
		try {
			return this.writeMany(queued);
		} catch (err) {
			this.logger.error({ err }, 'webhook deliveries could not be written');
			return [];
		}
	}

	/** Start sending what was written (once its transaction is committed). */
	send(written: Written[]): void {
		if (written.length === 0) return;
		const now = this.now();
		for (const { id, endpoint } of written) this.deliver(id, endpoint, 1, now);
	}

	/**
	 * A delivery's body again, as a new delivery (its own id and attempts) to the same endpoint,
	 * now. Its id; undefined when there is no such delivery or its endpoint is gone.
	 */
	resend(row: DeliveryRow): string | undefined {
		const endpoint = this.endpoints.get(row.endpoint);
		if (!endpoint) return undefined;
		const [written] = this.writeMany([
			{
				endpoint,
				event: row.event as WebhookEvent,
				dedupe: null,
				orderId: row.order_id,
				device: row.device,
				body: JSON.parse(row.body) as WebhookBody,
				resendOf: row.id
			}
		]);
		this.deliver(written.id, endpoint, 1, this.now());
		return written.id;
	}

	/** After a restart: every pending delivery goes on from its next attempt. */
	resumePending(): void {
		const now = this.now();
		for (const row of this.st.pending.all() as unknown as DeliveryRow[]) {
			const endpoint = this.endpoints.ofDelivery(row);
			const attempts = this.st.attemptsOf.all(row.id) as unknown as AttemptRow[];
			const last = attempts.at(-1);
			let next = row.attempts + 1;
			let at = row.next_at ?? now;
			if (last && last.ok === null) {
				// Cut short by the stop: counted as made, never sent again as the same attempt.
				this.st.settleAttempt.run(
					null,
					'no answer: the agent stopped during this attempt',
					0,
					row.id,
					last.attempt
				);
				next = last.attempt + 1;
				at = last.at + endpoint.secondsBetweenAttempts * 1000;
				if (next > row.max_attempts) {
					this.st.settleDelivery.run('failed', last.attempt, null, row.id);
					continue;
				}
				this.st.settleDelivery.run('pending', last.attempt, at, row.id);
			}
			this.deliver(row.id, endpoint, next, Math.max(at, now));
		}
	}

	private deliver(id: string, endpoint: Endpoint, attempt: number, at: number): void {
		this.sender.send(
			{
				log: { webhook: endpoint.id, delivery: id },
				attempts: endpoint.attempts,
				backoffMs: () => endpoint.secondsBetweenAttempts * 1000,
				prepare: (n) => {
					const row = this.st.delivery.get(id) as unknown as DeliveryRow | undefined;
					if (!row || row.status !== 'pending' || !endpoint.url) return null;
					transaction(this.db, () => {
						this.st.startAttempt.run(n, id);
						this.st.insertAttempt.run(id, n, this.now(), 'in flight');
					})();
					const headers: Record<string, string> = {
						'x-kds-event': row.event,
						'x-kds-delivery': id,
						'x-kds-attempt': String(n)
					};
					if (endpoint.secret) {
						const mac = createHmac('sha256', endpoint.secret).update(row.body).digest('hex');
						headers['x-kds-signature'] = `sha256=${mac}`;
					}
					return { url: endpoint.url, body: null, json: row.body, headers };
				},
				settle: (outcome, detail) => {
					transaction(this.db, () => {
						this.st.settleAttempt.run(
							detail.status,
							detail.answer,
							outcome.ok ? 1 : 0,
							id,
							outcome.attempt
						);
						this.st.settleDelivery.run(
							outcome.ok ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending',
							outcome.attempt,
							outcome.ok ? null : outcome.retryAt,
							id
						);
					})();
				}
			},
			{ attempt, at }
		);
	}
}
