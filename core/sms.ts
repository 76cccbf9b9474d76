/**
 * Customer texts (contract sections 1 and 6; field notes "What a screen shows", SMS): off until a
 * brand or location turns them on, then three triggers, each its own setting: "received" (the
 * order is first displayed), "bumped" (bumped in the kitchen view), "ready" (marked ready for
 * pickup in the Take Out view). To the order's phoneNumber, none when optInForSms is false, the
 * customerArrivedUrl appended. The simulator has no carrier: texts go to an outbox. Pure rules
 * and the outbox entry shape, shared by the agent and the UI.
 */
import * as z from 'zod';
import type { OrderFields } from './content.ts';

/** The trigger that sent a text. */
export type SmsKind = 'received' | 'bumped' | 'ready';
export const SMS_KINDS = ['received', 'bumped', 'ready'] as const satisfies readonly [
	SmsKind,
	...SmsKind[]
];
/**
 * sent: the simulated carrier took it (there is no real one, so no queue and no delivery
 * receipt); undeliverable: a carrier would refuse it (see `reason`).
 */
export type SmsStatus = SmsEntry['status'];
/** Forwarding to the brand's webhook: null when none is configured. */
export type SmsForwarded = SmsEntry['forwarded'];

/**
 * The texts used when a brand configures none: "received" is the real product's default; the
 * vendor publishes no default for the other two.
 */
export const DEFAULT_SMS = {
	received: 'We have received your order!',
	bumped: 'Your order is ready!',
	ready: 'Your order is ready for pickup!'
} as const;

/**
 * Which triggers send, once SMS is enabled: "received" and "bumped" (what the simulator sent
 * before SMS became opt-in); "ready" needs the Take Out view's step, so it is opt-in too.
 */
export const DEFAULT_SMS_TRIGGERS = { received: true, bumped: true, ready: false } as const;

/** A brand's or location's SMS settings as the config file gives them (any part may be absent). */
export interface SmsOverride {
	enabled?: boolean;
	triggers?: Partial<Record<SmsKind, boolean>>;
	received?: string;
	bumped?: string;
	ready?: string;
}

/** The settings a location texts with: the brand's, each part the location sets replacing it. */
export interface SmsSettings {
	enabled: boolean;
	triggers: Record<SmsKind, boolean>;
	texts: Record<SmsKind, string>;
}

export function smsSettings(brand: SmsOverride, location?: SmsOverride): SmsSettings {
	const pick = (kind: SmsKind) => location?.[kind] ?? brand[kind] ?? DEFAULT_SMS[kind];
	const on = (kind: SmsKind) =>
		location?.triggers?.[kind] ?? brand.triggers?.[kind] ?? DEFAULT_SMS_TRIGGERS[kind];
	return {
		enabled: location?.enabled ?? brand.enabled ?? false,
		triggers: { received: on('received'), bumped: on('bumped'), ready: on('ready') },
		texts: { received: pick('received'), bumped: pick('bumped'), ready: pick('ready') }
	};
}

/** Whether `kind` sends a text under these settings (before the order's own opt-out). */
export function smsTriggered(settings: SmsSettings, kind: SmsKind): boolean {
	return settings.enabled && settings.triggers[kind];
}

/**
 * One text in the outbox, as GET /api/sms lists it (its schema is that answer's,
 * agent/http/simulator-bodies.ts) and the webhook receives it.
 */
export const SmsEntrySchema = z.strictObject({
	id: z.int(),
	brand: z.string(),
	location: z.string(),
	orderId: z.string(),
	/** The screen whose create or bump triggered the text. */
	screen: z.string(),
	kind: z.enum(SMS_KINDS),
	to: z.string(),
	text: z.string(),
	status: z.enum(['sent', 'undeliverable']),
	/** Why it is undeliverable. */
	reason: z.string().nullable(),
	/** ISO 8601, agent clock. */
	createdAt: z.string(),
	forwarded: z.enum(['pending', 'delivered', 'failed']).nullable(),
	/** Forwarding attempts made so far. */
	forwardAttempts: z.int(),
	/** The last forwarding error, while pending or once failed. */
	forwardError: z.string().nullable()
});
export type SmsEntry = z.infer<typeof SmsEntrySchema>;

/** E.164: a +, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{1,14}$/;

export function isE164(phone: string): boolean {
	return E164.test(phone);
}

/**
 * Why a text to `phone` cannot be delivered, or null when it can. A number that is not E.164
 * does not refuse the order (the contract only describes the format): the carrier would fail.
 */
export function undeliverableReason(phone: string): string | null {
	if (isE164(phone)) return null;
	const shown = phone.length > 40 ? `${phone.slice(0, 37)}...` : phone;
	return `phoneNumber ${JSON.stringify(shown)} is not in E.164 format (expected + then 2-15 digits, e.g. +15551234567)`;
}

/** Whether an order's customer gets texts at all: a phone number and no opt-out. */
export function wantsSms(fields: Pick<OrderFields, 'phoneNumber' | 'optInForSms'>): boolean {
	return fields.optInForSms !== false && (fields.phoneNumber ?? '').trim() !== '';
}

/** The text to send: the brand's wording, then the customerArrivedUrl when the order has one. */
export function smsText(template: string, customerArrivedUrl: string | undefined): string {
	const url = customerArrivedUrl?.trim();
	return url ? `${template} ${url}` : template;
}
