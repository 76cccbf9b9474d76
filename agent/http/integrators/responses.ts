/**
 * The bodies the integrator API answers, each written once as a zod schema: the routes build
 * them (their types are z.infer of these), the OpenAPI document's response schemas are generated
 * from them (./openapi.ts), the routes declare them as their Fastify response schemas
 * (../responses.ts), and tests/integration/http-responses.spec.ts checks every real answer
 * against the one its route declares for its status.
 *
 * Objects are strict: a field a route sends but no schema names fails that test.
 */
import * as z from 'zod';
import type { FieldError } from '#core/parse';
import { REMOTE_FAILURES } from '../../fleet/remote-link.ts';

/**
 * Every delivery status a route answers, by what happened on the screen. One list, so a new
 * status (a new key here) reaches the notification answers, the document and the tests at once.
 */
export const DELIVERY_STATUS = {
	/** The screen took the order, or shows the notification now. */
	delivered: 'SUCCESS',
	/** No browser shows the screen; delivered when one does. */
	queued: 'QUEUED',
	/** The order is not live on that screen; nothing was sent there. */
	absent: 'ORDER_DOES_NOT_EXIST'
} as const;

export type DeliveryOutcome = keyof typeof DELIVERY_STATUS;

/**
 * The statuses an order write answers: a local screen took it or the request was refused as a
 * whole; a remote screen (docs/fleet.md) also answers what its TCP reply said, or that it could
 * not be reached.
 */
export const ORDER_DELIVERY_STATUSES = [
	DELIVERY_STATUS.delivered,
	...REMOTE_FAILURES,
	// A screen offline from the cloud (a fault, docs/faults.md) in its queue mode.
	DELIVERY_STATUS.queued
] as const;

const NOTIFICATION_STATUS_TEXT: Record<DeliveryOutcome, string> = {
	delivered: 'shown now.',
	queued: 'no browser shows the screen; delivered when one does (takeout: until retry.expiration).',
	absent: 'the order is not live on that screen; nothing sent there.'
};

export const DeliveryStatusSchema = z.strictObject({
	device: z.string().describe('Screen id.'),
	status: z
		.enum(ORDER_DELIVERY_STATUSES)
		.describe(
			`Result on that screen: "${DELIVERY_STATUS.delivered}"; a remote screen's refusal or UNREACHABLE / NO_REPLY (docs/fleet.md).`
		),
	type: z.string().optional().describe('Device type; in the create response only.'),
	message: z
		.string()
		.optional()
		.describe('Simulator extension, remote screens: what happened, when not SUCCESS.')
});

export const OrderResponseSchema = z.strictObject({
	orderId: z.string().describe('The id of the order in the request.'),
	deliveryStatuses: z
		.array(DeliveryStatusSchema)
		.describe('One entry per screen named in x-device-ids.')
});

export const ActiveOrdersEntrySchema = z.strictObject({
	deviceId: z.string(),
	deviceName: z.string(),
	orderCount: z.int().describe('Cards on the screen now (active and cancelled).'),
	orders: z
		.array(z.strictObject({ orderId: z.string(), orderName: z.string() }))
		.describe('The cards on the screen, in display order (priority first).')
});

export const DeviceSchema = z.strictObject({
	id: z.string(),
	name: z.string(),
	type: z.string().describe('e.g. android, ios, firetv, elo-backpack'),
	version: z.string().describe("The screen's software version."),
	ipAddress: z.string().describe("Address of the screen's TCP order interface."),
	tcpPort: z.int().describe('Simulator extension: the TCP order port (a real screen uses 9104).')
});

export const AddressSchema = z.strictObject({
	zip: z.string(),
	city: z.string(),
	line1: z.string(),
	line2: z.string().nullable(),
	state: z.string()
});

export const LocationSchema = z.strictObject({
	id: z.string().describe('Use as x-location-id.'),
	number: z.string(),
	name: z.string(),
	address: AddressSchema,
	timezone: z.string()
});

export const LocationWithDevicesSchema = LocationSchema.extend({ devices: z.array(DeviceSchema) });

export const NotificationResponseSchema = z.strictObject({
	notificationId: z.string().describe('Id of this notification; the callback carries it too.'),
	orderId: z.string().optional().describe('The order id of the request (takeout notifications).'),
	deliveryStatuses: z
		.array(
			z.strictObject({
				device: z.string().describe('Screen id.'),
				status: z
					.enum(Object.values(DELIVERY_STATUS))
					.describe(
						(Object.keys(DELIVERY_STATUS) as DeliveryOutcome[])
							.map((k) => `${DELIVERY_STATUS[k]}: ${NOTIFICATION_STATUS_TEXT[k]}`)
							.join(' ')
					)
			})
		)
		.describe('One entry per screen named in x-device-ids.')
});

export const HealthSchema = z.strictObject({
	status: z
		.enum(['ok', 'unavailable'])
		.describe('ok: every screen takes orders; unavailable: a TCP listener is closed.'),
	version: z.string().describe("The simulator's version."),
	screens: z.array(
		z.strictObject({
			id: z.string(),
			name: z.string(),
			locationId: z.string(),
			tcp: z
				.strictObject({ host: z.string(), port: z.int() })
				.describe("The screen's TCP order interface."),
			listening: z.boolean().describe('Whether its TCP listener is open.')
		})
	)
});

/** Every code an error answer of the integrator API carries (ErrorSchema below; thrown as ApiError, ./errors.ts). */
export const ERROR_CODES = [
	'UNAUTHORIZED',
	'MISSING_HEADER',
	'LOCATION_NOT_FOUND',
	'DEVICE_NOT_FOUND',
	'INVALID_JSON',
	'VALIDATION_FAILED',
	'PAYLOAD_TOO_LARGE',
	'UNSUPPORTED_MEDIA_TYPE',
	'METHOD_NOT_ALLOWED',
	'DUPLICATE_ORDER_ID',
	'ORDER_DOES_NOT_EXIST',
	'BAD_REQUEST',
	'REQUEST_TIMEOUT',
	'BUSY',
	'INTERNAL_ERROR',
	/** No screen took an order write: remote screens unreachable or refusing (docs/fleet.md). */
	'NOT_DELIVERED'
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const FieldErrorSchema = z.strictObject({
	path: z.string().describe('Field path such as items[1].qty; empty for the body as a whole.'),
	message: z.string()
}) satisfies z.ZodType<FieldError>;

export const ErrorSchema = z.strictObject({
	code: z.enum(ERROR_CODES).describe('Stable machine-readable code.'),
	message: z.string().describe('What was wrong, where, and what would be right.'),
	errors: z.array(FieldErrorSchema).optional().describe('Each offending field.')
});

/** 502: no screen took an order write (remote screens, docs/fleet.md); what each one said. */
export const NotDeliveredSchema = ErrorSchema.extend({
	deliveryStatuses: z.array(DeliveryStatusSchema).describe('One entry per screen named.')
});

export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;
export type OrderResponse = z.infer<typeof OrderResponseSchema>;
export type ActiveOrdersEntry = z.infer<typeof ActiveOrdersEntrySchema>;
export type Device = z.infer<typeof DeviceSchema>;
export type Location = z.infer<typeof LocationSchema>;
export type NotificationResponse = z.infer<typeof NotificationResponseSchema>;
export type Health = z.infer<typeof HealthSchema>;
export type ScreenListener = Health['screens'][number];
export type ErrorBody = z.infer<typeof ErrorSchema>;
