/**
 * Query strings read as bodies are: with a zod schema, refused with 422 VALIDATION_FAILED naming
 * each parameter and what it takes (`limit: expected a whole number from 1 to 1000, got "0"`), in
 * the one error shape of ./integrators/errors.ts. For the simulator's and admin API's list routes.
 */
import * as z from 'zod';
import { formatErrors, parseWith, showValue } from '#core/parse';
import { validationError } from './integrators/errors.ts';

/** The query, read with `schema`; throws the 422 answer when a parameter breaks it. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
	const parsed = parseWith(schema, query ?? {});
	if (!parsed.ok) throw validationError(parsed.errors, formatErrors(parsed.errors));
	return parsed.value;
}

/** An optional text parameter (a filter). */
export const textParam = () => z.string().optional();

/** One of `values`, or absent. */
export function choiceParam<const T extends readonly [string, ...string[]]>(values: T) {
	const names =
		values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
	return z
		.enum(values, { error: (issue) => `expected ${names}, got ${showValue(issue.input)}` })
		.optional();
}

/** `limit`: a whole number from 1 to `max`; `fallback` when absent. */
export function limitParam(max: number, fallback: number) {
	const what = `a whole number from 1 to ${max}`;
	return z
		.string({ error: (issue) => `expected ${what}, got ${showValue(issue.input)}` })
		.optional()
		.transform((text, ctx) => {
			if (text === undefined) return fallback;
			const n = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
			if (n >= 1 && n <= max) return n;
			ctx.addIssue({
				code: 'custom',
				input: text,
				message: `expected ${what}, got ${showValue(text)}`
			});
			return z.NEVER;
		});
}
