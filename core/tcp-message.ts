/**
 * TCP envelope decoding (contract sections 4.5 and 7): one framed message, as text, into an order
 * command, or the field errors that make the agent reply `Unable to parse data`.
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
	if (!isPlainObject(json)) {
		return {
			ok: false,
			errors: [{ path: '', message: `expected a JSON object, got ${showValue(json)}` }]
		};
	}
	const enveloped = 'order' in json || 'command' in json;
	if (!enveloped) {
		const parsed = parseWith(TcpOrderSchema, json, [], options);
		return parsed.ok ? withCommand('create-order', parsed) : parsed;
	}
	const command = json.command ?? 'create-order';
	if (typeof command !== 'string' || !(TCP_COMMANDS as readonly string[]).includes(command)) {
		return {
			ok: false,
			errors: [{ path: 'command', message: expected(`one of ${TCP_COMMANDS.join(', ')}`, command) }]
		};
	}
	if (!isPlainObject(json.order)) {
		return { ok: false, errors: [{ path: 'order', message: expected('an object', json.order) }] };
	}
	const name = command as TcpCommandName;
	const parsed = parseWith(ORDER_SCHEMA_BY_COMMAND[name], json.order, ['order'], options);
	return parsed.ok ? withCommand(name, parsed) : parsed;
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
