/**
 * A screen's WebSocket opened ahead of its page, so the snapshot is there when the page's
 * connection (ScreenConnection) starts, rather than asked for only then: on a page load by the
 * page's HTML itself (src/app.html, a few lines run before anything else loads:
 * `window.__kdsEarlySocket`, taken over here when this module loads), on a navigation inside the
 * app by the route's load function, while the page's code, its settings and its access check
 * load. The messages it gets meanwhile are kept in order and handed over with it. One at a time;
 * not taken within `takeWithinMs` (the navigation went elsewhere), or closed before it was taken,
 * it is dropped, and the connection opens its own as before.
 */

/**
 * The part of the WebSocket API used by the screen's connection (./connection.svelte.ts) and
 * here, so tests can pass a fake.
 */
export interface SocketLike {
	readonly readyState: number;
	onopen: ((ev: Event) => unknown) | null;
	onclose: ((ev: CloseEvent) => unknown) | null;
	onmessage: ((ev: MessageEvent) => unknown) | null;
	onerror: ((ev: Event) => unknown) | null;
	send(data: string): void;
	close(code?: number, reason?: string): void;
}

export interface EarlySocket {
	socket: SocketLike;
	/** What the socket received before it was taken, oldest first. */
	messages: MessageEvent[];
}

interface Pending extends EarlySocket {
	url: string;
	closed: boolean;
	timer: ReturnType<typeof setTimeout>;
}

export class EarlySockets {
	#pending: Pending | null = null;
	/** Connections running per URL: no early socket for a screen this page already shows. */
	#live = new Map<string, number>();

	constructor(
		private readonly createSocket: (url: string) => SocketLike = (url) => new WebSocket(url),
		private readonly takeWithinMs = 10_000,
		/** One the page's HTML opened (`window.__kdsEarlySocket`): pending from now on. */
		opened?: OpenedByHtml
	) {
		if (!opened || typeof opened.url !== 'string' || !opened.socket) return;
		const pending: Pending = {
			url: opened.url,
			socket: opened.socket,
			// The same array and flag the page's script fills, now filled by these handlers.
			messages: Array.isArray(opened.messages) ? opened.messages : [],
			closed: opened.closed === true,
			timer: setTimeout(() => {
				if (this.#pending === pending) this.#drop();
			}, this.takeWithinMs)
		};
		this.#watch(pending);
		this.#pending = pending;
	}

	/**
	 * Open a socket to `url` for the connection that will start soon. Nothing when one to that URL
	 * is already pending or a connection to it is running (a load run again for a new query string
	 * of the screen already shown).
	 */
	open(url: string): void {
		if ((this.#live.get(url) ?? 0) > 0) return;
		if (this.#pending?.url === url && !this.#pending.closed) return;
		this.#drop();
		let socket: SocketLike;
		try {
			socket = this.createSocket(url);
		} catch {
			return; // the connection tries on its own when it starts
		}
		const pending: Pending = {
			url,
			socket,
			messages: [],
			closed: false,
			timer: setTimeout(() => {
				if (this.#pending === pending) this.#drop();
			}, this.takeWithinMs)
		};
		this.#watch(pending);
		this.#pending = pending;
	}

	#watch(pending: Pending): void {
		const { socket } = pending;
		socket.onmessage = (event) => void pending.messages.push(event);
		socket.onclose = () => void (pending.closed = true);
		socket.onerror = () => {};
		socket.onopen = () => {};
	}

	/**
	 * The pending socket to `url` with what it received, now the caller's (its handlers are the
	 * caller's to set); null when there is none, or it closed before it was taken.
	 */
	take(url: string): EarlySocket | null {
		const pending = this.#pending;
		if (!pending || pending.url !== url) return null;
		this.#pending = null;
		clearTimeout(pending.timer);
		if (pending.closed) {
			this.#close(pending.socket);
			return null;
		}
		return { socket: pending.socket, messages: pending.messages };
	}

	/** A connection to `url` started (true) or stopped (false). */
	running(url: string, on: boolean): void {
		const n = (this.#live.get(url) ?? 0) + (on ? 1 : -1);
		if (n > 0) this.#live.set(url, n);
		else this.#live.delete(url);
	}

	#drop(): void {
		const pending = this.#pending;
		this.#pending = null;
		if (!pending) return;
		clearTimeout(pending.timer);
		this.#close(pending.socket);
	}

	#close(socket: SocketLike): void {
		socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
		try {
			socket.close();
		} catch {
			// already closed
		}
	}
}

/** What src/app.html's script leaves in `window.__kdsEarlySocket`. */
export interface OpenedByHtml {
	url: string;
	socket: SocketLike;
	messages: MessageEvent[];
	closed: boolean;
}

function openedByHtml(): OpenedByHtml | undefined {
	if (typeof window === 'undefined') return undefined;
	const holder = window as { __kdsEarlySocket?: OpenedByHtml };
	const opened = holder.__kdsEarlySocket;
	delete holder.__kdsEarlySocket;
	return opened;
}

/**
 * The page's one registry: the page's HTML or the screen route's load function opens,
 * ScreenConnection takes.
 */
export const earlySockets = new EarlySockets(undefined, undefined, openedByHtml());
