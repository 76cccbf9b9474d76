/**
 * Customer texts (contract sections 1 and 6; field notes "SMS triggers"): an "order received"
 * text on create and an "order ready" text on bump, to the order's phoneNumber, none when
 * optInForSms is false, the customerArrivedUrl appended to both. The simulator has no carrier:
 * texts go to an outbox. Pure rules and the outbox entry shape, shared by the agent and the UI.
 */
import type { OrderFields } from './content';

export type SmsKind = 'received' | 'ready';
/**
 * sent: the simulated carrier took it (there is no real one, so no queue and no delivery
 * receipt); undeliverable: a carrier would refuse it (see `reason`).
 */
export type SmsStatus = 'sent' | 'undeliverable';
/** Forwarding to the brand's webhook: null when none is configured. */
export type SmsForwarded = 'pending' | 'delivered' | 'failed' | null;

/** The texts of the real product, used when a brand configures none. */
export const DEFAULT_SMS = {
	received: 'We have received your order!',
	ready: 'Your order is ready!'
} as const;

/** One text in the outbox, as GET /api/sms lists it and the webhook receives it. */
export interface SmsEntry {
	id: number;
	brand: string;
	location: string;
	orderId: string;
	/** The screen whose create or bump triggered the text. */
	screen: string;
	kind: SmsKind;
	to: string;
	text: string;
	status: SmsStatus;
	/** Why it is undeliverable. */
	reason: string | null;
	/** ISO 8601, agent clock. */
	createdAt: string;
	forwarded: SmsForwarded;
	/** Forwarding attempts made so far. */
	forwardAttempts: number;
	/** The last forwarding error, while pending or once failed. */
	forwardError: string | null;
}

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
