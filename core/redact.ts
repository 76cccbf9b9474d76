/**
 * Customer data out of what the simulator shows others: the one redaction of the project, used by
 * the session files (recordings, core/session.ts: the inspector's export, `kds-sim replay`) and
 * by the certification report (core/certify/, engineer i44c), so a file handed to a vendor or
 * attached to a CI run carries no customer's name, phone number or address.
 *
 * Import it as `#core/redact` (agent, UI) or `./redact.ts` / `../redact.ts` (core):
 *
 * ```ts
 * import { Redactor } from '#core/redact';
 * const r = new Redactor();            // one per file: the same person gets the same stand-in
 * r.message(rawText);                  // a message as sent (JSON text, or any bytes as text)
 * r.value(parsedOrder);                // an order, envelope or notification already parsed
 * r.text('same name "Maria" as …');    // free text (findings, why, SMS): known values replaced
 * ```
 *
 * What is customer data (REDACTED_FIELDS), in an order at the root of a message or under the
 * TCP envelope's `order`: `name` (the order or customer name) → `Customer 1`, `Customer 2`, …;
 * `server` (an employee's name) → `Server 1`, …; `deliveryAddress` → `Address 1`, …; at any depth
 * `phoneNumber` and `driverPhone` → the same length and punctuation with other digits
 * (`+14155550123` → `+55500000001`), so a phone's format finding is unchanged. In the free texts a
 * customer writes (`specialInstructions`, a pop-up's `message`) every value already seen (and
 * each word of a name) is replaced and anything shaped like a phone number (`+` and 7 or more digits, or 555-123-4567)
 * has its digits masked. Dishes, modifiers, ids, times, vehicles and everything else stay.
 *
 * The stand-ins are numbered in the order values are first seen, per Redactor, and equal values
 * (names compared as Combine Orders compares them, trimmed and case-blind; phones by their
 * digits) get the same one: a replay still combines, updates and cancels the same tickets, and a
 * redaction of the same messages is the same text every time (the report hashes it).
 *
 * A message's text is redacted in place: only the values at those fields change, every other
 * byte stays as it was sent (spacing, key order, escapes, numbers), also in a text that is not
 * whole JSON (cut short, or refused). Pure: no Node, no Svelte, no sockets.
 */

/** The fields whose values are customer data, and where they are read. */
export const REDACTED_FIELDS = {
	/** In the order (the message itself, or the TCP envelope's `order`). */
	order: ['name', 'server', 'deliveryAddress'],
	/** At any depth. */
	anywhere: ['phoneNumber', 'driverPhone'],
	/** Free text in the order or a notification: known values replaced, phone-like runs masked. */
	freeText: ['specialInstructions', 'message']
} as const;

type Kind = 'name' | 'server' | 'address' | 'phone';

const KIND_OF_ORDER_FIELD: Record<string, Kind> = {
	name: 'name',
	server: 'server',
	deliveryAddress: 'address'
};
const ANYWHERE = new Set<string>(REDACTED_FIELDS.anywhere);
const FREE_TEXT = new Set<string>(REDACTED_FIELDS.freeText);
const LABEL: Record<Exclude<Kind, 'phone'>, string> = {
	name: 'Customer',
	server: 'Server',
	address: 'Address'
};

/** A phone number in free text: international (`+` then 7+ digits) or 555-123-4567 / (555) 123 4567. */
const PHONE_IN_TEXT = /\+\d[\d\s().-]{5,}\d|\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g;

const keyOf = (kind: Kind, value: string): string =>
	kind === 'phone' ? value.replace(/\D/g, '') : value.trim().toLocaleLowerCase();

/** The digits of `phone` replaced by the n-th stand-in's, its length and punctuation kept. */
function fakePhone(phone: string, n: number): string {
	const count = phone.replace(/\D/g, '').length;
	const tail = String(n);
	const fill = count - tail.length;
	const digits = fill <= 0 ? tail.slice(-count) : '555'.padEnd(fill, '0').slice(0, fill) + tail;
	let i = 0;
	return phone.replace(/\d/g, () => digits[i++] ?? '0');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
	/** The number of each value's stand-in, by kind and value (as compared). */
	private readonly numbers = new Map<string, number>();
	private readonly counts: Record<Kind, number> = { name: 0, server: 0, address: 0, phone: 0 };
	/** Every original seen, with its stand-in (read by text). */
	private readonly seen = new Map<string, string>();
	private pattern: RegExp | null = null;
	private lower: Map<string, string> | null = null;

	/** The stand-in of a customer value of that kind (the same value, the same stand-in). */
	private standIn(kind: Kind, value: string): string {
		const key = `${kind}\u0000${keyOf(kind, value)}`;
		let n = this.numbers.get(key);
		if (n === undefined) {
			n = ++this.counts[kind];
			this.numbers.set(key, n);
		}
		const out = kind === 'phone' ? fakePhone(value, n) : `${LABEL[kind]} ${n}`;
		const trimmed = value.trim();
		this.remember(trimmed, kind === 'phone' ? fakePhone(trimmed, n) : out);
		// A free text may name a person by a part of their name ("Ring 陳さん" for "陳さん 🌮").
		if (kind === 'name' || kind === 'server')
			for (const part of trimmed.split(/\s+/)) if (/\p{L}/u.test(part)) this.remember(part, out);
		return out;
	}

	private remember(original: string, standIn: string): void {
		if (original.length >= 2 && !this.seen.has(original)) {
			this.seen.set(original, standIn);
			this.pattern = null;
		}
	}

	/**
	 * Free text with every customer value this redactor has seen replaced by its stand-in (longest
	 * first, names case-blind) and phone-like runs masked: for findings' messages, a refusal's why,
	 * an SMS, an evidence line.
	 */
	text(text: string): string {
		if (this.seen.size > 0) {
			if (this.pattern === null) {
				this.pattern = new RegExp(
					[...this.seen.keys()]
						.sort((a, b) => b.length - a.length)
						.map(escapeRegExp)
						.join('|'),
					'giu'
				);
				this.lower = new Map([...this.seen].map(([k, v]) => [k.toLocaleLowerCase(), v]));
			}
			const lower = this.lower!;
			text = text.replace(this.pattern, (m) => lower.get(m.toLocaleLowerCase()) ?? m);
		}
		return text.replace(PHONE_IN_TEXT, (m) => m.replace(/\d/g, '•'));
	}

	/**
	 * A message as it was sent, redacted in place (see the module doc): JSON text, or any text
	 * (bytes refused before JSON, a payload cut short) read as far as it goes.
	 */
	message(raw: string): string {
		// First every value at a customer field (a free text earlier in the message may name one
		// that comes later), then the text with each replaced.
		const tokens = scan(raw);
		const edits: Array<{ start: number; end: number; text: string }> = [];
		for (const t of tokens) {
			const kind = kindAt(t);
			if (kind === null || t.kind !== 'string') continue;
			this.standIn(kind, decode(raw.slice(t.start, t.end)));
		}
		for (const t of tokens) {
			const kind = kindAt(t);
			const source = raw.slice(t.start, t.end);
			if (kind !== null) {
				if (t.kind === 'string') {
					edits.push({ ...t, text: JSON.stringify(this.standIn(kind, decode(source))) });
				} else if (kind === 'phone') {
					edits.push({ ...t, text: source.replace(/\d/g, '5') });
				}
			} else if (t.kind === 'string' && FREE_TEXT.has(t.key ?? '')) {
				const value = decode(source);
				const redacted = this.text(value);
				if (redacted !== value) edits.push({ ...t, text: JSON.stringify(redacted) });
			}
		}
		let out = '';
		let at = 0;
		for (const e of edits) {
			out += raw.slice(at, e.start) + e.text;
			at = e.end;
		}
		return at === 0 ? raw : out + raw.slice(at);
	}

	/** A parsed message (order, TCP envelope, notification), redacted as `message` would: a copy. */
	value<T>(value: T): T {
		return walk(this, value, [], 'root') as T;
	}

	/** @internal walk's access to the stand-ins. */
	replace(kind: Kind, value: string): string {
		return this.standIn(kind, value);
	}
}

/** One message redacted with a redactor of its own. */
export function redactMessage(raw: string): string {
	return new Redactor().message(raw);
}

/** One scalar token of a JSON text: where it is, the key it is the value of, and its order depth. */
interface Token {
	kind: 'string' | 'number';
	start: number;
	end: number;
	/** The key of the object member it is the value of (null in an array or at the top). */
	key: string | null;
	/** In the order: the message's top object, or the `order` object under it. */
	inOrder: boolean;
}

function kindAt(t: Token): Kind | null {
	if (t.key === null) return null;
	if (ANYWHERE.has(t.key)) return 'phone';
	if (t.inOrder && t.key in KIND_OF_ORDER_FIELD) return KIND_OF_ORDER_FIELD[t.key];
	return null;
}

function decode(token: string): string {
	if (!token.startsWith('"')) return token;
	try {
		return JSON.parse(token) as string;
	} catch {
		return token.slice(1, token.endsWith('"') && token.length > 1 ? -1 : undefined);
	}
}

interface Frame {
	array: boolean;
	/** The key being read or last read (objects). */
	key: string | null;
	expectKey: boolean;
	inOrder: boolean;
}

/**
 * The scalar tokens of a JSON text, each with its key, read as far as the text goes: tolerant of
 * a text cut short or not JSON at all (what does not look like JSON is skipped).
 */
function scan(text: string): Token[] {
	const out: Token[] = [];
	const stack: Frame[] = [];
	let i = 0;
	const n = text.length;
	while (i < n) {
		const c = text[i];
		const top = stack.at(-1);
		if (c === '{' || c === '[') {
			const parentKey = top && !top.array ? top.key : null;
			const inOrder =
				c === '{' &&
				(stack.length === 0 || (stack.length === 1 && !top!.array && parentKey === 'order'));
			stack.push({ array: c === '[', key: null, expectKey: c === '{', inOrder });
			i++;
		} else if (c === '}' || c === ']') {
			stack.pop();
			i++;
		} else if (c === ',') {
			if (top && !top.array) top.expectKey = true;
			i++;
		} else if (c === ':') {
			if (top && !top.array) top.expectKey = false;
			i++;
		} else if (c === '"') {
			let j = i + 1;
			while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
			const end = Math.min(j + 1, n);
			if (top && !top.array && top.expectKey) {
				top.key = decode(text.slice(i, end));
			} else {
				out.push({
					kind: 'string',
					start: i,
					end,
					key: top && !top.array ? top.key : null,
					inOrder: !!top && top.inOrder
				});
			}
			i = end;
		} else if (c === '-' || (c >= '0' && c <= '9')) {
			let j = i + 1;
			while (j < n && /[0-9eE.+-]/.test(text[j])) j++;
			if (top && !top.array && !top.expectKey) {
				out.push({ kind: 'number', start: i, end: j, key: top.key, inOrder: top.inOrder });
			}
			i = j;
		} else i++;
	}
	return out;
}

function walk(r: Redactor, value: unknown, path: string[], key: string | null): unknown {
	if (Array.isArray(value)) return value.map((v) => walk(r, v, [...path, '[]'], null));
	if (value === null || typeof value !== 'object') {
		if (key === null) return value;
		const inOrder = path.length === 1 || (path.length === 2 && path[0] === 'order');
		const kind = kindAt({ kind: 'string', start: 0, end: 0, key, inOrder });
		if (kind !== null && typeof value === 'string') return r.replace(kind, value);
		if (kind === 'phone' && typeof value === 'number')
			return Number(String(value).replace(/\d/g, '5'));
		if (kind === null && typeof value === 'string' && FREE_TEXT.has(key)) return r.text(value);
		return value;
	}
	const out: Record<string, unknown> = {};
	// Customer values first, so a free text before them in the object is redacted of them too.
	const entries = Object.entries(value as Record<string, unknown>);
	const inOrder = path.length === 0 || (path.length === 1 && path[0] === 'order');
	for (const [k, v] of entries) {
		const kind = kindAt({ kind: 'string', start: 0, end: 0, key: k, inOrder });
		if (kind !== null && typeof v === 'string') r.replace(kind, v);
	}
	for (const [k, v] of entries) out[k] = walk(r, v, [...path, k], k);
	return out;
}
