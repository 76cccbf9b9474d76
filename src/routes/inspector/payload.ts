/**
 * A logged message's payload as MessageDetail.svelte shows it: pretty-printed, each line knowing
 * the field it starts, each finding pointed at its line; and the editor's JSON check.
 */
import type { Finding } from '#core/conformance';
import type { MessageEntry as InspectorEntry } from '#core/message-entry';
import { nestsDeeperThan } from '#core/json-depth';
import { formatPath } from '#core/parse';

export interface PayloadLine {
	text: string;
	/**
	 * The field path (as findings write it, `order.items[1].qty`) of the value that starts on this
	 * line: '' for the message itself, null for closing brackets and for text that is not JSON.
	 */
	path: string | null;
}

export interface PrettyPayload {
	json: boolean;
	lines: PayloadLine[];
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Control characters written as `\xNN` (NUL `\x00`, CR `\x0d`, DEL `\x7f`), so a UTF-16 or binary
 * run refused over TCP shows what came; tabs stay tabs. (Unicode's control pictures would read
 * better, but the monospace fonts of a Debian or Pi Chromium draw them as boxes.)
 */
export function visible(text: string): string {
	return text.replace(
		// eslint-disable-next-line no-control-regex -- control characters are what it looks for
		/[\u0000-\u0008\u000a-\u001f\u007f]/g,
		(c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
	);
}

/**
 * The payload pretty-printed, one entry per line, each line knowing the field it starts. The
 * text is exactly `JSON.stringify(JSON.parse(raw), null, 2)`; a payload that is not JSON, or nests
 * deeper than MAX_JSON_DEPTH, is shown as it came.
 */
export function prettyPayload(raw: string): PrettyPayload {
	const asReceived = () => ({
		json: false,
		lines: raw.split(/\r?\n/).map((text) => ({ text: visible(text), path: null }))
	});
	// Nested past what any edge accepts (a refused body is logged too): indenting it would cost
	// the tab its memory (20,000 levels: 20,000 lines up to 40,000 spaces each).
	if (nestsDeeperThan(raw)) return asReceived();
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		return asReceived();
	}
	const lines: PayloadLine[] = [];
	const walk = (
		v: unknown,
		keys: Array<string | number>,
		depth: number,
		head: string,
		tail: string
	) => {
		const indent = '  '.repeat(depth);
		const path = formatPath(keys);
		const children: Array<[string | number, unknown]> = Array.isArray(v)
			? v.map((x, i) => [i, x])
			: isObject(v)
				? Object.entries(v)
				: [];
		if (children.length === 0) {
			lines.push({ text: `${indent}${head}${JSON.stringify(v)}${tail}`, path });
			return;
		}
		const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
		lines.push({ text: `${indent}${head}${open}`, path });
		children.forEach(([key, child], i) => {
			const childHead = typeof key === 'number' ? '' : `${JSON.stringify(key)}: `;
			walk(child, [...keys, key], depth + 1, childHead, i < children.length - 1 ? ',' : '');
		});
		lines.push({ text: `${indent}${close}${tail}`, path: null });
	};
	walk(value, [], 0, '', '');
	return { json: true, lines };
}

/** Whether an edited payload is JSON; when not, the parser's own words (with its position). */
export function checkJson(text: string): { ok: true } | { ok: false; message: string } {
	try {
		JSON.parse(text);
		return { ok: true };
	} catch (error) {
		return { ok: false, message: error instanceof Error ? error.message : String(error) };
	}
}

/** The text the editor opens with: the payload pretty-printed when it is JSON, else as it came. */
export function editableText(raw: string): string {
	try {
		return JSON.stringify(JSON.parse(raw), null, 2);
	} catch {
		return raw;
	}
}

/** The HTTP status at the start of an HTTP entry's result (`409 Could not…` → 409). */
export function statusOf(entry: Pick<InspectorEntry, 'interface' | 'result'>): number | null {
	if (entry.interface !== 'http') return null;
	const match = /^(\d{3})\b/.exec(entry.result);
	return match ? Number(match[1]) : null;
}

/** `order.items[1].qty` → `order.items[1]` → `order.items` → `order` → ''. */
export function parentPath(path: string): string {
	const last = /(?:\[\d+\]|\.[^.[]*)$/.exec(path);
	return last ? path.slice(0, last.index) : '';
}

/**
 * The line a finding's path points at: the line of that field, or, when the field is not in the
 * payload (a required field left out), the line of the nearest enclosing field. -1 for a finding
 * about the message as a whole (path '') or a payload that is not JSON.
 */
export function lineOfPath(lines: readonly PayloadLine[], path: string): number {
	for (let p = path; p !== ''; p = parentPath(p)) {
		const index = lines.findIndex((line) => line.path === p);
		if (index >= 0) return index;
	}
	return -1;
}

/** Line index → the findings pointing at that line. */
export function findingsByLine(
	lines: readonly PayloadLine[],
	findings: readonly Finding[]
): Map<number, Finding[]> {
	const out = new Map<number, Finding[]>();
	for (const finding of findings) {
		const line = lineOfPath(lines, finding.path);
		if (line < 0) continue;
		out.set(line, [...(out.get(line) ?? []), finding]);
	}
	return out;
}
