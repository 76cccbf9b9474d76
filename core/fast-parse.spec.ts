/**
 * The common-case parsers (fast-parse.ts, wired in order-schema.ts) against zod's own parser, on
 * seeded random orders: mostly valid, with odd values (nulls, wrong types, bad date-times, empty
 * or control-character ids, duplicate and missing lineIds, unknown keys) mixed in. Wherever the
 * fast parser answers, zod accepts the input too and outputs exactly the same value (keys, their
 * order, every nested object); everywhere else it answers undefined and zod decides.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
	fastArray,
	fastEnum,
	fastFirst,
	fastInt,
	fastObject,
	fastReader,
	fastString,
	fastStringWhere,
	fastThen,
	passesWhen
} from './fast-parse.ts';
import { int as intField, nonEmpty, opt, str as strField } from './field-schemas.ts';
import {
	COURSE_STATUSES,
	HttpOrderSchema,
	ItemGroupSchema,
	KdsItemSchema,
	ModifierSchema,
	ORDER_MODES,
	OrderItemSchema,
	PartialOrderSchema,
	TcpOrderSchema
} from './order-schema.ts';
import { checkConformance } from './conformance.ts';
import { parseTcpValue, type TcpCommandName } from './tcp-message.ts';
import { parseWith, readers } from './parse.ts';

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

	it('the readers compiled from the schemas: the same output on seeded orders', () => {
		const compiledOrder = fastReader(TcpOrderSchema, { how: 'compiled' });
		const loopedOrder = fastReader(TcpOrderSchema, { how: 'looped' });
		let answered = 0;
		fc.assert(
			fc.property(full(mix(fc.oneof(dateTime, fc.integer({ min: 0, max: 8.64e15 })))), (input) => {
				const read = compiledOrder(input);
				expect(loopedOrder(input)).toStrictEqual(read);
				if (read !== undefined) answered += 1;
			}),
			{ seed: 2820, numRuns: 500 }
		);
		expect(answered).toBeGreaterThan(50);
	});

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

	it("reads an item without a lineId itself, giving it the id zod's transform gives", () => {
		const input = { ...body, items: [{ name: 'x', qty: 1, mods: [] }, body.items[0]] };
		const read = fastOf(HttpOrderSchema)(input) as { items: Array<{ lineId: string }> };
		expect(read).toStrictEqual(HttpOrderSchema.parse(input));
		expect(read.items.map((item) => item.lineId)).toEqual(['#1', '1']);
		// The input's items are left as they were sent.
		expect(input.items[0]).toEqual({ name: 'x', qty: 1, mods: [] });
	});

	it.each([
		['a null', { ...body, phoneNumber: null }],
		['an unknown key', { ...body, table: 4 }],
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

describe('a schema changed under the compiler: its reader follows, no table touched', () => {
	/**
	 * Wherever the reader compiled from `schema` answers, zod accepts the input and outputs the
	 * same value; returns how often it answered.
	 */
	function agrees(
		schema: z.ZodType,
		arb: fc.Arbitrary<unknown>,
		seed: number,
		numRuns = 1000
	): number {
		const fast = fastReader(schema);
		let answered = 0;
		fc.assert(
			fc.property(arb, (input) => {
				const read = fast(input);
				if (read === undefined) return;
				answered += 1;
				const parsed = schema.safeParse(input);
				expect(parsed.success).toBe(true);
				expect(read).toStrictEqual(parsed.data);
				expect(JSON.stringify(read)).toBe(JSON.stringify(parsed.data));
			}),
			{ seed, numRuns }
		);
		return answered;
	}
	const names = mix(fc.string({ maxLength: 6, unit: 'grapheme' }));

	it("a string field given .min(3): shorter names are zod's to refuse", () => {
		const Changed = ModifierSchema.extend({ name: strField().min(3) });
		const fast = fastReader(Changed);
		expect(fast({ name: 'ab' })).toBeUndefined();
		expect(Changed.safeParse({ name: 'ab' }).success).toBe(false);
		expect(fast({ name: 'abc', qty: 2 })).toStrictEqual({ name: 'abc', qty: 2 });
		// Three code points in six UTF-16 units, and two in four: zod counts code points.
		expect(fast({ name: '😀😀😀' })).toStrictEqual({ name: '😀😀😀' });
		expect(fast({ name: '😀😀' })).toBeUndefined();
		const answered = agrees(Changed, record({ name: names, qty: mix(int) }, ['name']), 2816);
		expect(answered).toBeGreaterThan(100);
	});

	it('the whole HTTP order with its name given .min(3) and a .max(4) on item names', () => {
		const Changed = HttpOrderSchema.extend({
			name: strField().min(3),
			items: z.array(OrderItemSchema.extend({ name: strField().max(4) }))
		});
		const body = {
			id: 'B-1',
			name: 'Guest',
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Soup', qty: 1, mods: ['Hot'] }],
			time: '2026-11-22T18:00:00Z'
		};
		const fast = fastReader(Changed);
		expect(fast(body)).toStrictEqual(Changed.parse(body));
		expect(fast({ ...body, name: 'Al' })).toBeUndefined();
		expect(fast({ ...body, items: [{ ...body.items[0], name: 'Salad' }] })).toBeUndefined();
		expect(agrees(Changed, full(mix(dateTime)), 2817)).toBeGreaterThan(20);
	});

	it('a string field turned into a number, and a number into a string', () => {
		const Changed = KdsItemSchema.extend({ name: z.number().int(), qty: strField() });
		const fast = fastReader(Changed);
		const item = { lineId: '1', name: 7, qty: '2', mods: [] };
		expect(fast(item)).toStrictEqual(Changed.parse(item));
		expect(fast({ ...item, name: 'Soup' })).toBeUndefined();
		expect(fast({ ...item, name: 7.5 })).toBeUndefined();
		expect(fast({ ...item, qty: 2 })).toBeUndefined();
		const arb = record(
			{
				lineId: mix(fc.constantFrom('1', '2')),
				name: mix(fc.oneof(int, fc.double(), str)),
				qty: mix(fc.oneof(int, str)),
				mods: mix(fc.array(modifier, { maxLength: 2 }))
			},
			['lineId', 'name', 'qty', 'mods']
		);
		expect(agrees(Changed, arb, 2818)).toBeGreaterThan(100);
	});

	it("refines, regexes, bounds, overwrites and defaults: zod's verdict, or zod decides", () => {
		const Changed = z.object({
			code: nonEmpty().refine((s) => s.startsWith('A')),
			tag: opt(strField().regex(/^[a-z]+$/)),
			qty: opt(intField(1).max(5)),
			trimmed: opt(strField().trim()),
			upper: opt(strField().transform((s) => s.toUpperCase())),
			withDefault: z.string().default('x'),
			seen: opt(z.array(strField()).min(1)),
			email: opt(z.email())
		});
		const fast = fastReader(Changed);
		expect(fast({ code: 'A1', withDefault: 'y', upper: 'ab' })).toStrictEqual({
			code: 'A1',
			upper: 'AB',
			withDefault: 'y'
		});
		expect(fast({ code: 'B1', withDefault: 'y' })).toBeUndefined();
		// A default sent is read by its inner schema; one left out is zod's to fill in.
		expect(fast({ code: 'A1' })).toBeUndefined();
		expect(fast({ code: 'A1', withDefault: 'y', trimmed: ' a ' })).toBeUndefined();
		// A string format is a check of the node itself.
		expect(fast({ code: 'A1', withDefault: 'y', email: 'not an address' })).toBeUndefined();
		expect(fast({ code: 'A1', withDefault: 'y', email: 'a@b.co' })).toStrictEqual({
			code: 'A1',
			withDefault: 'y',
			email: 'a@b.co'
		});
		const arb = record(
			{
				code: mix(fc.constantFrom('A1', 'B1', 'A')),
				tag: mix(fc.constantFrom('ab', 'Ab', '')),
				qty: mix(fc.integer({ min: 0, max: 7 })),
				trimmed: mix(fc.constantFrom('a', ' a', 'b ')),
				upper: mix(str),
				withDefault: mix(str),
				seen: mix(fc.array(str, { maxLength: 2 })),
				email: mix(fc.constantFrom('a@b.co', 'a@b', '@', 'x'))
			},
			['code', 'withDefault']
		);
		expect(agrees(Changed, arb, 2819, 3000)).toBeGreaterThan(30);
	});
});

describe('passesWhen: a superRefine with a quick test of its own', () => {
	it("skips the check's function where the test says yes, runs it where it says no", () => {
		let calls = 0;
		const check = (values: number[], ctx: z.RefinementCtx) => {
			calls++;
			if (values.includes(0)) ctx.addIssue({ code: 'custom', message: 'no zero' });
		};
		const schema = passesWhen(z.array(z.number()).superRefine(check), (v: number[]) =>
			v.every((n) => n > 0)
		);
		const read = fastReader(schema);
		expect(read([1, 2])).toEqual([1, 2]);
		expect(calls).toBe(0);
		// The test says no: zod's function runs and decides (here: no issue, so it is read).
		expect(read([-1])).toEqual([-1]);
		expect(calls).toBe(1);
		expect(read([0])).toBeUndefined();
		expect(calls).toBe(2);
	});

	/** Items with lineIds from a small set (or none), up to 40 of them: the quick test stops at 32. */
	const lineItems = fc.array(
		fc.record({
			lineId: fc.oneof(
				fc.constantFrom('1', '2', '3'),
				fc.constant(undefined),
				fc.constant(null),
				fc.integer({ min: 4, max: 400 }).map(String)
			),
			name: fc.constant('Soup'),
			qty: fc.constant(1),
			mods: fc.constant([])
		}),
		{ maxLength: 40 }
	);

	it('orders of up to 40 items, seeded: the fast reader and zod agree on duplicate lineIds', () => {
		fc.assert(
			fc.property(lineItems, (items) => {
				const input = { id: 'A-1', name: 'Dup', time: '2026-11-22T10:00:00Z', mode: 'ToGo', items };
				const fast = fastOf(HttpOrderSchema)(input);
				const parsed = HttpOrderSchema.safeParse(input);
				if (fast !== undefined) expect(parsed.success && parsed.data).toEqual(fast);
				const ok = parseWith(HttpOrderSchema, input);
				expect(ok.ok).toBe(parsed.success);
				const given = items.map((i) => i.lineId).filter((id) => typeof id === 'string');
				expect(parsed.success).toBe(new Set(given).size === given.length);
			}),
			{ seed: 2811, numRuns: 300 }
		);
	});

	it('a repeat after the 32nd item is still refused, naming it', () => {
		const items = Array.from({ length: 40 }, (_, i) => ({
			lineId: String(i + 1),
			name: 'Soup',
			qty: 1,
			mods: []
		}));
		items[39].lineId = '1';
		const input = { id: 'A-1', name: 'Dup', time: '2026-11-22T10:00:00Z', mode: 'ToGo', items };
		expect(fastOf(HttpOrderSchema)(input)).toBeUndefined();
		const result = parseWith(HttpOrderSchema, input);
		expect(result.ok).toBe(false);
		expect(JSON.stringify(result)).toContain('lineId \\"1\\" is also used by items[0]');
	});
});
