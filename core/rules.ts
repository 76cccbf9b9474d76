/**
 * The rule catalogue: every code a finding can carry, with its severity and a one-line summary.
 * Findings come from two places (conformance.ts): the schema's issues and what the core decided
 * (its outcomes, outcome.ts), each naming one of these codes.
 *
 * Pure: no Node, no DOM.
 */
import * as z from 'zod';
import { COURSE_STATUSES, ORDER_MODES } from './order-words.ts';

/** A finding's severities, worst first: the one list every filter and sort reads. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How bad a severity is: 0 for the worst (error); sorts findings worst first. */
export function severityRank(severity: Severity): number {
	return SEVERITIES.indexOf(severity);
}

/** How many findings of each severity. */
export function countBySeverity(
	findings: readonly { severity: Severity }[]
): Record<Severity, number> {
	const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
	for (const f of findings) counts[f.severity] += 1;
	return counts;
}

/** The worst severity among some findings (null when there are none). */
export function worstSeverity(findings: readonly { severity: Severity }[]): Severity | null {
	let worst: Severity | null = null;
	for (const f of findings) {
		if (worst === null || severityRank(f.severity) < severityRank(worst)) worst = f.severity;
	}
	return worst;
}

/** One finding of a message, as the inspector logs it and the admin API answers it. */
export const FindingSchema = z.strictObject({
	severity: z.enum(SEVERITIES),
	/** Stable identifier of the rule, a key of RULES, e.g. 'KDS-GROUP-MISMATCH'. */
	code: z.string(),
	/** Field path such as `order.items[2].itemGroup.name`; '' for the message as a whole. */
	path: z.string(),
	/** One sentence: what is wrong and what the screen does with it. */
	message: z.string()
});
export type Finding = z.infer<typeof FindingSchema>;

export interface Rule {
	severity: Severity;
	summary: string;
}

export const RULE_TABLE = {
	// The screen refuses the message (TCP: Unable to parse data; HTTP: the body is refused).
	'KDS-NOT-AN-OBJECT': {
		severity: 'error',
		summary: 'The message (TCP) or body (HTTP) is not a JSON object.'
	},
	'KDS-TCP-COMMAND-INVALID': {
		severity: 'error',
		summary:
			'The TCP command is not one of create-order, update-order, partial-update-order, cancel-order.'
	},
	'KDS-TCP-ORDER-INVALID': {
		severity: 'error',
		summary: 'The TCP envelope has no order object.'
	},
	'KDS-FIELD-REQUIRED': {
		severity: 'error',
		summary: 'A required field is missing.'
	},
	'KDS-ID-EMPTY': {
		severity: 'error',
		summary: 'An order id or item lineId is an empty string.'
	},
	'KDS-MODE-INVALID': {
		severity: 'error',
		summary: `mode is not one of ${ORDER_MODES.join(', ')}.`
	},
	'KDS-COURSE-STATUS-INVALID': {
		severity: 'error',
		summary: `An item courseStatus is not one of ${COURSE_STATUSES.join(', ')}.`
	},
	'KDS-BOOLEAN-INVALID': {
		severity: 'error',
		summary: 'A boolean field (priority, optInForSms, deliveryHandoff, ...) is not true or false.'
	},
	'KDS-INTEGER-INVALID': {
		severity: 'error',
		summary: 'An integer field (qty, covers, modifier qty) is negative or not an integer.'
	},
	'KDS-COST-NOT-STRING': {
		severity: 'error',
		summary: 'A costs amount or name is not a string (costs are display strings, e.g. "$4.50").'
	},
	'KDS-TIME-INVALID': {
		severity: 'error',
		summary:
			'time or pickupTime is not an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS[.fffffffff]][Z|±hh:mm|±hhmm|±hh] (TCP time: also milliseconds since epoch).'
	},
	'KDS-DURATION-INVALID': {
		severity: 'error',
		summary: 'prepTimeDuration is not an ISO 8601 duration such as PT30M.'
	},
	'KDS-ITEM-PARTIAL': {
		severity: 'error',
		summary: 'An itemsToUpdate entry is not a full item; partial item updates are unsupported.'
	},
	'KDS-LINEID-MISSING': {
		severity: 'warning',
		summary:
			'An item of a full order has no lineId: accepted, as the real screens show it, with a line id the screen makes up (#1, #2 by position); a later update cannot address the item by lineId.'
	},
	'KDS-LINEID-NOT-UNIQUE': {
		severity: 'error',
		summary:
			'Two items of one order share a lineId (it must be unique within the order); the order is refused.'
	},
	'KDS-TYPE-INVALID': {
		severity: 'error',
		summary: 'A field has the wrong type (string, object or array expected).'
	},
	'KDS-ORDER-DUPLICATE': {
		severity: 'error',
		summary: 'create-order for an id already on the screen or on hold (409, DUPLICATE_ORDER_ID).'
	},

	// Accepted, but a field is ignored or the result is unpredictable.
	'KDS-FIELD-UNKNOWN': {
		severity: 'warning',
		summary: 'A field the contract does not define; the screen ignores it.'
	},
	'KDS-PARTIAL-FIELD-IGNORED': {
		severity: 'warning',
		summary:
			'A partial update sends a field the partial order does not have (time, items, terminal, optInForSms, customerArrivedUrl); it is ignored.'
	},
	'KDS-ORDER-UNKNOWN': {
		severity: 'warning',
		summary:
			'update, partial update or cancel for an id with no live order on the screen; ignored (404, ORDER_DOES_NOT_EXIST).'
	},
	'KDS-GROUP-MISMATCH': {
		severity: 'warning',
		summary: 'itemGroup properties (name, note) differ between items of the same group id.'
	},
	'KDS-GROUP-SPLIT': {
		severity: 'warning',
		summary: 'Items of one group differ in course, seat or courseStatus; a group cannot be split.'
	},
	'KDS-LINEID-DUPLICATE': {
		severity: 'warning',
		summary:
			'A partial update names one lineId twice in itemsToAdd or in itemsToUpdate; the later entry is ignored or wins.'
	},
	'KDS-LINEID-CONFLICT': {
		severity: 'warning',
		summary:
			'A partial update names one lineId in more than one of itemsToAdd, itemsToUpdate, itemsToRemove.'
	},
	'KDS-LINEID-EXISTS': {
		severity: 'warning',
		summary: 'itemsToAdd with a lineId that already exists on the order; the item is ignored.'
	},
	'KDS-LINEID-UNKNOWN': {
		severity: 'warning',
		summary: 'itemsToUpdate or itemsToRemove with a lineId not on the order; it is ignored.'
	},
	'KDS-PHONE-NOT-E164': {
		severity: 'warning',
		summary: 'phoneNumber or deliveryService.driverPhone is not E.164 (e.g. +14155550123).'
	},
	'KDS-PREP-TIME-IGNORED': {
		severity: 'warning',
		summary: "prepTimeDuration is set but the screen's auto hold future orders is off; ignored."
	},
	'KDS-PREP-TIME-NO-PICKUP': {
		severity: 'warning',
		summary: 'prepTimeDuration is set on an order without pickupTime.'
	},
	'KDS-HANDOFF-IGNORED': {
		severity: 'warning',
		summary: 'deliveryHandoff is true but mode is not Delivery; ignored.'
	},
	'KDS-URL-INVALID': {
		severity: 'warning',
		summary: 'customerArrivedUrl is not an http(s) URL.'
	},
	'KDS-ITEMS-EMPTY': {
		severity: 'warning',
		summary: 'create-order with an empty items array shows an empty card.'
	},

	'KDS-TEXT-NOT-UTF8': {
		severity: 'warning',
		summary:
			'A text holds U+FFFD (�), what the UTF-8 decoder leaves for bytes that are not UTF-8 (ISO-8859-1 or Windows-1252 text: Java getBytes() without a charset): the screen shows �. JSON is UTF-8; send it so.'
	},
	'KDS-TIME-NO-OFFSET': {
		severity: 'warning',
		summary:
			"time or pickupTime has no offset (Python isoformat(), Java LocalDateTime): read as the local time of the screen's location, in its time zone. Send an offset to be sure."
	},

	// Worth knowing.
	'KDS-FIELD-NULL': {
		severity: 'info',
		summary:
			'An optional field of a create or full update is null; read as absent (in a partial update null means unchanged, with no finding).'
	},
	'KDS-TIME-OFFSET-BASIC': {
		severity: 'info',
		summary:
			'time or pickupTime with an offset as ±hhmm or ±hh (ISO 8601 basic form); read as ±hh:mm.'
	},
	'KDS-TIME-FRACTION': {
		severity: 'info',
		summary:
			'time or pickupTime with more than 3 fractional digits (.NET "o", Python, Java); the screen keeps milliseconds.'
	},
	'KDS-TCP-BARE-ORDER': {
		severity: 'info',
		summary: 'A TCP order without the {command, order} envelope (before 2.21.30): create-order.'
	},
	'KDS-TCP-COMMAND-MISSING': {
		severity: 'info',
		summary: 'A TCP envelope without command: create-order is assumed.'
	},
	'KDS-TCP-TIME-STRING': {
		severity: 'info',
		summary:
			'TCP time sent as an ISO 8601 string where the definition says int; accepted (the vendor sample does it).'
	},
	'KDS-MODS-PLAIN-STRING': {
		severity: 'info',
		summary: 'Item mods as plain strings: deprecated, still accepted.'
	},
	'KDS-MODIFIER-QTY-ZERO': {
		severity: 'info',
		summary: 'A modifier with qty 0 still shows, without a quantity (qty shows only when > 1).'
	},
	'KDS-UPDATE-FIELD-CLEARED': {
		severity: 'info',
		summary:
			'A full update leaves out a field the order has; the screen clears it (a full update must carry every property).'
	},
	'KDS-ORDER-COMBINED': {
		severity: 'info',
		summary:
			'create-order joins the ticket of an earlier order (Combine Orders on for the screen: same name, and same phone number when either has one, within 5 minutes); the card shows both ids, each keeps its own replies.'
	},
	'KDS-CANCEL-IGNORED': {
		severity: 'info',
		summary: 'cancel-order for an order already bumped or cancelled; ignored, answered with the id.'
	}
} as const satisfies Record<string, Rule>;

export type RuleCode = keyof typeof RULE_TABLE;

/** Every code checkConformance can emit, with its severity and a one-line summary. */
export const RULES: Readonly<Record<string, Rule>> = RULE_TABLE;

/**
 * The fault rules (docs/faults.md): they judge what a client did after a fault (a sequence, not one
 * message), in core/fault-findings.ts; stable ids a certification run (core/certify) names.
 */
export const FAULT_RULE_TABLE = {
	'KDS-FAULT-ORDER-LOST': {
		severity: 'error',
		summary:
			'An order a fault kept out of the kitchen (reset before commit, http-drop, a 5xx) was never sent again under its id: it is lost for good. Re-send the same id.'
	},
	'KDS-FAULT-RESENT-SAME-ID': {
		severity: 'info',
		summary:
			'Re-sent the same order id after a fault: right. DUPLICATE_ORDER_ID (TCP) or 409 (HTTP) then means the order is there.'
	},
	'KDS-FAULT-RETRY-EXPECTED': {
		severity: 'info',
		summary:
			'DUPLICATE_ORDER_ID (TCP) or 409 (HTTP) answering a same-id retry after a fault that kept the order (lost reply, no answer, response lost after commit): expected, the order is there; not a refusal.'
	},
	'KDS-FAULT-RESENT-NEW-ID': {
		severity: 'error',
		summary:
			'Re-sent the same order under a new id after a fault where the first was kept: the kitchen now has two tickets for one order.'
	},
	'KDS-FAULT-NEVER-RESENT': {
		severity: 'warning',
		summary:
			'Never re-sent nor asked after a fault that left the outcome unknown: the POS does not know whether the order arrived.'
	},
	'KDS-FAULT-RETRY-STORM': {
		severity: 'warning',
		summary:
			'Hammered a screen that was down or rebooting: 5 or more connection attempts within one second. Back off between retries.'
	},
	'KDS-FAULT-RETRY-TOO-SOON': {
		severity: 'warning',
		summary: 'Sent again before the Retry-After of a 429 or 503 had passed.'
	}
} as const satisfies Record<string, Rule>;

export type FaultRuleId = keyof typeof FAULT_RULE_TABLE;
