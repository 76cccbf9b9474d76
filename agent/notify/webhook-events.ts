/**
 * The webhooks' events (docs/webhooks.md; field notes, "Webhooks"): a commit's changes and the
 * screens' comings and goings turned into the vendor's events and bodies (#core/webhooks): KDS
 * Order Created once per order at a location, KDS Order Bumped once per screen per bump, Device
 * Created / Updated / Deleted. Each is queued for the endpoints that want it; the caller writes and
 * sends (./webhook-delivery.ts).
 */
import { createHash } from 'node:crypto';
import type { ItemView } from '#core/content';
import type { OrderRecord } from '#core/order-machine';
import type { ScreenChange } from '#core/screen';
import {
	orderBumpedBody,
	orderCreatedBody,
	type DeviceBody,
	type DeviceRecord,
	type WebhookEvent
} from '#core/webhooks';
import type { LocationConfig } from '../config.ts';
import type { Engine, Screen } from '../engine/engine.ts';
import type { WebhookStatements } from '../store/webhook-store.ts';
import { createdAndBumped, elsewhere, visitStart } from './order-visits.ts';
import type { Queued } from './webhook-delivery.ts';
import type { WebhookEndpoints } from './webhook-endpoints.ts';

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

type DeviceEvent = 'Device Created' | 'Device Updated' | 'Device Deleted';

export class WebhookEvents {
	/** Whether each screen was online at its last Device event (a browser shows it). */
	private online = new Map<string, { online: boolean; since: number }>();
	/** Screens offline from the cloud (a fault, docs/faults.md): offline whatever their browsers. */
	private cloudOffline = new Set<string>();
	private readonly on = {
		created: (screen: Screen, record: OrderRecord) => this.onCreated(screen, record),
		bumped: (screen: Screen, record: OrderRecord) => this.onBumped(screen, record)
	};

	constructor(
		private readonly engine: Engine,
		private readonly st: WebhookStatements,
		private readonly endpoints: WebhookEndpoints,
		/** Queue one event for one endpoint (written with the commit, or at `flush`). */
		private readonly queue: (queued: Queued) => void,
		/** Write and send what is queued now (an event that is not part of a commit). */
		private readonly flush: () => void,
		private readonly startedAt: number
	) {
		for (const screen of engine.screens.values()) {
			this.online.set(screen.config.id, { online: false, since: startedAt });
		}
	}

	/** A commit's changes on one screen: the order events they make. */
	changes(screenId: string, changes: readonly ScreenChange[]): void {
		if (!this.endpoints.any()) return;
		const screen = this.engine.screen(screenId);
		if (!screen || !this.endpoints.any(screen.brand.id)) return;
		createdAndBumped(this.engine, screenId, changes, this.on);
	}

	/** A fault took a screen offline from the cloud, or gave it back: Device Updated says so. */
	setCloudOffline(screenId: string, offline: boolean): void {
		if (offline) this.cloudOffline.add(screenId);
		else this.cloudOffline.delete(screenId);
		this.viewers(screenId);
	}

	/** A browser opened or closed a screen: Device Updated when it went online or offline. */
	viewers(screenId: string): void {
		const screen = this.engine.liveScreen(screenId);
		if (!screen) return; // a removed screen's browsers leaving: it was Device Deleted already
		const online = !this.cloudOffline.has(screenId) && this.engine.fanout.viewers(screenId) > 0;
		const was = this.online.get(screenId);
		if (was?.online === online) return;
		this.online.set(screenId, { online, since: this.engine.now() });
		this.device('Device Updated', screen);
	}

	/** A device event: decided and written at once (it is not part of a commit). */
	device(event: DeviceEvent, screen: Screen): void {
		if (event === 'Device Created' && !this.online.has(screen.config.id))
			this.online.set(screen.config.id, { online: false, since: this.engine.now() });
		const endpoints = this.endpoints.wants(screen, event);
		if (endpoints.length === 0) return;
		const body: DeviceBody = {
			triggeredAction: event,
			brand: { id: screen.brand.id, name: screen.brand.name },
			location: locationOf(screen.location),
			data: this.deviceRecord(screen, event)
		};
		for (const endpoint of endpoints) {
			this.queue({ endpoint, event, dedupe: null, orderId: null, device: screen.config.id, body });
		}
		this.flush();
	}

	private onCreated(screen: Screen, record: OrderRecord): void {
		const endpoints = this.endpoints.wants(screen, 'KDS Order Created');
		const { id } = record.context;
		// Another screen of the location still showing the id: the same order; its visit began there.
		const visit = visitStart(this.engine, screen, record);
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
			this.queue({
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
		const endpoints = this.endpoints.wants(screen, 'KDS Order Bumped');
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
		for (const other of elsewhere(this.engine, screen, id)) {
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
			this.queue({
				endpoint,
				event: 'KDS Order Bumped',
				dedupe: `bumped\u0000${screen.config.id}\u0000${id}\u0000${bumpedAt}`,
				orderId: id,
				device: screen.config.id,
				body
			});
		}
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
}

function locationOf(location: LocationConfig) {
	return { id: location.id, name: location.name, number: location.number };
}
