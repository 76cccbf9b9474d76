/**
 * The simulator's configuration schema (zod): brands (token, SMS, webhooks), locations, screens
 * (TCP endpoint, settings, role), faults; every field's words when it is wrong, and the types
 * read from it. Reading a config (defaults, a file, the checks across fields, the overrides) is
 * ./config.ts.
 */
import { FaultsConfigSchema } from '#core/fault-profiles';
import * as z from 'zod';
import { SCREEN_ROLES } from '#core/expo';
import { ORDER_MODES } from '#core/order-schema';
import { showValue } from '#core/parse';
import { DEFAULT_TIMERS, HEX_COLOR, MAX_SCALE, MIN_SCALE, type ScreenSettings } from '#core/relay';
import { DAILY_TIME } from '#core/times';
import { MAX_ALERT_WORD_LENGTH, MAX_ALERT_WORDS } from '#core/view/alerts';
import { isHttpUrl } from '#core/url';
import {
	DEFAULT_WEBHOOK_ATTEMPTS,
	DEFAULT_WEBHOOK_MINUTES_BETWEEN,
	WEBHOOK_EVENTS
} from '#core/webhooks';

const port = () =>
	z
		.number({ error: (i) => `expected a port number 0-65535, got ${showValue(i.input)}` })
		.int({ error: 'expected a port number 0-65535' })
		.min(0, { error: 'expected a port number 0-65535' })
		.max(65535, { error: 'expected a port number 0-65535' });
const text = () => z.string({ error: (i) => `expected a string, got ${showValue(i.input)}` });
const seconds = () =>
	z.number({ error: (i) => `expected a number of seconds, got ${showValue(i.input)}` }).positive();

const TimersSchema = z.object({ warnAfter: seconds(), lateAfter: seconds() });

/** The self-working cook (docs/testing.md): bump after a time per order mode, give or take. */
const AutoBumpSchema = z.strictObject({
	afterSeconds: seconds(),
	byMode: z.partialRecord(z.enum(ORDER_MODES), seconds()).optional(),
	jitterSeconds: z
		.number({ error: (i) => `expected a number of seconds, got ${showValue(i.input)}` })
		.min(0, { error: 'expected a number of seconds, 0 or more' })
		.optional()
});

const SettingsSchema = z
	.object({
		autoHoldFutureOrders: z.boolean().default(false),
		timers: TimersSchema.extend({ byMode: z.record(z.string(), TimersSchema).optional() }).default(
			() => ({ ...DEFAULT_TIMERS })
		),
		keymap: z.record(z.string(), z.string()).default({}),
		/** The self-working cook: bumps each order after a time (docs/testing.md). */
		autoBump: AutoBumpSchema.optional(),
		/** Card type size times the size for the window (browser: screenMetrics). */
		scale: z
			.number({ error: (i) => `expected a number, got ${showValue(i.input)}` })
			.min(MIN_SCALE, { error: `expected a scale from ${MIN_SCALE} to ${MAX_SCALE}` })
			.max(MAX_SCALE, { error: `expected a scale from ${MIN_SCALE} to ${MAX_SCALE}` })
			.optional(),
		/** Order mode to a colour for the card's header strip and mode chip. */
		modeColors: z
			.record(text(), text().regex(HEX_COLOR, { error: 'expected a colour as #rgb or #rrggbb' }))
			.superRefine((colors, ctx) => {
				for (const mode of Object.keys(colors)) {
					if ((ORDER_MODES as readonly string[]).includes(mode)) continue;
					ctx.addIssue({
						code: 'custom',
						path: [mode],
						message: `expected an order mode (${ORDER_MODES.join(', ')}), got ${showValue(mode)}`
					});
				}
			})
			.optional(),
		/** How long NEW / CHANGED marks last: until a cook saw the card, or seconds (core ChangeMarks). */
		changeMarks: z
			.union(
				[
					z.literal('seen'),
					z.number().gt(0, {
						error: (i) =>
							`expected "seen" or a number of seconds above 0, got ${showValue(i.input)}`
					})
				],
				{
					error: (i) => `expected "seen" or a number of seconds above 0, got ${showValue(i.input)}`
				}
			)
			.optional()
	})
	.extend({
		/**
		 * Lines drawn bold on red (core/view/alerts.ts): words and phrases, "no …" for a line that
		 * starts with "no"; absent: the default list; [] for none (docs/configuration.md).
		 */
		alertWords: z
			.array(
				z
					.string({ error: (i) => `expected a word or phrase, got ${showValue(i.input)}` })
					.trim()
					.min(1, { error: 'expected a word or phrase, got an empty string' })
					.max(MAX_ALERT_WORD_LENGTH, {
						error: `expected a word or phrase of at most ${MAX_ALERT_WORD_LENGTH} characters`
					}),
				{ error: (i) => `expected a list of words, got ${showValue(i.input)}` }
			)
			.max(MAX_ALERT_WORDS, { error: `expected at most ${MAX_ALERT_WORDS} words` })
			.optional(),
		/** Combine Orders (docs/screens.md#combine-orders): off by default, as on the vendor's screen. */
		combineOrders: z
			.boolean({ error: (i) => `expected true or false, got ${showValue(i.input)}` })
			.optional()
	})
	.default(() => ({ autoHoldFutureOrders: false, timers: { ...DEFAULT_TIMERS }, keymap: {} }));

/** Where a remote screen's cards are read: the other simulator's HTTP address and screen id. */
const RemoteSchema = z.object({
	/** The remote agent's HTTP base URL, e.g. http://192.168.1.50:8104. */
	url: text().refine(isHttpUrl, {
		error: (i) => `expected an http:// or https:// URL, got ${showValue(i.input)}`
	}),
	/** The screen's id in the remote agent (default: the same id). */
	screen: text().min(1).optional(),
	/** The remote agent's admin token, needed to read its relay from off its loopback. */
	adminToken: text().optional()
});

/** A station's screen communication rule (core/expo.ts, docs/screens.md). */
export const CommunicationSchema = z.strictObject({
	bumpsTo: z
		.array(text().min(1, { error: 'expected a screen id' }), {
			error: (i) => `expected an array of expo screen ids, got ${showValue(i.input)}`
		})
		.default([])
});

const ScreenSchema = z.object({
	id: text().min(1),
	name: text(),
	type: text().default('android'),
	version: text().default('2.21.30'),
	tcp: z.object({ host: text().default('127.0.0.1'), port: port() }),
	deleted: z.boolean().default(false),
	settings: SettingsSchema,
	/**
	 * A screen hosted by another simulator (a Pi): `tcp` is that screen's own TCP endpoint, where
	 * orders are written; its cards are read from the remote agent's browser relay (docs/fleet.md).
	 */
	remote: RemoteSchema.optional(),
	// Stations and expo (docs/screens.md), checked across the location by checkCommunication.
	/** What the screen is in the kitchen: a station (its own items) or the expo (whole orders). */
	role: z
		.enum(SCREEN_ROLES, {
			error: (i) => `expected one of ${SCREEN_ROLES.join(', ')}, got ${showValue(i.input)}`
		})
		.default('station'),
	/** A station's screen communication rule: the expo screens its bumps complete items on. */
	communication: CommunicationSchema.optional()
});

/** A location's address when the config gives none (the information routes still show one). */
const NO_ADDRESS = { line1: '', line2: null, city: '', state: '', zip: '' };

const SmsTriggersSchema = z.strictObject({
	received: z.boolean().optional(),
	bumped: z.boolean().optional(),
	ready: z.boolean().optional()
});

/**
 * Customer texts (simulated SMS, docs/holds-and-sms.md): off unless `enabled`; which triggers
 * send; the wording of each. A location may set any part of it over its brand's.
 */
const SmsOverrideSchema = z.strictObject({
	enabled: z.boolean().optional(),
	triggers: SmsTriggersSchema.optional(),
	received: text().optional(),
	bumped: text().optional(),
	ready: text().optional()
});

/** The brand's SMS settings, plus where to forward each text. */
const SmsSchema = SmsOverrideSchema.extend({
	webhookUrl: text()
		.refine(isHttpUrl, {
			error: (i) => `expected an http:// or https:// URL, got ${showValue(i.input)}`
		})
		.optional()
}).default({});

const LocationSchema = z.object({
	id: text().min(1),
	/** Defaults to the location's place in its brand, "1" for the first (see BrandSchema). */
	number: text().optional(),
	name: text(),
	address: z
		.object({
			line1: text().default(''),
			line2: text().nullable().default(null),
			city: text().default(''),
			state: text().default(''),
			zip: text().default('')
		})
		.default(NO_ADDRESS),
	timezone: text().default('UTC'),
	activeSubscription: z.boolean().default(true),
	/** Screens heard announcing themselves on UDP join this location as remote screens. */
	adoptDiscovered: z.boolean().default(false),
	/** The self-working cook for every screen of the location that sets none of its own. */
	autoBump: AutoBumpSchema.optional(),
	/** SMS settings of this location, over its brand's (any part). */
	sms: SmsOverrideSchema.optional(),
	/** Auto Clear (docs/screens.md#auto-clear): every ticket removed daily at this time. */
	autoClear: z
		.strictObject({
			at: text().regex(DAILY_TIME, {
				error: (i) =>
					`expected a time of day as HH:MM (00:00-23:59, in the location's timezone), got ${showValue(i.input)}`
			})
		})
		.optional(),
	screens: z.array(ScreenSchema)
});

/**
 * One webhook endpoint of a brand, as the vendor's portal sets it (docs/webhooks.md): where, which
 * events, which locations, how many attempts and how long between them. Minutes as the portal
 * has them; `secondsBetweenAttempts` instead, for tests.
 */
export const WebhookEndpointSchema = z
	.strictObject({
		id: text().min(1).max(100).optional(),
		url: text().refine(isHttpUrl, {
			error: (i) => `expected an http:// or https:// URL, got ${showValue(i.input)}`
		}),
		triggers: z
			.array(
				z.enum(WEBHOOK_EVENTS, {
					error: (i) => `expected one of ${WEBHOOK_EVENTS.join(', ')}, got ${showValue(i.input)}`
				}),
				{ error: (i) => `expected an array of event names, got ${showValue(i.input)}` }
			)
			.min(1, { error: 'expected at least one trigger' })
			.default([...WEBHOOK_EVENTS]),
		/** Location ids; empty or absent: every location of the brand. */
		locations: z
			.array(text().min(1), {
				error: (i) => `expected an array of location ids, got ${showValue(i.input)}`
			})
			.default([]),
		attempts: z
			.number({ error: (i) => `expected a whole number 1-10, got ${showValue(i.input)}` })
			.int({ error: 'expected a whole number 1-10' })
			.min(1, { error: 'expected a whole number 1-10' })
			.max(10, { error: 'expected a whole number 1-10' })
			.default(DEFAULT_WEBHOOK_ATTEMPTS),
		minutesBetweenAttempts: z
			.number({ error: (i) => `expected a number of minutes, got ${showValue(i.input)}` })
			.positive({ error: 'expected a number of minutes above 0' })
			.max(1440, { error: 'expected at most 1440 minutes (a day)' })
			.optional(),
		secondsBetweenAttempts: z
			.number({ error: (i) => `expected a number of seconds, got ${showValue(i.input)}` })
			.positive({ error: 'expected a number of seconds above 0' })
			.max(86_400, { error: 'expected at most 86400 seconds (a day)' })
			.optional(),
		/** The portal's e-mail to notify when every attempt failed: kept and shown, never sent. */
		email: text().optional(),
		/** When set, each body is signed: x-kds-signature: sha256=<hex HMAC-SHA256 of the body>. */
		secret: text().min(8, { error: 'expected a secret of at least 8 characters' }).optional()
	})
	.superRefine((endpoint, ctx) => {
		if (
			endpoint.minutesBetweenAttempts !== undefined &&
			endpoint.secondsBetweenAttempts !== undefined
		)
			ctx.addIssue({
				code: 'custom',
				path: ['secondsBetweenAttempts'],
				message: 'give minutesBetweenAttempts or secondsBetweenAttempts, not both'
			});
	})
	.transform(({ minutesBetweenAttempts, secondsBetweenAttempts, ...endpoint }) => ({
		...endpoint,
		secondsBetweenAttempts:
			secondsBetweenAttempts ?? (minutesBetweenAttempts ?? DEFAULT_WEBHOOK_MINUTES_BETWEEN) * 60
	}));
export type WebhookEndpointConfig = z.output<typeof WebhookEndpointSchema>;

const BrandSchema = z.object({
	id: text().min(1),
	name: text(),
	token: text().min(8, { error: 'expected a token of at least 8 characters' }),
	sms: SmsSchema,
	/** The vendor's webhooks (docs/webhooks.md); none by default. */
	webhooks: z.array(WebhookEndpointSchema).default([]),
	locations: z
		.array(LocationSchema)
		.transform((locations) =>
			locations.map((location, i) => ({ ...location, number: location.number ?? String(i + 1) }))
		)
});

export const ConfigSchema = z.object({
	brands: z.array(BrandSchema).min(1, { error: 'expected at least one brand' }),
	/** Faults on cue: profiles of the config's own, and those on from the start (docs/faults.md). */
	faults: FaultsConfigSchema.optional()
});

export type SimConfig = z.output<typeof ConfigSchema>;
/** A config as written (JSON file or object): defaults not yet filled in. */
export type SimConfigInput = z.input<typeof ConfigSchema>;
export type BrandConfig = SimConfig['brands'][number];
export type LocationConfig = BrandConfig['locations'][number];
export type ScreenConfig = LocationConfig['screens'][number];
export type { ScreenSettings };
