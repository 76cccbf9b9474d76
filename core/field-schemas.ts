/**
 * The field schemas that order and notification bodies are built of (strings, ids, integers,
 * date-times, durations), each wording its own error the same way (`expected` in parse.ts).
 *
 * Pure: no Node, no Svelte, no sockets. Shared by the agent and the UI.
 */
import * as z from 'zod';
import { expected, showValue } from './parse.ts';
import { isIsoDateTime } from './times.ts';

/**
 * Optional field that also accepts null; both mean "absent" (contract 4.2, partial rule 3).
 * The null becomes undefined in `parseWith`, once per message, after validation: a transform
 * on every optional field made each one a pipe, which cost about 40% of a whole parse.
 */
export function opt<T extends z.ZodType>(schema: T) {
	return schema.nullish() as unknown as z.ZodOptional<T>;
}

export const str = () => z.string({ error: (i) => expected('a string', i.input) });
export const nonEmpty = () =>
	z
		.string({ error: (i) => expected('a non-empty string', i.input) })
		.min(1, { error: 'expected a non-empty string' });
/**
 * An order id: a TCP reply is the bare id, so one holding a line break or another control
 * character would split or garble the reply a line-reading client waits for.
 */
export const orderId = () =>
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

export const bool = () => z.boolean({ error: (i) => expected('true or false', i.input) });
export const int = (min = 0) =>
	z
		.number({ error: (i) => expected('an integer', i.input) })
		.int({ error: (i) => expected('an integer', i.input) })
		.min(min, { error: `expected an integer >= ${min}` });

/**
 * ISO 8601 date-time, with or without offset, 0 to 9 fractional digits (times.ts); kept as given
 * here, read by the schema's reader (`readers` in parse.ts) once the body is valid.
 */
export const isoDateTime = () =>
	z
		.string({ error: (i) => expected('an ISO 8601 date-time string', i.input) })
		.refine(isIsoDateTime, {
			error: (i) => expected('an ISO 8601 date-time string, e.g. 2026-11-22T18:04:00Z', i.input)
		});

/** ISO 8601 duration such as PT30M or P1DT2H; weeks form PnW too. */
export const ISO_DURATION =
	/^P(?!$)(\d+(?:\.\d+)?Y)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?W)?(\d+(?:\.\d+)?D)?(T(?=\d)(\d+(?:\.\d+)?H)?(\d+(?:\.\d+)?M)?(\d+(?:\.\d+)?S)?)?$/;
export const isoDuration = () =>
	z
		.string({ error: (i) => expected('an ISO 8601 duration string', i.input) })
		.regex(ISO_DURATION, { error: 'expected an ISO 8601 duration string, e.g. PT30M' });
