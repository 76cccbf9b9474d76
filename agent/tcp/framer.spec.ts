import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES, Framer, type Frame } from './framer';

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);

const msg = (text: string): Frame => ({ kind: 'message', text });
const garbage = (text: string): Frame => ({ kind: 'garbage', text });
/** What end() gives for what was pending: its size in bytes, never its text. */
const unfinished = (text: string | Uint8Array): Frame => ({
	kind: 'unfinished',
	bytes: typeof text === 'string' ? bytes(text).length : text.length
});
const eol: Frame = { kind: 'eol' };

/** Feeds the chunks to a fresh framer, then end(); returns every frame in order. */
function feed(chunks: Uint8Array[], maxMessageBytes?: number): Frame[] {
	const framer = new Framer({ maxMessageBytes });
	const frames: Frame[] = [];
	for (const chunk of chunks) frames.push(...framer.push(chunk));
	frames.push(...framer.end());
	return frames;
}

function oneByteAtATime(data: Uint8Array): Uint8Array[] {
	const chunks: Uint8Array[] = [];
	for (let i = 0; i < data.length; i++) chunks.push(data.subarray(i, i + 1));
	return chunks;
}

const tricky = JSON.stringify({
	open: '{',
	close: '}}',
	quote: 'say "hi" }',
	backslash: 'C:\\',
	both: '\\"{',
	brackets: '[[',
	name: 'Crème brûlée 🍔'
});
const pretty = JSON.stringify(
	{ command: 'create-order', order: { id: 'A1', items: [{ name: 'Fries', qty: 2 }] } },
	null,
	2
);
const nested = '{"a":[{"b":[1,[2,{"c":{}}]]}],"d":{"e":[]},"f":"]"}';

/** The UTF-8 byte order mark, as .NET writers put it before the JSON (field notes). */
const BOM = '\uFEFF';
/** The first two bytes of a byte order mark and no third: not a BOM, so garbage. */
const halfBom = new Uint8Array([0xef, 0xbb]);
const concat = (...parts: Uint8Array[]): Uint8Array => {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
};
const decodeLoose = (data: Uint8Array): string => new TextDecoder().decode(data);
const orders = '[{"id":"A1","name":"Ann"},{"id":"A2","name":"[Bob]"}]';

const cases: { name: string; input: string | Uint8Array; expected: Frame[] }[] = [
	{
		name: 'newline-delimited objects',
		input: '{"a":1}\n{"b":2}\n',
		expected: [msg('{"a":1}'), eol, msg('{"b":2}'), eol]
	},
	{
		name: 'back to back, no delimiter',
		input: '{"a":1}{"b":[2]}{}',
		expected: [msg('{"a":1}'), msg('{"b":[2]}'), msg('{}')]
	},
	{
		name: 'CRLF and blanks between objects',
		input: ' \t{"a":1}\r\n\r\n{"b":2} \r\n',
		expected: [msg('{"a":1}'), eol, eol, msg('{"b":2}'), eol]
	},
	{
		name: 'pretty-printed multi-line object',
		input: `${pretty}\n`,
		expected: [msg(pretty), eol]
	},
	{
		name: 'strings holding braces, quotes, backslashes and unicode',
		input: `${tricky}\n${tricky}`,
		expected: [msg(tricky), eol, msg(tricky)]
	},
	{
		name: 'garbage between messages',
		input: 'hello\n{"a":1}\nxx{"b":2}}]  {"c":3}\r\nbye \r\n',
		expected: [
			garbage('hello'),
			eol,
			msg('{"a":1}'),
			eol,
			garbage('xx'),
			msg('{"b":2}'),
			garbage('}]  '),
			msg('{"c":3}'),
			eol,
			garbage('bye \r'),
			eol
		]
	},
	{
		name: 'nested arrays and objects',
		input: nested,
		expected: [msg(nested)]
	},
	{
		name: 'truncated message, then end()',
		input: '{"a":1}\n{"b":[1,{"c":"}',
		expected: [msg('{"a":1}'), eol, unfinished('{"b":[1,{"c":"}')]
	},
	{
		name: 'garbage run left open at end()',
		input: '{"a":1} oops',
		expected: [msg('{"a":1}'), unfinished('oops')]
	},
	{
		name: 'raw newline inside a string resyncs at the next line',
		input: '{"a":"cut\n{"b":2}\n',
		expected: [garbage('{"a":"cut'), eol, msg('{"b":2}'), eol]
	},
	{
		name: 'a byte order mark before the object is skipped',
		input: `${BOM}{"a":1}`,
		expected: [msg('{"a":1}')]
	},
	{
		name: 'byte order marks before each object of one connection are skipped',
		input: `${BOM}{"a":1}\r\n${BOM}{"b":2}${BOM}{"c":3}\n \t${BOM} {"d":4}`,
		expected: [msg('{"a":1}'), eol, msg('{"b":2}'), msg('{"c":3}'), eol, msg('{"d":4}')]
	},
	{
		name: 'a byte order mark alone on a line gives no frame',
		input: `${BOM}\n{"a":1}\n`,
		expected: [eol, msg('{"a":1}'), eol]
	},
	{
		name: 'the start of a byte order mark that does not finish is garbage',
		input: concat(halfBom, bytes('{"a":1}\n'), halfBom, bytes('x\n'), halfBom),
		expected: [
			garbage(decodeLoose(halfBom)),
			msg('{"a":1}'),
			eol,
			garbage(decodeLoose(concat(halfBom, bytes('x')))),
			eol,
			unfinished(halfBom)
		]
	},
	{
		name: 'a byte order mark inside a garbage run stays in it',
		input: `oops${BOM}!\n`,
		expected: [garbage(`oops${BOM}!`), eol]
	},
	{
		name: 'a JSON array (of orders) is one message, not the objects inside it',
		input: `${orders}\n${BOM}${orders}{"a":1}`,
		expected: [msg(orders), eol, msg(orders), msg('{"a":1}')]
	},
	{
		name: 'an array after garbage, and an unfinished array at end()',
		input: 'x[1,{"a":"]"}]\n[{"a":1}',
		expected: [garbage('x'), msg('[1,{"a":"]"}]'), eol, unfinished('[{"a":1}')]
	},
	{
		name: 'whitespace only',
		input: ' \t\r\n\n',
		expected: [eol, eol]
	}
];

describe('Framer', () => {
	describe.each(cases)('$name', ({ input, expected }) => {
		const data = typeof input === 'string' ? bytes(input) : input;

		it('gives the expected frames when fed whole', () => {
			expect(feed([data])).toEqual(expected);
		});

		it('gives the same frames when split in two at every byte boundary', () => {
			for (let k = 0; k <= data.length; k++) {
				const split = feed([data.subarray(0, k), data.subarray(k)]);
				expect(split, `split at byte ${k}`).toEqual(expected);
			}
		});

		it('gives the same frames when fed one byte at a time', () => {
			expect(feed(oneByteAtATime(data))).toEqual(expected);
		});
	});

	it('decodes a multi-byte character split across chunks', () => {
		const data = bytes('{"name":"🍔"}');
		const framer = new Framer();
		// The burger is 4 bytes starting at offset 9: cut after its second byte.
		expect(framer.push(data.subarray(0, 11))).toEqual([]);
		expect(framer.buffered).toBe(11);
		expect(framer.push(data.subarray(11))).toEqual([msg('{"name":"🍔"}')]);
		expect(framer.buffered).toBe(0);
	});

	it('keeps message texts parseable', () => {
		const frames = feed([bytes(`${tricky}${pretty}`)]);
		expect(frames.map((f) => (f.kind === 'message' ? JSON.parse(f.text) : f))).toEqual([
			JSON.parse(tricky),
			JSON.parse(pretty)
		]);
	});

	it('accepts Node Buffers', () => {
		const framer = new Framer();
		expect(framer.push(Buffer.from('{"a":'))).toEqual([]);
		expect(framer.push(Buffer.from('1}\n'))).toEqual([msg('{"a":1}'), eol]);
	});

	it('gives a Buffer the same frames as a Uint8Array of the same bytes, bad UTF-8 and BOMs too', () => {
		// A socket's chunks are Buffers, decoded by Buffer's own slice; a Uint8Array by the
		// TextDecoder: the inspector and the reply must not tell them apart (U+FFFD per bad
		// sequence, a byte order mark inside a message kept).
		const byte = fc.oneof(
			fc.constantFrom(
				...[0x7b, 0x7d, 0x5b, 0x5d, 0x22, 0x5c, 0x0a, 0x41, 0xef, 0xbb, 0xbf, 0xc0, 0xc3, 0xa9],
				...[0x80, 0xbf, 0xe0, 0xa0, 0xed, 0xf0, 0x9f, 0x98, 0xf4, 0x90, 0xf5, 0xff, 0x00]
			),
			fc.integer({ min: 0, max: 255 })
		);
		fc.assert(
			fc.property(fc.array(byte, { maxLength: 80 }), fc.nat(80), (list, cut) => {
				const all = Uint8Array.from([0x7b, 0x22, ...list, 0x22, 0x7d, ...list]);
				const at = Math.min(cut, all.length);
				const frames = (make: (b: Uint8Array) => Uint8Array) => {
					const framer = new Framer();
					return [
						...framer.push(make(all.slice(0, at))),
						...framer.push(make(all.slice(at))),
						...framer.end()
					];
				};
				expect(frames((b) => Buffer.from(b))).toEqual(frames((b) => b));
			}),
			{ seed: 32_528, numRuns: 2_000 }
		);
	});

	it('returns no frames, a list of one, or several, and never changes a list it returned', () => {
		const framer = new Framer();
		const none = framer.push(Buffer.from('{"a":'));
		expect(none).toEqual([]);
		expect(framer.push(Buffer.from('1}'))).toEqual([msg('{"a":1}')]);
		expect(framer.push(Buffer.from('\n{"b":2}{"c":3}\n'))).toEqual([
			eol,
			msg('{"b":2}'),
			msg('{"c":3}'),
			eol
		]);
		expect(framer.push(Buffer.from('  '))).toEqual([]);
		expect(none).toEqual([]);
	});

	describe('end()', () => {
		it('reports an unfinished message by its size, without decoding it, and resets', () => {
			const framer = new Framer();
			expect(framer.push(bytes('{"order":{"id":"A'))).toEqual([]);
			expect(framer.buffered).toBe(17);
			expect(framer.end()).toEqual([{ kind: 'unfinished', bytes: 17 }]);
			expect(framer.buffered).toBe(0);
			expect(framer.push(bytes('{"b":2}'))).toEqual([msg('{"b":2}')]);
		});

		it('gives nothing after complete input', () => {
			const framer = new Framer();
			expect(framer.push(bytes('{"a":1}\n{"b":2}'))).toEqual([msg('{"a":1}'), eol, msg('{"b":2}')]);
			expect(framer.end()).toEqual([]);
			expect(framer.end()).toEqual([]);
		});
	});

	describe('oversize', () => {
		const max = 64;
		// 200 bytes, with braces and quotes in strings and nested objects past the limit, so the
		// discard scan must still track strings and depth to find the end.
		const head = '{"pad":"';
		const tail = '","more":{"s":"}}\\"}"},"x":[{}]}';
		const big = head + 'x'.repeat(200 - head.length - tail.length) + tail;
		const input = `${big}\n{"ok":true}\n`;
		const expected: Frame[] = [{ kind: 'oversize', bytes: max + 1 }, eol, msg('{"ok":true}'), eol];

		it('reports a 200-byte object once and still emits the next one', () => {
			expect(bytes(big).length).toBe(200);
			expect(feed([bytes(input)], max)).toEqual(expected);
		});

		it('keeps buffered <= maxMessageBytes when fed one byte at a time', () => {
			const framer = new Framer({ maxMessageBytes: max });
			const frames: Frame[] = [];
			let most = 0;
			for (const chunk of oneByteAtATime(bytes(input))) {
				frames.push(...framer.push(chunk));
				most = Math.max(most, framer.buffered);
			}
			frames.push(...framer.end());
			expect(frames).toEqual(expected);
			expect(most).toBe(max);
		});

		it('gives the same frames at every split', () => {
			const data = bytes(input);
			for (let k = 0; k <= data.length; k++) {
				expect(feed([data.subarray(0, k), data.subarray(k)], max), `split at ${k}`).toEqual(
					expected
				);
			}
		});

		it('accepts a message of exactly maxMessageBytes, rejects one byte more', () => {
			const exact = `{"p":"${'x'.repeat(max - 8)}"}`;
			const over = `{"p":"${'x'.repeat(max - 7)}"}`;
			expect(bytes(exact).length).toBe(max);
			expect(feed([bytes(exact + over + exact)], max)).toEqual([
				msg(exact),
				{ kind: 'oversize', bytes: max + 1 },
				msg(exact)
			]);
		});

		it('gives nothing at end() for an oversize message left open', () => {
			const framer = new Framer({ maxMessageBytes: max });
			expect(framer.push(bytes(`{"p":"${'x'.repeat(100)}`))).toEqual([
				{ kind: 'oversize', bytes: max + 1 }
			]);
			expect(framer.buffered).toBe(0);
			expect(framer.end()).toEqual([]);
		});

		it('resyncs on a raw newline inside a string of an oversize message', () => {
			expect(feed([bytes(`{"p":"${'x'.repeat(100)}\n{"b":2}`)], max)).toEqual([
				{ kind: 'oversize', bytes: max + 1 },
				eol,
				msg('{"b":2}')
			]);
		});

		it('caps the text kept for a long garbage run', () => {
			const framer = new Framer({ maxMessageBytes: max });
			let most = 0;
			const frames: Frame[] = [];
			for (const chunk of oneByteAtATime(bytes(`${'z'.repeat(500)}{}`))) {
				frames.push(...framer.push(chunk));
				most = Math.max(most, framer.buffered);
			}
			expect(most).toBe(max);
			expect(frames).toEqual([garbage('z'.repeat(max)), msg('{}')]);
		});
	});

	describe('too deep', () => {
		const deep = (depth: number, open = '{"a":', close = '}') =>
			`${open.repeat(depth)}1${close.repeat(depth)}`;
		const tooDeep: Frame = { kind: 'too-deep', depth: DEFAULT_MAX_DEPTH + 1 };

		it('frames a message nested exactly DEFAULT_MAX_DEPTH levels, refuses one level more', () => {
			const ok = deep(DEFAULT_MAX_DEPTH);
			expect(feed([bytes(`${ok}\n${deep(DEFAULT_MAX_DEPTH + 1, '[', ']')}\n{}`)])).toEqual([
				msg(ok),
				eol,
				tooDeep,
				eol,
				msg('{}')
			]);
		});

		it('refuses 20,000 levels once, holding nothing, and frames what follows', () => {
			const framer = new Framer();
			const frames: Frame[] = [];
			let most = 0;
			// In 1 KiB chunks, as a socket delivers it; braces inside strings do not count.
			const data = bytes(`{"s":"{{{{[[[[","t":${deep(20_000)}}\n{"b":2}\n`);
			for (let i = 0; i < data.length; i += 1024) {
				frames.push(...framer.push(data.subarray(i, i + 1024)));
				most = Math.max(most, framer.buffered);
			}
			expect(frames).toEqual([tooDeep, eol, msg('{"b":2}'), eol]);
			expect(most).toBeLessThan(1024);
			expect(framer.end()).toEqual([]);
		});

		it('counts depth in strings never, and resyncs at a raw newline in a string', () => {
			const quoted = `{"x":"${'{'.repeat(500)}"}`;
			expect(feed([bytes(`${quoted}\n${'['.repeat(100)}"\n{}`)])).toEqual([
				msg(quoted),
				eol,
				tooDeep,
				eol,
				msg('{}')
			]);
		});

		it('takes a smaller maxDepth, and rejects a nonsensical one', () => {
			const framer = new Framer({ maxDepth: 2 });
			expect(framer.push(bytes('{"a":{"b":1}}{"a":{"b":{"c":1}}}{}'))).toEqual([
				msg('{"a":{"b":1}}'),
				{ kind: 'too-deep', depth: 3 },
				msg('{}')
			]);
			expect(() => new Framer({ maxDepth: 0 })).toThrow(RangeError);
			expect(() => new Framer({ maxDepth: 2.5 })).toThrow(RangeError);
		});
	});

	describe('what an unfinished message keeps alive', () => {
		/** 900 KiB of an unfinished message, in 64 KiB reads of their own, as a socket gives them. */
		const reads = () => {
			const head = bytes('{"order":{"pad":"');
			const chunks: Uint8Array[] = [];
			for (let at = 0; at < 900 * 1024; at += 64 * 1024) {
				const chunk = new Uint8Array(Math.min(64 * 1024, 900 * 1024 - at)).fill(0x78);
				if (at === 0) chunk.set(head);
				chunks.push(chunk);
			}
			return chunks;
		};

		it('holds large reads as they are: no copy, no growing buffer', () => {
			const chunks = reads();
			const framer = new Framer();
			const before = process.memoryUsage().arrayBuffers;
			for (const chunk of chunks) expect(framer.push(chunk)).toEqual([]);
			const allocated = process.memoryUsage().arrayBuffers - before;
			expect(framer.buffered).toBe(900 * 1024);
			// A growing buffer copies them into 1 MiB (after 256 B, 512 B, … 512 KiB).
			expect(allocated).toBeLessThan(64 * 1024);
			expect(framer.retained).toBe(900 * 1024);
			const text = new TextDecoder().decode(concat(...chunks, bytes('"}}')));
			expect(framer.push(bytes('"}}'))).toEqual([msg(text)]);
			expect([framer.buffered, framer.retained]).toEqual([0, 0]);
		});

		it('charges a small view of a large buffer what it copies, never the whole buffer', () => {
			// One byte at a time from one 100 KiB buffer: a held view would keep all of it alive.
			const data = bytes(`{"pad":"${'x'.repeat(100 * 1024)}"}`);
			const framer = new Framer();
			let most = 0;
			const frames: Frame[] = [];
			for (let i = 0; i < data.length; i++) {
				frames.push(...framer.push(data.subarray(i, i + 1)));
				most = Math.max(most, framer.retained - framer.buffered);
				if (frames.length === 0) expect(framer.retained).toBeGreaterThanOrEqual(framer.buffered);
			}
			expect(frames).toEqual([msg(decodeLoose(data))]);
			// Never more than one tail's room beyond the bytes.
			expect(most).toBeLessThanOrEqual(16 * 1024);
			expect(framer.retained).toBe(0);
		});

		it('charges a large read the whole of it, even when the message starts near its end', () => {
			const read = new Uint8Array(64 * 1024).fill(0x20);
			read.set(bytes('{"pad":"'), 30 * 1024);
			const framer = new Framer();
			expect(framer.push(read)).toEqual([]);
			expect(framer.buffered).toBe(34 * 1024);
			// 34 KiB of it are held: a view that keeps all 64 KiB alive, and charged so.
			expect(framer.retained).toBe(64 * 1024);
			// Under half of a read is copied instead: 20 KiB held, 20 KiB charged (tail included).
			const small = new Uint8Array(64 * 1024).fill(0x20);
			small.set(bytes('{"pad":"'), 44 * 1024);
			const other = new Framer();
			other.push(small);
			expect(other.buffered).toBe(20 * 1024);
			expect(other.retained).toBeLessThanOrEqual(20 * 1024 + 16 * 1024);
			expect(other.retained).toBeLessThan(64 * 1024);
		});

		it('gives the same frames at every split of a message bigger than a tail', () => {
			const big = `{"a":"${'é'.repeat(20_000)}","b":"${'🍔'.repeat(5000)}"}`;
			const data = bytes(`${big}\n{"c":1}`);
			const expected = [msg(big), eol, msg('{"c":1}')];
			for (let k = 0; k <= data.length; k += 97) {
				expect(feed([data.subarray(0, k), data.subarray(k)]), `split at ${k}`).toEqual(expected);
			}
			// Reads of their own (not views of one buffer) of every size around the thresholds.
			for (const size of [1, 255, 256, 8191, 8192, 16_384, 40_000]) {
				const chunks: Uint8Array[] = [];
				for (let at = 0; at < data.length; at += size) chunks.push(data.slice(at, at + size));
				expect(feed(chunks), `reads of ${size}`).toEqual(expected);
			}
		});
	});

	it('rejects a nonsensical maxMessageBytes', () => {
		expect(() => new Framer({ maxMessageBytes: 0 })).toThrow(RangeError);
		expect(() => new Framer({ maxMessageBytes: 1.5 })).toThrow(RangeError);
		expect(() => new Framer({ maxMessageBytes: Infinity })).toThrow(RangeError);
	});

	it('frames a 1 MiB message fed one byte at a time in linear time', () => {
		const head = '{"items":"';
		const tail = '"}';
		const data = bytes(
			head + 'x'.repeat(DEFAULT_MAX_MESSAGE_BYTES - head.length - tail.length) + tail
		);
		expect(data.length).toBe(DEFAULT_MAX_MESSAGE_BYTES);
		const framer = new Framer();
		let frames: Frame[] = [];
		const started = performance.now();
		for (let i = 0; i < data.length; i++) {
			const out = framer.push(data.subarray(i, i + 1));
			if (out.length > 0) frames = frames.concat(out);
		}
		const elapsed = performance.now() - started;
		expect(frames).toHaveLength(1);
		expect(frames[0]).toEqual({ kind: 'message', text: new TextDecoder().decode(data) });
		// A sanity guard against quadratic re-scanning, not a benchmark.
		expect(elapsed).toBeLessThan(5000);
	});
});
