/**
 * The real product's webhooks (field notes, "Webhooks"): the event names, the bodies with the
 * vendor's field names and spellings, and the delivery log entry the admin API and the UI's
 * webhooks page show. Pure: the agent (agent/notify/webhooks.ts) decides when an event fires and
 * supplies the ids (uuids, the orderId hash) and times; this module only shapes what is sent.
 */
import * as z from 'zod';
import type { ItemView, OrderFields } from './content.ts';

/** The vendor's event names, as `triggeredAction` carries them and endpoints' triggers name them. */
export const WEBHOOK_EVENTS = [
	'KDS Order Created',
	'KDS Order Bumped',
	'Device Created',
	'Device Updated',
	'Device Deleted'
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The portal's defaults: 3 delivery attempts, 30 minutes between attempts. */
export const DEFAULT_WEBHOOK_ATTEMPTS = 3;
export const DEFAULT_WEBHOOK_MINUTES_BETWEEN = 30;

/** The item a special instruction of the order travels as (its modifier is the text). */
export const SPECIAL_INSTRUCTIONS_ITEM = 'Special Instructions';

export interface WebhookBrand {
	id: string;
	name: string;
}
export interface WebhookLocation {
	id: string;
	name: string;
	number: string;
}

export interface WebhookModifier {
	name: string;
	quantity: number;
}

/** An item in a webhook: the vendor's fields; ids the simulator does not have are null. */
export interface WebhookItem {
	/** The item's lineId (null for the "Special Instructions" item). */
	itemId: string | null;
	quantity: number;
	name: string;
	menuItemId: string | null;
	categoryIds: string[] | null;
	modifiers: WebhookModifier[];
}

/**
 * An order mode as the vendor's webhooks spell it: lowercase without spaces (`For Here` →
 * `forhere`, `ToGo` → `togo`).
 */
export function webhookOrderType(mode: string): string {
	return mode.toLowerCase().replace(/\s+/g, '');
}

/**
 * The items of an order as webhooks carry them: items removed by an update are left out; an
 * item's special instruction is one more modifier of it; the order's special instruction, when it
 * has one, an extra item named "Special Instructions" whose one modifier is the text.
 */
export function webhookItems(
	items: readonly ItemView[],
	orderInstructions?: string | null
): WebhookItem[] {
	const out: WebhookItem[] = [];
	for (const item of items) {
		if (item.deleted) continue;
		const modifiers = item.mods.map((m) => ({ name: m.name, quantity: m.qty ?? 1 }));
		const note = item.specialInstructions?.trim();
		if (note) modifiers.push({ name: note, quantity: 1 });
		out.push({
			itemId: item.lineId,
			quantity: item.qty,
			name: item.name,
			menuItemId: null,
			categoryIds: null,
			modifiers
		});
	}
	const note = orderInstructions?.trim();
	if (note) {
		out.push({
			itemId: null,
			quantity: 1,
			name: SPECIAL_INSTRUCTIONS_ITEM,
			menuItemId: null,
			categoryIds: null,
			modifiers: [{ name: note, quantity: 1 }]
		});
	}
	return out;
}

/** What every body starts with. */
interface Envelope<E extends WebhookEvent> {
	triggeredAction: E;
	brand: WebhookBrand;
	location: WebhookLocation;
}

export interface OrderCreatedData {
	/** uuid of the order record (the same in the order's KDS Order Bumped, as kdsOrder.id). */
	id: string;
	source: 'internal';
	name: string;
	type: string;
	terminal: string | null;
	items: WebhookItem[];
	locationId: string;
	/** A stable hash of the order (brand, location and the integrator's id). */
	orderId: string;
	/** UTC, ISO 8601. */
	createdOn: string;
	/** The integrator's own order id. */
	supplierOrderId: string;
}

export type OrderCreatedBody = Envelope<'KDS Order Created'> & { data: OrderCreatedData };

export interface OrderBumpedBody extends Envelope<'KDS Order Bumped'> {
	device: { id: string; name: string };
	kdsOrder: {
		id: string;
		orderId: string;
		name: string;
		type: string;
		items: WebhookItem[];
		supplierOrderId: string;
	};
	data: {
		/** uuid of this bump record. */
		id: string;
		/** The items this screen showed. */
		items: WebhookItem[];
		orderId: string;
		deviceId: string;
		/** When the order reached this screen, UTC. */
		startsOn: string;
		/** When this screen bumped it, UTC. */
		endsOn: string;
	};
}

/** The vendor's device record. */
export interface DeviceRecord {
	id: string;
	type: string;
	version: string;
	locationId: string;
	toolId: string | null;
	friendlyName: string;
	deviceId: string;
	deviceName: string;
	isBlacklisted: boolean;
	isDeleted: boolean;
	createdOn: string;
	updatedOn: string;
	updatedBy: string | null;
	deviceOsVersion: string | null;
	/** null on Device Created: a screen just registered has no settings yet. */
	deviceSettings: {
		pos: Record<string, unknown>;
		display: Record<string, unknown>;
		orderTypes: Record<
			'forHere' | 'driveThru' | 'curbside' | 'toGo' | 'delivery' | 'pickup',
			{ enabled: boolean }
		>;
		takeOut: Record<string, unknown>;
		colors: Record<string, unknown>;
		orderFeatures: Record<string, unknown>;
		orderTracker: Record<string, unknown>;
	} | null;
	isOnline: boolean;
	/** Deprecated by the vendor; kept equal to statusUpdated. */
	onlineUpdatedOn: string;
	statusUpdated: string;
}

export type DeviceBody = Envelope<'Device Created' | 'Device Updated' | 'Device Deleted'> & {
	data: DeviceRecord;
};

export type WebhookBody = OrderCreatedBody | OrderBumpedBody | DeviceBody;

/** The order fields a created body reads. */
export type CreatedOrder = Pick<OrderFields, 'id' | 'name' | 'mode' | 'terminal'> & {
	specialInstructions?: string;
};

export function orderCreatedBody(args: {
	brand: WebhookBrand;
	location: WebhookLocation;
	recordId: string;
	orderHash: string;
	fields: CreatedOrder;
	items: readonly ItemView[];
	createdAt: number;
}): OrderCreatedBody {
	const { fields } = args;
	return {
		triggeredAction: 'KDS Order Created',
		brand: args.brand,
		location: args.location,
		data: {
			id: args.recordId,
			source: 'internal',
			name: fields.name,
			type: webhookOrderType(fields.mode),
			terminal: fields.terminal ?? null,
			items: webhookItems(args.items, fields.specialInstructions),
			locationId: args.location.id,
			orderId: args.orderHash,
			createdOn: new Date(args.createdAt).toISOString(),
			supplierOrderId: fields.id
		}
	};
}

export function orderBumpedBody(args: {
	brand: WebhookBrand;
	location: WebhookLocation;
	device: { id: string; name: string };
	recordId: string;
	bumpId: string;
	orderHash: string;
	fields: CreatedOrder;
	/** The whole order's items (every screen of the location). */
	orderItems: readonly ItemView[];
	/** This screen's items. */
	screenItems: readonly ItemView[];
	startsOn: number;
	endsOn: number;
}): OrderBumpedBody {
	const { fields } = args;
	const type = webhookOrderType(fields.mode);
	return {
		triggeredAction: 'KDS Order Bumped',
		brand: args.brand,
		location: args.location,
		device: args.device,
		kdsOrder: {
			id: args.recordId,
			orderId: args.orderHash,
			name: fields.name,
			type,
			items: webhookItems(args.orderItems, fields.specialInstructions),
			supplierOrderId: fields.id
		},
		data: {
			id: args.bumpId,
			items: webhookItems(args.screenItems, fields.specialInstructions),
			orderId: args.orderHash,
			deviceId: args.device.id,
			startsOn: new Date(args.startsOn).toISOString(),
			endsOn: new Date(args.endsOn).toISOString()
		}
	};
}

/** One attempt, as the portal's log table shows it. */
const WebhookAttemptSchema = z.strictObject({
	attempt: z.int(),
	/** ISO 8601 UTC, when the attempt went. */
	at: z.string(),
	/** The receiver's HTTP status; null when there was no answer (refused, time-out). */
	status: z.int().nullable(),
	/** The start of the receiver's answer (at most 500 characters), or why there was none. */
	answer: z.string(),
	ok: z.boolean()
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

/**
 * One event sent (or being sent) to one endpoint, as the admin API lists it (its schema is that
 * answer's, agent/http/simulator-bodies.ts). The body is checked at its top level only; its type
 * is the event's own (WebhookBody, above).
 */
export const WebhookDeliverySchema = z.strictObject({
	/** Also sent as the x-kds-delivery header: the same for every attempt. */
	id: z.string(),
	endpoint: z.string(),
	event: z.enum(WEBHOOK_EVENTS),
	/** The integrator's order id (supplierOrderId); null for device events. */
	order: z.string().nullable(),
	/** The screen (device) the event is about or came from. */
	device: z.string().nullable(),
	/** Every attempt is in the log. */
	status: z.enum(['pending', 'delivered', 'failed']),
	/** Attempts made so far. */
	attempts: z.int(),
	/** Attempts allowed in all. */
	maxAttempts: z.int(),
	/** When the next attempt is due (ISO 8601); null unless pending. */
	nextAt: z.string().nullable(),
	createdAt: z.string(),
	/** Set on a re-send: the delivery whose body this one sends again. */
	resendOf: z.string().nullable(),
	log: z.array(WebhookAttemptSchema),
	/** The body as sent, checked at its top level. */
	body: z.looseObject({ triggeredAction: z.enum(WEBHOOK_EVENTS) })
});
export type WebhookDelivery = Omit<z.infer<typeof WebhookDeliverySchema>, 'body'> & {
	body: WebhookBody;
};
/** Status of one delivery: every attempt is in its log. */
export type WebhookDeliveryStatus = WebhookDelivery['status'];

/** A webhook endpoint as the admin API lists it (the URL redacted: it may hold a secret). */
export const WebhookEndpointInfoSchema = z.strictObject({
	id: z.string(),
	brand: z.string(),
	url: z
		.string()
		.describe('Redacted: scheme, host, port and the path segments that read as words.'),
	triggers: z.array(z.enum(WEBHOOK_EVENTS)),
	/** Location ids; empty: every location of the brand. */
	locations: z.array(z.string()).describe('Empty: every location of the brand.'),
	attempts: z.int(),
	/** Seconds between attempts (the portal shows minutes). */
	secondsBetweenAttempts: z.number(),
	email: z.string().nullable(),
	signed: z.boolean(),
	/** From the config file, or added at run time. */
	origin: z.enum(['config', 'runtime'])
});
export type WebhookEndpointInfo = z.infer<typeof WebhookEndpointInfoSchema>;
