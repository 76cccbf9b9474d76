/**
 * The integrator routes' part of the OpenAPI 3.1 document (the whole is ../openapi-document.ts). Request bodies are generated from the
 * same zod schemas that validate them (core/order-schema.ts), response bodies from the zod
 * schemas the routes declare and build their answers from (./responses.ts), so the document
 * cannot drift from either; OpenAPI 3.1 schemas are JSON Schema 2020-12, zod's default target.
 * Built once at start-up.
 */
import * as z from 'zod';
import {
	CustomerArrivedSchema,
	EstimatedArrivalSchema,
	RetrySchema,
	SendMessageSchema
} from '#core/notification-schema';
import {
	CancelOrderSchema,
	CostsSchema,
	DeliveryServiceSchema,
	HttpOrderSchema,
	ItemGroupSchema,
	KdsItemSchema,
	OrderItemSchema,
	ModifierSchema,
	PartialOrderSchema
} from '#core/order-schema';
import {
	DEFAULT_EXPIRATION_MS,
	RETRY_INTERVAL_MS,
	type CallbackBody
} from '../../notify/takeout-queue.ts';
import { WEBHOOK_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from '../../notify/webhook.ts';
import { DUPLICATE_MESSAGE, NOT_FOUND_MESSAGE } from './errors.ts';
import { INTEGRATOR_ROUTES, openApiPath } from './paths.ts';
import {
	ActiveOrdersEntrySchema,
	AddressSchema,
	DeliveryStatusSchema,
	DeviceSchema,
	ErrorSchema,
	FieldErrorSchema,
	HealthSchema,
	LocationSchema,
	LocationWithDevicesSchema,
	NotificationResponseSchema,
	NotDeliveredSchema,
	OrderResponseSchema
} from './responses.ts';

// The body POSTed to retry.notificationUrl (agent/notify/takeout-queue.ts builds it).
export const CallbackSchema = z.strictObject({
	notificationId: z.string(),
	notification: z.enum(['customer-arrived', 'estimated-arrival-update']),
	orderId: z.string(),
	locationId: z.string(),
	deviceId: z.string().describe('The screen this outcome is for (one callback per queued screen).'),
	outcome: z
		.enum(['delivered', 'expired'])
		.describe('delivered: a browser showed the screen in time; expired: none did.'),
	attempts: z
		.int()
		.describe(
			`Delivery attempts: at send time, every ${RETRY_INTERVAL_MS / 1000} s, and when a browser opened the screen.`
		),
	submittedAt: z.string().describe('ISO 8601: when the request was accepted.'),
	finishedAt: z.string().describe('ISO 8601: when it was delivered or expired.'),
	expiration: z.string().describe('ISO 8601: retry.expiration, or submission + 2 minutes.'),
	minutes: z.int().optional().describe('Estimated arrival update only.')
}) satisfies z.ZodType<CallbackBody>;
/** The named schemas of the integrator routes: id, zod schema, description. */
export const INTEGRATOR_COMPONENTS: Array<[string, z.ZodType, string]> = [
	['Order', HttpOrderSchema, 'An order (contract 2.1): body of create and full update.'],
	[
		'PartialOrder',
		PartialOrderSchema,
		'A partial order (2.7): null or absent leaves a field unchanged.'
	],
	['CancelOrder', CancelOrderSchema, 'Cancel order (2.8).'],
	['KdsItem', KdsItemSchema, 'A menu item (2.2).'],
	[
		'OrderItem',
		OrderItemSchema,
		'A menu item of a full order (2.2). lineId may be absent, as older clients send it: the screen gives the item #1, #2… by position (a KDS-LINEID-MISSING warning); a later update cannot address it.'
	],
	['Modifier', ModifierSchema, 'A modifier (2.3); a plain string is accepted too.'],
	['ItemGroup', ItemGroupSchema, 'An item group or combo (2.6).'],
	['Costs', CostsSchema, 'Order costs (2.4).'],
	['DeliveryService', DeliveryServiceSchema, 'Delivery service (2.5).'],
	['OrderResponse', OrderResponseSchema, 'Answer to create, update, partial update and cancel.'],
	[
		'NotDelivered',
		NotDeliveredSchema,
		'502 of an order write: no screen took it (remote screens unreachable or refusing; docs/fleet.md).'
	],
	['Retry', RetrySchema, 'Retry (2.13): where the outcome is posted and when retrying stops.'],
	['CustomerArrived', CustomerArrivedSchema, 'Customer arrived (2.13).'],
	['EstimatedArrival', EstimatedArrivalSchema, 'Estimated arrival update (2.13).'],
	['SendMessage', SendMessageSchema, 'Send message (2.13): a pop-up on the screens.'],
	[
		'NotificationResponse',
		NotificationResponseSchema,
		'Answer to the notification routes: 200 when every status is SUCCESS, 202 when any is QUEUED.'
	],
	['NotificationCallback', CallbackSchema, 'Body POSTed to retry.notificationUrl.'],
	['DeliveryStatus', DeliveryStatusSchema, 'Delivery status of one screen (2.10).'],
	['ActiveOrdersEntry', ActiveOrdersEntrySchema, 'Active orders of one screen (2.9).'],
	['Device', DeviceSchema, 'A screen (2.12).'],
	['Address', AddressSchema, 'Location address.'],
	['Location', LocationSchema, 'A location (2.11).'],
	['LocationWithDevices', LocationWithDevicesSchema, 'A location with its active screens.'],
	['Health', HealthSchema, 'Answer to GET /health.'],
	['FieldError', FieldErrorSchema, 'One offending field.'],
	['Error', ErrorSchema, 'Every error answer of the integrator API.']
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, example?: unknown) => ({
	'application/json': example === undefined ? { schema } : { schema, example }
});
const error = (description: string, code: string, message: string) => ({
	description,
	content: json(ref('Error'), { code, message })
});

/** The integrator routes' shared answers (components.responses). */
export const INTEGRATOR_RESPONSES = {
	InvalidRequest: error(
		'A required header is missing (MISSING_HEADER), or the body is not JSON (INVALID_JSON).',
		'INVALID_JSON',
		'body: not valid JSON (Unexpected end of JSON input)'
	),
	Unauthorized: error(
		'x-integration-token is missing or not valid.',
		'UNAUTHORIZED',
		'x-integration-token: not a valid integration token'
	),
	NotFound: error(
		'The location is not an active location of the brand (LOCATION_NOT_FOUND), or a screen is not an active screen of it (DEVICE_NOT_FOUND).',
		'DEVICE_NOT_FOUND',
		'x-device-ids: "kds-9" is not an active screen of location "loc-1" (see GET /integrators/kds-information/locations/loc-1/devices)'
	),
	TooLarge: error(
		'The body is larger than the limit.',
		'PAYLOAD_TOO_LARGE',
		'body: larger than the limit of 1048576 bytes'
	),
	UnsupportedMediaType: error(
		'The body is not sent as application/json.',
		'UNSUPPORTED_MEDIA_TYPE',
		'Content-Type: expected application/json, got "text/plain" (what fetch and XMLHttpRequest send with a string body unless told otherwise); add the header Content-Type: application/json'
	),
	ValidationFailed: {
		description: 'The body is JSON but breaks the schema; every offending field is named.',
		content: json(ref('Error'), {
			code: 'VALIDATION_FAILED',
			message: 'deliveryService.orderId: required (a string)',
			errors: [{ path: 'deliveryService.orderId', message: 'required (a string)' }]
		})
	}
};

const ORDER_HEADERS = [
	{ $ref: '#/components/parameters/LocationId' },
	{ $ref: '#/components/parameters/DeviceIds' }
];

function orderWrite(
	summary: string,
	body: string,
	success: Record<string, unknown>,
	description: string
) {
	return {
		summary,
		description,
		tags: ['Orders'],
		parameters: ORDER_HEADERS,
		requestBody: { required: true, content: json(ref(body)) },
		responses: {
			...success,
			'400': { $ref: '#/components/responses/InvalidRequest' },
			'401': { $ref: '#/components/responses/Unauthorized' },
			'413': { $ref: '#/components/responses/TooLarge' },
			'415': { $ref: '#/components/responses/UnsupportedMediaType' },
			'422': { $ref: '#/components/responses/ValidationFailed' }
		}
	};
}

const ORDER_NOT_FOUND = {
	'404': {
		description:
			'No live order with this id on one of the screens (ORDER_DOES_NOT_EXIST; nothing changed on any screen), or a bad location or screen (LOCATION_NOT_FOUND, DEVICE_NOT_FOUND).',
		content: json(ref('Error'), { code: 'ORDER_DOES_NOT_EXIST', message: NOT_FOUND_MESSAGE })
	}
};
/** 502 of an order write: remote screens (docs/fleet.md) only. */
const NOT_DELIVERED = {
	'502': {
		description:
			'No screen took the request: every named screen is a remote screen that could not be reached or refused it (NOT_DELIVERED); deliveryStatuses says what each answered. Nothing was retried.',
		content: json(ref('NotDelivered'))
	}
};
const UPDATED = {
	'200': { description: 'Applied on every screen named.', content: json(ref('OrderResponse')) }
};

function information(
	summary: string,
	schema: object,
	more: { parameters?: object[]; responses?: object } = {}
) {
	return {
		summary,
		tags: ['Information'],
		...(more.parameters ? { parameters: more.parameters } : {}),
		responses: {
			'200': { description: 'OK', content: json({ type: 'array', items: schema }) },
			'401': { $ref: '#/components/responses/Unauthorized' },
			...more.responses
		}
	};
}

const NOTIFIED = {
	'200': {
		description: 'Shown on every screen named (every status SUCCESS).',
		content: json(ref('NotificationResponse'))
	},
	'202': {
		description: 'Queued for at least one screen that no browser shows (status QUEUED).',
		content: json(ref('NotificationResponse'))
	}
};

/** The outcome of a queued takeout notification, posted to retry.notificationUrl. */
const OUTCOME_CALLBACK = {
	outcome: {
		'{$request.body#/retry/notificationUrl}': {
			post: {
				summary: 'Final outcome of a queued notification on one screen',
				description: `Posted once retrying ends on a screen that was QUEUED: a browser opened it (delivered) or retry.expiration passed (expired). Answer 2xx; anything else, or no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s, is tried again, ${WEBHOOK_ATTEMPTS} tries in all. Screens answered SUCCESS get no callback.`,
				requestBody: { required: true, content: json(ref('NotificationCallback')) },
				responses: { '2XX': { description: 'Received.' } }
			}
		}
	}
};

function notification(summary: string, body: string, description: string, takeout: boolean) {
	const operation = orderWrite(summary, body, NOTIFIED, description);
	const notFound = takeout
		? {
				description:
					'The order is live on none of the named screens (ORDER_DOES_NOT_EXIST), or a bad location or screen (LOCATION_NOT_FOUND, DEVICE_NOT_FOUND).',
				content: json(ref('Error'), { code: 'ORDER_DOES_NOT_EXIST', message: NOT_FOUND_MESSAGE })
			}
		: { $ref: '#/components/responses/NotFound' };
	return {
		...operation,
		tags: ['Notifications'],
		...(takeout ? { callbacks: OUTCOME_CALLBACK } : {}),
		responses: { ...operation.responses, '404': notFound }
	};
}

const TAKEOUT_RULES = `Goes to the named screens where the order is live (on the screen or on hold). A screen no browser shows is QUEUED and retried (every ${RETRY_INTERVAL_MS / 1000} s, and at once when a browser opens it) until retry.expiration (default: ${DEFAULT_EXPIRATION_MS / 60_000} minutes after submission); the outcome is then posted to retry.notificationUrl.`;

/**
 * The contract's routes in the document: one operation per row of the route table
 * (#core/integrator-routes), keyed by its name, so a route added there and not documented here
 * does not compile.
 */
export function integratorPaths(): Record<string, Record<string, unknown>> {
	const operations: Record<(typeof INTEGRATOR_ROUTES)[number]['name'], object> = {
		activeOrders: {
			summary: 'Active orders of the named screens',
			tags: ['Orders'],
			parameters: ORDER_HEADERS,
			responses: {
				'200': {
					description: 'One entry per screen named in x-device-ids.',
					content: json({ type: 'array', items: ref('ActiveOrdersEntry') })
				},
				'400': { $ref: '#/components/responses/InvalidRequest' },
				'401': { $ref: '#/components/responses/Unauthorized' },
				'404': { $ref: '#/components/responses/NotFound' }
			}
		},
		create: orderWrite(
			'Create an order on the named screens',
			'Order',
			{
				'201': {
					description: 'Shown on every screen named.',
					content: json(ref('OrderResponse'))
				},
				'404': { $ref: '#/components/responses/NotFound' },
				'409': {
					description:
						'A live order (on a screen or on hold) with this id exists at the location; nothing changed.',
					content: json(ref('Error'), {
						code: 'DUPLICATE_ORDER_ID',
						message: DUPLICATE_MESSAGE
					})
				},
				...NOT_DELIVERED
			},
			'The id must be unique at the location. All screens take the order, or none does.'
		),
		update: orderWrite(
			'Replace an order (full update)',
			'Order',
			{ ...UPDATED, ...ORDER_NOT_FOUND, ...NOT_DELIVERED },
			'Send every field. Items whose lineId is absent are flagged deleted; new lineIds add items.'
		),
		partial: orderWrite(
			'Change some fields of an order (partial update)',
			'PartialOrder',
			{ ...UPDATED, ...ORDER_NOT_FOUND, ...NOT_DELIVERED },
			'Only id is required; a field sent as null or left out is unchanged.'
		),
		cancel: orderWrite(
			'Cancel an order',
			'CancelOrder',
			{ ...UPDATED, ...ORDER_NOT_FOUND, ...NOT_DELIVERED },
			'The card shows a red banner. Cancelling an order already cancelled or bumped changes nothing and answers 200.'
		),
		customerArrived: notification(
			'The customer arrived: shown on the takeout view',
			'CustomerArrived',
			TAKEOUT_RULES,
			true
		),
		estimatedArrival: notification(
			'Minutes until the customer arrives: a countdown on the takeout view',
			'EstimatedArrival',
			`${TAKEOUT_RULES} The countdown runs from when the request was accepted.`,
			true
		),
		sendMessage: notification(
			'A pop-up on the named screens, until acknowledged',
			'SendMessage',
			'Shown on every browser of each named screen until one of them acknowledges it; a screen no browser shows gets it when one opens (QUEUED). Pop-ups do not expire; a screen keeps its 50 newest.',
			false
		),
		information: information(
			"The brand's active locations with their active screens",
			ref('LocationWithDevices')
		),
		locations: information("The brand's active locations", ref('Location')),
		devices: information('Active screens of one location', ref('Device'), {
			parameters: [
				{
					name: 'locationId',
					in: 'path',
					required: true,
					schema: { type: 'string' },
					example: 'loc-1'
				}
			],
			responses: {
				'404': {
					description: 'Not an active location of the brand.',
					content: json(ref('Error'), {
						code: 'LOCATION_NOT_FOUND',
						message:
							'locationId: "loc-9" is not an active location of this brand (see GET /integrators/kds-information/locations)'
					})
				}
			}
		})
	};
	const paths: Record<string, Record<string, unknown>> = {};
	for (const route of INTEGRATOR_ROUTES) {
		(paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operations[route.name];
	}
	return paths;
}

/** GET /health (tag Health): for a client to call before it starts. */
export const HEALTH_PATH = {
	'/health': {
		get: {
			summary: 'Whether the simulator takes orders (no token needed)',
			description:
				"For a client to call before it starts. No x-integration-token: answered for probes. A token that is sent but is not a brand's: 401, as the vendor's /health answers it. Every path also answers with a trailing slash.",
			tags: ['Health'],
			security: [],
			responses: {
				'200': {
					description: 'Every screen listens on its TCP port, and this HTTP port answers.',
					content: json(ref('Health'))
				},
				'401': {
					description: 'An x-integration-token was sent and is not a valid integration token.',
					content: json(ref('Error'))
				},
				'503': {
					description:
						'A TCP listener is closed (status unavailable; see screens[].listening), or the simulator is shutting down.',
					content: json(ref('Health'))
				}
			}
		}
	}
};

/** The integrator routes' shared header parameters (components.parameters). */
export const INTEGRATOR_PARAMETERS = {
	LocationId: {
		name: 'x-location-id',
		in: 'header',
		required: true,
		description: "One of the brand's active locations.",
		schema: { type: 'string' },
		example: 'loc-1'
	},
	DeviceIds: {
		name: 'x-device-ids',
		in: 'header',
		required: true,
		description:
			'One screen id, several separated by commas, or all (every active screen of the location).',
		schema: { type: 'string' },
		example: 'kds-1,kds-2'
	}
};
