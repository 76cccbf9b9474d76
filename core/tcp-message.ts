/**
 * TCP envelope decoding (contract sections 4.5 and 7): one framed message, as text, into an order
 * command, or the field errors that make the agent reply `Unable to parse data`.
 *
 * `envelopeOf(json)` is THE one decision of whether a TCP message is a `{command, order}`
 * envelope or a legacy bare order, and where its order is. Everything that looks inside a TCP
 * message uses it: the parser below (what the screen replies), the conformance findings, the
 * inspector's field view (core/view/order-fields.ts), the faults (which order a message carried).
 * `{"command":"create-order","order":null}` is an envelope with no order: the screen answers
 * `Unable to parse data` (`order: expected an object, got null`), and nothing reads the envelope
 * itself as the order.
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import type { Outcome } from './outcome.ts';
import {
	CancelOrderSchema,
	PartialOrderSchema,
	TcpOrderSchema,
	type OrderCommand
} from './order-schema.ts';
import { expected, parseWith, showValue, type ParseResult, type ReadOptions } from './parse.ts';

/** The TCP reply to a message that cannot be parsed (contract sections 4.5 and 7). */
export const UNABLE_TO_PARSE = 'Unable to parse data';

export const TCP_COMMANDS = [
	'create-order',
	'update-order',
	'partial-update-order',
	'cancel-order'
] as const satisfies ReadonlyArray<OrderCommand['command']>;

export type TcpCommandName = (typeof TCP_COMMANDS)[number];

const ORDER_SCHEMA_BY_COMMAND = {
	'create-order': TcpOrderSchema,
	'update-order': TcpOrderSchema,
	'partial-update-order': PartialOrderSchema,
	'cancel-order': CancelOrderSchema
} as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A TCP message's JSON read as an envelope or a bare order (envelopeOf). */
export interface TcpEnvelope {
	/**
	 * True for the `{command, order}` envelope (screens since 2.21.30): the message has an
	 * `order` or a `command` key, whatever their values. False for a legacy bare order.
	 */
	enveloped: boolean;
	/** The `command` as sent (undefined when absent or bare): the parser judges it. */
	command: unknown;
	/**
	 * The command the message names: `create-order` when it names none (bare, or a command absent
	 * or null); the command when a string (valid or not); null when its command is not a string.
	 */
	named: string | null;
	/**
	 * The order object: the envelope's `order` when that is an object, the message itself when
	 * bare; null when the envelope carries none (absent, null, an array, a string).
	 */
	order: Record<string, unknown> | null;
	/** The envelope's `order` as sent (the message itself when bare), for error messages. */
	orderValue: unknown;
	/** What a field path of the order starts with in the whole message: `order.` or nothing. */
	prefix: '' | 'order.';
}

/**
 * How a TCP message's decoded JSON carries its order: the one decision (see the module's top).
 * Null when the message is not a JSON object (no envelope, no order).
 */
export function envelopeOf(json: unknown): TcpEnvelope | null {
	if (!isPlainObject(json)) return null;
	if (!('order' in json) && !('command' in json)) {
		return {
			enveloped: false,
			command: undefined,
			named: 'create-order',
			order: json,
			orderValue: json,
			prefix: ''
		};
	}
	const command = json.command;
	return {
		enveloped: true,
		command,
		named:
			command === undefined || command === null
				? 'create-order'
				: typeof command === 'string'
					? command
					: null,
		order: isPlainObject(json.order) ? json.order : null,
		orderValue: json.order,
		prefix: 'order.'
	};
}

/**
 * Parse one TCP message (already framed, as text) into a command.
 *
 * - `{command, order}` is the envelope of screens since 2.21.30; a missing command means
 *   create-order.
 * - An object with no `order` wrapper is a bare order from older screens: create-order.
 */
export function parseTcpMessage(
	text: string,
	options: ReadOptions = {}
): ParseResult<OrderCommand> {
	return decodeTcpMessage(text, options).result;
}

/** As parseTcpMessage, also returning the decoded JSON (undefined when it is not JSON). */
export function decodeTcpMessage(
	text: string,
	options: ReadOptions = {}
): {
	json: unknown;
	result: ParseResult<OrderCommand>;
} {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (err) {
		const message = `not valid JSON (${(err as Error).message})`;
		return { json: undefined, result: { ok: false, errors: [{ path: '', message }] } };
	}
	return { json, result: parseTcpValue(json, options) };
}

/** As parseTcpMessage, for an already decoded JSON value. */
export function parseTcpValue(json: unknown, options: ReadOptions = {}): ParseResult<OrderCommand> {
	const envelope = envelopeOf(json);
	if (envelope === null) {
		return {
			ok: false,
			errors: [{ path: '', message: `expected a JSON object, got ${showValue(json)}` }]
		};
	}
	if (!envelope.enveloped) {
		const parsed = parseWith(TcpOrderSchema, envelope.order, [], options);
		return parsed.ok ? withCommand('create-order', parsed) : parsed;
	}
	const name = tcpCommandOf(envelope);
	if (name === undefined) {
		const message = expected(
			`one of ${TCP_COMMANDS.join(', ')}`,
			envelope.command ?? 'create-order'
		);
		return { ok: false, errors: [{ path: 'command', message }] };
	}
	if (envelope.order === null) {
		const message = expected('an object', envelope.orderValue);
		return { ok: false, errors: [{ path: 'order', message }] };
	}
	const parsed = parseWith(ORDER_SCHEMA_BY_COMMAND[name], envelope.order, ['order'], options);
	return parsed.ok ? withCommand(name, parsed) : parsed;
}

/** The envelope's command when it is one of the contract's (TCP_COMMANDS), else undefined. */
export function tcpCommandOf(envelope: TcpEnvelope): TcpCommandName | undefined {
	const named = envelope.named;
	return named !== null && (TCP_COMMANDS as readonly string[]).includes(named)
		? (named as TcpCommandName)
		: undefined;
}

function withCommand(
	command: TcpCommandName,
	parsed: { value: unknown; outcomes?: Outcome[]; plain?: true }
): ParseResult<OrderCommand> {
	const value = { command, order: parsed.value } as OrderCommand;
	const result: ParseResult<OrderCommand> = parsed.outcomes
		? { ok: true, value, outcomes: parsed.outcomes }
		: { ok: true, value };
	// The order read as the common case (no key the contract does not know): the findings skip
	// their walk for unknown fields, as HTTP's do. The envelope's own keys are checked apart.
	if (parsed.plain) result.plain = true;
	return result;
}
