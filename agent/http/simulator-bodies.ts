/**
 * The bodies the simulator's and admin API's routes answer (the screens, the snapshot, the log's
 * entries, the screen as JSON, webhooks, SMS, rush, clear, …) as strict zod schemas: what
 * ./responses.ts's table of routes declares per status, and what the OpenAPI document and
 * tests/integration/http-responses.spec.ts read. The integrator routes' bodies are in
 * ./integrators/responses.ts; shapes the core owns (the tracker's boards, the SMS outbox's, the
 * webhooks' and the inspector's entries) are taken from it.
 */
import * as z from 'zod';
import { SCREEN_ROLES } from '#core/expo';
import { MessageEntrySchema } from '#core/message-entry';
import { FindingSchema } from '#core/rules';
import type { Popup, ScreenInfo, TakeoutStatus } from '#core/relay';
import { SmsEntrySchema } from '#core/sms';
import { TrackerViewSchema } from '#core/view/tracker';
import {
	WebhookDeliverySchema as CoreWebhookDeliverySchema,
	WebhookEndpointInfoSchema,
	type WebhookDelivery
} from '#core/webhooks';
import { ERROR_CODES, FieldErrorSchema } from './integrators/responses.ts';

/** The simulator's and admin API's errors: the integrator API's shape, with their own codes. */
export const SimulatorErrorSchema = z.strictObject({
	code: z.enum([...ERROR_CODES, 'NOT_FOUND', 'ACTION_REFUSED', 'ADMIN_ONLY', 'BAD_BODY']),
	message: z.string(),
	errors: z.array(FieldErrorSchema).optional()
});

type SimulatorError = z.infer<typeof SimulatorErrorSchema>;

/** The 404 of a simulator or admin route given a screen id that is not configured. */
export function unknownScreen(id: string): SimulatorError {
	return { code: 'NOT_FOUND', message: `Unknown screen ${id}` };
}

export const OkSchema = z.strictObject({ ok: z.literal(true) });

const TcpEndpointSchema = z.strictObject({ host: z.string(), port: z.int() });

const TimersSchema = z.strictObject({ warnAfter: z.number(), lateAfter: z.number() });

export const ScreenInfoSchema = z.strictObject({
	id: z.string(),
	name: z.string(),
	locationId: z.string(),
	locationName: z.string(),
	timezone: z.string(),
	settings: z.strictObject({
		timers: TimersSchema.extend({ byMode: z.record(z.string(), TimersSchema).optional() }),
		autoHoldFutureOrders: z.boolean(),
		keymap: z.record(z.string(), z.string()),
		scale: z.number().optional(),
		modeColors: z.record(z.string(), z.string()).optional(),
		autoBump: z
			.strictObject({
				afterSeconds: z.number(),
				byMode: z.record(z.string(), z.number()).optional(),
				jitterSeconds: z.number().optional()
			})
			.optional()
			.describe('The self-working cook (docs/testing.md).'),
		changeMarks: z
			.union([z.literal('seen'), z.number()])
			.optional()
			.describe(
				"How long NEW / CHANGED marks last on a card: 'seen' (until a cook saw the card) or seconds."
			),
		combineOrders: z
			.boolean()
			.optional()
			.describe('Combine Orders: a new order of a recent order’s name joins its ticket.'),
		alertWords: z
			.array(z.string())
			.optional()
			.describe('Lines drawn bold on red on a card (allergies, "no …"); absent: the default list.')
	})
}) satisfies z.ZodType<ScreenInfo>;

const TakeoutStatusSchema = z.strictObject({
	orderId: z.string(),
	arrivedAt: z.number().optional(),
	etaAt: z.number().optional(),
	readyAt: z.number().optional()
}) satisfies z.ZodType<TakeoutStatus>;

const PopupSchema = z.strictObject({
	id: z.string(),
	message: z.string(),
	at: z.number()
}) satisfies z.ZodType<Popup>;

const NotificationStateSchema = z.strictObject({
	takeout: z.array(TakeoutStatusSchema),
	popups: z.array(PopupSchema)
});

/** An order record of the core's machine (order-machine.ts), checked at its top level. */
const OrderRecordSchema = z.strictObject({
	state: z.string(),
	context: z.looseObject({ id: z.string() })
});

export const SnapshotSchema = z.strictObject({
	type: z.literal('snapshot'),
	seq: z.int(),
	screen: ScreenInfoSchema,
	records: z.array(OrderRecordSchema),
	now: z.number(),
	notifications: NotificationStateSchema.optional()
});

/** Screens heard on the network (agent/fleet/adopt.ts, docs/fleet.md). */
export const DiscoveredSchema = z.strictObject({
	listening: z.boolean(),
	adoptingInto: z.string().nullable(),
	screens: z.array(
		z.strictObject({
			name: z.string(),
			address: z.string(),
			version: z.string(),
			identifier: z.string(),
			from: z.string(),
			lastHeard: z.number(),
			announcing: z.boolean(),
			screenId: z.string().nullable(),
			snippet: z.strictObject({
				id: z.string(),
				name: z.string(),
				version: z.string(),
				tcp: TcpEndpointSchema,
				remote: z.strictObject({ url: z.string(), screen: z.string() })
			})
		})
	)
});

export const LocationsSchema = z.array(
	z.strictObject({
		id: z.string(),
		name: z.string(),
		brand: z.string(),
		timezone: z.string().describe('IANA zone: the UI shows every time in it.'),
		screens: z.array(
			z.strictObject({
				id: z.string(),
				name: z.string(),
				orderCount: z.int(),
				tcp: TcpEndpointSchema,
				remote: z
					.strictObject({
						url: z.string(),
						state: z.enum(['live', 'connecting', 'unreachable'])
					})
					.optional()
					.describe('A screen another simulator hosts (docs/fleet.md).')
			})
		)
	})
);

/** A queued takeout notification of one screen (callback URL redacted). */
const DeliverySchema = z.strictObject({
	id: z.string(),
	notificationId: z.string(),
	kind: z.enum(['customer-arrived', 'estimated-arrival-update']),
	locationId: z.string(),
	screenId: z.string(),
	orderId: z.string(),
	minutes: z.int().nullable(),
	notificationUrl: z.string().nullable(),
	submittedAt: z.number(),
	expiresAt: z.number(),
	status: z.enum(['pending', 'delivered', 'expired']),
	attempts: z.int(),
	finishedAt: z.number().nullable(),
	callbackAttempts: z.int(),
	callbackDueAt: z.number().nullable()
});

export const ScreenNotificationsSchema = NotificationStateSchema.extend({
	deliveries: z.array(DeliverySchema)
});

// The SMS outbox's, the webhooks' and the inspector's entries are the core's schemas (their types
// are read from them); a delivery's body is typed as its event's, beyond the top level checked.
export { MessageEntrySchema, SmsEntrySchema, WebhookEndpointInfoSchema };
export const WebhookDeliverySchema =
	CoreWebhookDeliverySchema as unknown as z.ZodType<WebhookDelivery>;

/** An item as the JSON view shows it (agent/inspector/screen-view.ts). */
const ItemJsonSchema = z.strictObject({
	lineId: z.string(),
	label: z.string(),
	name: z.string(),
	qty: z.number(),
	mods: z.array(z.strictObject({ name: z.string(), qty: z.number().optional() })),
	seat: z.string().optional(),
	specialInstructions: z.string().optional(),
	courseStatus: z.string().optional(),
	deleted: z.boolean(),
	highlighted: z.enum(['added', 'updated']).nullable(),
	doneBy: z.string().nullable().describe('On an expo: the station whose bump completed the item.'),
	doneAt: z
		.string()
		.nullable()
		.describe('When a cook marked the item done on this screen (a tap); null when not.')
});

const CardSchema = z.strictObject({
	id: z.string(),
	title: z.string(),
	state: z.string(),
	mode: z.string(),
	priority: z.boolean(),
	cancelled: z.boolean(),
	recalled: z.boolean(),
	elapsedMs: z.number(),
	placedAt: z
		.string()
		.nullable()
		.describe("The order's own time as the POS sent it (when it was placed); null without one."),
	receivedAt: z.string().describe('When the screen received it: the timer counts from here.'),
	backdated: z
		.boolean()
		.describe(
			'Placed 10 minutes or more before the screen received it (the card says how long ago).'
		),
	startedAt: z
		.string()
		.nullable()
		.describe('When a cook marked the ticket started on this screen; null when not.'),
	itemsDone: z
		.strictObject({ done: z.int(), of: z.int() })
		.describe("The cook's ticks: live items marked done, of the live items."),
	timer: z.enum(['ok', 'warn', 'late', 'scheduled']),
	/** The order's fields as the core keeps them. */
	fields: z.looseObject({ name: z.string(), mode: z.string() }),
	sections: z.array(
		z.strictObject({
			label: z.string(),
			course: z.string().nullable(),
			status: z.string().nullable(),
			entries: z.array(
				z.discriminatedUnion('kind', [
					z.strictObject({ kind: z.literal('item'), item: ItemJsonSchema }),
					z.strictObject({
						kind: z.literal('group'),
						name: z.string(),
						note: z.string().nullable(),
						items: z.array(ItemJsonSchema)
					})
				])
			)
		})
	),
	findings: z.array(FindingSchema.extend({ messageId: z.int() })),
	stations: z
		.array(
			z.strictObject({
				station: z.string(),
				name: z.string(),
				items: z.int().describe('Items of this card the station holds.'),
				done: z.boolean().describe('The station bumped the order.')
			})
		)
		.describe('On an expo: each station that holds the order (screen communication).'),
	allReady: z
		.boolean()
		.describe(
			'On an expo: every station with items on the card has bumped them (the card is green, ALL READY).'
		),
	combined: z
		.array(
			z.strictObject({
				id: z.string(),
				title: z.string(),
				state: z.string(),
				because: z.string().describe('Why it joined this ticket.'),
				items: z.array(z.string()).describe('Its item lines, as labelled on the card.')
			})
		)
		.describe('Combine Orders: the orders drawn on this ticket besides its own.')
});

/**
 * GET /api/admin/integration: what a POS needs to reach this running simulator, for the home
 * page's ready-to-paste examples: each brand's token, its locations and their screens' TCP ports.
 */
export const IntegrationSchema = z.strictObject({
	brands: z.array(
		z.strictObject({
			name: z.string(),
			token: z.string().describe('The x-integration-token of this brand.'),
			locations: z.array(
				z.strictObject({
					id: z.string().describe('The x-location-id.'),
					name: z.string(),
					screens: z.array(
						z.strictObject({ id: z.string(), name: z.string(), tcp: TcpEndpointSchema })
					)
				})
			)
		})
	)
});
/** GET /api/admin/integration: what `kds-sim rush` and `kds-sim replay` read of a simulator. */
export type Integration = z.output<typeof IntegrationSchema>;

const AllDaySchema = z.array(
	z.strictObject({
		name: z.string(),
		qty: z.number(),
		tickets: z.int(),
		variants: z.array(z.strictObject({ mods: z.string(), qty: z.number() }))
	})
);

export const ScreenJsonSchema = z.strictObject({
	id: z.string(),
	name: z.string(),
	locationId: z.string(),
	role: z.enum(SCREEN_ROLES),
	bumpsTo: z.array(z.string()).describe('A station: the expo screens its bumps complete items on.'),
	now: z.number(),
	cards: z.array(CardSchema.extend({ position: z.int().min(1) })),
	holds: z.array(CardSchema),
	allDay: AllDaySchema.describe(
		'The All Day view: each fired item over the cards, summed by name, its modifier combinations grouped (held, scheduled and cancelled tickets and courses on hold left out).'
	),
	allDayOutstanding: AllDaySchema.describe(
		"All Day's Outstanding toggle: the same, without items a station completed (an expo) or a cook marked done."
	),
	recall: z.array(
		z.strictObject({ id: z.string(), title: z.string(), bumpedAt: z.number().optional() })
	),
	takeout: z.array(
		z.strictObject({
			id: z.string(),
			title: z.string(),
			mode: z.string(),
			held: z.boolean(),
			vehicle: z.string().nullable(),
			arrived: z.boolean(),
			arrivedAt: z.number().nullable(),
			etaAt: z.number().nullable(),
			etaInMs: z.number().nullable()
		})
	),
	popups: z.array(PopupSchema),
	sms: z.array(SmsEntrySchema)
});

/** GET /api/tracker/:location: the customer-facing order tracker's boards (the core's shape). */
export const TrackerSchema = TrackerViewSchema;

/** POST /api/admin/rush: a rush started. */
export const RushStartedSchema = z.strictObject({ running: z.literal(true), seed: z.int() });
/** DELETE /api/admin/rush: stopped (or none running), and what the last rush sent. */
export const RushStoppedSchema = z.strictObject({
	stopped: z.boolean(),
	summary: z
		.strictObject({
			seed: z.number(),
			orders: z.int(),
			tcp: z.int(),
			http: z.int(),
			updates: z.int(),
			cancels: z.int(),
			refused: z.int(),
			ids: z.array(z.string())
		})
		.nullable()
});

/** POST /api/admin/locations/:id/clear: Auto Clear's "clear now". */
export const ClearResultSchema = z.strictObject({
	location: z.string(),
	cleared: z.int().describe('Orders removed (counted once per screen that held them).'),
	nextAutoClear: z
		.number()
		.nullable()
		.describe('When the daily Auto Clear runs next (ms since epoch); null: not configured.')
});

/** PUT /api/admin/screens/:id/communication: the screen's role and rule as they now are. */
export const CommunicationResultSchema = z.strictObject({
	id: z.string(),
	role: z.enum(SCREEN_ROLES),
	bumpsTo: z.array(z.string()),
	reconnectingUntil: z
		.number()
		.nullable()
		.describe('Until when (ms since epoch) its browsers are kept out, re-establishing; null: not.')
});

export const ResendResultSchema = z.strictObject({
	result: z.string().describe('The reply: TCP as sent; HTTP "<status> <body>".')
});

/** DELETE /api/admin/screens/:id: the screen removed at run time. */
export const RemovedScreenSchema = z.strictObject({ removed: z.string() });

export const ResetResultSchema = z.strictObject({
	reset: z.string().describe('The screen id, or all.')
});
