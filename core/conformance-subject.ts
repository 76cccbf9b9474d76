/**
 * What a conformance check works on: the message, where its order sits, and the findings so far.
 * Shared by the finding modules (schema-findings, outcome-findings, message-findings).
 *
 * Pure: no Node, no DOM.
 */
import type * as z from 'zod';
import type { OrderRecord } from './order-machine.ts';
import type { Outcome } from './outcome.ts';
import type { Decision } from './screen.ts';
import { RULE_TABLE, type Finding, type RuleCode } from './rules.ts';
import {
	CancelOrderSchema,
	HttpOrderSchema,
	PartialOrderSchema,
	TcpOrderSchema,
	type OrderCommand
} from './order-schema.ts';
import { formatPath } from './parse.ts';
import { type TcpCommandName } from './tcp-message.ts';

export interface CheckContext {
	interface: 'tcp' | 'http';
	command: TcpCommandName;
	/**
	 * The raw decoded JSON as received (before schema parsing), so unknown fields and wrong types
	 * are visible. For TCP: the whole message (envelope or bare order); for HTTP: the body.
	 */
	raw: unknown;
	/**
	 * The screen setting auto hold future orders (prepTimeDuration is ignored when off). Leave it
	 * out when unknown: the rule that needs it is then skipped.
	 */
	autoHold?: boolean;
	/**
	 * The order on the screen with the message's id, if any (bumped ones included). For update,
	 * partial update and cancel, leaving it out means the screen has no such order.
	 */
	existing?: OrderRecord;
	/**
	 * The caller already parsed this message's order with the schema the check would use (TCP:
	 * the command's schema, HTTP: the route's) and it passed, so the schema has no issues to
	 * report and is not run a second time. Leave it out when unsure: the schema is then run.
	 */
	schemaValid?: boolean;
	/**
	 * What the core decided about this message (outcome.ts): parsing's normalisations and
	 * decide's ignored entries, paths relative to the order. Leave it out when unknown: the
	 * parser's outcomes are then worked out here (the schema is run), with `timeZone`.
	 */
	outcomes?: readonly Outcome[];
	/** The IANA time zone of the screen's location, when `outcomes` is left out. */
	timeZone?: string;
	/**
	 * The order as the caller's parser read it (with `schemaValid`), so the check does not parse
	 * it again. Left out: the check parses it.
	 */
	parsed?: OrderCommand['order'];
	/**
	 * The caller's parser read the order as the common case (`plain` of parse.ts): it has no key
	 * the contract does not know, anywhere, so the walk for unknown fields is skipped.
	 */
	plain?: boolean;
	/**
	 * What the core decided about this message, handed over by the caller that decided it (the
	 * HTTP route), so the check does not decide it a second time: `decide` with `explain`, at
	 * time `at`, on a screen whose order with the message's id was `existing` (none when left
	 * out). The same decision the check would make on a screen of its own (decide reads only
	 * that order, and a new order's place in the queue is no finding's business), as long as no
	 * item of `existing` carries the time `at` (outcome-findings.ts checks). Only the handed-over
	 * decision knows the screen's other orders, so only it can carry KDS-ORDER-COMBINED (Combine
	 * Orders). Left out: the check decides on a screen of its own, as the UI does.
	 */
	decided?: { decision: Decision; at: number };
	/**
	 * Whether the message's text holds U+FFFD, what the UTF-8 decoder leaves for bytes that are
	 * not UTF-8 (text-findings.ts). The edges know it from the text with one scan; false skips the
	 * search through the message's strings. Left out: the strings are searched (the UI).
	 */
	replacementChar?: boolean;
}

export type Key = string | number;
export type Path = readonly Key[];
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined when the path leaves the data. */

export function orderSchemaFor(ctx: CheckContext): z.ZodType {
	switch (ctx.command) {
		case 'create-order':
		case 'update-order':
			return ctx.interface === 'tcp' ? TcpOrderSchema : HttpOrderSchema;
		case 'partial-update-order':
			return PartialOrderSchema;
		case 'cancel-order':
			return CancelOrderSchema;
	}
}

/** Collects findings; one per code and path. */
export class Report {
	readonly findings: Finding[] = [];
	/** Made with the first finding: most messages have none. */
	private seen: Set<string> | undefined;

	add(code: RuleCode, path: Path, message: string): void {
		const at = formatPath(path);
		const key = `${code} ${at}`;
		const seen = (this.seen ??= new Set<string>());
		if (seen.has(key)) return;
		seen.add(key);
		this.findings.push({ severity: RULE_TABLE[code].severity, code, path: at, message });
	}
}

/** What is checked: the order object of the message and where it sits in the message. */
export interface Subject {
	ctx: CheckContext;
	order: Json;
	/** Path of the order inside the raw message: ['order'] in a TCP envelope, else []. */
	prefix: Path;
	report: Report;
	/** The existing order when the core took this update or partial update for it. */
	live?: OrderRecord;
	/** The order as the core leaves it after this message, when the core took the message. */
	after?: OrderRecord;
	/** The time the core's decision was made at here: every item this message changed has it. */
	at: number;
}
