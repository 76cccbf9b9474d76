/**
 * Text that came as bytes that are not UTF-8. JSON between systems is UTF-8 (RFC 8259), and both
 * edges decode it so; a byte sequence that is not UTF-8 becomes U+FFFD (�). A client that sends
 * ISO-8859-1 or Windows-1252 (Java's `getBytes()` on a machine whose default charset is not
 * UTF-8, an old PHP source file) is accepted, as the real screen would, and its card reads
 * `M�ller`: the finding says where and why.
 *
 * Pure: no Node, no DOM.
 */
import { isObject, type Key, type Report, type CheckContext } from './conformance-subject.ts';
import { showValue } from './parse.ts';

/** What the UTF-8 decoder leaves for each byte sequence that is not UTF-8. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/** Findings past this many would say nothing new; the first name where to look. */
const MOST_REPORTED = 10;

/** Report each string (value or key) of the message that holds U+FFFD, by its path. */
export function undecodedTextFindings(ctx: CheckContext, report: Report): void {
	if (ctx.replacementChar === false) return;
	let left = MOST_REPORTED;
	const found = (path: readonly Key[], text: string, what: string) => {
		left--;
		report.add(
			'KDS-TEXT-NOT-UTF8',
			path,
			`${what} ${showValue(text)} holds �: bytes that are not UTF-8 (ISO-8859-1 or Windows-1252?) were read as U+FFFD and show so; send the text as UTF-8`
		);
	};
	// Without recursion (the UI checks messages of any depth), in the message's own order.
	const stack: Array<{ value: unknown; path: readonly Key[] }> = [{ value: ctx.raw, path: [] }];
	while (stack.length > 0 && left > 0) {
		const { value, path } = stack.pop()!;
		const key = path[path.length - 1];
		if (typeof key === 'string' && key.includes(REPLACEMENT_CHARACTER)) found(path, key, 'the key');
		if (typeof value === 'string') {
			if (value.includes(REPLACEMENT_CHARACTER)) found(path, value, 'the text');
		} else if (Array.isArray(value)) {
			for (let i = value.length - 1; i >= 0; i--)
				stack.push({ value: value[i], path: [...path, i] });
		} else if (isObject(value)) {
			const keys = Object.keys(value);
			for (let i = keys.length - 1; i >= 0; i--)
				stack.push({ value: value[keys[i]], path: [...path, keys[i]] });
		}
	}
}
