/**
 * Careless and hostile input at the schemas (issue 15): order ids with control characters, the
 * bound on an estimated arrival, pop-up length in characters, and every refusal worded as a
 * "what to fix" sentence with its field path, never zod's own text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	codePoints,
	CustomerArrivedSchema,
	EstimatedArrivalSchema,
	MAX_ETA_MINUTES,
	MAX_MESSAGE_LENGTH,
	SendMessageSchema
} from './notification-schema.ts';
import {
	CancelOrderSchema,
	HttpOrderSchema,
	PartialOrderSchema,
	TcpOrderSchema
} from './order-schema.ts';
import { formatErrors, parseWith, type FieldError, type ParseResult } from './parse.ts';
import { parseTcpMessage } from './tcp-message.ts';

const SAMPLES_DIR = fileURLToPath(new URL('../tests/fixtures/samples/', import.meta.url));

function errorsOf<T>(result: ParseResult<T>): FieldError[] {
	return result.ok ? [] : result.errors;
}

const tcpOrder = (id: string) => ({
	id,
	name: 'Maria',
	time: 1795338000000,
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
});

describe('order ids with control characters', () => {
	const bad = ['A\nB', 'A\r', '\tA', 'A\u0000', 'A\u007f', 'A\u0085B', 'A\u2028B', 'A\u2029'];

	it.each(bad)('%j is refused by every schema that names an order, at the id path', (id) => {
		const why = `expected an id without control characters or line breaks (a TCP reply is the id on one line), got ${JSON.stringify(id)}`;
		for (const [schema, body] of [
			[HttpOrderSchema, { ...tcpOrder(id), time: '2026-11-22T18:00:00Z' }],
			[TcpOrderSchema, tcpOrder(id)],
			[PartialOrderSchema, { id }],
			[CancelOrderSchema, { id }],
			[CustomerArrivedSchema, { id }],
			[EstimatedArrivalSchema, { id, minutes: 5 }]
		] as const) {
			expect(errorsOf(parseWith(schema, body))).toEqual([{ path: 'id', message: why }]);
		}
		const message = JSON.stringify({ command: 'cancel-order', order: { id } });
		expect(errorsOf(parseTcpMessage(message))).toEqual([{ path: 'order.id', message: why }]);
	});

	it('ids with spaces, quotes, emoji and other scripts are accepted', () => {
		for (const id of ['A 1', 'say "hi"', '🍔-7', 'Crème', '注文-1', '\u00a0x']) {
			expect(parseWith(CancelOrderSchema, { id })).toEqual({ ok: true, value: { id } });
		}
	});
});

describe('estimated arrival minutes', () => {
	it(`accepts 0 to ${MAX_ETA_MINUTES} (a day)`, () => {
		for (const minutes of [0, 6, MAX_ETA_MINUTES]) {
			expect(parseWith(EstimatedArrivalSchema, { id: 'A', minutes }).ok).toBe(true);
		}
	});

	it('refuses more than a day, and the largest safe integer, naming minutes', () => {
		for (const minutes of [MAX_ETA_MINUTES + 1, 9007199254740991]) {
			expect(errorsOf(parseWith(EstimatedArrivalSchema, { id: 'A', minutes }))).toEqual([
				{
					path: 'minutes',
					message: 'expected at most 1440 minutes (24 hours); a later arrival is a pickupTime'
				}
			]);
		}
		expect(errorsOf(parseWith(EstimatedArrivalSchema, { id: 'A', minutes: -1 }))).toEqual([
			{ path: 'minutes', message: 'expected an integer >= 0' }
		]);
	});
});

describe('send-message length in characters (code points)', () => {
	it('counts code points, not UTF-16 units', () => {
		expect(codePoints('')).toBe(0);
		expect(codePoints('abc')).toBe(3);
		expect(codePoints('🍔')).toBe(1);
		expect(codePoints('a🍔b🍟')).toBe(4);
		// A lone surrogate is one code point (it is what JSON.parse gives for "\ud83c").
		expect(codePoints('\ud83c')).toBe(1);
		expect(codePoints('x\udf54\ud83c')).toBe(3);
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), (s) => codePoints(s) === [...s].length),
			{ seed: 15 }
		);
	});

	it(`accepts ${MAX_MESSAGE_LENGTH} emoji (and 1,500) and refuses one more`, () => {
		for (const n of [1500, MAX_MESSAGE_LENGTH]) {
			const message = '🍔'.repeat(n);
			expect(parseWith(SendMessageSchema, { message })).toEqual({ ok: true, value: { message } });
		}
		for (const message of [
			'🍔'.repeat(MAX_MESSAGE_LENGTH + 1),
			'x'.repeat(MAX_MESSAGE_LENGTH + 1)
		]) {
			expect(errorsOf(parseWith(SendMessageSchema, { message }))).toEqual([
				{ path: 'message', message: `expected at most ${MAX_MESSAGE_LENGTH} characters` }
			]);
		}
	});
});

describe('refusals are sentences with field paths, never zod text', () => {
	const ZOD_TEXT = /Invalid input|Invalid option|received|Too (big|small)|Unrecognized/;

	it.each([
		[CustomerArrivedSchema, undefined, '', 'required (an object)'],
		[CustomerArrivedSchema, { id: 'A', retry: 'soon' }, 'retry', 'expected an object, got "soon"'],
		[PartialOrderSchema, { id: 'A', itemsToAdd: 'x' }, 'itemsToAdd', 'expected an array, got "x"'],
		[
			PartialOrderSchema,
			{ id: 'A', itemsToAdd: [5] },
			'itemsToAdd[0]',
			'expected an object, got 5'
		],
		[PartialOrderSchema, { id: 'A', costs: 5 }, 'costs', 'expected an object, got 5'],
		[
			PartialOrderSchema,
			{ id: 'A', costs: { additionalFees: {} } },
			'costs.additionalFees',
			'expected an array, got an object'
		],
		[
			PartialOrderSchema,
			{ id: 'A', deliveryService: [] },
			'deliveryService',
			"expected an object, got an array (PHP's json_encode writes an empty array as []: send {}, e.g. new stdClass(), or leave the field out)"
		],
		[
			PartialOrderSchema,
			{ id: 'A', deliveryService: [1] },
			'deliveryService',
			'expected an object, got an array'
		],
		[
			PartialOrderSchema,
			{ id: 'A', itemsToAdd: { 1: { lineId: '2' }, 2: {}, 5: {}, 7: {} } },
			'itemsToAdd',
			'expected an array, got an object (keys "1", "2", "5", …: PHP\'s json_encode writes an array whose keys are not 0, 1, 2… as an object; send array_values() of it)'
		],
		[
			PartialOrderSchema,
			{ id: 'A', itemsToAdd: { a: {} } },
			'itemsToAdd',
			'expected an array, got an object'
		]
	] as const)('worded refusal %#', (schema, body, path, message) => {
		expect(errorsOf(parseWith(schema, body))).toEqual([{ path, message }]);
	});

	/** Every value of a JSON document with its path, the document itself first. */
	function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
		const out = [at];
		if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
		else if (value && typeof value === 'object') {
			for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
		}
		return out;
	}

	function replaced(doc: unknown, at: Array<string | number>, value: unknown): unknown {
		if (at.length === 0) return value;
		const copy = structuredClone(doc) as Record<string | number, unknown>;
		let node = copy;
		for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
		node[at[at.length - 1]] = value;
		return copy;
	}

	const SCHEMAS = [
		[HttpOrderSchema, 'http-create'],
		[PartialOrderSchema, 'partial'],
		[CustomerArrivedSchema, 'customer-arrived'],
		[EstimatedArrivalSchema, 'eta'],
		[SendMessageSchema, 'message']
	] as const;
	const samples = readdirSync(SAMPLES_DIR).filter(
		(f) => f.startsWith('http-') && f.endsWith('.json')
	);

	it('any field of any HTTP sample set to any JSON value gives only worded errors', () => {
		let refusals = 0;
		for (const [schema, key] of SCHEMAS) {
			const files = samples.filter((f) => f.includes(key));
			expect(files.length, key).toBeGreaterThan(0);
			for (const file of files) {
				const doc = JSON.parse(readFileSync(`${SAMPLES_DIR}/${file}`, 'utf8')) as unknown;
				const at = fc.constantFrom(...paths(doc));
				fc.assert(
					fc.property(at, fc.jsonValue({ maxDepth: 2 }), (path, value) => {
						const result = parseWith(schema, replaced(doc, path, value));
						for (const error of errorsOf(result)) {
							refusals++;
							expect(error.message, formatErrors([error])).not.toMatch(ZOD_TEXT);
							expect(error.message).toMatch(/^(expected|required)\b/);
						}
					}),
					{ seed: 15, numRuns: 150 }
				);
			}
		}
		expect(refusals).toBeGreaterThan(100);
	});
});
