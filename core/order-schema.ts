/**
 * The one place where order input is validated: the HTTP bodies and the TCP messages of
 * kds-interface.md section 2 and 4.5. Everything behind these parsers trusts their output.
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import * as z from 'zod';
import type { Outcome } from './outcome';
import { isIsoDateTime, normaliseDateTime } from './times';
import { isHttpUrl } from './url';

export const ORDER_MODES = [
	'For Here',
	'ToGo',
	'Pickup',
	'DriveThru',
	'Delivery',
	'Curbside'
] as const;
export const COURSE_STATUSES = ['straightFire', 'hold', 'fire', 'pickup'] as const;
/** The TCP reply to a message that cannot be parsed (contract sections 4.5 and 7). */
export const UNABLE_TO_PARSE = 'Unable to parse data';

export const TCP_COMMANDS = [
	'create-order',
	'update-order',
	'partial-update-order',
	'cancel-order'
] as const;

/**
 * Optional field that also accepts null; both mean "absent" (contract 4.2, partial rule 3).
 * The null becomes undefined in `parseWith`, once per message, after validation: a transform
 * on every optional field made each one a pipe, which cost about 40% of a whole parse.
 */
function opt<T extends z.ZodType>(schema: T) {
	return schema.nullish() as unknown as z.ZodOptional<T>;
}

const str = () => z.string({ error: (i) => expected('a string', i.input) });
const nonEmpty = () =>
	z
		.string({ error: (i) => expected('a non-empty string', i.input) })
		.min(1, { error: 'expected a non-empty string' });
/**
 * An order id: a TCP reply is the bare id, so one holding a line break or another control
 * character would split or garble the reply a line-reading client waits for.
 */
const orderId = () =>
	nonEmpty().refine((s) => !hasControlCharacter(s), {
		error: (i) =>
			`expected an id without control characters or line breaks (a TCP reply is the id on one line), got ${showValue(i.input)}`
	});

/** C0 and C1 controls (tab and newline among them), DEL, and the line and paragraph separators. */
export function hasControlCharacter(s: string): boolean {
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return true;
	}
	return false;
}

const bool = () => z.boolean({ error: (i) => expected('true or false', i.input) });
const int = (min = 0) =>
	z
		.number({ error: (i) => expected('an integer', i.input) })
		.int({ error: (i) => expected('an integer', i.input) })
		.min(min, { error: `expected an integer >= ${min}` });

/**
 * ISO 8601 date-time, with or without offset, 0 to 9 fractional digits (times.ts); kept as given
 * here, read by `readTimes` once the order is valid.
 */
const isoDateTime = () =>
	z
		.string({ error: (i) => expected('an ISO 8601 date-time string', i.input) })
		.refine(isIsoDateTime, {
			error: (i) => expected('an ISO 8601 date-time string, e.g. 2026-11-22T18:04:00Z', i.input)
		});

/** ISO 8601 duration such as PT30M or P1DT2H; weeks form PnW too. */
export const ISO_DURATION =
	/^P(?!$)(\d+(?:\.\d+)?Y)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?W)?(\d+(?:\.\d+)?D)?(T(?=\d)(\d+(?:\.\d+)?H)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?S)?)?$/;
const isoDuration = () =>
	z
		.string({ error: (i) => expected('an ISO 8601 duration string', i.input) })
		.regex(ISO_DURATION, { error: 'expected an ISO 8601 duration string, e.g. PT30M' });

function expected(what: string, input: unknown): string {
	if (input === undefined) return `required (${what})`;
	return `expected ${what}, got ${showValue(input)}`;
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

export const ModifierSchema = z.object({
	name: str(),
	qty: opt(int())
});

/**
 * Modifier objects, or plain strings for backwards compatibility (section 9). Objects first: they
 * are the common case, and a union pays for every branch that fails before one matches.
 */
const ModifierInput = z.union([ModifierSchema, str().transform((name): Modifier => ({ name }))], {
	error: (i) => expected('a modifier object {name, qty?} or a string', i.input)
});

export const ItemGroupSchema = z.object({
	id: str(),
	name: str(),
	note: opt(str())
});

export const KdsItemSchema = z.object({
	lineId: nonEmpty(),
	name: str(),
	qty: int(),
	price: opt(str()),
	mods: z.array(ModifierInput, { error: (i) => expected('an array of modifiers', i.input) }),
	specialInstructions: opt(str()),
	course: opt(str()),
	courseStatus: opt(
		z.enum(COURSE_STATUSES, {
			error: (i) => expected(`one of ${COURSE_STATUSES.join(', ')}`, i.input)
		})
	),
	seat: opt(str()),
	itemGroup: opt(ItemGroupSchema)
});

/**
 * Contract 2.2: lineId "must be unique within the order". Two items with one lineId make every
 * later update by lineId ambiguous, so the order is refused, naming the second one.
 */
function uniqueLineIds(items: KdsItem[], ctx: z.RefinementCtx): void {
	if (items.length < 2) return;
	const first = new Map<string, number>();
	items.forEach((item, i) => {
		const earlier = first.get(item.lineId);
		if (earlier === undefined) first.set(item.lineId, i);
		else {
			ctx.addIssue({
				code: 'custom',
				path: [i, 'lineId'],
				input: item.lineId,
				message: `lineId ${showValue(item.lineId)} is also used by items[${earlier}]; lineIds must be unique within the order`
			});
		}
	});
}

const AdditionalFeeSchema = z.object({ name: str(), amount: str() });
const PromoCodeSchema = z.object({ name: opt(str()), amount: str() });

export const CostsSchema = z.object({
	subtotal: opt(str()),
	tax: opt(str()),
	deliveryFee: opt(str()),
	surcharge: opt(str()),
	convenienceFee: opt(str()),
	tip: opt(str()),
	additionalFees: opt(z.array(AdditionalFeeSchema)),
	total: opt(str()),
	promoCodes: opt(z.array(PromoCodeSchema))
});

export const DeliveryServiceSchema = z.object({
	name: str(),
	orderId: str(),
	driverPhone: opt(str())
});

const modeSchema = () =>
	z.enum(ORDER_MODES, { error: (i) => expected(`one of ${ORDER_MODES.join(', ')}`, i.input) });

/** Fields shared by the full order (2.1) and the partial order (2.7), all optional here. */
const sharedOptional = {
	pickupTime: opt(isoDateTime()),
	phoneNumber: opt(str()),
	deliveryAddress: opt(str()),
	deliveryHandoff: opt(bool()),
	server: opt(str()),
	specialInstructions: opt(str()),
	vehicleModel: opt(str()),
	vehicleColor: opt(str()),
	costs: opt(CostsSchema),
	deliveryService: opt(DeliveryServiceSchema),
	originSource: opt(str()),
	checkNumber: opt(str()),
	priority: opt(bool()),
	prepTimeDuration: opt(isoDuration()),
	covers: opt(int()),
	loyaltyMember: opt(bool()),
	onlineOrder: opt(bool()),
	isPaid: opt(bool())
};

const orderFields = {
	id: orderId(),
	name: str(),
	mode: modeSchema(),
	items: z
		.array(KdsItemSchema, { error: (i) => expected('an array of items', i.input) })
		.superRefine(uniqueLineIds),
	optInForSms: opt(bool()),
	terminal: opt(str()),
	customerArrivedUrl: opt(str()),
	...sharedOptional
};

/** The largest time a Date can hold (ECMA-262 21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/** HTTP order (2.1): time is an ISO 8601 string. */
export const HttpOrderSchema = z.object({ ...orderFields, time: isoDateTime() });

/**
 * TCP order (2.1): time is declared int ms since epoch, but the vendor's own sample sends an
 * ISO 8601 string, so both are accepted. Normalised to an ISO string.
 */
export const TcpOrderSchema = z.object({
	...orderFields,
	time: z.union(
		[
			// Past 8.64e15 ms a Date is invalid and toISOString would throw instead of failing.
			int()
				.max(MAX_DATE_MS, { error: `expected milliseconds since epoch <= ${MAX_DATE_MS}` })
				.transform((ms) => new Date(ms).toISOString()),
			isoDateTime()
		],
		{ error: (i) => expected('milliseconds since epoch or an ISO 8601 date-time string', i.input) }
	)
});

/** Partial order (2.7). */
export const PartialOrderSchema = z.object({
	id: orderId(),
	name: opt(str()),
	mode: opt(modeSchema()),
	itemsToAdd: opt(z.array(KdsItemSchema)),
	itemsToUpdate: opt(z.array(KdsItemSchema)),
	itemsToRemove: opt(z.array(str())),
	...sharedOptional
});

/** Cancel order (2.8). */
export const CancelOrderSchema = z.object({ id: orderId() });

export type Modifier = z.output<typeof ModifierSchema>;
export type ItemGroup = z.output<typeof ItemGroupSchema>;
export type KdsItem = z.output<typeof KdsItemSchema>;
export type Costs = z.output<typeof CostsSchema>;
export type DeliveryService = z.output<typeof DeliveryServiceSchema>;
export type OrderMode = (typeof ORDER_MODES)[number];
export type CourseStatus = (typeof COURSE_STATUSES)[number];
/** A validated order, from HTTP or TCP; time is an ISO 8601 string. */
export type Order = z.output<typeof HttpOrderSchema>;
export type PartialOrder = z.output<typeof PartialOrderSchema>;
export type CancelOrder = z.output<typeof CancelOrderSchema>;
export type TcpCommandName = (typeof TCP_COMMANDS)[number];

/** A command to one screen, whichever interface it came from. */
export type OrderCommand =
	| { command: 'create-order'; order: Order }
	| { command: 'update-order'; order: Order }
	| { command: 'partial-update-order'; order: PartialOrder }
	| { command: 'cancel-order'; order: CancelOrder };

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
	{ ok: true; value: T; outcomes?: Outcome[] } | { ok: false; errors: FieldError[] };

/** Options of the order parsers. */
export interface ReadOptions {
	/**
	 * IANA time zone of the screen's location: a date-time with no offset is its local time.
	 * Left out: UTC.
	 */
	timeZone?: string;
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

const TYPE_NAMES: Record<string, string> = {
	object: 'an object',
	array: 'an array',
	string: 'a string',
	number: 'a number',
	int: 'an integer',
	boolean: 'true or false'
};

/**
 * The message of an issue that no schema above words itself (an object or array field given the
 * wrong type, say): the same "expected ..., got ..." sentence, so that zod's own text ("Invalid
 * input: expected object, received undefined") never reaches a client.
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
 * Validate with one of the schemas above; errors carry field paths. Every null that an optional
 * field accepted becomes undefined, "absent" (see `opt`): in these schemas only optional fields
 * accept null, so every null in the output is one of them. A schema whose nulls mean something
 * (the config's address line2) passes `keepNulls`.
 */
export function parseWith<S extends z.ZodType>(
	schema: S,
	input: unknown,
	prefix: ReadonlyArray<PropertyKey> = [],
	options: { keepNulls?: boolean } & ReadOptions = {}
): ParseResult<z.output<S>> {
	const result = schema.safeParse(input, PARSE_PARAMS);
	if (!result.success) return { ok: false, errors: toFieldErrors(result.error, prefix) };
	const nulls = !options.keepNulls && nullsToAbsent(result.data);
	let outcomes = ORDER_SCHEMAS.has(schema)
		? readTimes(result.data as Record<string, unknown>, options.timeZone)
		: undefined;
	if (RETRY_SCHEMAS.has(schema)) readRetry(result.data as { retry?: Retry }, options.timeZone);
	// In a partial update null is the contract's own "leave unchanged" (4.2 rule 3): no outcome.
	if (nulls && FULL_ORDER_SCHEMAS.has(schema)) {
		const read: Outcome[] = [];
		nullOutcomes(input, result.data, [], read);
		outcomes = [...read, ...(outcomes ?? [])];
	}
	return outcomes ? { ok: true, value: result.data, outcomes } : { ok: true, value: result.data };
}

/** The order's date-times as the screen reads them (times.ts), in place on the parser's output. */
function readTimes(order: Record<string, unknown>, timeZone?: string): Outcome[] | undefined {
	let outcomes: Outcome[] | undefined;
	for (const key of TIME_FIELDS) {
		const text = order[key];
		if (typeof text !== 'string') continue;
		const read = normaliseDateTime(text, [key], timeZone);
		if (read.value === text) continue;
		order[key] = read.value;
		(outcomes ??= []).push(...read.outcomes);
	}
	return outcomes;
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

/** Each optional field the input sent as null (now absent in the output), as an outcome. */
function nullOutcomes(
	input: unknown,
	output: unknown,
	path: Array<string | number>,
	out: Outcome[]
) {
	if (
		typeof input !== 'object' ||
		input === null ||
		typeof output !== 'object' ||
		output === null
	) {
		return;
	}
	const raw = input as Record<string, unknown>;
	const read = output as Record<string, unknown>;
	for (const key of Object.keys(read)) {
		const at = Array.isArray(read) ? Number(key) : key;
		if (read[key] === undefined && raw[key] === null) {
			out.push({
				code: 'KDS-FIELD-NULL',
				path: [...path, at],
				message: `${String(key)} is null: read as absent`
			});
		} else nullOutcomes(raw[key], read[key], [...path, at], out);
	}
}

/** One line naming every offending field: `items[1].qty: expected an integer, got "2x"`. */
export function formatErrors(errors: FieldError[]): string {
	return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}

const TIME_FIELDS = ['time', 'pickupTime'] as const;
/** The full orders: create and update (TCP and HTTP). */
const FULL_ORDER_SCHEMAS = new Set<z.ZodType>([HttpOrderSchema, TcpOrderSchema]);
/** The schemas whose output is an order with date-times to read. */
const ORDER_SCHEMAS = new Set<z.ZodType>([HttpOrderSchema, TcpOrderSchema, PartialOrderSchema]);

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
	parsed: { value: unknown; outcomes?: Outcome[] }
): ParseResult<OrderCommand> {
	const value = { command, order: parsed.value } as OrderCommand;
	return parsed.outcomes ? { ok: true, value, outcomes: parsed.outcomes } : { ok: true, value };
}

// Notification bodies (contract 2.13).

/** A notification's retry.expiration as the agent reads it (times.ts), in place. */
function readRetry(body: { retry?: Retry }, timeZone?: string): void {
	const expiration = body.retry?.expiration;
	if (expiration !== undefined && body.retry) {
		body.retry.expiration = normaliseDateTime(expiration, ['retry', 'expiration'], timeZone).value;
	}
}

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

/** The notification schemas with a retry whose expiration is read in the location's zone. */
const RETRY_SCHEMAS = new Set<z.ZodType>([CustomerArrivedSchema, EstimatedArrivalSchema]);
export type CustomerArrived = z.output<typeof CustomerArrivedSchema>;
export type EstimatedArrival = z.output<typeof EstimatedArrivalSchema>;
export type SendMessage = z.output<typeof SendMessageSchema>;
