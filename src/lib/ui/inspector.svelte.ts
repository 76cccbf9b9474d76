/**
 * The inspector in the browser: the agent's message log (admin API) as the UI reads it, the live
 * feed behind the /inspector page, the per-order findings behind the markers on the cards, and
 * the pure helpers that pretty-print a payload and point each finding at its line.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- the Maps, Sets and Dates here are local or
   deliberately not reactive: what is rendered is assigned whole to $state.raw. */
import type { Finding, Severity } from '#core/conformance';
import type { MessageEntry } from '#core/message-entry';
import { formatPath } from '#core/schema';
import { zonedFormat } from '#core/view/format';

export type { Finding, Severity };

/** One logged message, as GET /api/admin/messages and the stream send it. */
export type InspectorEntry = MessageEntry;

/** The inspector's filters, as in its URL: `?screen=&order=&severity=` ('' = any). */
export interface MessageFilter {
	screen: string;
	order: string;
	severity: Severity | '';
}

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** Entries the inspector page keeps in the browser; older ones are dropped. */
export const FEED_LIMIT = 500;

const MESSAGES_URL = '/api/admin/messages';
const STREAM_URL = '/api/admin/messages/stream';

/** Shown instead of the log when the admin API answers 403. */
export const FORBIDDEN_TEXT =
	'The inspector is available from the simulator host, or with an admin token';

// ---------------------------------------------------------------------------------------------
// Pure helpers.

export function filterFromParams(params: URLSearchParams): MessageFilter {
	const severity = params.get('severity') ?? '';
	return {
		screen: params.get('screen')?.trim() ?? '',
		order: params.get('order')?.trim() ?? '',
		severity: (SEVERITIES as readonly string[]).includes(severity) ? (severity as Severity) : ''
	};
}

/** The query string of a filter, without the empty ones: `screen=kds-1&order=1042`. */
export function filterQuery(filter: MessageFilter): string {
	const params = new URLSearchParams();
	if (filter.screen) params.set('screen', filter.screen);
	if (filter.order) params.set('order', filter.order);
	if (filter.severity) params.set('severity', filter.severity);
	return params.toString();
}

export function sameFilter(a: MessageFilter, b: MessageFilter): boolean {
	return a.screen === b.screen && a.order === b.order && a.severity === b.severity;
}

/** The same test the agent applies to GET /api/admin/messages, for entries from the stream. */
export function matchesFilter(entry: InspectorEntry, filter: MessageFilter): boolean {
	if (filter.screen && !entry.screenIds.includes(filter.screen)) return false;
	if (filter.order && entry.orderId !== filter.order) return false;
	if (filter.severity && !entry.findings.some((f) => f.severity === filter.severity)) return false;
	return true;
}

/** Both lists as one, newest (highest id) first, each id once, at most `limit` entries. */
export function mergeEntries(
	a: readonly InspectorEntry[],
	b: readonly InspectorEntry[],
	limit: number
): InspectorEntry[] {
	const byId = new Map<number, InspectorEntry>();
	for (const entry of [...a, ...b]) if (!byId.has(entry.id)) byId.set(entry.id, entry);
	return [...byId.values()].sort((x, y) => y.id - x.id).slice(0, limit);
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
	const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
	for (const f of findings) counts[f.severity] += 1;
	return counts;
}

export interface Marker {
	/** Errors plus warnings. */
	count: number;
	/** The worst of them. */
	severity: 'error' | 'warning';
}

/** The card marker for a set of findings; none when there are only infos (or nothing). */
export function markerOf(findings: readonly Finding[]): Marker | null {
	const { error, warning } = countBySeverity(findings);
	if (error + warning === 0) return null;
	return { count: error + warning, severity: error > 0 ? 'error' : 'warning' };
}

/**
 * Wall-clock time with milliseconds in the location's time zone, with its short name:
 * `18:40:07.125 CST`; `date` puts the day first (`2026-11-23 18:40:07.125 CST`). Never the
 * browser's zone: without a zone (or one the browser does not know), UTC, labelled so.
 */
export function formatTime(
	at: number,
	timeZone?: string,
	options: { date?: boolean; ms?: boolean } = {}
): string {
	const ms = options.ms ?? true;
	const fields: Intl.DateTimeFormatOptions = {
		...(options.date ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		...(ms ? { fractionalSecondDigits: 3 as const } : {}),
		hourCycle: 'h23'
	};
	const format = zonedFormat(timeZone, 'en-US', fields);
	const part: Record<string, string> = {};
	for (const { type, value } of format.formatToParts(at)) part[type] = value;
	const seconds = ms ? `${part.second}.${part.fractionalSecond}` : part.second;
	const time = `${part.hour}:${part.minute}:${seconds} ${part.timeZoneName}`;
	return options.date ? `${part.year}-${part.month}-${part.day} ${time}` : time;
}

/** The time zone of the location a screen belongs to (null when the screen is not known). */
export function zoneOfScreen(
	locations: readonly { timezone?: string; screens: readonly { id: string }[] }[],
	screenId: string | undefined
): string | null {
	if (!screenId) return null;
	return locations.find((l) => l.screens.some((s) => s.id === screenId))?.timezone ?? null;
}

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
 * The payload pretty-printed, one entry per line, each line knowing the field it starts. The
 * text is exactly `JSON.stringify(JSON.parse(raw), null, 2)`; a payload that is not JSON is
 * shown as it came.
 */
export function prettyPayload(raw: string): PrettyPayload {
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		return { json: false, lines: raw.split(/\r?\n/).map((text) => ({ text, path: null })) };
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

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The worst severity of some findings. */
export function worstSeverity(findings: readonly Finding[]): Severity | null {
	let worst: Severity | null = null;
	for (const f of findings) {
		if (worst === null || SEVERITY_RANK[f.severity] < SEVERITY_RANK[worst]) worst = f.severity;
	}
	return worst;
}

// ---------------------------------------------------------------------------------------------
// Talking to the admin API.

/** The part of EventSource used here, so tests can pass a fake. */
export interface EventSourceLike {
	readonly readyState: number;
	onopen: ((ev: Event) => unknown) | null;
	onmessage: ((ev: MessageEvent) => unknown) | null;
	onerror: ((ev: Event) => unknown) | null;
	close(): void;
}

export interface FollowerOptions {
	fetch?: typeof fetch;
	createEventSource?: (url: string) => EventSourceLike;
	/** Delay before opening the stream again after the agent closed it. */
	retryMs?: number;
	limit?: number;
}

export type FeedStatus = 'loading' | 'live' | 'reconnecting' | 'forbidden';

const CLOSED = 2;

/**
 * Follows the message log: the entries that match a filter (GET), then each new entry from the
 * stream. The GET goes out once the stream is open (the agent subscribes it before answering), so
 * nothing falls between the two; an entry may come twice, and callers dedupe. After a drop the
 * stream reopens and the GET runs again to fill the gap. A 403 stops everything: the admin API
 * is not for this browser.
 */
class LogFollower {
	status: FeedStatus = 'loading';
	#filter: MessageFilter = { screen: '', order: '', severity: '' };
	#source: EventSourceLike | null = null;
	#streaming = false;
	#generation = 0;
	#retryTimer: ReturnType<typeof setTimeout> | undefined;
	#running = false;
	#fetch: typeof fetch;
	#createEventSource: (url: string) => EventSourceLike;
	#retryMs: number;
	#limit: number;

	constructor(
		private readonly handlers: {
			/** Entries matching the filter; `loaded`: the answer of a GET, else one from the stream. */
			entries: (entries: InspectorEntry[], loaded: boolean) => void;
			status: (status: FeedStatus) => void;
		},
		options: FollowerOptions = {}
	) {
		this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
		this.#createEventSource = options.createEventSource ?? ((url) => new EventSource(url));
		this.#retryMs = options.retryMs ?? 3000;
		this.#limit = options.limit ?? FEED_LIMIT;
	}

	get filter(): MessageFilter {
		return this.#filter;
	}

	start(filter: MessageFilter): void {
		this.#filter = filter;
		if (this.#running) {
			// With the stream open, load now; otherwise its opening will.
			if (this.#streaming) void this.#load();
			return;
		}
		this.#running = true;
		this.#setStatus('loading');
		this.#connect();
	}

	stop(): void {
		this.#running = false;
		this.#generation += 1;
		clearTimeout(this.#retryTimer);
		this.#discard();
	}

	#setStatus(status: FeedStatus): void {
		this.status = status;
		this.handlers.status(status);
	}

	#connect(): void {
		this.#discard();
		let source: EventSourceLike;
		try {
			source = this.#createEventSource(STREAM_URL);
		} catch {
			this.#retry(() => this.#connect());
			return;
		}
		this.#source = source;
		source.onopen = () => {
			if (source !== this.#source) return;
			this.#streaming = true;
			void this.#load();
		};
		source.onmessage = (event) => {
			if (source !== this.#source) return;
			let entry: InspectorEntry;
			try {
				entry = JSON.parse(String(event.data)) as InspectorEntry;
			} catch {
				return;
			}
			if (matchesFilter(entry, this.#filter)) this.handlers.entries([entry], false);
		};
		source.onerror = () => {
			if (source !== this.#source) return;
			this.#streaming = false;
			this.#generation += 1;
			this.#setStatus('reconnecting');
			// CONNECTING: the browser retries by itself. CLOSED: it gave up (an HTTP error status,
			// which EventSource does not show): ask the GET whether it was a 403.
			if (source.readyState === CLOSED) void this.#checkAccess();
		};
	}

	#retry(action: () => void): void {
		clearTimeout(this.#retryTimer);
		if (!this.#running) return;
		this.#retryTimer = setTimeout(action, this.#retryMs);
	}

	#discard(): void {
		this.#streaming = false;
		const source = this.#source;
		this.#source = null;
		if (!source) return;
		source.onopen = source.onmessage = source.onerror = null;
		source.close();
	}

	#url(): string {
		const query = filterQuery(this.#filter);
		return `${MESSAGES_URL}?${query ? `${query}&` : ''}limit=${this.#limit}`;
	}

	#forbidden(): void {
		this.stop();
		this.#setStatus('forbidden');
	}

	/** The stream was refused: stop at a 403, else open it again in a while. */
	async #checkAccess(): Promise<void> {
		const generation = this.#generation;
		const status = await this.#fetch(`${MESSAGES_URL}?limit=1`).then(
			(res) => res.status,
			() => 0
		);
		if (generation !== this.#generation || !this.#running) return;
		if (status === 403) this.#forbidden();
		else this.#retry(() => this.#connect());
	}

	async #load(): Promise<void> {
		const generation = ++this.#generation;
		let entries: InspectorEntry[];
		try {
			const res = await this.#fetch(this.#url());
			if (generation !== this.#generation) return;
			if (res.status === 403) return this.#forbidden();
			if (!res.ok) throw new Error(`${res.status}`);
			entries = (await res.json()) as InspectorEntry[];
		} catch {
			if (generation !== this.#generation) return;
			this.#setStatus('reconnecting');
			this.#retry(() => void this.#load());
			return;
		}
		if (generation !== this.#generation) return;
		this.handlers.entries(entries, true);
		this.#setStatus('live');
	}
}

/** The /inspector page's list: the newest entries that match the filter, live. */
export class MessageFeed {
	entries: InspectorEntry[] = $state.raw([]);
	status: FeedStatus = $state('loading');
	#follower: LogFollower;
	#started = false;
	#limit: number;

	constructor(options: FollowerOptions = {}) {
		this.#limit = options.limit ?? FEED_LIMIT;
		this.#follower = new LogFollower(
			{
				entries: (entries) => (this.entries = mergeEntries(entries, this.entries, this.#limit)),
				status: (status) => (this.status = status)
			},
			options
		);
	}

	/** Show the entries that match `filter` (starts following the log on first call). */
	setFilter(filter: MessageFilter): void {
		if (this.#started && sameFilter(filter, this.#follower.filter)) return;
		this.#started = true;
		this.entries = [];
		this.#follower.start(filter);
	}

	stop(): void {
		this.#started = false;
		this.#follower.stop();
	}
}

/**
 * Send a logged message again, as it came, or `edited` (the payload from the inspector's
 * editor) in its place; resolves with the reply, or why it could not.
 */
export async function resendMessage(
	id: number,
	fetchImpl: typeof fetch = (input, init) => fetch(input, init),
	edited?: string
): Promise<{ ok: boolean; result: string }> {
	try {
		const res = await fetchImpl(
			`${MESSAGES_URL}/${id}/resend`,
			edited === undefined
				? { method: 'POST' }
				: {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ payload: edited })
					}
		);
		const body = (await res.json().catch(() => ({}))) as { result?: string; message?: string };
		if (res.status === 403) return { ok: false, result: FORBIDDEN_TEXT };
		if (!res.ok) return { ok: false, result: body.message ?? `The agent answered ${res.status}` };
		return { ok: true, result: body.result ?? '' };
	} catch {
		return { ok: false, result: 'The agent is not reachable' };
	}
}

// ---------------------------------------------------------------------------------------------
// Findings per order, for the markers on a screen's cards.

/** One order's findings; its own reactive values, so a change redraws only that card's marker. */
export class OrderFindings {
	findings: Finding[] = $state.raw([]);
	marker: Marker | null = $state.raw(null);
	/** Cards showing it now. */
	watchers = 0;
}

/** A refused message: its log id and when it came (agent time). */
export interface RefusedAt {
	id: number;
	at: number;
}

/** Refused messages remembered per screen for the strip (it counts the last few minutes). */
const MAX_REFUSALS = 1000;

/** How far back the refusal strip counts. */
export const REFUSAL_WINDOW_MS = 10 * 60_000;

/** Refused messages that came within the window before `now`. */
export function recentRefusals(refusals: readonly RefusedAt[], now: number): number {
	let count = 0;
	for (const refused of refusals) if (refused.at >= now - REFUSAL_WINDOW_MS) count += 1;
	return count;
}

/** Orders with findings remembered per screen, beyond those on the cards; oldest forgotten first. */
const MAX_ORDERS = 1000;
/** How long the stream stays open after the last card using it went away. */
const IDLE_STOP_MS = 5000;

/**
 * The findings of a screen's orders, from the message log. Per order it keeps the union of the
 * warnings and errors of all its accepted messages (one per severity, code and path), not only those of
 * the latest message: a clean cancel or partial update does not make an order's bad create-order
 * go away, and the marker leads to the inspector filtered by that order, which lists them all.
 * A union is also idempotent, so an entry seen twice (GET and stream) changes nothing. Infos do
 * not count: no marker for them. Refused messages changed nothing on the screen: their findings
 * stay off the cards, and they are counted for the refusal strip instead (`refusals`).
 */
export class ScreenFindings {
	status: FeedStatus = 'loading';
	/** When each refused message of this screen came (agent time), oldest first, each once. */
	refusals: RefusedAt[] = $state.raw([]);
	#refusedIds = new Set<number>();
	// Deliberately not reactive: each card reads only its own OrderFindings.
	#orders = new Map<string, OrderFindings>();
	#keys = new Map<string, Set<string>>();
	#follower: LogFollower;
	#users = 0;
	#stopTimer: ReturnType<typeof setTimeout> | undefined;
	#running = false;

	constructor(
		readonly screenId: string,
		options: FollowerOptions = {}
	) {
		this.#follower = new LogFollower(
			{
				entries: (entries) => {
					// A GET answers newest first; apply oldest first so recent orders are kept longest.
					for (let i = entries.length - 1; i >= 0; i--) this.add(entries[i]);
				},
				status: (status) => (this.status = status)
			},
			options
		);
	}

	/** The findings of one order (empty until a message with a warning or error arrives). */
	order(orderId: string): OrderFindings {
		let found = this.#orders.get(orderId);
		if (!found) {
			found = new OrderFindings();
			this.#orders.set(orderId, found);
		}
		return found;
	}

	/**
	 * Take in one logged message. A refused one changed nothing on the screen: its findings stay
	 * with it (in the inspector), never on the live card that has the same order id; it counts
	 * among the refusals instead.
	 */
	add(entry: InspectorEntry): void {
		if (!entry.screenIds.includes(this.screenId)) return;
		if (!entry.ok) {
			this.#refused(entry);
			return;
		}
		if (entry.orderId === null) return;
		const serious = entry.findings.filter((f) => f.severity !== 'info');
		if (serious.length === 0) return;
		const id = entry.orderId;
		const keys = this.#keys.get(id) ?? new Set<string>();
		const added = serious.filter((f) => {
			const key = `${f.severity} ${f.code} ${f.path}`;
			if (keys.has(key)) return false;
			keys.add(key);
			return true;
		});
		if (added.length === 0) return;
		const order = this.order(id);
		// Most recently changed last: the first in the map are the first forgotten.
		this.#orders.delete(id);
		this.#orders.set(id, order);
		this.#keys.set(id, keys);
		order.findings = [...order.findings, ...added];
		order.marker = markerOf(order.findings);
		this.#forgetOldest();
	}

	#refused(entry: InspectorEntry): void {
		if (this.#refusedIds.has(entry.id)) return;
		this.#refusedIds.add(entry.id);
		const next = [...this.refusals, { id: entry.id, at: entry.at }].sort((a, b) => a.id - b.id);
		// Only the recent ones are ever shown; keep a bounded tail.
		if (next.length > MAX_REFUSALS) {
			for (const gone of next.splice(0, next.length - MAX_REFUSALS))
				this.#refusedIds.delete(gone.id);
		}
		this.refusals = next;
	}

	/** Orders no card shows, oldest first, until the bound holds. */
	#forgetOldest(): void {
		if (this.#orders.size <= MAX_ORDERS) return;
		for (const [id, order] of this.#orders) {
			if (order.watchers > 0) continue;
			this.#orders.delete(id);
			this.#keys.delete(id);
			if (this.#orders.size <= MAX_ORDERS) return;
		}
	}

	/**
	 * A card shows an order: keep its findings and follow the log while any card does. Returns
	 * the release.
	 */
	watch(orderId: string): () => void {
		const order = this.order(orderId);
		order.watchers += 1;
		const release = this.follow();
		let released = false;
		return () => {
			if (released) return;
			released = true;
			order.watchers -= 1;
			// A bumped order without findings need not be remembered.
			if (order.watchers === 0 && order.findings.length === 0) {
				if (this.#orders.get(orderId) === order) this.#orders.delete(orderId);
			}
			release();
		};
	}

	/** Follow the screen's log while anyone (a card, the refusal strip) uses it. Returns the release. */
	follow(): () => void {
		this.#users += 1;
		clearTimeout(this.#stopTimer);
		if (!this.#running) {
			this.#running = true;
			this.#follower.start({ screen: this.screenId, order: '', severity: '' });
		}
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#users -= 1;
			if (this.#users > 0) return;
			// Cards come and go as orders are bumped: do not reload the log for each.
			this.#stopTimer = setTimeout(() => {
				this.#running = false;
				this.#follower.stop();
			}, IDLE_STOP_MS);
		};
	}
}

// One per screen id, for the page's lifetime (the stream itself stops when no card uses it).
const screens = new Map<string, ScreenFindings>();

/** The shared findings of a screen's orders. */
export function screenFindings(screenId: string): ScreenFindings {
	let found = screens.get(screenId);
	if (!found) {
		found = new ScreenFindings(screenId);
		screens.set(screenId, found);
	}
	return found;
}
