/**
 * The common-case parsers (fast-parse.ts, wired in order-schema.ts) against zod's own parser, on
 * seeded random orders: mostly valid, with odd values (nulls, wrong types, bad date-times, empty
 * or control-character ids, duplicate and missing lineIds, unknown keys) mixed in. Wherever the
 * fast parser answers, zod accepts the input too and outputs exactly the same value (keys, their
 * order, every nested object); everywhere else it answers undefined and zod decides.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
	fastArray,
	fastEnum,
	fastFirst,
	fastInt,
	fastObject,
	fastString,
	fastStringWhere,
	fastThen
} from './fast-parse';
import {
	COURSE_STATUSES,
	HttpOrderSchema,
	ItemGroupSchema,
	KdsItemSchema,
	ModifierSchema,
	ORDER_MODES,
	PartialOrderSchema,
	TcpOrderSchema
} from './order-schema';
import { checkConformance } from './conformance';
import { parseTcpValue, type TcpCommandName } from './tcp-message';
import { parseWith, readers } from './parse';

const fastOf = (schema: z.ZodType) => readers.get(schema)!.fast!;

const odd = fc.oneof(
	fc.constant(null),
	fc.integer({ min: -3, max: 3 }),
	fc.double({ noNaN: true }),
	fc.constantFrom(2 ** 53, -0, 1.5, 8.64e15 + 1, 1732298400000),
	fc.string({ maxLength: 3 }),
	fc.constantFrom('', 'a\nb', '2026-13-01T00:00:00Z', 'PT', 'P1D', '\u2028'),
	fc.boolean(),
	fc.constant([]),
	fc.constant({})
);
/** Mostly the valid value, sometimes an odd one. */
const mix = <T>(valid: fc.Arbitrary<T>) =>
	fc.oneof(
		{ arbitrary: valid, weight: 40 },
		{ arbitrary: odd as fc.Arbitrary<unknown>, weight: 1 }
	);
const str = fc.string({ maxLength: 5, unit: 'grapheme' });
const int = fc.integer({ min: 0, max: 9 });
const dateTime = fc.constantFrom(
	'2026-11-22T18:00:00Z',
	'2026-11-22T18:00:00',
	'2026-11-22T18:00:00.123456+02:00',
	'2026-11-22T24:00:00Z'
);
const withUnknown = <T extends object>(arb: fc.Arbitrary<T>) =>
	fc.tuple(arb, fc.integer({ min: 0, max: 30 })).map(([value, n]) => {
		if (n === 0) return { ...value, extra: 1 };
		if (n === 1) return JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(value).slice(1)}`) as T;
		return value;
	});
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(
	model: T,
	requiredKeys: Array<keyof T & string>
) => withUnknown(fc.record(model, { requiredKeys, noNullPrototype: true }));

const modifier = fc.oneof(
	{ arbitrary: record({ name: mix(str), qty: mix(int) }, ['name']), weight: 4 },
	{ arbitrary: str, weight: 2 },
	{ arbitrary: odd, weight: 1 }
);
const itemModel = {
	lineId: mix(fc.constantFrom('1', '2', '3', '4', '5')),
	name: mix(str),
	qty: mix(int),
	price: mix(str),
	mods: mix(fc.array(modifier, { maxLength: 3 })),
	specialInstructions: mix(str),
	course: mix(str),
	courseStatus: mix(fc.constantFrom(...COURSE_STATUSES)),
	seat: mix(str),
	itemGroup: mix(record({ id: mix(str), name: mix(str), note: mix(str) }, ['id', 'name']))
};
const item = record(itemModel, ['lineId', 'name', 'qty', 'mods']);
const items = mix(fc.array(item, { maxLength: 4 }));
const shared = {
	pickupTime: mix(dateTime),
	phoneNumber: mix(str),
	deliveryHandoff: mix(fc.boolean()),
	specialInstructions: mix(str),
	costs: mix(
		record(
			{
				subtotal: mix(str),
				total: mix(str),
				additionalFees: mix(
					fc.array(record({ name: mix(str), amount: mix(str) }, ['name', 'amount']), {
						maxLength: 2
					})
				),
				promoCodes: mix(
					fc.array(record({ name: mix(str), amount: mix(str) }, ['amount']), { maxLength: 2 })
				)
			},
			[]
		)
	),
	deliveryService: mix(
		record({ name: mix(str), orderId: mix(str), driverPhone: mix(str) }, ['name', 'orderId'])
	),
	priority: mix(fc.boolean()),
	prepTimeDuration: mix(fc.constantFrom('PT30M', 'P1DT2H', 'P2W', 'PT1.5H')),
	covers: mix(int),
	isPaid: mix(fc.boolean())
};
const orderId = mix(fc.constantFrom('A-1', 'ü-2', '😀'));
const full = (time: fc.Arbitrary<unknown>) =>
	record(
		{
			id: orderId,
			name: mix(str),
			mode: mix(fc.constantFrom(...ORDER_MODES)),
			items,
			time,
			optInForSms: mix(fc.boolean()),
			...shared
		},
		['id', 'name', 'mode', 'items', 'time']
	);
const partial = record(
	{
		id: orderId,
		name: mix(str),
		mode: mix(fc.constantFrom(...ORDER_MODES)),
		itemsToAdd: mix(fc.array(item, { maxLength: 3 })),
		itemsToUpdate: mix(fc.array(item, { maxLength: 3 })),
		itemsToRemove: mix(fc.array(str, { maxLength: 3 })),
		...shared
	},
	['id']
);

/**
 * Runs the comparison; returns how often the fast parser answered and how often it left it to zod.
 * Where it answered, the findings with the walk for unknown fields skipped (`plain`) are those
 * with it.
 */
function compare(
	schema: z.ZodType,
	arb: fc.Arbitrary<unknown>,
	seed: number,
	check: { interface: 'http' | 'tcp'; command: TcpCommandName }
) {
	const fast = fastOf(schema);
	const counts = { fast: 0, zod: 0 };
	fc.assert(
		fc.property(arb, fc.boolean(), (value, viaJson) => {
			// As an HTTP body arrives (JSON.parse) and as a built object.
			const input: unknown = viaJson ? JSON.parse(JSON.stringify(value)) : value;
			const read = fast(input);
			const parsed = schema.safeParse(input);
			if (read === undefined) {
				counts.zod += 1;
				return;
			}
			counts.fast += 1;
			expect(parsed.success).toBe(true);
			expect(JSON.stringify(read)).toBe(JSON.stringify(parsed.data));
			expect(read).toStrictEqual(parsed.data);
			const result = parseWith(schema, input);
			if (!result.ok) throw new Error('parseWith refused what zod took');
			expect(result.plain).toBe(true);
			const ctx = {
				...check,
				raw: input,
				schemaValid: true,
				parsed: result.value as never,
				outcomes: result.outcomes ?? []
			};
			expect(checkConformance({ ...ctx, plain: true })).toStrictEqual(checkConformance(ctx));
		}),
		{ seed, numRuns: 1500 }
	);
	return counts;
}

describe('the common-case parser gives what zod gives (seeded)', () => {
	it('HTTP orders', () => {
		const counts = compare(HttpOrderSchema, full(mix(dateTime)), 2811, {
			interface: 'http',
			command: 'create-order'
		});
		// Both ways are taken often: the comparison is not empty.
		expect(counts.fast).toBeGreaterThan(100);
		expect(counts.zod).toBeGreaterThan(100);
	});

	it('TCP orders (time in milliseconds or ISO 8601)', () => {
		const time = mix(fc.oneof(dateTime, fc.integer({ min: 0, max: 8.64e15 })));
		const counts = compare(TcpOrderSchema, full(time), 2812, {
			interface: 'tcp',
			command: 'create-order'
		});
		expect(counts.fast).toBeGreaterThan(100);
		expect(counts.zod).toBeGreaterThan(100);
	});

	it('partial updates', () => {
		const counts = compare(PartialOrderSchema, partial, 2813, {
			interface: 'http',
			command: 'partial-update-order'
		});
		expect(counts.fast).toBeGreaterThan(100);
		expect(counts.zod).toBeGreaterThan(100);
	});
});

describe('TCP messages: the findings of the agent (plain passed) are those of the full walk', () => {
	const envelope = fc.oneof(
		withUnknown(
			fc.record({
				command: fc.constantFrom('create-order', 'update-order', undefined, null),
				order: full(mix(fc.oneof(dateTime, fc.integer({ min: 0, max: 8.64e15 }))))
			})
		),
		withUnknown(fc.record({ command: fc.constant('partial-update-order'), order: partial })),
		withUnknown(
			fc.record({
				command: fc.constant('cancel-order'),
				order: withUnknown(fc.record({ id: orderId }))
			})
		),
		full(fc.integer({ min: 0, max: 8.64e15 }))
	);
	it('over enveloped and bare orders of every command (seeded)', () => {
		const counts = { plain: 0, walked: 0 };
		fc.assert(
			fc.property(envelope, (value) => {
				const json: unknown = JSON.parse(JSON.stringify(value));
				const parsed = parseTcpValue(json);
				if (!parsed.ok) return;
				const named = (json as { command?: unknown }).command;
				const ctx = {
					interface: 'tcp' as const,
					command: (typeof named === 'string' ? named : 'create-order') as TcpCommandName,
					raw: json,
					schemaValid: true,
					parsed: parsed.value.order,
					outcomes: parsed.outcomes ?? []
				};
				if (parsed.plain) counts.plain += 1;
				else counts.walked += 1;
				expect(checkConformance({ ...ctx, plain: parsed.plain === true })).toStrictEqual(
					checkConformance(ctx)
				);
			}),
			{ seed: 2815, numRuns: 1500 }
		);
		expect(counts.plain).toBeGreaterThan(100);
		expect(counts.walked).toBeGreaterThan(50);
	});
});

describe('compiled and looped alike', () => {
	// Where zod may not compile (a strict content security policy), objects are read by a loop.
	const readersOf = (how: 'compiled' | 'looped') => ({
		lineId: fastStringWhere((s) => s.length >= 1),
		name: fastString,
		qty: fastInt,
		price: fastString,
		specialInstructions: fastString,
		course: fastString,
		seat: fastString,
		mods: fastArray(
			fastFirst(
				fastObject(ModifierSchema, { name: fastString, qty: fastInt }, how),
				fastThen(fastString, (name: string) => ({ name }))
			)
		),
		courseStatus: fastEnum(COURSE_STATUSES),
		itemGroup: fastObject(
			ItemGroupSchema,
			{ id: fastString, name: fastString, note: fastString },
			how
		)
	});
	const compiled = fastObject(KdsItemSchema, readersOf('compiled'), 'compiled');
	const looped = fastObject(KdsItemSchema, readersOf('looped'), 'looped');

	it("give the same output, zod's, on generated items", () => {
		let answered = 0;
		fc.assert(
			fc.property(item, (input) => {
				const read = compiled(input);
				expect(looped(input)).toStrictEqual(read);
				if (read === undefined) return;
				answered += 1;
				expect(JSON.stringify(read)).toBe(JSON.stringify(KdsItemSchema.parse(input)));
			}),
			{ seed: 2814, numRuns: 1000 }
		);
		expect(answered).toBeGreaterThan(100);
	});
});

describe('an input that already is its output', () => {
	const item = (i: number) => ({
		lineId: String(i),
		name: `Item ${i}`,
		qty: 1,
		mods: [{ name: 'No onion' }, { name: 'Extra cheese', qty: 2 }]
	});
	const order = {
		id: 'B-1',
		name: 'Bench Guest',
		mode: 'ToGo',
		items: [item(1), item(2), item(3)],
		time: '2026-11-22T18:00:00Z'
	};

	it('is returned as it is, uncopied and unchanged, where every key comes in the schema order', () => {
		const input = JSON.parse(JSON.stringify(order));
		const text = JSON.stringify(input);
		const read = fastOf(HttpOrderSchema)(input) as typeof order;
		// The order itself is always a fresh object (its reader rewrites date-times in it).
		expect(read).not.toBe(input);
		expect(read.items).toBe(input.items);
		const group = fastObject(ItemGroupSchema, {
			id: fastString,
			name: fastString,
			note: fastString
		});
		const plainGroup = { id: 'g1', name: 'Mains' };
		expect(group(plainGroup)).toBe(plainGroup);
		expect(read).toStrictEqual(HttpOrderSchema.parse(input));
		expect(JSON.stringify(input)).toBe(text);
	});

	it('is copied from the first value that differs, the unchanged parts kept as they are', () => {
		// A TCP time in milliseconds becomes an ISO string, a modifier string an object.
		const input = JSON.parse(
			JSON.stringify({
				...order,
				items: [item(1), { ...item(2), mods: ['Well done', { name: 'Salt' }] }],
				time: Date.UTC(2026, 10, 22, 18)
			})
		);
		const text = JSON.stringify(input);
		const read = fastOf(TcpOrderSchema)(input) as typeof order;
		expect(read).toStrictEqual(TcpOrderSchema.parse(input));
		expect(read).not.toBe(input);
		expect(read.time).toBe('2026-11-22T18:00:00.000Z');
		expect(read.items).not.toBe(input.items);
		expect(read.items[0]).toBe(input.items[0]);
		expect(read.items[1].mods).toStrictEqual([{ name: 'Well done' }, { name: 'Salt' }]);
		expect(read.items[1].mods[1]).toBe(input.items[1].mods[1]);
		expect(JSON.stringify(input)).toBe(text);
	});

	it("is copied in the schema's key order when its keys come in another", () => {
		const { time, ...rest } = order;
		const input = JSON.parse(JSON.stringify({ time, ...rest }));
		const read = fastOf(HttpOrderSchema)(input);
		expect(read).not.toBe(input);
		expect(Object.keys(read as object)).toEqual(Object.keys(HttpOrderSchema.parse(input)));
		expect((read as typeof order).items).toBe(input.items);
	});

	it('leaves the input as it was when a reader rewrites a date-time (a time without offset)', () => {
		for (const [schema, body] of [
			[HttpOrderSchema, { ...order, time: '2026-11-22T18:00:00' }],
			[TcpOrderSchema, { ...order, time: '2026-11-22T18:00:00', pickupTime: '2026-11-22T18:30' }],
			[PartialOrderSchema, { id: 'B-1', pickupTime: '2026-11-22T18:30:00' }]
		] as const) {
			const input = JSON.parse(JSON.stringify(body));
			const text = JSON.stringify(input);
			const parsed = parseWith(schema, input, [], { timeZone: 'Europe/Berlin' });
			expect(parsed.ok && parsed.plain).toBe(true);
			expect(parsed.ok && parsed.outcomes?.length).toBeGreaterThan(0);
			expect(JSON.stringify(input)).toBe(text);
			expect(parsed.ok && parsed.value).not.toBe(input);
		}
	});

	it('is copied when it is not a plain object', () => {
		const group = fastObject(ItemGroupSchema, {
			id: fastString,
			name: fastString,
			note: fastString
		});
		const input = Object.assign(Object.create(null) as object, { id: 'g1', name: 'Mains' });
		const read = group(input);
		expect(read).not.toBe(input);
		expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
		expect(read).toStrictEqual(ItemGroupSchema.parse(input));
	});
});

describe('which inputs it leaves to zod', () => {
	const body = {
		id: 'B-1',
		name: 'Bench Guest',
		time: '2026-11-22T18:00:00Z',
		mode: 'ToGo',
		phoneNumber: '+14155550123',
		items: Array.from({ length: 10 }, (_, i) => ({
			lineId: String(i + 1),
			name: `Item ${i + 1}`,
			qty: 1 + (i % 3),
			price: '$4.50',
			mods: [{ name: 'No onion' }, { name: 'Extra cheese', qty: 2 }, 'Well done']
		})),
		costs: { subtotal: '$45.00', tax: '$3.60', total: '$48.60' }
	};

	it('reads the usual order itself, and its output is what zod outputs', () => {
		const read = fastOf(HttpOrderSchema)(body);
		expect(read).toStrictEqual(HttpOrderSchema.parse(body));
		expect((read as { items: Array<{ mods: unknown[] }> }).items[0].mods[2]).toEqual({
			name: 'Well done'
		});
	});

	it.each([
		['a null', { ...body, phoneNumber: null }],
		['an unknown key', { ...body, table: 4 }],
		['an item without a lineId', { ...body, items: [{ name: 'x', qty: 1, mods: [] }] }],
		[
			'two items with one lineId',
			{ ...body, items: [body.items[0], { ...body.items[1], lineId: '1' }] }
		],
		['a bad time', { ...body, time: '22/11/2026' }],
		['an id with a line break', { ...body, id: 'A\nB' }]
	])('%s: zod decides (and parseWith gives its result)', (_, input) => {
		expect(fastOf(HttpOrderSchema)(input)).toBeUndefined();
		const viaParseWith = parseWith(HttpOrderSchema, input);
		const parsed = HttpOrderSchema.safeParse(input);
		expect(viaParseWith.ok).toBe(parsed.success);
	});
});
