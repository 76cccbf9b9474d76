/**
 * Validation at the edge, with field-path errors: every parser of input (orders, notifications,
 * the config, query strings) goes through `parseWith`, and every refusal is worded the same way
 * ("items[1].qty: expected an integer, got "2x"").
 *
 * The helper knows no schema by name: a schema whose output needs reading once it is valid (an
 * order's date-times, a notification's expiration) declares it in the `readers` registry (zod's
 * own registry of metadata by schema), next to its definition.
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import * as z from 'zod';
import type { Outcome } from './outcome.ts';

export interface FieldError {
	/** Field path such as `order.items[1].qty`; empty for the message as a whole. */
	path: string;
	message: string;
}

/**
 * A parse: the value, with what the parser normalised (outcomes, paths relative to the value; left
 * out when there is none), or the field errors.
 */
export type ParseResult<T> =
	| {
			ok: true;
			value: T;
			outcomes?: Outcome[];
			/**
			 * Read as the common case (fast-parse.ts): no null and no key the schema does not have,
			 * anywhere in it. Left out when zod read it.
			 */
			plain?: true;
	  }
	| { ok: false; errors: FieldError[] };

/** Options of the order parsers. */
export interface ReadOptions {
	/**
	 * IANA time zone of the screen's location: a date-time with no offset is its local time.
	 * Left out: UTC.
	 */
	timeZone?: string;
}

/**
 * What a schema's valid output still needs: run in place on the parser's own output (fresh
 * objects, never the caller's input), with the raw input to compare against. `nulls` says whether
 * any null was read as absent. Returns what it normalised, as outcomes, if anything.
 */
export type Read = (
	value: never,
	input: unknown,
	context: { nulls: boolean; timeZone?: string }
) => Outcome[] | undefined;

/**
 * The schemas whose output is read further once valid, each with its reading; `fast`, when given,
 * is the schema's parser of the common valid case (fast-parse.ts): zod's very output, or undefined
 * for anything else (zod then parses it, and words any error).
 */
export const readers = z.registry<{ read: Read; fast?: (input: unknown) => unknown }>();

export function expected(what: string, input: unknown): string {
	if (input === undefined) return `required (${what})`;
	return `expected ${what}, got ${showValue(input)}${encoderHint(what, input)}`;
}

/**
 * How a common JSON encoder made this wrong type, where that is plain from the value: PHP's
 * json_encode writes an empty array as `[]` even where an object is meant, and an array whose keys
 * are not 0, 1, 2… (after unset()) as an object `{"1": …}`. Found by the client zoo's PHP client.
 */
function encoderHint(what: string, input: unknown): string {
	if (what === 'an object' && Array.isArray(input) && input.length === 0)
		return " (PHP's json_encode writes an empty array as []: send {}, e.g. new stdClass(), or leave the field out)";
	if (
		what.startsWith('an array') &&
		typeof input === 'object' &&
		input !== null &&
		!Array.isArray(input)
	) {
		const keys = Object.keys(input);
		if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key)))
			return ` (keys ${keys
				.slice(0, 3)
				.map((key) => JSON.stringify(key))
				.join(
					', '
				)}${keys.length > 3 ? ', …' : ''}: PHP's json_encode writes an array whose keys are not 0, 1, 2… as an object; send array_values() of it)`;
	}
	return '';
}

/**
 * A bad value, shown briefly for an error message: `nothing`, `null`, `an array`, `an object`, or
 * the value as JSON cut to 40 characters.
 */
export function showValue(input: unknown): string {
	if (input === undefined) return 'nothing';
	if (input === null) return 'null';
	if (Array.isArray(input)) return 'an array';
	if (typeof input === 'object') return 'an object';
	const text = JSON.stringify(input);
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** `items[1].qty` style path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out ? `.${String(key)}` : String(key);
	}
	return out;
}

/** One line naming every offending field: `items[1].qty: expected an integer, got "2x"`. */
export function formatErrors(errors: FieldError[]): string {
	return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}

const TYPE_NAMES: Record<string, string> = {
	object: 'an object',
	array: 'an array',
	string: 'a string',
	number: 'a number',
	int: 'an integer',
	boolean: 'true or false'
};

/**
 * The message of an issue that no schema words itself (an object or array field given the wrong
 * type, say): the same "expected ..., got ..." sentence, so that zod's own text ("Invalid input:
 * expected object, received undefined") never reaches a client.
 */
function fallbackMessage(issue: z.core.$ZodRawIssue): string {
	switch (issue.code) {
		case 'invalid_type':
			return expected(TYPE_NAMES[issue.expected] ?? `a ${issue.expected}`, issue.input);
		case 'too_big':
			return `expected at most ${String(issue.maximum)}`;
		case 'too_small':
			return `expected at least ${String(issue.minimum)}`;
		case 'invalid_value':
			return expected(
				`one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
				issue.input
			);
		default:
			return expected('a valid value', issue.input);
	}
}

const PARSE_PARAMS = { error: fallbackMessage };

function toFieldErrors(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): FieldError[] {
	return error.issues.map((issue) => {
		return { path: formatPath([...prefix, ...issue.path]), message: issue.message };
	});
}

/**
 * Validate with a schema; errors carry field paths. Every null that an optional field accepted
 * becomes undefined, "absent" (see `opt` in field-schemas.ts): in these schemas only optional
 * fields accept null, so every null in the output is one of them. A schema whose nulls mean
 * something (the config's address line2) passes `keepNulls`. Then the schema's reader, if it
 * declared one (`readers`), reads the output further.
 */
export function parseWith<S extends z.ZodType>(
	schema: S,
	input: unknown,
	prefix: ReadonlyArray<PropertyKey> = [],
	options: { keepNulls?: boolean } & ReadOptions = {}
): ParseResult<z.output<S>> {
	const entry = readers.get(schema);
	// The common case read without zod holds no null (fast-parse.ts): nothing to read as absent.
	let data = entry?.fast?.(input) as z.output<S> | undefined;
	const plain = data !== undefined;
	let nulls = false;
	if (data === undefined) {
		const result = schema.safeParse(input, PARSE_PARAMS);
		if (!result.success) return { ok: false, errors: toFieldErrors(result.error, prefix) };
		data = result.data;
		nulls = !options.keepNulls && nullsToAbsent(data);
	}
	const read = entry?.read as
		| ((value: z.output<S>, input: unknown, context: Parameters<Read>[2]) => Outcome[] | undefined)
		| undefined;
	const outcomes = read?.(data, input, { nulls, timeZone: options.timeZone });
	if (plain)
		return outcomes ? { ok: true, value: data, outcomes, plain } : { ok: true, value: data, plain };
	return outcomes ? { ok: true, value: data, outcomes } : { ok: true, value: data };
}

/**
 * In place, on a parser's own output (fresh objects and arrays, never the caller's input).
 * Returns whether there was any null.
 */
function nullsToAbsent(value: unknown): boolean {
	let found = false;
	if (Array.isArray(value)) {
		for (const element of value) {
			if (typeof element === 'object' && nullsToAbsent(element)) found = true;
		}
		return found;
	}
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Record<string, unknown>;
	for (const key in record) {
		const field = record[key];
		if (field === null) {
			record[key] = undefined;
			found = true;
		} else if (typeof field === 'object' && nullsToAbsent(field)) found = true;
	}
	return found;
}
