/**
 * The simulator's and admin API's part of the OpenAPI document (./openapi-document.ts), tagged
 * apart from the integrator contract's routes (Simulator, Admin) so that a client generated in any
 * language has reset, the JSON view of each screen, the message log and the screen actions too.
 *
 * Nothing here is written a second time: every answer's body is the schema the route declares in
 * ./responses.ts (ROUTE_RESPONSES, checked against real answers by
 * tests/integration/http-responses.spec.ts), the message log's query parameters are the schema
 * that parses them (./admin-api.ts), and the screen actions are the core's list.
 */
import * as z from 'zod';
import { SCREEN_ACTIONS } from '#core/screen';
import { CommunicationBodySchema, MessageQuerySchema, RushBodySchema } from './admin-api.ts';
import {
	ClearResultSchema,
	CommunicationResultSchema,
	RushStartedSchema,
	RushStoppedSchema,
	IntegrationSchema,
	LocationsSchema,
	MessageEntrySchema,
	OkSchema,
	ResendResultSchema,
	RemovedScreenSchema,
	ResetResultSchema,
	ROUTE_RESPONSES,
	ScreenInfoSchema,
	ScreenJsonSchema,
	SimulatorErrorSchema,
	TrackerSchema,
	SnapshotSchema,
	type RouteKey
} from './responses.ts';
import { sessionOpenApi } from './session-api.ts';
import { componentRef, openApiPaths } from './openapi-paths.ts';

/** POST /api/admin/reset (./admin-api.ts reads `screen`). */
export const ResetBodySchema = z.object({
	screen: z
		.string()
		.optional()
		.describe('One screen id; absent: every screen, the message log and the SMS outbox.')
});

/** POST /api/admin/messages/{id}/resend. */
export const ResendBodySchema = z.object({
	payload: z
		.string()
		.optional()
		.describe('An edited payload to send in its place (logged as an edit); absent: as it came.')
});

/** POST /api/screens/{id}/actions (./simulator-api.ts). */
export const ScreenActionSchema = z.object({
	action: z.enum(SCREEN_ACTIONS).describe('What a cook does on the screen.'),
	orderId: z
		.string()
		.optional()
		.describe(
			'The order (bump, fire, fire-course, item-done, item-undo, start, start-undo); recall without it recalls the last bumped.'
		),
	course: z
		.string()
		.optional()
		.describe("fire-course: the course to fire ('' for items without a course)."),
	lineId: z
		.string()
		.optional()
		.describe("item-done, item-undo: the item's lineId (a cook's mark, not sent to the POS).")
});

/** The named schemas of this part of the document: id, zod schema, description. */
export const ADMIN_COMPONENTS: Array<[string, z.ZodType, string]> = [
	[
		'SimulatorError',
		SimulatorErrorSchema,
		'Every error answer of the simulator and admin API: the integrator API shape, with codes of its own.'
	],
	[
		'SimulatorLocation',
		LocationsSchema.element,
		'A location with its screens and their live order counts.'
	],
	['ScreenInfo', ScreenInfoSchema, 'A screen and its settings.'],
	['ScreenSnapshot', SnapshotSchema, 'Everything a screen holds: what a browser gets on connect.'],
	['ScreenAction', ScreenActionSchema, 'A cook’s action on a screen.'],
	['Ok', OkSchema, 'The action was applied.'],
	[
		'ScreenJson',
		ScreenJsonSchema,
		'What a screen shows, as JSON: cards in order, holds, recall, takeout, pop-ups and texts.'
	],
	[
		'Integration',
		IntegrationSchema,
		'What a POS needs to reach this simulator: each brand’s token, its locations and their screens’ TCP ports.'
	],
	['MessageEntry', MessageEntrySchema, 'One message the simulator received, with its findings.'],
	['ResendBody', ResendBodySchema, 'Send a logged message again.'],
	['ResendResult', ResendResultSchema, 'The reply to the message sent again.'],
	['ResetBody', ResetBodySchema, 'Start clean: one screen or everything.'],
	['ResetResult', ResetResultSchema, 'What was reset.'],
	['RemovedScreen', RemovedScreenSchema, 'The screen removed at run time.'],
	['RushBody', RushBodySchema, 'A rush: kds-sim rush’s options.'],
	['RushStarted', RushStartedSchema, 'A rush started, with its seed.'],
	['RushStopped', RushStoppedSchema, 'The rush stopped (or none ran), and what the last one sent.'],
	['ClearResult', ClearResultSchema, 'What a clear removed, and when the daily one runs next.'],
	['Tracker', TrackerSchema, 'A location’s order tracker: Preparing and Ready.'],
	[
		'CommunicationBody',
		CommunicationBodySchema,
		'A screen’s role and (a station’s) communication rule.'
	],
	[
		'CommunicationResult',
		CommunicationResultSchema,
		'The screen’s role and rule as they now are, and its reconnect.'
	]
];

const ref = componentRef;

/** The component name of a declared answer's schema (or of its elements). */
function bodySchema(schema: z.ZodType): object {
	const named = ADMIN_COMPONENTS.find(([, s]) => s === schema);
	if (named) return ref(named[0]);
	if (schema instanceof z.ZodArray)
		return { type: 'array', items: bodySchema(schema.element as z.ZodType) };
	throw new Error(`admin-openapi: no component for a schema of ROUTE_RESPONSES`);
}

const STATUS_TEXT: Record<number, string> = {
	200: 'OK',
	202: 'Started.',
	400: 'The body is not what the route takes (BAD_BODY, INVALID_JSON).',
	403: 'Not from loopback and without the admin token (ADMIN_ONLY): send x-admin-token.',
	404: 'No such screen or message (NOT_FOUND).',
	409: 'The action does not apply to the order as it is (ACTION_REFUSED).',
	422: 'A field or query parameter is not valid (VALIDATION_FAILED, naming each).'
};

const SCREEN_ID = {
	name: 'id',
	in: 'path',
	required: true,
	description: 'A screen id of the configuration.',
	schema: { type: 'string' },
	example: 'kds-1'
};

interface Operation {
	route: RouteKey;
	tag: 'Simulator' | 'Admin';
	summary: string;
	description?: string;
	parameters?: object[];
	body?: string;
}

/** The simulator's and the admin API's operations, in the order /docs lists them. */
const OPERATIONS: Operation[] = [
	{
		route: 'POST /api/admin/reset',
		tag: 'Admin',
		summary: 'Start clean: remove every order of one screen, or of all',
		description:
			'For a test suite between tests. Without a body (or without screen): every screen, the message log and the SMS outbox.',
		body: 'ResetBody'
	},
	{
		route: 'GET /api/admin/integration',
		tag: 'Admin',
		summary: 'How a POS reaches this simulator: tokens, locations, TCP ports',
		description:
			'The home page’s ready-to-paste curl and nc examples read it. Guarded: it carries the brand tokens.'
	},
	{
		route: 'GET /api/admin/screens',
		tag: 'Admin',
		summary: 'What every screen shows, as JSON',
		description: 'The cards as a cook sees them, in order, with the findings of the messages.'
	},
	{
		route: 'GET /api/admin/screens/:id',
		tag: 'Admin',
		summary: 'What one screen shows, as JSON',
		parameters: [SCREEN_ID]
	},
	{
		route: 'DELETE /api/admin/screens/:id',
		tag: 'Admin',
		summary: 'Remove a screen at run time (its webhooks get Device Deleted)',
		description:
			'As deleting the device in the portal: the screen is gone from every API, its TCP port closes, its browsers are let go, and the endpoints that want Device Deleted get it. Its orders stay in the store. Until the agent restarts: the config file decides what a restart has. 409 for a screen that lives in another simulator.',
		parameters: [SCREEN_ID]
	},
	{
		route: 'PUT /api/admin/screens/:id/communication',
		tag: 'Admin',
		summary: 'Make a screen a station or the expo, and set a station’s communication rule',
		description:
			'Stations and expo (docs/screens.md): when a station bumps an order, its items are marked done on the expo screens its rule names (same location). As the vendor’s screen does, the screen then drops and re-establishes its connection: its browsers are let go and kept out for reconnectSeconds. 409 when the rule names a screen that is not an expo of the location, or when stations still send to an expo made a station. Until the agent restarts: the config file decides what a restart has.',
		parameters: [SCREEN_ID],
		body: 'CommunicationBody'
	},
	{
		route: 'POST /api/admin/rush',
		tag: 'Admin',
		summary: 'Start a rush: realistic orders through this simulator’s TCP ports and HTTP API',
		description:
			'As kds-sim rush (docs/testing.md), run by the simulator against itself: creates, updates and cancels over TCP and HTTP, so findings, webhooks and SMS all happen. One at a time (409 while one runs).',
		body: 'RushBody'
	},
	{
		route: 'DELETE /api/admin/rush',
		tag: 'Admin',
		summary: 'Stop the rush, and say what it sent'
	},
	{
		route: 'POST /api/admin/locations/:id/clear',
		tag: 'Admin',
		summary: 'Auto Clear now: remove every ticket of a location',
		description:
			'As the daily Auto Clear (the location’s autoClear.at) does: every order of its screens, on screen, held or in the recall list, is removed. No webhook, no SMS, no screen communication, no order tracker Ready.',
		parameters: [
			{
				name: 'id',
				in: 'path',
				required: true,
				description: 'A location id of the configuration.',
				schema: { type: 'string' },
				example: 'loc-1'
			}
		]
	},
	{
		route: 'GET /api/admin/messages',
		tag: 'Admin',
		summary: 'The message log, newest first, with the findings of each message',
		parameters: Object.entries(MessageQuerySchema.shape).map(([name, schema]) => {
			const {
				$schema: _s,
				description,
				...json
			} = z.toJSONSchema(schema, {
				io: 'input'
			}) as Record<string, unknown>;
			return { name, in: 'query', required: false, description, schema: json };
		})
	},
	{
		route: 'POST /api/admin/messages/:id/resend',
		tag: 'Admin',
		summary: 'Send a logged message again, as it came or edited',
		parameters: [
			{
				name: 'id',
				in: 'path',
				required: true,
				description: 'The id of a message of the log.',
				schema: { type: 'integer' },
				example: 1
			}
		],
		body: 'ResendBody'
	},
	{
		route: 'GET /api/locations',
		tag: 'Simulator',
		summary: 'Locations and their screens, with live order counts and TCP endpoints'
	},
	{
		route: 'GET /api/screens/:id',
		tag: 'Simulator',
		summary: 'A screen and its settings',
		parameters: [SCREEN_ID]
	},
	{
		route: 'GET /api/screens/:id/state',
		tag: 'Simulator',
		summary: 'Everything a screen holds now (the snapshot a browser gets)',
		parameters: [SCREEN_ID]
	},
	{
		route: 'GET /api/tracker/:location',
		tag: 'Simulator',
		summary: 'The order tracker of a location: Preparing and Ready, by order name and number',
		description:
			'What the customer-facing page /tracker/{location} shows. Ready: a Take Out view marked the order "Ready for pickup", or the expo screens holding it bumped it (no expo: every screen holding it). Guarded: the names are customer data.',
		parameters: [
			{
				name: 'location',
				in: 'path',
				required: true,
				description: 'A location id of the configuration.',
				schema: { type: 'string' },
				example: 'loc-1'
			}
		]
	},
	{
		route: 'POST /api/screens/:id/actions',
		tag: 'Simulator',
		summary: 'Do what a cook does: bump, recall, fire, fire a course',
		parameters: [SCREEN_ID],
		body: 'ScreenAction'
	}
];

/** The stream of the message log: server-sent events, outside the JSON table. */
const MESSAGE_STREAM = {
	get: {
		summary: 'The message log as it grows (server-sent events)',
		description:
			'One `message` event per new entry (data: a MessageEntry, id: its id); first a `ready` event. With Last-Event-ID, the entries missed since, or a `resync` event when the log no longer holds them.',
		tags: ['Admin'],
		security: [{}, { adminToken: [] }],
		responses: {
			'200': { description: 'An event stream.', content: { 'text/event-stream': {} } },
			'403': {
				description: STATUS_TEXT[403],
				content: { 'application/json': { schema: ref('SimulatorError') } }
			}
		}
	}
};

export const ADMIN_TAGS = [
	{
		name: 'Simulator',
		description:
			'The simulator’s own API (not the kitchen display contract): its locations and screens, and a cook’s actions on them.'
	},
	{
		name: 'Admin',
		description:
			'For test suites (not the kitchen display contract): reset, the JSON view of each screen, the message log. From loopback no token is needed; from other hosts, x-admin-token (started with --admin-token / KDS_ADMIN_TOKEN).'
	}
];

export const ADMIN_SECURITY_SCHEME = {
	type: 'apiKey',
	in: 'header',
	name: 'x-admin-token',
	description:
		'The admin token (--admin-token, KDS_ADMIN_TOKEN). Requests from loopback need none unless the simulator is configured otherwise.'
};

/** The paths of the simulator's and admin API's operations, keyed as OpenAPI writes them. */
export function adminPaths(): Record<string, Record<string, unknown>> {
	const paths = openApiPaths(
		OPERATIONS.map((op) => ({
			route: op.route,
			summary: op.summary,
			description: op.description,
			tag: op.tag,
			parameters: op.parameters,
			body: op.body ? { component: op.body, required: op.tag === 'Simulator' } : undefined,
			responses: Object.fromEntries(
				Object.entries(ROUTE_RESPONSES[op.route] as Record<number, z.ZodType>).map(
					([status, schema]) => [
						status,
						{
							description: STATUS_TEXT[Number(status)] ?? 'See the body.',
							schema: bodySchema(schema)
						}
					]
				)
			)
		}))
	);
	paths['/api/admin/messages/stream'] = MESSAGE_STREAM;
	paths['/api/admin/messages/session'] = sessionOpenApi(
		ref('SimulatorError'),
		STATUS_TEXT[403],
		STATUS_TEXT[422]
	);
	return paths;
}
