/**
 * The agent parses with compiled schemas (`import 'zod/compile'` in agent/app.ts; Vitest's setup
 * does the same), zod's runtime parser stays the reference. Both must give the same result, value
 * or field errors, for every input: the sample payloads and thousands of seeded mutations of them
 * (fields removed, nulled, retyped, added; modifiers as strings; TCP times as numbers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { seededRandom } from '../tests/helpers/random.ts';
import * as orders from './order-schema.ts';
import * as parse from './parse.ts';
import * as tcp from './tcp-message.ts';

/** The parsers under test, from one copy of the core's modules. */
const compiled = { ...orders, ...parse, ...tcp };
type SchemaModule = typeof compiled;

const SAMPLES_DIR = fileURLToPath(new URL('../tests/fixtures/samples/', import.meta.url));
const MUTANTS_PER_SAMPLE = 400;

/** Run `fn` with zod's JIT off: a schema's first parse then fixes it on the runtime parser. */
function jitless<T>(fn: () => T): T {
	z.config({ jitless: true });
	try {
		return fn();
	} finally {
		z.config({ jitless: false });
	}
}

const VALUES: unknown[] = [
	null,
	'',
	' ',
	'x',
	'ToGo',
	'hold',
	'2026-11-22T18:00:00Z',
	'2026-11-24T02:00:59.729233',
	'2026-11-24T02:00:59.7292330-0600',
	'2026-13-45T99:00:00Z',
	'PT30M',
	0,
	-1,
	1.5,
	3,
	1795451349134,
	9e15,
	true,
	false,
	[],
	{},
	[{ name: 'Extra cheese', qty: 2 }],
	{ id: 'g', name: 'Combo' }
];

/** Every object and array inside `root`, with root itself. */
function containers(root: unknown): Array<Record<string, unknown> | unknown[]> {
	const out: Array<Record<string, unknown> | unknown[]> = [];
	const visit = (v: unknown) => {
		if (typeof v !== 'object' || v === null) return;
		out.push(v as Record<string, unknown> | unknown[]);
		for (const child of Object.values(v)) visit(child);
	};
	visit(root);
	return out;
}

/** One to three random edits of a deep copy of `value`. */
function mutate(value: unknown, next: () => number): unknown {
	const copy = structuredClone(value);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
	const edits = 1 + Math.floor(next() * 3);
	for (let i = 0; i < edits; i++) {
		const target = pick(containers(copy));
		if (!target) break;
		const keys = Object.keys(target);
		const key = keys.length > 0 ? pick(keys) : '0';
		const record = target as Record<string, unknown>;
		switch (pick(['delete', 'set', 'set', 'add', 'stringify', 'number'] as const)) {
			case 'delete':
				if (Array.isArray(target)) target.splice(Number(key), 1);
				else delete record[key];
				break;
			case 'set':
				record[key] = structuredClone(pick(VALUES));
				break;
			case 'add':
				if (Array.isArray(target)) target.push(structuredClone(target[0] ?? pick(VALUES)));
				else record[`extra${i}`] = structuredClone(pick(VALUES));
				break;
			case 'stringify':
				// A modifier object becomes the legacy plain string; anything else a string too.
				record[key] =
					typeof record[key] === 'object' && record[key] !== null && 'name' in record[key]
						? String((record[key] as { name: unknown }).name)
						: String(record[key]);
				break;
			case 'number':
				record[key] = key === 'time' ? 1795451349134 : Math.floor(next() * 5) - 1;
				break;
		}
	}
	return copy;
}

describe('compiled schemas parse as the runtime does', () => {
	let runtime: SchemaModule;
	beforeAll(async () => {
		// A second copy of the schema modules, their schemas fixed on zod's runtime parser.
		vi.resetModules();
		runtime = {
			...(await import('./order-schema.ts')),
			...(await import('./parse.ts')),
			...(await import('./tcp-message.ts'))
		};
	});

	const samples = readdirSync(SAMPLES_DIR)
		.filter((f) => f.endsWith('.json') && !f.includes('notification'))
		.sort();

	/** The parse each sample goes through, by its name. */
	function parse(mod: SchemaModule, file: string, value: unknown) {
		if (file.startsWith('tcp-')) return mod.parseTcpValue(value);
		if (file.includes('partial')) return mod.parseWith(mod.PartialOrderSchema, value);
		return mod.parseWith(mod.HttpOrderSchema, value);
	}

	it('the agent path is compiled and the reference is not', () => {
		compiled.HttpOrderSchema.safeParse({});
		jitless(() => runtime.HttpOrderSchema.safeParse({}));
		expect(compiled.HttpOrderSchema._zod.bag.validator).toBeTypeOf('function');
		expect(runtime.HttpOrderSchema._zod.bag.validator).toBeUndefined();
	});

	it.each(samples)('%s and its mutants', (file) => {
		const sample: unknown = JSON.parse(readFileSync(`${SAMPLES_DIR}/${file}`, 'utf8'));
		// Seeded, so a failure names a mutant that can be replayed.
		const next = seededRandom(file.length * 7919);
		let accepted = 0;
		for (let n = 0; n <= MUTANTS_PER_SAMPLE; n++) {
			const input = n === 0 ? sample : mutate(sample, next);
			const expected = jitless(() => parse(runtime, file, structuredClone(input)));
			const actual = parse(compiled, file, structuredClone(input));
			expect(actual, `mutant ${n} of ${file}: ${JSON.stringify(input)}`).toStrictEqual(expected);
			if (actual.ok) accepted += 1;
		}
		// Both sides of the parser were exercised: some mutants pass, most break something.
		expect(accepted).toBeGreaterThan(0);
		expect(accepted).toBeLessThan(MUTANTS_PER_SAMPLE);
	});
});
