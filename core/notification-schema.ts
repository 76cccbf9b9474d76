/**
 * Notification bodies (contract 2.13): customer arrived, estimated arrival, send message, and
 * the retry that says where a final outcome is posted.
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import * as z from 'zod';
import { int, isoDateTime, opt, orderId, str } from './field-schemas.ts';
import { expected, readers } from './parse.ts';
import { normaliseDateTime } from './times.ts';
import { isHttpUrl } from './url.ts';

/**
 * Longest pop-up message accepted, in characters (Unicode code points, as Python's len() counts:
 * an emoji such as 🍔 is one): a screen shows a few lines, not a document.
 */
export const MAX_MESSAGE_LENGTH = 2000;

/** Unicode code points in a string: UTF-16 units less one per surrogate pair. */
export function codePoints(s: string): number {
	let n = s.length;
	for (let i = 0; i < s.length - 1; i++) {
		const c = s.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) {
				n--;
				i++;
			}
		}
	}
	return n;
}

/** An absolute http: or https: URL: the only kind a callback is posted to. */
const httpUrl = () =>
	z
		.string({ error: (i) => expected('an http(s) URL string', i.input) })
		.refine(isHttpUrl, { error: (i) => expected('an http:// or https:// URL', i.input) });

/** Retry (2.13): where the final outcome is posted, and when retrying stops. */
export const RetrySchema = z.object({
	notificationUrl: opt(httpUrl()),
	expiration: opt(isoDateTime())
});

/** Customer arrived (2.13). */
export const CustomerArrivedSchema = z.object({
	id: orderId(),
	retry: opt(RetrySchema)
});

/**
 * The furthest estimated arrival accepted, in minutes: a day. The takeout view counts down to it;
 * an estimate further off is a mistake (a pickup tomorrow is the order's pickupTime), and an
 * unbounded number would put a countdown of billions of hours on the screen.
 */
export const MAX_ETA_MINUTES = 24 * 60;

/** Estimated arrival update (2.13): minutes until the customer is expected. */
export const EstimatedArrivalSchema = z.object({
	id: orderId(),
	minutes: int().max(MAX_ETA_MINUTES, {
		error: `expected at most ${MAX_ETA_MINUTES} minutes (24 hours); a later arrival is a pickupTime`
	}),
	retry: opt(RetrySchema)
});

/** Send message (2.13): a pop-up on the screens. */
export const SendMessageSchema = z.object({
	message: str()
		.refine((s) => s.trim() !== '', {
			error: (i) => expected('a message with some text', i.input)
		})
		.refine((s) => codePoints(s) <= MAX_MESSAGE_LENGTH, {
			error: `expected at most ${MAX_MESSAGE_LENGTH} characters`
		})
});

export type Retry = z.output<typeof RetrySchema>;
export type CustomerArrived = z.output<typeof CustomerArrivedSchema>;
export type EstimatedArrival = z.output<typeof EstimatedArrivalSchema>;
export type SendMessage = z.output<typeof SendMessageSchema>;

/** A notification's retry.expiration as the agent reads it (times.ts), in place. */
function readRetry(body: { retry?: Retry }, _input: unknown, context: { timeZone?: string }) {
	const expiration = body.retry?.expiration;
	if (expiration !== undefined && body.retry) {
		body.retry.expiration = normaliseDateTime(
			expiration,
			['retry', 'expiration'],
			context.timeZone
		).value;
	}
	return undefined;
}

// The notifications with a retry read its expiration in the location's zone.
readers.add(CustomerArrivedSchema, { read: readRetry });
readers.add(EstimatedArrivalSchema, { read: readRetry });
