/**
 * The real product's webhooks (docs/webhooks.md; field notes, "Webhooks"): each brand's endpoints
 * get KDS Order Created once per order at a location, KDS Order Bumped once per screen per bump,
 * and Device Created / Updated / Deleted, as POSTed JSON in the vendor's shapes (#core/webhooks),
 * on the endpoint's own schedule of attempts, through the agent's one sender (./webhook.ts).
 *
 * A listener of the engine's commits through the one transactional outbox the SMS outbox uses too
 * (../engine/commit-outbox.ts): events are decided and written, with their bodies, inside the
 * orders' own transaction (one WAL commit for both), before any command of the commit is
 * acknowledged, so nothing acknowledged loses its event. The sends start once it is committed
 * (never awaited on the reply path). A brand with no endpoint
 * costs one Map lookup per commit and nothing more.
 *
 * Each attempt is written as started before its request goes. An agent killed while a request is
 * in flight finds that attempt started and not settled when it starts again: it counts the
 * attempt as made (its answer unknown) and goes on with the next one on the schedule, so no
 * attempt is sent twice; a receiver that got the one cut short sees the next with the same
 * x-kds-delivery and a higher x-kds-attempt.
 */
import { transaction, type Database } from '../store/sqlite.ts';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { ItemView } from '#core/content';
import type { OrderRecord } from '#core/order-machine';
import { isLive, type ScreenChange } from '#core/screen';
import {
	orderBumpedBody,
	orderCreatedBody,
	type DeviceBody,
	type DeviceRecord,
	type WebhookAttempt,
	type WebhookBody,
	type WebhookDelivery,
	type WebhookDeliveryStatus,
	type WebhookEndpointInfo,
	type WebhookEvent
} from '#core/webhooks';
import {
	WebhookEndpointSchema,
	type BrandConfig,
	type LocationConfig,
	type WebhookEndpointConfig
} from '../config.ts';
import { CommitOutbox } from '../engine/commit-outbox.ts';
import type { Engine, Screen } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import {
	prepareWebhookTables,
	type AttemptRow,
	type DeliveryRow,
	type EndpointRow,
	type WebhookStatements
} from '../store/webhook-store.ts';
import { redact, WebhookSender } from './webhook.ts';

/** The newest deliveries kept (pending ones are always kept). */
export const DELIVERY_LIMIT = 10_000;

export interface Endpoint extends WebhookEndpointConfig {
	id: string;
	brand: string;
	origin: 'config' | 'runtime';
}

export interface DeliveryFilter {
	event?: WebhookEvent;
	order?: string;
	status?: WebhookDeliveryStatus;
	/** At most this many, newest first (default 200). */
	limit?: number;
}

interface Queued {
	endpoint: Endpoint;
	event: WebhookEvent;
	dedupe: string | null;
	orderId: string | null;
	device: string | null;
	body: WebhookBody;
	resendOf?: string | null;
}

/** Why an endpoint cannot be added: field paths and messages (the admin API answers 422). */
export class EndpointError extends Error {
	constructor(
		message: string,
		readonly errors: Array<{ path: string; message: string }>
	) {
		super(message);
	}
}

/** A uuid (RFC 9562 version 8, name-based) from a hash of `parts`: the same parts, the same uuid. */
function uuidOf(...parts: string[]): string {
	const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
	const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The vendor's `orderId`: a stable hash of the order (brand, location, the integrator's id). */
export function orderHash(brand: string, location: string, supplierOrderId: string): string {
	return createHash('sha256')
		.update(`${brand}\u0000${location}\u0000${supplierOrderId}`)
		.digest('hex')
		.slice(0, 32);
}

export class Webhooks {
	private readonly st: WebhookStatements;
	private readonly sender: WebhookSender;
	/** Live endpoints by brand id; a brand without any is not in the map. */
	private byBrand = new Map<string, Endpoint[]>();
	private endpointById = new Map<string, Endpoint>();
	/** Deliveries decided, written in the orders' transaction and sent once it is committed. */
	private readonly outbox: CommitOutbox<Queued, { id: string; endpoint: Endpoint }>;
	private readonly writeMany: (queued: Queued[]) => Array<{ id: string; endpoint: Endpoint }>;
	private readonly unsubscribe: Array<() => void> = [];
	/** Whether each screen was online at its last Device event (a browser shows it). */
	private online = new Map<string, { online: boolean; since: number }>();
	private readonly startedAt: number;
	private inserts = 0;

	constructor(
		private readonly engine: Engine,
		private readonly db: Database,
		private readonly logger: Logger,
		options: { timeoutMs?: number } = {}
	) {
		this.st = prepareWebhookTables(db);
		this.sender = new WebhookSender({
			clock: engine.clock,
			logger,
			name: 'webhook',
			timeoutMs: options.timeoutMs
		});
		this.startedAt = engine.now();
		this.storeConfigEndpoints();
		this.loadEndpoints();
		this.writeMany = transaction(db, (queued: Queued[]) => {
			const written: Array<{ id: string; endpoint: Endpoint }> = [];
			const now = this.engine.now();
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
				if (++this.inserts % 1000 === 0) this.prune(Number(result.lastInsertRowid));
			}
			return written;
		});
		// Events are decided and written inside the orders' own transaction (one WAL commit for the
		// orders and their deliveries, not two), and sent once it is committed.
		this.outbox = new CommitOutbox(engine, {
			decide: (batches) => {
				for (const { screenId, changes } of batches) this.onChanges(screenId, changes);
			},
			write: (queued) => this.write(queued),
			send: (written) => this.deliverWritten(written)
		});
		this.unsubscribe.push(
			() => this.outbox.close(),
			engine.onScreenAdded((screen) => this.onDevice('Device Created', screen)),
			engine.onScreenRemoved((screen) => this.onDevice('Device Deleted', screen)),
			engine.fanout.onViewers((screenId) => this.onViewers(screenId))
		);
		for (const screen of engine.screens.values()) {
			this.online.set(screen.config.id, { online: false, since: this.startedAt });
		}
		this.resumePending();
	}

	// ---- endpoints ----

	/** The endpoints of every brand (or one), in the order they were added; URLs redacted. */
	endpoints(brand?: string): WebhookEndpointInfo[] {
		return [...this.endpointById.values()]
			.filter((e) => brand === undefined || e.brand === brand)
			.map(info);
	}

	endpoint(id: string): WebhookEndpointInfo | undefined {
		const endpoint = this.endpointById.get(id);
		return endpoint && info(endpoint);
	}

	/**
	 * Add an endpoint at run time (kept in the store: it outlives a restart). `input` is the config
	 * file's shape, plus `brand` (default: the first brand).
	 */
	add(input: unknown): WebhookEndpointInfo {
		const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<
			string,
			unknown
		>;
		const { brand: brandInput, ...rest } = raw;
		const errors: Array<{ path: string; message: string }> = [];
		if (typeof input !== 'object' || input === null || Array.isArray(input)) {
			throw new EndpointError('body: expected an object {url, triggers?, ...}', [
				{ path: '', message: 'expected an object {url, triggers?, ...}' }
			]);
		}
		const brands = this.brands();
		const brand =
			brandInput === undefined ? brands[0] : (brands.find((b) => b.id === brandInput) ?? null);
		if (!brand)
			errors.push({
				path: 'brand',
				message: `expected a brand id (${brands.map((b) => b.id).join(', ')}), got ${JSON.stringify(brandInput)}`
			});
		const parsed = WebhookEndpointSchema.safeParse(rest);
		if (!parsed.success) {
			for (const issue of parsed.error.issues)
				errors.push({ path: issue.path.join('.'), message: issue.message });
		}
		if (parsed.success && brand) {
			const id = parsed.data.id;
			if (id !== undefined && this.endpointById.has(id))
				errors.push({ path: 'id', message: `webhook id "${id}" is used already` });
			const known = new Set(brand.locations.map((l) => l.id));
			parsed.data.locations.forEach((l, i) => {
				if (!known.has(l))
					errors.push({
						path: `locations.${i}`,
						message: `"${l}" is not a location of brand ${brand.id}`
					});
			});
		}
		if (errors.length > 0 || !parsed.success || !brand) {
			throw new EndpointError(
				errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '),
				errors
			);
		}
		const endpoint: Endpoint = {
			...parsed.data,
			id: parsed.data.id ?? `wh-${randomUUID().slice(0, 8)}`,
			brand: brand.id,
			origin: 'runtime'
		};
		this.store(endpoint);
		this.loadEndpoints();
		this.logger.info({ webhook: endpoint.id, url: redact(endpoint.url) }, 'webhook endpoint added');
		return info(endpoint);
	}

	/**
	 * Remove an endpoint: it gets no new event; deliveries already owed are still tried (the
	 * portal's log keeps them). One from the config file is back at the next start.
	 */
	remove(id: string): boolean {
		if (!this.endpointById.has(id)) return false;
		this.st.removeEndpoint.run(id);
		this.loadEndpoints();
		return true;
	}

	// ---- the delivery log ----

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
		const row = this.st.delivery.get(id) as unknown as DeliveryRow | undefined;
		return row && this.deliveryOf(row);
	}

	/**
	 * Send a delivery's body again, as a new delivery (its own id and attempts) to the same
	 * endpoint, now. Undefined when there is no such delivery or its endpoint is gone.
	 */
	resend(id: string): WebhookDelivery | undefined {
		const row = this.st.delivery.get(id) as unknown as DeliveryRow | undefined;
		const endpoint = row && this.endpointById.get(row.endpoint);
		if (!row || !endpoint) return undefined;
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
		this.deliver(written.id, endpoint, 1, this.engine.now());
		return this.delivery(written.id);
	}

	/** Resolves once no request is in flight (tests). */
	idle(): Promise<void> {
		return this.sender.idle();
	}

	close(): void {
		for (const off of this.unsubscribe) off();
		this.sender.close();
	}

	// ---- events ----

	private wants(screen: Screen, event: WebhookEvent): Endpoint[] {
		const endpoints = this.byBrand.get(screen.brand.id);
		if (!endpoints) return [];
		return endpoints.filter(
			(e) =>
				e.triggers.includes(event) &&
				(e.locations.length === 0 || e.locations.includes(screen.location.id))
		);
	}

	private onChanges(screenId: string, changes: readonly ScreenChange[]): void {
		if (this.byBrand.size === 0) return;
		const screen = this.engine.screen(screenId);
		if (!screen || !this.byBrand.has(screen.brand.id)) return;
		for (const change of changes) {
			if (change.type === 'order.created') this.onCreated(screen, change.record);
			else if (change.type === 'order.event' && change.event.type === 'order.bumped')
				this.onBumped(screen, change.record);
		}
	}

	/** The records of an order id on the other screens of the screen's location. */
	private elsewhere(screen: Screen, orderId: string): OrderRecord[] {
		const records: OrderRecord[] = [];
		for (const other of this.engine.screens.values()) {
			if (other === screen || other.location !== screen.location) continue;
			const record = other.state.orders.get(orderId);
			if (record) records.push(record);
		}
		return records;
	}

	private onCreated(screen: Screen, record: OrderRecord): void {
		const endpoints = this.wants(screen, 'KDS Order Created');
		const { id } = record.context;
		// Another screen of the location still showing the id: the same order; its visit began there.
		let visit = record.context.receivedAt;
		for (const other of this.elsewhere(screen, id)) {
			if (isLive(other)) visit = Math.min(visit, other.context.receivedAt);
		}
		const uuid = uuidOf('order', screen.brand.id, screen.location.id, id, String(visit));
		this.st.putOrder.run(screen.brand.id, screen.location.id, id, visit, uuid);
		if (endpoints.length === 0) return;
		const body = orderCreatedBody({
			brand: { id: screen.brand.id, name: screen.brand.name },
			location: locationOf(screen.location),
			recordId: uuid,
			orderHash: orderHash(screen.brand.id, screen.location.id, id),
			fields: record.context.fields,
			items: record.context.items,
			createdAt: visit
		});
		for (const endpoint of endpoints) {
			this.outbox.queue({
				endpoint,
				event: 'KDS Order Created',
				dedupe: `created\u0000${screen.location.id}\u0000${id}\u0000${visit}`,
				orderId: id,
				device: screen.config.id,
				body
			});
		}
	}

	private onBumped(screen: Screen, record: OrderRecord): void {
		const endpoints = this.wants(screen, 'KDS Order Bumped');
		if (endpoints.length === 0) return;
		const { id, receivedAt } = record.context;
		const bumpedAt = record.context.bumpedAt ?? this.engine.now();
		const found = this.st.orderUuid.get(screen.brand.id, screen.location.id, id, receivedAt) as
			{ uuid: string } | undefined;
		const recordId =
			found?.uuid ?? uuidOf('order', screen.brand.id, screen.location.id, id, String(receivedAt));
		// The whole order: this screen's items, then those only other screens of the location show.
		const orderItems: ItemView[] = [...record.context.items];
		const lines = new Set(orderItems.map((i) => i.lineId));
		for (const other of this.elsewhere(screen, id)) {
			for (const item of other.context.items) {
				if (!lines.has(item.lineId)) {
					lines.add(item.lineId);
					orderItems.push(item);
				}
			}
		}
		const body = orderBumpedBody({
			brand: { id: screen.brand.id, name: screen.brand.name },
			location: locationOf(screen.location),
			device: { id: screen.config.id, name: screen.config.name },
			recordId,
			bumpId: uuidOf('bump', screen.config.id, id, String(bumpedAt)),
			orderHash: orderHash(screen.brand.id, screen.location.id, id),
			fields: record.context.fields,
			orderItems,
			screenItems: record.context.items,
			startsOn: receivedAt,
			endsOn: bumpedAt
		});
		for (const endpoint of endpoints) {
			this.outbox.queue({
				endpoint,
				event: 'KDS Order Bumped',
				dedupe: `bumped\u0000${screen.config.id}\u0000${id}\u0000${bumpedAt}`,
				orderId: id,
				device: screen.config.id,
				body
			});
		}
	}

	/** Screens offline from the cloud (a fault, docs/faults.md): offline whatever their browsers. */
	private cloudOffline = new Set<string>();

	/** A fault took a screen offline from the cloud, or gave it back: Device Updated says so. */
	setCloudOffline(screenId: string, offline: boolean): void {
		if (offline) this.cloudOffline.add(screenId);
		else this.cloudOffline.delete(screenId);
		this.onViewers(screenId);
	}

	/** A browser opened or closed a screen: Device Updated when it went online or offline. */
	private onViewers(screenId: string): void {
		const screen = this.engine.liveScreen(screenId);
		if (!screen) return; // a removed screen's browsers leaving: it was Device Deleted already
		const online = !this.cloudOffline.has(screenId) && this.engine.fanout.viewers(screenId) > 0;
		const was = this.online.get(screenId);
		if (was?.online === online) return;
		this.online.set(screenId, { online, since: this.engine.now() });
		this.onDevice('Device Updated', screen);
	}

	/** A device event: decided and written at once (it is not part of a commit). */
	private onDevice(event: 'Device Created' | 'Device Updated' | 'Device Deleted', screen: Screen) {
		if (event === 'Device Created' && !this.online.has(screen.config.id))
			this.online.set(screen.config.id, { online: false, since: this.engine.now() });
		const endpoints = this.wants(screen, event);
		if (endpoints.length === 0) return;
		const body: DeviceBody = {
			triggeredAction: event,
			brand: { id: screen.brand.id, name: screen.brand.name },
			location: locationOf(screen.location),
			data: this.deviceRecord(screen, event)
		};
		for (const endpoint of endpoints) {
			this.outbox.queue({
				endpoint,
				event,
				dedupe: null,
				orderId: null,
				device: screen.config.id,
				body
			});
		}
		this.outbox.flush();
	}

	private deviceRecord(screen: Screen, event: WebhookEvent): DeviceRecord {
		const { config } = screen;
		const status = this.online.get(config.id) ?? { online: false, since: this.startedAt };
		const iso = (ms: number) => new Date(ms).toISOString();
		const now = iso(this.engine.now());
		const modes = { enabled: true };
		return {
			id: uuidOf('device', screen.brand.id, config.id),
			type: config.type,
			version: config.version,
			locationId: screen.location.id,
			toolId: null,
			friendlyName: config.name,
			deviceId: config.id,
			deviceName: config.name,
			isBlacklisted: false,
			isDeleted: event === 'Device Deleted',
			createdOn: iso(this.startedAt),
			updatedOn: now,
			updatedBy: null,
			deviceOsVersion: null,
			deviceSettings:
				event === 'Device Created'
					? null
					: {
							pos: {},
							display: {
								timers: config.settings.timers,
								...(config.settings.scale === undefined ? {} : { scale: config.settings.scale })
							},
							orderTypes: {
								forHere: modes,
								driveThru: modes,
								curbside: modes,
								toGo: modes,
								delivery: modes,
								pickup: modes
							},
							takeOut: {},
							colors: config.settings.modeColors ?? {},
							orderFeatures: { autoHoldFutureOrders: config.settings.autoHoldFutureOrders },
							orderTracker: {}
						},
			isOnline: status.online,
			onlineUpdatedOn: iso(status.since),
			statusUpdated: iso(status.since)
		};
	}

	// ---- delivery ----

	/**
	 * Write deliveries in one transaction (in a commit, a savepoint of the orders' transaction):
	 * all of them or none. Those that were new.
	 */
	private write(queued: Queued[]): Array<{ id: string; endpoint: Endpoint }> {
		try {
			return this.writeMany(queued);
		} catch (err) {
			this.logger.error({ err }, 'webhook deliveries could not be written');
			return [];
		}
	}

	private deliverWritten(written: Array<{ id: string; endpoint: Endpoint }>): void {
		if (written.length === 0) return;
		const now = this.engine.now();
		for (const { id, endpoint } of written) this.deliver(id, endpoint, 1, now);
	}

	/** After a restart: every pending delivery goes on from its next attempt. */
	private resumePending(): void {
		const now = this.engine.now();
		for (const row of this.st.pending.all() as unknown as DeliveryRow[]) {
			const endpoint = this.endpointOfRow(row);
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

	private endpointOfRow(row: DeliveryRow): Endpoint {
		const live = this.endpointById.get(row.endpoint);
		if (live) return live;
		// A removed endpoint still gets what it was owed.
		const stored = (this.st.endpoints.all() as unknown as EndpointRow[]).find(
			(e) => e.id === row.endpoint
		);
		const config = stored ? (JSON.parse(stored.config) as WebhookEndpointConfig) : null;
		return {
			...(config ?? {
				url: '',
				triggers: [],
				locations: [],
				attempts: row.max_attempts,
				secondsBetweenAttempts: 1800
			}),
			id: row.endpoint,
			brand: stored?.brand ?? '',
			origin: stored?.origin ?? 'runtime'
		};
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
						this.st.insertAttempt.run(id, n, this.engine.now(), 'in flight');
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

	// ---- helpers ----

	private brands(): BrandConfig[] {
		const brands = new Map<string, BrandConfig>();
		for (const screen of this.engine.screens.values()) brands.set(screen.brand.id, screen.brand);
		return [...brands.values()];
	}

	private store(endpoint: Endpoint): void {
		const { id, brand, origin, ...config } = endpoint;
		const { seq } = this.st.maxEndpointSeq.get() as unknown as { seq: number };
		this.st.putEndpoint.run({ id, brand, config: JSON.stringify(config), origin, seq: seq + 1 });
	}

	/** The config file's endpoints, written again at each start (the file wins). */
	private storeConfigEndpoints(): void {
		for (const brand of this.brands()) {
			for (const endpoint of brand.webhooks) {
				// checkAcross (config.ts) gave every endpoint of the file an id.
				this.store({ ...endpoint, id: endpoint.id ?? '', brand: brand.id, origin: 'config' });
			}
		}
	}

	/** The live endpoints, from the store. */
	private loadEndpoints(): void {
		this.endpointById = new Map();
		this.byBrand = new Map();
		for (const row of this.st.endpoints.all() as unknown as EndpointRow[]) {
			if (row.removed) continue;
			const endpoint: Endpoint = {
				...(JSON.parse(row.config) as WebhookEndpointConfig),
				id: row.id,
				brand: row.brand,
				origin: row.origin
			};
			this.endpointById.set(row.id, endpoint);
			const list = this.byBrand.get(row.brand) ?? [];
			list.push(endpoint);
			this.byBrand.set(row.brand, list);
		}
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

function locationOf(location: LocationConfig) {
	return { id: location.id, name: location.name, number: location.number };
}

function info(endpoint: Endpoint): WebhookEndpointInfo {
	return {
		id: endpoint.id,
		brand: endpoint.brand,
		url: redact(endpoint.url),
		triggers: endpoint.triggers,
		locations: endpoint.locations,
		attempts: endpoint.attempts,
		secondsBetweenAttempts: endpoint.secondsBetweenAttempts,
		email: endpoint.email ?? null,
		signed: endpoint.secret !== undefined,
		origin: endpoint.origin
	};
}
