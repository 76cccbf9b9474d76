/**
 * A screen's WebSocket opened ahead of its page: the route's load function opens it while the
 * page's code, its settings and its access check are still loading, so the snapshot is there
 * when the page's connection (ScreenConnection) starts, rather than asked for only then. The
 * messages it gets meanwhile are kept in order and handed over with it. One at a time; not taken
 * within `takeWithinMs` (the navigation went elsewhere), or closed before it was taken, it is
 * dropped, and the connection opens its own as before.
 */
import type { SocketLike } from './connection.svelte';

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
		private readonly takeWithinMs = 10_000
	) {}

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
		socket.onmessage = (event) => void pending.messages.push(event);
		socket.onclose = () => void (pending.closed = true);
		socket.onerror = () => {};
		socket.onopen = () => {};
		this.#pending = pending;
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

/** The page's one registry: the screen route's load function opens, ScreenConnection takes. */
export const earlySockets = new EarlySockets();
