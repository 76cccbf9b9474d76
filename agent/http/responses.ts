/**
 * What every JSON route of the agent answers, by status: one table, read by the routes (their
 * Fastify response schemas, `declared` below), by the OpenAPI document (the integrator routes
 * and /health; their bodies are written in ./integrators/responses.ts) and by
 * tests/integration/http-responses.spec.ts, which drives each route through its answers and
 * checks every real body against the schema declared here for its status.
 *
 * The declared schemas do not change what goes on the wire: the routes serialise with
 * JSON.stringify as they would with no schema (the same bytes, and no cost on the hot routes;
 * Fastify's schema-built serialiser would silently drop a field a schema does not name, and the
 * test could no longer see it). Objects are strict, so an undeclared field fails that test.
 * Parts that are the core's records as they are (order records, order fields) are checked at
 * their top level only: the core's own tests hold their shape.
 */
import type { FastifySerializerCompiler } from 'fastify';
import * as z from 'zod';
import { PATHS } from './integrators/paths.ts';
import {
	ActiveOrdersEntrySchema,
	DeviceSchema,
	ErrorSchema,
	HealthSchema,
	LocationSchema,
	LocationWithDevicesSchema,
	NotificationResponseSchema,
	NotDeliveredSchema,
	OrderResponseSchema
} from './integrators/responses.ts';
import {
	ClearResultSchema,
	CommunicationResultSchema,
	DiscoveredSchema,
	IntegrationSchema,
	LocationsSchema,
	MessageEntrySchema,
	OkSchema,
	RemovedScreenSchema,
	ResendResultSchema,
	ResetResultSchema,
	RushStartedSchema,
	RushStoppedSchema,
	ScreenInfoSchema,
	ScreenJsonSchema,
	ScreenNotificationsSchema,
	SimulatorErrorSchema,
	SmsEntrySchema,
	SnapshotSchema,
	TrackerSchema,
	WebhookDeliverySchema,
	WebhookEndpointInfoSchema
} from './simulator-bodies.ts';
// The bodies' schemas are read from here by the routes and the OpenAPI document, as before.
export * from './simulator-bodies.ts';

/** Answers of the order writes other than their success; each is the one error shape. */
const ORDER_WRITE_ERRORS = {
	400: ErrorSchema,
	401: ErrorSchema,
	404: ErrorSchema,
	413: ErrorSchema,
	415: ErrorSchema,
	422: ErrorSchema
};
/** No screen took an order write (remote screens, docs/fleet.md): every screen's status. */
const NOT_DELIVERED = { 502: NotDeliveredSchema };
const UPDATED = { 200: OrderResponseSchema, ...ORDER_WRITE_ERRORS, ...NOT_DELIVERED };
const NOTIFIED = { 200: NotificationResponseSchema, 202: NotificationResponseSchema };
/** A guarded route's refusal of a caller without access (./access.ts). */
const GUARDED = { 403: SimulatorErrorSchema };
const UNKNOWN_SCREEN = { 404: SimulatorErrorSchema };

type Responses = Record<number, z.ZodType>;

/**
 * Every JSON route, `METHOD path` as Fastify writes it, with the body of each status it answers.
 * (Not here: 405 answers of the integrator paths, which are the Error shape; the SSE stream; the
 * HTML pages; /openapi.json, validated as a document by http-openapi.spec.ts.)
 */
export const ROUTE_RESPONSES = {
	'GET /health': { 200: HealthSchema, 401: ErrorSchema, 503: HealthSchema },

	[`GET ${PATHS.activeOrders}` as const]: {
		200: z.array(ActiveOrdersEntrySchema),
		400: ErrorSchema,
		401: ErrorSchema,
		404: ErrorSchema
	},
	[`POST ${PATHS.orders}` as const]: {
		201: OrderResponseSchema,
		409: ErrorSchema,
		...ORDER_WRITE_ERRORS,
		...NOT_DELIVERED
	},
	[`PUT ${PATHS.orders}` as const]: UPDATED,
	[`PUT ${PATHS.partial}` as const]: UPDATED,
	[`PUT ${PATHS.cancel}` as const]: UPDATED,
	[`GET ${PATHS.information}` as const]: {
		200: z.array(LocationWithDevicesSchema),
		401: ErrorSchema
	},
	[`GET ${PATHS.locations}` as const]: { 200: z.array(LocationSchema), 401: ErrorSchema },
	[`GET ${PATHS.devices}` as const]: {
		200: z.array(DeviceSchema),
		401: ErrorSchema,
		404: ErrorSchema
	},
	[`POST ${PATHS.customerArrived}` as const]: { ...NOTIFIED, ...ORDER_WRITE_ERRORS },
	[`POST ${PATHS.estimatedArrival}` as const]: { ...NOTIFIED, ...ORDER_WRITE_ERRORS },
	[`POST ${PATHS.sendMessage}` as const]: { ...NOTIFIED, ...ORDER_WRITE_ERRORS },

	'GET /api/locations': { 200: LocationsSchema },
	'GET /api/discovered': { 200: DiscoveredSchema },
	'GET /api/screens/:id': { 200: ScreenInfoSchema, ...UNKNOWN_SCREEN },
	'GET /api/screens/:id/state': { 200: SnapshotSchema, ...UNKNOWN_SCREEN, ...GUARDED },
	'POST /api/screens/:id/actions': {
		200: OkSchema,
		400: SimulatorErrorSchema,
		409: SimulatorErrorSchema,
		422: SimulatorErrorSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	},
	'GET /api/screens/:id/notifications': {
		200: ScreenNotificationsSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	},
	'POST /api/screens/:id/popups/:popupId/ack': { 200: OkSchema, ...UNKNOWN_SCREEN, ...GUARDED },
	'POST /api/screens/:id/orders/:orderId/ready': {
		200: OkSchema,
		409: SimulatorErrorSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	},
	'GET /api/tracker/:location': {
		200: TrackerSchema,
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'GET /api/sms': { 200: z.array(SmsEntrySchema), 422: SimulatorErrorSchema, ...GUARDED },
	'GET /api/access': { 200: z.strictObject({ granted: z.boolean() }) },
	'POST /api/access': { 403: SimulatorErrorSchema, 422: SimulatorErrorSchema },

	'GET /api/admin/integration': { 200: IntegrationSchema, ...GUARDED },
	'GET /api/admin/screens': { 200: z.array(ScreenJsonSchema), ...GUARDED },
	'GET /api/admin/screens/:id': { 200: ScreenJsonSchema, ...UNKNOWN_SCREEN, ...GUARDED },
	'GET /api/admin/messages': {
		200: z.array(MessageEntrySchema),
		422: SimulatorErrorSchema,
		...GUARDED
	},
	'POST /api/admin/messages/:id/resend': {
		200: ResendResultSchema,
		400: SimulatorErrorSchema,
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'GET /api/admin/webhooks': {
		200: z.array(WebhookEndpointInfoSchema),
		422: SimulatorErrorSchema,
		...GUARDED
	},
	'POST /api/admin/webhooks': {
		201: WebhookEndpointInfoSchema,
		400: SimulatorErrorSchema,
		422: SimulatorErrorSchema,
		...GUARDED
	},
	'DELETE /api/admin/webhooks/:id': {
		200: z.strictObject({ removed: z.string() }),
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'GET /api/admin/webhooks/:id/deliveries': {
		200: z.array(WebhookDeliverySchema),
		404: SimulatorErrorSchema,
		422: SimulatorErrorSchema,
		...GUARDED
	},
	'POST /api/admin/webhooks/deliveries/:id/resend': {
		201: WebhookDeliverySchema,
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'POST /api/admin/reset': {
		200: ResetResultSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	},
	'PUT /api/admin/screens/:id/communication': {
		200: CommunicationResultSchema,
		409: SimulatorErrorSchema,
		422: SimulatorErrorSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	},
	'POST /api/admin/rush': {
		202: RushStartedSchema,
		409: SimulatorErrorSchema,
		422: SimulatorErrorSchema,
		...GUARDED
	},
	'DELETE /api/admin/rush': { 200: RushStoppedSchema, ...GUARDED },
	'POST /api/admin/locations/:id/clear': {
		200: ClearResultSchema,
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'DELETE /api/admin/screens/:id': {
		200: RemovedScreenSchema,
		409: SimulatorErrorSchema,
		...UNKNOWN_SCREEN,
		...GUARDED
	}
} satisfies Record<string, Responses>;

export type RouteKey = keyof typeof ROUTE_RESPONSES;

/** The body as JSON.stringify writes it: a declared schema changes nothing on the wire. */
const asJson: FastifySerializerCompiler<unknown> = () => JSON.stringify;

/**
 * Route options declaring what `route` answers (`METHOD path`, a key of the table):
 * `app.get(path, { ...declared('GET /path') }, handler)`.
 */
export function declared<K extends RouteKey>(route: K) {
	return {
		schema: { response: ROUTE_RESPONSES[route] as (typeof ROUTE_RESPONSES)[K] },
		serializerCompiler: asJson
	};
}
