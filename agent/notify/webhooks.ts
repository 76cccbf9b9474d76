/**
 * The real product's webhooks (docs/webhooks.md; field notes, "Webhooks"), composed of four
 * modules of one job each:
 *
 * - ./webhook-endpoints.ts: the endpoint registry (config file and run time; who wants what);
 * - ./webhook-events.ts: commits and screens turned into the vendor's events and bodies;
 * - ./webhook-delivery.ts: deliveries written, sent and retried on each endpoint's schedule,
 *   resumed after a restart;
 * - ./webhook-log.ts: the delivery log's queries and its retention.
 *
 * Here they are wired to the engine: events are decided and written, with their bodies, inside
 * the orders' own transaction through the one transactional outbox the SMS outbox uses too
 * (../engine/commit-outbox.ts: one WAL commit for both), before any command of the commit is
 * acknowledged, so nothing acknowledged loses its event. The sends start once it is committed
 * (never awaited on the reply path). A brand with no endpoint costs one Map lookup per commit.
 */
import type { Database } from '../store/sqlite.ts';
import type { WebhookDelivery, WebhookEndpointInfo } from '#core/webhooks';
import { CommitOutbox } from '../engine/commit-outbox.ts';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import { prepareWebhookTables } from '../store/webhook-store.ts';
import { WebhookDeliveries, type Queued, type Written } from './webhook-delivery.ts';
import { info, WebhookEndpoints } from './webhook-endpoints.ts';
import { WebhookEvents } from './webhook-events.ts';
import { WebhookLog, type DeliveryFilter } from './webhook-log.ts';
import { WebhookSender } from './webhook.ts';

export { EndpointError, type Endpoint } from './webhook-endpoints.ts';
export { orderHash } from './webhook-events.ts';
export { DELIVERY_LIMIT, type DeliveryFilter } from './webhook-log.ts';

export class Webhooks {
	private readonly sender: WebhookSender;
	private readonly registry: WebhookEndpoints;
	private readonly log: WebhookLog;
	private readonly deliveriesOut: WebhookDeliveries;
	private readonly events: WebhookEvents;
	/** Deliveries decided, written in the orders' transaction and sent once it is committed. */
	private readonly outbox: CommitOutbox<Queued, Written>;
	private readonly unsubscribe: Array<() => void> = [];

	constructor(engine: Engine, db: Database, logger: Logger, options: { timeoutMs?: number } = {}) {
		const st = prepareWebhookTables(db);
		this.sender = new WebhookSender({
			clock: engine.clock,
			logger,
			name: 'webhook',
			timeoutMs: options.timeoutMs
		});
		const startedAt = engine.now();
		this.registry = new WebhookEndpoints(st, engine, logger);
		this.log = new WebhookLog(db, st);
		const now = () => engine.now();
		this.deliveriesOut = new WebhookDeliveries(
			db,
			st,
			now,
			logger,
			this.sender,
			this.registry,
			this.log
		);
		this.events = new WebhookEvents(
			engine,
			st,
			this.registry,
			(queued) => this.outbox.queue(queued),
			() => this.outbox.flush(),
			startedAt
		);
		this.outbox = new CommitOutbox(engine, {
			decide: (batches) => {
				for (const { screenId, changes } of batches) this.events.changes(screenId, changes);
			},
			write: (queued) => this.deliveriesOut.write(queued),
			send: (written) => this.deliveriesOut.send(written)
		});
		this.unsubscribe.push(
			() => this.outbox.close(),
			engine.onScreenAdded((screen) => this.events.device('Device Created', screen)),
			engine.onScreenRemoved((screen) => this.events.device('Device Deleted', screen)),
			engine.fanout.onViewers((screenId) => this.events.viewers(screenId))
		);
		this.deliveriesOut.resumePending();
	}

	// ---- endpoints ----

	/** The endpoints of every brand (or one), in the order they were added; URLs redacted. */
	endpoints(brand?: string): WebhookEndpointInfo[] {
		return this.registry.list(brand);
	}

	endpoint(id: string): WebhookEndpointInfo | undefined {
		const endpoint = this.registry.get(id);
		return endpoint && info(endpoint);
	}

	/**
	 * Add an endpoint at run time (kept in the store: it outlives a restart). `input` is the config
	 * file's shape, plus `brand` (default: the first brand).
	 */
	add(input: unknown): WebhookEndpointInfo {
		return this.registry.add(input);
	}

	/**
	 * Remove an endpoint: it gets no new event; deliveries already owed are still tried (the
	 * portal's log keeps them). One from the config file is back at the next start.
	 */
	remove(id: string): boolean {
		return this.registry.remove(id);
	}

	// ---- the delivery log ----

	deliveries(endpointId: string, filter: DeliveryFilter = {}): WebhookDelivery[] {
		return this.log.deliveries(endpointId, filter);
	}

	delivery(id: string): WebhookDelivery | undefined {
		return this.log.delivery(id);
	}

	/**
	 * Send a delivery's body again, as a new delivery (its own id and attempts) to the same
	 * endpoint, now. Undefined when there is no such delivery or its endpoint is gone.
	 */
	resend(id: string): WebhookDelivery | undefined {
		const row = this.log.row(id);
		const resent = row && this.deliveriesOut.resend(row);
		return resent === undefined ? undefined : this.log.delivery(resent);
	}

	/** A fault took a screen offline from the cloud, or gave it back: Device Updated says so. */
	setCloudOffline(screenId: string, offline: boolean): void {
		this.events.setCloudOffline(screenId, offline);
	}

	/** Resolves once no request is in flight (tests). */
	idle(): Promise<void> {
		return this.sender.idle();
	}

	close(): void {
		for (const off of this.unsubscribe) off();
		this.sender.close();
	}
}
