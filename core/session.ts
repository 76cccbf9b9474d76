/**
 * Session files: a recording of what a POS sent, in order and with its timing, that
 * `kds-sim replay` sends again to a fresh simulator (agent/cli/replay.ts) so anyone can watch on
 * a kitchen screen what the POS did. The inspector exports any stretch of its log as one
 * (GET /api/admin/messages/session), and the certification run's transcript is one (i44c).
 *
 * JSON Lines (docs/replay.md): a header line, then one line per message, oldest first:
 *
 * ```
 * {"format":"kds-sim-session","version":1,"simulator":"0.1.0","createdAt":"…","redacted":true,
 *  "messages":2,"locations":["loc-1"],"screens":[{"id":"kds-1","location":"loc-1"}]}
 * {"seq":1,"offsetMs":0,"transport":"tcp","screen":"kds-1","text":"{\"command\":…}","reply":"1001","ok":true}
 * {"seq":2,"offsetMs":840,"transport":"http","method":"PUT","route":"/integrators/kds-orders",
 *  "location":"loc-1","devices":["kds-1"],"contentType":"application/json","text":"{…}","reply":"200 {…}","ok":true}
 * ```
 *
 * `text` is the whole message as it was sent (the bytes as text: TCP the framed message, HTTP
 * the body), redacted of customer data by core/redact.ts in place (every other byte as sent)
 * when the header says `redacted`. `offsetMs` is the time since the first message; `reply` and
 * `ok` are what the recording simulator answered (informative: a replay compares with them).
 * No token or peer address is written. Reading checks every line against the schema and names
 * the line and the field of each problem (`line 3: offsetMs: expected …`). Pure.
 */
import * as z from 'zod';
import type { MessageEntry } from './message-entry.ts';
import { expected, parseWith } from './parse.ts';
import { Redactor } from './redact.ts';

export const SESSION_FORMAT = 'kds-sim-session';
export const SESSION_VERSION = 1;
/** The media type of a session file (JSON Lines). */
export const SESSION_MEDIA_TYPE = 'application/x-ndjson';

const text = () => z.string({ error: (i) => expected('a string', i.input) });
const nonEmpty = () => text().min(1, { error: 'expected a non-empty string' });
const count = (what: string) =>
	z
		.int({ error: (i) => expected(what, i.input) })
		.min(0, { error: `expected ${what} (0 or more)` });

export const SessionHeaderSchema = z.object({
	format: z.literal(SESSION_FORMAT, {
		error: (i) => expected(`"${SESSION_FORMAT}" (this is not a kds-sim session file)`, i.input)
	}),
	version: z.literal(SESSION_VERSION, {
		error: (i) =>
			expected(
				`${SESSION_VERSION} (this simulator reads version ${SESSION_VERSION} files)`,
				i.input
			)
	}),
	simulator: text().describe('The version of the simulator that wrote it.'),
	createdAt: z.iso
		.datetime({ offset: true, error: (i) => expected('an ISO 8601 date-time', i.input) })
		.describe('When the file was written.'),
	redacted: z
		.boolean({ error: (i) => expected('true or false', i.input) })
		.describe('Whether customer data was redacted (core/redact.ts).'),
	messages: count('a number of messages').describe('How many message lines follow.'),
	locations: z.array(nonEmpty(), { error: (i) => expected('an array of location ids', i.input) }),
	screens: z.array(z.object({ id: nonEmpty(), location: nonEmpty() }), {
		error: (i) => expected('an array of {id, location}', i.input)
	})
});

const common = {
	seq: z
		.int({ error: (i) => expected('an integer', i.input) })
		.min(1, { error: 'expected 1 or more' }),
	offsetMs: count('a number of milliseconds'),
	text: text().describe('The message as sent, as text.'),
	reply: text().optional().describe('What the recording simulator answered.'),
	ok: z.boolean({ error: (i) => expected('true or false', i.input) }).optional(),
	truncated: z
		.literal(true, { error: (i) => expected('true (or absent)', i.input) })
		.optional()
		.describe('The log kept only the start of it (64 KiB; 4 KiB of bytes that were not JSON).')
};

export const SessionMessageSchema = z.discriminatedUnion(
	'transport',
	[
		z.object({ ...common, transport: z.literal('tcp'), screen: nonEmpty() }),
		z.object({
			...common,
			transport: z.literal('http'),
			method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {
				error: (i) => expected('an HTTP method (GET, POST, PUT, PATCH, DELETE)', i.input)
			}),
			route: text().regex(/^\/\S*$/, { error: 'expected a path starting with /' }),
			location: z
				.union([nonEmpty(), z.null()], {
					error: (i) => expected('a location id or null', i.input)
				})
				.describe('x-location-id; null when the request named none the simulator knew.'),
			devices: z.array(nonEmpty(), { error: (i) => expected('an array of screen ids', i.input) }),
			contentType: z.union([text(), z.null()], {
				error: (i) => expected('a Content-Type or null', i.input)
			})
		})
	],
	{ error: (i) => expected('"tcp" or "http"', (i.input as { transport?: unknown })?.transport) }
);

export type SessionHeader = z.output<typeof SessionHeaderSchema>;
export type SessionMessage = z.output<typeof SessionMessageSchema>;
export interface Session {
	header: SessionHeader;
	messages: SessionMessage[];
}

/** A problem of a session file: its line (1 is the header) and field. */
export interface SessionError {
	line: number;
	path: string;
	message: string;
}

export type SessionRead = { ok: true; session: Session } | { ok: false; errors: SessionError[] };

/** The file's text: the header, then a line per message, each ending in a newline. */
export function writeSession(session: Session): string {
	let out = `${JSON.stringify(session.header)}\n`;
	for (const m of session.messages) out += `${JSON.stringify(m)}\n`;
	return out;
}

/** How many problems reading names before it stops (a wrong file has one on every line). */
const MOST_ERRORS = 20;

/** Read a session file, checking each line; every problem names its line and field. */
export function readSession(file: string): SessionRead {
	const errors: SessionError[] = [];
	const lines = file.split('\n');
	if (lines.at(-1) === '') lines.pop();
	const parsed: unknown[] = [];
	for (let i = 0; i < lines.length && errors.length < MOST_ERRORS; i++) {
		const line = lines[i].replace(/\r$/, '').replace(/^\uFEFF/, '');
		if (line.trim() === '') {
			errors.push({ line: i + 1, path: '', message: 'empty line (expected one JSON object)' });
			continue;
		}
		try {
			parsed.push(JSON.parse(line));
		} catch (err) {
			errors.push({ line: i + 1, path: '', message: `not JSON (${(err as Error).message})` });
			parsed.push(undefined);
		}
	}
	if (lines.length === 0) {
		return {
			ok: false,
			errors: [{ line: 1, path: '', message: 'empty file (expected a header line)' }]
		};
	}
	const head =
		parsed[0] === undefined
			? null
			: parseWith(SessionHeaderSchema, parsed[0], [], { keepNulls: true });
	if (head && !head.ok) for (const e of head.errors) errors.push({ line: 1, ...e });
	const messages: SessionMessage[] = [];
	let lastOffset = 0;
	for (let i = 1; i < parsed.length && errors.length < MOST_ERRORS; i++) {
		if (parsed[i] === undefined) continue;
		const m = parseWith(SessionMessageSchema, parsed[i], [], { keepNulls: true });
		if (!m.ok) {
			for (const e of m.errors) errors.push({ line: i + 1, ...e });
			continue;
		}
		if (m.value.offsetMs < lastOffset) {
			errors.push({
				line: i + 1,
				path: 'offsetMs',
				message: `expected ${lastOffset} or more (the messages are in the order they were sent), got ${m.value.offsetMs}`
			});
		}
		lastOffset = m.value.offsetMs;
		messages.push(m.value);
	}
	if (head?.ok && errors.length === 0 && head.value.messages !== messages.length) {
		errors.push({
			line: 1,
			path: 'messages',
			message: `the header counts ${head.value.messages} messages, the file has ${messages.length} (cut short?)`
		});
	}
	if (errors.length > 0 || !head?.ok)
		return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
	return { ok: true, session: { header: head.value, messages } };
}

/** The problems of a session file, one a line, as `kds-sim replay` prints them. */
export function formatSessionErrors(errors: SessionError[], file = 'session'): string {
	return errors
		.map((e) => `${file}:${e.line}: ${e.path ? `${e.path}: ` : ''}${e.message}`)
		.join('\n');
}

/** What a session is made from, besides the entries: the agent's knowledge of its screens. */
export interface SessionSource {
	simulator: string;
	/** When the file is written (ms since epoch). */
	now: number;
	/** The location of a screen id (null: not a screen of this simulator). */
	locationOf: (screenId: string) => string | null;
	/** Redact customer data (default true). */
	redact?: boolean;
}

/** The characters the inspector's log keeps of a payload before it cuts it (message-log.ts). */
const CUT = /… \(\d+ characters in all\)$/;

/**
 * A session of the log's entries (any order: written oldest first), redacted unless told not to.
 * Entries sent by the inspector (re-sends, edits) are in it: the screen got them as any other.
 */
export function sessionOf(entries: readonly MessageEntry[], source: SessionSource): Session {
	const sorted = [...entries].sort((a, b) => a.id - b.id);
	const redact = source.redact !== false;
	const r = new Redactor();
	const screens = new Map<string, string>();
	const first = sorted[0]?.at ?? source.now;
	const messages: SessionMessage[] = [];
	for (const e of sorted) {
		const location = e.screenIds.map(source.locationOf).find((l) => l !== null) ?? null;
		for (const id of e.screenIds) {
			const l = source.locationOf(id);
			if (l !== null) screens.set(id, l);
		}
		const body = redact ? r.message(e.raw) : e.raw;
		// HTTP: `<status> <body>`, as kds-sim send prints it; TCP: the reply string.
		const reply =
			e.interface === 'http' ? `${e.result.split(' ')[0]} ${e.reply ?? ''}` : (e.reply ?? e.result);
		const common = {
			seq: messages.length + 1,
			offsetMs: Math.max(0, e.at - first),
			text: body,
			reply: redact ? r.text(reply) : reply,
			ok: e.ok,
			...(CUT.test(e.raw) || (!e.ok && e.command === null && e.raw.length >= 4096)
				? { truncated: true as const }
				: {})
		};
		if (e.interface === 'tcp') {
			messages.push({ ...common, transport: 'tcp', screen: e.screenIds[0] ?? '' });
		} else {
			const [method, route] = (e.command ?? 'POST /').split(' ');
			messages.push({
				...common,
				transport: 'http',
				method: (method || 'POST') as 'POST',
				route: (route ?? '/').split('?')[0],
				location,
				devices: [...e.screenIds],
				contentType: e.contentType === undefined ? 'application/json' : e.contentType
			});
		}
	}
	const locations = [...new Set(screens.values())];
	return {
		header: {
			format: SESSION_FORMAT,
			version: SESSION_VERSION,
			simulator: source.simulator,
			createdAt: new Date(source.now).toISOString(),
			redacted: redact,
			messages: messages.length,
			locations,
			screens: [...screens].map(([id, location]) => ({ id, location }))
		},
		messages
	};
}
