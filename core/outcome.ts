/**
 * What the core decided about one part of a message, beside its result: a form it normalised, a
 * field or list entry it ignored, a field a full update cleared. Parsing (order-schema.ts, times.ts),
 * `decide` and the update rules (screen.ts, content.ts) return these; conformance findings are
 * made from them (conformance.ts), so a finding cannot disagree with what the screen did.
 *
 * Pure: no Node, no DOM.
 */
import type { RuleCode } from './rules.ts';

export interface Outcome {
	/** The rule of the catalogue (rules.ts) the decision falls under. */
	code: RuleCode;
	/** Field path inside the order (list indexes as numbers), e.g. ['itemsToAdd', 1, 'lineId']. */
	path: ReadonlyArray<string | number>;
	/** One sentence: what the core did with it. */
	message: string;
}

/** A string value in an outcome's message: quoted, long ones cut (as order-schema.ts `showValue`). */
export function quoted(value: string): string {
	const text = JSON.stringify(value);
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
