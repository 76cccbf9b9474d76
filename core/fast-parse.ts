/**
 * A parser of the common valid case, beside zod's: for an input whose every value has the plain
 * shape its schema asks for (no null, no unknown key, nothing a transform would change), it
 * returns the very value zod's parser outputs (the same keys in the same order; an object or
 * array that already is exactly its output, the input itself, uncopied); for anything else it returns `undefined` and `parseWith` (parse.ts) runs zod, which
 * words the errors. So a refusal, its field paths and every unusual input are zod's alone.
 *
 * Why: zod's compiled object parser runs every field through its schema's `run` with an issue
 * list and a result object of its own (a 10-item HTTP create: ~16 µs and 8.4 KB of a request's
 * 46 KB allocated, bench/alloc.bench.ts); this reads the same order in a few µs and allocates only
 * the output. `core/fast-parse.spec.ts` compares the two on seeded random orders.
 *
 * A field's place in the output, and whether it may be absent, are read from the zod schema
 * itself (`shape`, `optin`): only the leaf checks are written here, each with the very function
 * or list the schema uses. A schema field with no reader here makes an input that sends it take
 * zod's path. Pure: no Node, no DOM.
 */
import type * as z from 'zod';

/**
 * Whether this runtime may compile code (`new Function`), as zod's own `util.allowsEval` decides
 * for its compiled parsers. Not read through `z.core.util`: reaching into that namespace keeps all
 * of zod's core in the bundle, its 60 locales with it, on the agent's start path
 * (agent/startup-imports.spec.ts).
 */
const allowsEval = ((): boolean => {
	try {
		new Function('');
		return true;
	} catch {
		return false;
	}
})();

/** The output for the common case, or undefined: "not sure, ask zod". Never undefined as a value. */
export type Fast = (input: unknown) => unknown;

export const fastString: Fast = (v) => (typeof v === 'string' ? v : undefined);
export const fastBool: Fast = (v) => (typeof v === 'boolean' ? v : undefined);
/** An integer >= 0 (field-schemas.ts `int()`); only safe integers (zod's `.int()` checks so too). */
export const fastInt: Fast = (v) =>
	typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;

/** A string the schema's own refinement accepts (`test`: the same function the schema runs). */
export function fastStringWhere(test: (s: string) => boolean): Fast {
	return (v) => (typeof v === 'string' && test(v) ? v : undefined);
}

export function fastEnum(values: readonly string[]): Fast {
	const set = new Set(values);
	return (v) => (typeof v === 'string' && set.has(v) ? v : undefined);
}

export function fastArray(element: Fast): Fast {
	return (v) => {
		if (!Array.isArray(v)) return undefined;
		// While every element reads as itself (the common case), nothing is copied: then the
		// input is the very output.
		let out: unknown[] | undefined;
		for (let i = 0; i < v.length; i++) {
			const read = element(v[i]);
			if (read === undefined) return undefined;
			if (out === undefined && read !== v[i]) out = v.slice(0, i);
			if (out !== undefined) out[i] = read;
		}
		return out ?? v;
	};
}

interface Field {
	key: string;
	read: Fast | undefined;
	optional: boolean;
}

/**
 * An object schema's common case: every own key one of the schema's with a reader here, every
 * value read by its reader; the output's keys in the schema's order (as zod's compiled parser
 * writes them), an optional key only when sent.
 *
 * Compiled to a function of its own with the keys as literals, as zod compiles its object parser
 * (a loop over the keys made every read and write a megamorphic keyed access: 5.5 against
 * 1.3 µs for the 10-item order); where zod may not compile (`allowsEval`: a strict content
 * security policy), the loop.
 */
export function fastObject(
	schema: z.ZodObject,
	readers: Record<string, Fast>,
	how: 'compiled' | 'looped' = allowsEval ? 'compiled' : 'looped',
	/**
	 * Always output a fresh object, never the input itself: for a schema whose `read` (parse.ts)
	 * writes into the output (order-schema.ts rewrites date-times), so the input stays as sent.
	 */
	fresh = false
): Fast {
	const shape = schema.shape as Record<string, { _zod: { optin?: string } }>;
	for (const key of Object.keys(readers)) {
		if (!Object.hasOwn(shape, key)) throw new Error(`fast-parse: ${key} is not in the schema`);
	}
	const fields: Field[] = Object.keys(shape).map((key) => ({
		key,
		read: Object.hasOwn(readers, key) ? readers[key] : undefined,
		optional: shape[key]._zod.optin === 'optional'
	}));
	return (how === 'compiled' ? compiled(fields, fresh) : undefined) ?? looped(fields);
}

function compiled(fields: Field[], fresh: boolean): Fast | undefined {
	const lines = [
		'if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;',
		// `last`: the input's keys in the schema's order so far (so the output's order is theirs).
		fresh
			? 'let last = -1, out = {};'
			: 'let last = -1, out = Object.getPrototypeOf(v) === Object.prototype ? undefined : {};',
		'for (const k in v) {',
		'\tif (!Object.hasOwn(v, k)) return undefined;',
		'\tswitch (k) {',
		...fields.flatMap((f, i) =>
			f.read === undefined
				? []
				: [
						`\t\tcase ${JSON.stringify(f.key)}:`,
						`\t\t\tif (${i} < last) out = {};`,
						`\t\t\tlast = ${i};`,
						'\t\t\tbreak;'
					]
		),
		'\t\tdefault:',
		'\t\t\treturn undefined;',
		'\t}',
		'}',
		'let x, y;'
	];
	fields.forEach((f, i) => {
		const key = JSON.stringify(f.key);
		if (f.read === undefined) {
			// Never sent (the key check above); a required one: zod's to refuse.
			if (!f.optional) lines.push('return undefined;');
			return;
		}
		// While every value reads as itself and the keys come in order, nothing is copied: the
		// input is then the very output. The first value that differs copies the ones before it.
		const take = `{ y = v[${key}]; x = r[${i}](y); if (x === undefined) return undefined; if (out === undefined && x !== y) out = c(v, ${i}); if (out !== undefined) out[${key}] = x; }`;
		lines.push(`if (${key} in v) ${take}${f.optional ? '' : ' else return undefined;'}`);
	});
	lines.push('return out === undefined ? v : out;');
	const keys = fields.map((f) => f.key);
	/** The output's first `n` fields, each the input's own value (they read as themselves). */
	const copyBefore = (v: Record<string, unknown>, n: number) => {
		const out: Record<string, unknown> = {};
		for (let i = 0; i < n; i++) if (keys[i] in v) out[keys[i]] = v[keys[i]];
		return out;
	};
	try {
		const make = new Function('r', 'c', `return (v) => {\n${lines.join('\n')}\n};`) as (
			r: Array<Fast | undefined>,
			c: typeof copyBefore
		) => Fast;
		return make(
			fields.map((f) => f.read),
			copyBefore
		);
	} catch {
		return undefined;
	}
}

function looped(fields: Field[]): Fast {
	const known = new Set(fields.filter((f) => f.read !== undefined).map((f) => f.key));
	return (v) => {
		if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
		const input = v as Record<string, unknown>;
		for (const key in input) {
			if (!Object.hasOwn(input, key) || !known.has(key)) return undefined;
		}
		const out: Record<string, unknown> = {};
		for (let i = 0; i < fields.length; i++) {
			const { key, read, optional } = fields[i];
			if (!(key in input)) {
				if (optional) continue;
				return undefined;
			}
			const value = read?.(input[key]);
			if (value === undefined) return undefined;
			out[key] = value;
		}
		return out;
	};
}

/** A union's common case: the first option that reads it (zod tries them in order too). */
export function fastFirst(...options: Fast[]): Fast {
	return (v) => {
		for (const option of options) {
			const read = option(v);
			if (read !== undefined) return read;
		}
		return undefined;
	};
}

/** A value read, then checked or changed as a whole (a refinement or transform); undefined: zod's. */
export function fastThen(read: Fast, then: (value: never) => unknown): Fast {
	return (v) => {
		const value = read(v);
		return value === undefined ? undefined : then(value as never);
	};
}
