/**
 * Follows the agent's message log: GET /api/admin/messages for what is there, the SSE stream for
 * what comes after.
 */
import { filterQuery, matchesFilter, type MessageFilter } from './filter';
import { MESSAGES_URL, STREAM_URL, type InspectorEntry } from './messages-api';

/** Entries the inspector page keeps in the browser; older ones are dropped. */
export const FEED_LIMIT = 500;

/** The part of EventSource used here, so tests can pass a fake. */
export interface EventSourceLike {
	readonly readyState: number;
	onopen: ((ev: Event) => unknown) | null;
	onmessage: ((ev: MessageEvent) => unknown) | null;
	onerror: ((ev: Event) => unknown) | null;
	addEventListener(type: 'resync', listener: (ev: MessageEvent) => unknown): void;
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

const OPEN = 1;
const CLOSED = 2;

/**
 * Follows the message log: the entries that match a filter (GET), then each new entry from the
 * stream. The GET goes out once the stream is open (the agent subscribes it before answering), so
 * nothing falls between the two; an entry may come from both, and callers key entries by id.
 * When the connection drops, EventSource reconnects by itself with the id of the last event it
 * had (Last-Event-ID) and the agent replays what was missed; only when the log no longer holds
 * all of that does it send `resync`, and the GET runs again. A stream the agent refused (closed)
 * is opened anew, loading again. A 403 stops everything: the admin API is not for this browser.
 */
export class LogFollower {
	status: FeedStatus = 'loading';
	#filter: MessageFilter = { screen: '', order: '', severity: '' };
	#source: EventSourceLike | null = null;
	/** The source opened and the GET for it went out (a reopen then only resumes). */
	#loadedFor: EventSourceLike | null = null;
	/** The GET (or access check) under way: aborted when a newer one or stop supersedes it. */
	#request: AbortController | null = null;
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
			// With the stream open, load now; otherwise its (re)opening will.
			if (this.#source?.readyState === OPEN) void this.#load();
			else this.#loadedFor = null;
			return;
		}
		this.#running = true;
		this.#setStatus('loading');
		this.#connect();
	}

	stop(): void {
		this.#running = false;
		clearTimeout(this.#retryTimer);
		this.#abortRequest();
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
			if (this.#loadedFor === source) {
				// Resumed: the agent replays what this stream missed (or says resync).
				this.#setStatus('live');
				return;
			}
			this.#loadedFor = source;
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
		source.addEventListener('resync', () => {
			if (source === this.#source) void this.#load();
		});
		source.onerror = () => {
			if (source !== this.#source) return;
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
		const source = this.#source;
		this.#source = null;
		if (!source) return;
		source.onopen = source.onmessage = source.onerror = null;
		source.close();
	}

	/** A new request, superseding (aborting) the one under way. */
	#newRequest(): AbortSignal {
		this.#abortRequest();
		this.#request = new AbortController();
		return this.#request.signal;
	}

	#abortRequest(): void {
		this.#request?.abort();
		this.#request = null;
	}

	#url(): string {
		const query = filterQuery(this.#filter);
		return `${MESSAGES_URL}?${query ? `${query}&` : ''}limit=${this.#limit}`;
	}

	#forbidden(): void {
		this.stop();
		this.#setStatus('forbidden');
	}

	/** The stream was refused: stop at a 403, else open it again (and load) in a while. */
	async #checkAccess(): Promise<void> {
		const signal = this.#newRequest();
		const status = await this.#fetch(`${MESSAGES_URL}?limit=1`, { signal }).then(
			(res) => res.status,
			() => 0
		);
		if (signal.aborted) return;
		if (status === 403) this.#forbidden();
		else this.#retry(() => this.#connect());
	}

	async #load(): Promise<void> {
		const signal = this.#newRequest();
		let entries: InspectorEntry[];
		try {
			const res = await this.#fetch(this.#url(), { signal });
			if (res.status === 403) return this.#forbidden();
			if (!res.ok) throw new Error(`${res.status}`);
			entries = (await res.json()) as InspectorEntry[];
		} catch {
			if (signal.aborted) return;
			this.#setStatus('reconnecting');
			this.#retry(() => void this.#load());
			return;
		}
		if (signal.aborted) return;
		this.handlers.entries(entries, true);
		this.#setStatus('live');
	}
}
