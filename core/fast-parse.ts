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
 * The readers are compiled from the zod schemas themselves (`fastReader`, from each node's
 * `_zod.def`): a field's place in the output and whether it may be absent (`shape`, `optin`), its
 * type, its checks (the bound or pattern zod's own check compares with, or zod's check function
 * itself), its transforms (zod's own function). So no contract rule is written twice: a field
 * changed in the schema (a new check, string → number) changes its reader with it, and a node or
 * check the compiler does not know makes it defer to zod. Pure: no Node, no DOM.
 */
import * as z from 'zod';

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

/** `fastArray` as code of a node's own (`ownCode`). */
const ARRAY_CODE = `return (v) => {
	if (!Array.isArray(v)) return undefined;
	let out;
	for (let i = 0; i < v.length; i++) {
		const read = element(v[i]);
		if (read === undefined) return undefined;
		if (out === undefined && read !== v[i]) out = v.slice(0, i);
		if (out !== undefined) out[i] = read;
	}
	return out ?? v;
};`;

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

// ---------------------------------------------------------------------------------------------
// The readers compiled from the schemas themselves: no second table of fields and rules.

/** A zod check as its def and its own check function (zod 4's `$ZodCheck`). */
interface ZodCheckLike {
	_zod: {
		def: { check: string; when?: (payload: Payload) => boolean; [k: string]: unknown };
		check: (payload: Payload) => unknown;
	};
}
interface Payload {
	value: unknown;
	issues: unknown[];
	addIssue?: (issue: unknown) => void;
}
interface SchemaLike {
	_zod: {
		def: { type: string; checks?: ZodCheckLike[]; [k: string]: unknown };
		values?: Set<unknown>;
		traits?: Set<string>;
	};
}

/** Never sure: zod decides. */
const defer: Fast = () => undefined;

/**
 * A reader with code of its own (`new Function`, as `fastObject` compiles objects): a closure
 * made by a shared function shares that function's type feedback with every other node's, so
 * its calls of the readers inside went megamorphic (the 10-item body took 10 µs against 3.8 with
 * the readers apart); each node's copy sees only its own. Where code may not be compiled, the
 * shared closure (`fallback`), the same reading.
 */
function ownCode(
	how: 'compiled' | 'looped',
	body: string,
	names: string[],
	values: unknown[],
	fallback: () => Fast
): Fast {
	if (how === 'looped' || !allowsEval) return fallback();
	try {
		return (new Function(...names, body) as (...args: unknown[]) => Fast)(...values);
	} catch {
		return fallback();
	}
}

/** The transforms declared not to change their input (so they may run on the caller's objects). */
const pureTransforms = new WeakSet<object>();

/**
 * Declares that a transform (or a pipe ending in one) never changes the value it is given: the
 * compiled reader may then run it on the caller's own objects and arrays (they are not copied
 * when they already are their output). Without it, a transform given an object defers to zod.
 */
export function pureTransform<T extends z.ZodType>(schema: T): T {
	pureTransforms.add(schema);
	const def = (schema as unknown as SchemaLike)._zod.def;
	if (def.type === 'pipe') pureTransforms.add(def.out as object);
	return schema;
}

/** A check's own quick test (`passesWhen`): true only where the check adds no issue. */
const quickTests = new WeakMap<object, (v: never) => boolean>();

/**
 * Give the schema's last check (a superRefine, whose function zod runs on a payload and a
 * context of its own each time) a test of its own for the common case: where `passes` says yes
 * the check adds no issue and the reader takes the value without running it; where it says no,
 * zod's function runs and decides. `passes` must never say yes where the check would add an
 * issue, and should allocate nothing.
 */
export function passesWhen<T extends z.ZodType>(schema: T, passes: (v: never) => boolean): T {
	const checks = (schema as unknown as SchemaLike)._zod.def.checks;
	const last = checks?.[checks.length - 1];
	if (!last) throw new Error('passesWhen: the schema has no check');
	quickTests.set(last, passes);
	return schema;
}

/** The default `when` of zod's length checks: true for any string or array. */
let lengthWhen: unknown;
function isLengthWhen(when: unknown): boolean {
	if (lengthWhen === undefined) {
		const check = (z.string().min(1) as unknown as SchemaLike)._zod.def.checks?.[0];
		lengthWhen = check?._zod.def.when ?? null;
	}
	return when === lengthWhen;
}

/**
 * A check run as zod runs it: its own function on a payload of its own; passed when it added no
 * issue, returned no promise and left the value as it was (an overwrite such as trim: zod's).
 */
function checkItself(check: ZodCheckLike): (v: unknown) => boolean {
	const def = check._zod.def;
	return (v) => {
		const payload: Payload = { value: v, issues: [] };
		if (def.when && !def.when(payload)) return true;
		const result = check._zod.check(payload);
		return !(result instanceof Promise) && payload.issues.length === 0 && payload.value === v;
	};
}

/**
 * One check's test on a value the node's type already accepted. The common checks are read from
 * their def (the same bound or pattern zod's check compares with; see zod's checks.js); every
 * other one, and every border case of these, runs zod's own check function (`checkItself`).
 */
function checkTest(check: ZodCheckLike): (v: unknown) => boolean {
	const def = check._zod.def;
	const itself = checkItself(check);
	const quick = quickTests.get(check) as ((v: unknown) => boolean) | undefined;
	if (quick && !def.when) return (v) => quick(v) || itself(v);
	const lengthCheck = def.check === 'min_length' || def.check === 'max_length';
	if (def.when && !(lengthCheck && isLengthWhen(def.when))) return itself;
	switch (def.check) {
		case 'min_length': {
			// zod counts a string's code points; twice the floor in UTF-16 units always clears it.
			// A non-empty string has at least one; fewer units than the floor never reach it.
			const min = def.minimum as number;
			return (v) => {
				if (typeof v !== 'string') return itself(v);
				if (v.length >= 2 * min || (min <= 1 && v.length >= min)) return true;
				return v.length < min ? false : itself(v);
			};
		}
		case 'max_length': {
			// A string has at most as many code points as units.
			const max = def.maximum as number;
			return (v) => (v as { length: number }).length <= max || itself(v);
		}
		case 'number_format':
			return def.format === 'safeint' ? (v) => Number.isSafeInteger(v) : itself;
		case 'greater_than':
		case 'less_than': {
			if (typeof def.value !== 'number') return itself;
			const bound = def.value;
			const above = def.check === 'greater_than';
			if (def.inclusive)
				return above ? (v) => (v as number) >= bound : (v) => (v as number) <= bound;
			return above ? (v) => (v as number) > bound : (v) => (v as number) < bound;
		}
		case 'string_format': {
			const pattern = def.pattern;
			if (def.format !== 'regex' || !(pattern instanceof RegExp)) return itself;
			return (v) => {
				pattern.lastIndex = 0;
				return pattern.test(v as string);
			};
		}
		case 'custom': {
			// A refine (zod's $ZodCustom): its function's truthy result passes, as handleRefineResult
			// decides. A superRefine (a bare check with a function of its own) runs itself.
			const fn = def.fn;
			if (def.type !== 'custom' || typeof fn !== 'function') return itself;
			return (v) => {
				const result: unknown = fn(v);
				return !(result instanceof Promise) && Boolean(result);
			};
		}
		default:
			return itself;
	}
}

/** `addIssue` of the context zod's ZodTransform gives a transform (see `transformReader`). */
function addIssue(this: Payload, issue: unknown): void {
	this.issues.push(issue);
}

/**
 * A transform run as zod's ZodTransform runs it: passed when it added no issue. Never on null or
 * undefined: no reader here outputs either (a null in the output is `parseWith`'s to read).
 */
function transformReader(node: SchemaLike, how: 'compiled' | 'looped'): Fast {
	const transform = node._zod.def.transform as (value: unknown, ctx: Payload) => unknown;
	const pure = pureTransforms.has(node);
	return ownCode(
		how,
		[
			'return (v) => {',
			pure
				? 'if (v === null || v === undefined) return undefined;'
				: 'if (v === null || v === undefined || typeof v === "object") return undefined;',
			'const ctx = { value: v, issues: [], addIssue };',
			'const out = transform(v, ctx);',
			'return out instanceof Promise || ctx.issues.length > 0 ? undefined : out;',
			'};'
		].join('\n'),
		['transform', 'addIssue'],
		[transform, addIssue],
		() => (v) => {
			if (v === null || v === undefined || (!pure && typeof v === 'object')) return undefined;
			const ctx: Payload = { value: v, issues: [], addIssue };
			const out = transform(v, ctx);
			return out instanceof Promise || ctx.issues.length > 0 ? undefined : out;
		}
	);
}

/** Options of `fastReader`. */
export interface FastReaderOptions {
	/** How objects are read; see `fastObject`. */
	how?: 'compiled' | 'looped';
	/** The outermost object always a fresh one; see `fastObject`. */
	fresh?: boolean;
}

const compiledNodes = new WeakMap<object, Map<string, Fast>>();

/**
 * The common-case reader of a zod schema, compiled from its definition (`_zod.def`): objects,
 * arrays, strings, numbers, booleans, enums and literals, optional and nullable, unions, pipes and
 * transforms, each with its checks. A node or check it does not know defers (undefined: zod
 * decides), so a changed schema changes its reader with it.
 */
export function fastReader(schema: z.ZodType, options: FastReaderOptions = {}): Fast {
	const how = options.how ?? (allowsEval ? 'compiled' : 'looped');
	const compile = (node: SchemaLike, fresh: boolean): Fast => {
		const cacheKey = `${how}${fresh ? '+fresh' : ''}`;
		let byHow = compiledNodes.get(node);
		const cached = byHow?.get(cacheKey);
		if (cached) return cached;
		if (!byHow) compiledNodes.set(node, (byHow = new Map()));
		// A node met again inside itself (a getter in a shape) defers.
		byHow.set(cacheKey, defer);
		const read = withChecks(node, base(node, fresh));
		byHow.set(cacheKey, read);
		return read;
	};
	const withChecks = (node: SchemaLike, read: Fast): Fast => {
		// A node that is a check itself (a string format such as z.email()) runs first, as zod runs it.
		const own = node._zod.traits?.has('$ZodCheck') ? [node as unknown as ZodCheckLike] : [];
		const checks = [...own, ...(node._zod.def.checks ?? [])];
		if (!checks.length || read === defer) return read;
		const tests = checks.map((check) => checkTest(check));
		return ownCode(
			how,
			[
				'return (v) => {',
				'const x = read(v);',
				'if (x === undefined) return undefined;',
				...tests.map((_, i) => `if (!tests[${i}](x)) return undefined;`),
				'return x;',
				'};'
			].join('\n'),
			['read', 'tests'],
			[read, tests],
			() => (v) => {
				const x = read(v);
				if (x === undefined) return undefined;
				for (let i = 0; i < tests.length; i++) if (!tests[i](x)) return undefined;
				return x;
			}
		);
	};
	const base = (node: SchemaLike, fresh: boolean): Fast => {
		const def = node._zod.def;
		switch (def.type) {
			case 'string':
				return def.coerce ? defer : fastString;
			case 'number':
				return def.coerce
					? defer
					: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
			case 'boolean':
				return def.coerce ? defer : fastBool;
			case 'enum':
			case 'literal': {
				const values = node._zod.values;
				if (!values) return defer;
				return (v) => (v !== null && values.has(v) ? v : undefined);
			}
			// No reader outputs null or undefined (they are parseWith's to read as absent, and
			// undefined here means "zod's"): an optional or nullable node reads as its inner one.
			case 'nullable':
				return compile(def.innerType as SchemaLike, false);
			case 'default': {
				// A value sent runs the inner schema (zod's $ZodDefault); an absent one, the default, is
				// zod's (the object reads the key as required: its optin is "defaulted").
				const inner = compile(def.innerType as SchemaLike, false);
				return (v) => (v === undefined ? undefined : inner(v));
			}
			case 'optional':
				return compile(def.innerType as SchemaLike, false);
			case 'array': {
				const element = compile(def.element as SchemaLike, false);
				return ownCode(how, ARRAY_CODE, ['element'], [element], () => fastArray(element));
			}
			case 'object': {
				const shape = def.shape as Record<string, SchemaLike>;
				const readers: Record<string, Fast> = {};
				for (const key of Object.keys(shape)) readers[key] = compile(shape[key], false);
				return fastObject(node as unknown as z.ZodObject, readers, how, fresh);
			}
			case 'union': {
				// zod returns the first option that reads it; a discriminated or exclusive union defers.
				if (def.discriminator !== undefined || def.inclusive === false) return defer;
				const options = (def.options as SchemaLike[]).map((o) => compile(o, false));
				return ownCode(
					how,
					[
						'return (v) => {',
						'let x;',
						...options.map((_, i) => `if ((x = options[${i}](v)) !== undefined) return x;`),
						'return undefined;',
						'};'
					].join('\n'),
					['options'],
					[options],
					() => fastFirst(...options)
				);
			}
			case 'pipe': {
				// A codec (a pipe with transforms of its own) defers.
				if (def.transform !== undefined) return defer;
				const into = compile(def.in as SchemaLike, false);
				const out = def.out as SchemaLike;
				const then =
					out._zod.def.type === 'transform' ? transformReader(out, how) : compile(out, false);
				return ownCode(
					how,
					'return (v) => { const x = into(v); return x === undefined ? undefined : then(x); };',
					['into', 'then'],
					[into, then],
					() => (v) => {
						const x = into(v);
						return x === undefined ? undefined : then(x);
					}
				);
			}
			case 'transform':
				return transformReader(node, how);
			default:
				return defer;
		}
	};
	return compile(schema as unknown as SchemaLike, options.fresh ?? false);
}
