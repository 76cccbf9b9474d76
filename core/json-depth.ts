/**
 * How deep a JSON text nests objects and arrays, read without parsing it. A message nested deeper
 * than MAX_JSON_DEPTH is refused at either edge (TCP: the framer; HTTP: the body parser) before
 * JSON.parse builds it, and the inspector does not pretty-print one: no order needs more than a
 * few levels, and 20,000 levels of `{"a":` cost a megabyte of objects to parse and a browser tab
 * to indent.
 */

/**
 * Deepest nesting a message may have. The contract's deepest is the envelope, the order, its
 * items, an item, its modifiers: 5 levels; 64 leaves room for any extra field a POS adds.
 */
export const MAX_JSON_DEPTH = 64;

/** The characters of JSON's structure, as char codes (and bytes: they are ASCII). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;

/**
 * Whether `text` goes deeper than `max` levels of objects and arrays anywhere (brackets inside
 * strings do not count). Any text is read, valid JSON or not; one pass, stops at the first level
 * too deep.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
	// No more brackets in all (strings' too) than levels allowed: nothing can be deeper. The usual
	// message; counted by indexOf, which skips what lies between them far faster than the loop.
	if (bracketsAtMost(text, max)) return false;
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE) inString = false;
		} else if (c === QUOTE) inString = true;
		else if (c === LBRACE || c === LBRACKET) {
			if (++depth > max) return true;
		} else if ((c === RBRACE || c === RBRACKET) && depth > 0) depth--;
	}
	return false;
}

/** Whether `text` holds at most `max` opening brackets, `{` and `[`, wherever they are. */
function bracketsAtMost(text: string, max: number): boolean {
	let n = 0;
	for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++n > max) return false;
	for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++n > max) return false;
	return true;
}
