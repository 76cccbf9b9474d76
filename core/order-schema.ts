/**
 * The order schemas: the full order of HTTP and TCP (contract 2.1), the partial order (2.7) and
 * the cancel (2.8), with the types everything behind the parsers trusts. They are validated
 * through `parseWith` (parse.ts); the TCP envelope around them is decoded in tcp-message.ts; the
 * notification bodies are in notification-schema.ts.
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import * as z from 'zod';
import {
	bool,
	int,
	isoDateTime,
	isoDuration,
	nonEmpty,
	opt,
	orderId,
	str
} from './field-schemas.ts';
import { fastReader, passesWhen, pureTransform } from './fast-parse.ts';
import type { Outcome } from './outcome.ts';
import { expected, readers, showValue } from './parse.ts';
import { COURSE_STATUSES, ORDER_MODES } from './order-words.ts';
import { normaliseDateTime } from './times.ts';

export { COURSE_STATUSES, ORDER_MODES };

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
 * later update by lineId ambiguous, so the order is refused, naming the second one. Items sent
 * without a lineId are not compared: each gets one of its own (withLineIds).
 */
function uniqueLineIds(
	items: ReadonlyArray<{ lineId?: string | null }>,
	ctx: z.RefinementCtx
): void {
	const first = new Map<string, number>();
	items.forEach((item, i) => {
		if (item.lineId === undefined || item.lineId === null) return;
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

/**
 * uniqueLineIds' common case, without a Map or a context: true when no two of up to 32 items
 * share a lineId (so the check adds no issue); false otherwise, and zod runs uniqueLineIds itself.
 */
function lineIdsPlainlyUnique(items: ReadonlyArray<{ lineId?: string | null }>): boolean {
	const n = items.length;
	if (n > 32) return false;
	for (let i = 1; i < n; i++) {
		const id = items[i].lineId;
		if (id === undefined || id === null) continue;
		for (let j = 0; j < i; j++) if (items[j].lineId === id) return false;
	}
	return true;
}

/**
 * The line id the screen gives each item of a full order sent without one (older clients do;
 * field notes): `#` and the item's position from 1, with `.2`, `.3`… added in the rare case the
 * order also gives that id itself. By position: index → generated id. The one rule the schema
 * (withLineIds) and the inspector's finding (message-findings.ts) both read.
 */
export function generatedLineIds(items: readonly unknown[]): Map<number, string> {
	const out = new Map<number, string>();
	const given = new Set<string>();
	for (const item of items) {
		const id = (item as { lineId?: unknown } | null)?.lineId;
		if (typeof id === 'string') given.add(id);
	}
	items.forEach((item, i) => {
		if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
		const id = (item as { lineId?: unknown }).lineId;
		if (id !== undefined && id !== null) return;
		let candidate = `#${i + 1}`;
		for (let n = 2; given.has(candidate); n++) candidate = `#${i + 1}.${n}`;
		given.add(candidate);
		out.set(i, candidate);
	});
	return out;
}

/** Items of a full order: those sent without a lineId get the generated one. */
function withLineIds(
	items: Array<Omit<KdsItem, 'lineId'> & { lineId?: string | null }>
): KdsItem[] {
	if (items.every((item) => typeof item.lineId === 'string')) return items as KdsItem[];
	const generated = generatedLineIds(items);
	return items.map((item, i) =>
		typeof item.lineId === 'string' ? (item as KdsItem) : { ...item, lineId: generated.get(i)! }
	);
}

/** An item of a full order as sent: its lineId may be absent (see generatedLineIds). */
export const OrderItemSchema = KdsItemSchema.extend({ lineId: opt(nonEmpty()) });

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
	// withLineIds copies what it changes: the common-case reader may run it on the input's items.
	items: pureTransform(
		passesWhen(
			z
				.array(OrderItemSchema, { error: (i) => expected('an array of items', i.input) })
				.superRefine(uniqueLineIds),
			lineIdsPlainlyUnique
		).transform(withLineIds)
	),
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

/** A command to one screen, whichever interface it came from. */
export type OrderCommand =
	| { command: 'create-order'; order: Order }
	| { command: 'update-order'; order: Order }
	| { command: 'partial-update-order'; order: PartialOrder }
	| { command: 'cancel-order'; order: CancelOrder };

const TIME_FIELDS = ['time', 'pickupTime'] as const;

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

/** A full order (create and update, TCP and HTTP): its nulls and its date-times, read. */
function readFullOrder(
	order: Record<string, unknown>,
	input: unknown,
	context: { nulls: boolean; timeZone?: string }
): Outcome[] | undefined {
	const times = readTimes(order, context.timeZone);
	if (!context.nulls) return times;
	const read: Outcome[] = [];
	nullOutcomes(input, order, [], read);
	return [...read, ...(times ?? [])];
}

/**
 * A partial order: its date-times. Its nulls are the contract's own "leave unchanged" (4.2 rule
 * 3): no outcome.
 */
function readPartialOrder(
	order: Record<string, unknown>,
	_input: unknown,
	context: { timeZone?: string }
): Outcome[] | undefined {
	return readTimes(order, context.timeZone);
}

// The common valid case without zod (fast-parse.ts): each reader compiled from the schema itself,
// every check and transform zod's own; every other input (a null, an unknown key, any error) is
// zod's. core/fast-parse.spec.ts holds the two outputs equal. The orders' readers rewrite
// date-times in place (readTimes): the order object is always a fresh one (`fresh`), its items
// and their modifiers the input's own when they are exactly the output.
readers.add(HttpOrderSchema, {
	read: readFullOrder,
	fast: fastReader(HttpOrderSchema, { fresh: true })
});
readers.add(TcpOrderSchema, {
	read: readFullOrder,
	fast: fastReader(TcpOrderSchema, { fresh: true })
});
readers.add(PartialOrderSchema, {
	read: readPartialOrder,
	fast: fastReader(PartialOrderSchema, { fresh: true })
});
