/**
 * One message in the inspector's log, as the agent keeps it (agent/inspector/message-log.ts)
 * and the admin API and its stream send it to the browser (src/lib/ui/inspector/): its schema
 * is the admin API's answer (agent/http/simulator-bodies.ts), its type read from it.
 */
import * as z from 'zod';
import { FindingSchema } from './rules.ts';

export const MessageEntrySchema = z.strictObject({
	id: z.int(),
	/** Agent time (ms since epoch). */
	at: z.number(),
	interface: z.enum(['tcp', 'http']),
	/** Peer address and port, `inspector re-send`, or `inspector edit of #12` (see editedFrom). */
	source: z.string(),
	/**
	 * Sent from the inspector's editor: the id of the logged message whose payload was edited
	 * and sent in its place. Absent on everything else.
	 */
	editedFrom: z.int().optional(),
	/** Screens the message was addressed to. */
	screenIds: z.array(z.string()),
	/** TCP: create-order …; HTTP: method and path. */
	command: z.string().nullable(),
	orderId: z.string().nullable(),
	/**
	 * A short summary for the list. TCP: the reply string, as sent; HTTP: the status code and,
	 * when refused, the message of the body.
	 */
	result: z.string(),
	/**
	 * What went back on the wire, exactly. TCP: the reply string (followed by a newline when the
	 * message was); HTTP: the response body (its status is the start of `result`). Absent on
	 * entries logged by versions before it was kept.
	 */
	reply: z.string().optional(),
	/**
	 * Why the screen answered so, in words the client never received (TCP: the field-path errors
	 * behind `Unable to parse data`, the reason for `DUPLICATE_ORDER_ID`); HTTP: the message of a
	 * refusal. Null when there is nothing to explain; absent on entries of earlier versions.
	 */
	why: z.string().nullable().optional(),
	ok: z.boolean(),
	/** The payload as received (text, truncated to the log's payload limit). */
	raw: z.string(),
	/**
	 * HTTP: the request's Content-Type, null when it had none (so a re-send goes as it came).
	 * Absent on TCP entries and on entries logged by versions before it was kept.
	 */
	contentType: z.string().nullable().optional(),
	/**
	 * The fault that touched this message, `<kind> (<fault id>)` (docs/faults.md). Absent on every
	 * message no fault touched.
	 */
	fault: z.string().optional(),
	/**
	 * A refusal that is the expected answer to a correct retry: a same-id re-send answered
	 * DUPLICATE_ORDER_ID (TCP) or 409 (HTTP) after a fault that kept the order, `<kind> (<fault
	 * id>)` of that fault (core/fault-findings.ts expectedRetry; docs/faults.md). Not a refusal
	 * for the inspector's list nor the screen's count (isRefusal). Absent on every other message.
	 */
	expected: z.string().optional(),
	findings: z.array(FindingSchema)
});
export type MessageEntry = z.infer<typeof MessageEntrySchema>;

/** How the inspector names the fault that touched a message: `lost-reply (f1)`. */
export function faultLabel(touch: { kind: string; faultId: string; delayedBy?: string }): string {
	const label = `${touch.kind} (${touch.faultId})`;
	return touch.delayedBy === undefined ? label : `${touch.delayedBy}, then ${label}`;
}

/**
 * Whether an entry counts as refused: not accepted, and not the expected answer to a correct
 * retry after a fault (`expected`).
 */
export function isRefusal(entry: Pick<MessageEntry, 'ok' | 'expected'>): boolean {
	return !entry.ok && entry.expected === undefined;
}

/** The inspector's result filter: refused is any entry not `ok` (isRefusal), accepted the rest. */
export const MESSAGE_RESULTS = ['refused', 'accepted'] as const;
export type MessageResult = (typeof MESSAGE_RESULTS)[number];

/**
 * Set (to true) by a transport on an entry whose `raw` is a whole JSON text that parsed (an
 * HTTP body the API read as JSON): its line then carries the payload as it came, as the JSON
 * value of its last key, `rawJson`, instead of escaped into the string `raw`: no escaped copy
 * is made (the largest allocation of an HTTP create's entry; agent/store/message-file.ts writes
 * it). The log clears it when it cuts a payload to its limit (agent/inspector/message-log.ts). Read back, the text between
 * `,"rawJson":` and the line's closing brace is the payload, exactly. A symbol: never sent
 * to a browser nor written.
 */
export const RAW_IS_JSON = Symbol('kds.rawIsJson');
