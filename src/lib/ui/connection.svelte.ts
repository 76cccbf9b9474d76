/**
 * The browser's WebSocket to the agent for one screen (`/ws?screen=<id>`). Reconnects after any
 * drop with exponential backoff and jitter, forever; treats a silent socket as dead; asks for a
 * fresh snapshot when the order board sees a gap. The state is shown on screen as the
 * connection dot.
 */
import { parseServerMessage, type ClientMessage, type ServerMessage } from '#core/relay';
import { earlySockets, type EarlySockets, type SocketLike } from './early-socket';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export type { SocketLike };

export interface ConnectionOptions {
	url: string;
	/** Handle one message; return 'gap' to ask the agent for a fresh snapshot. */
	onMessage: (message: ServerMessage) => string | void;
	/** Called when a socket opens, before its first message (the agent sends a snapshot first). */
	onOpen?: () => void;
	/** A message from the agent that failed the relay's schema (core/relay.ts): dropped, and named here. */
	onInvalid?: (error: string) => void;
	createSocket?: (url: string) => SocketLike;
	/**
	 * Sockets opened ahead of their connection, with what they received (the screen route's load
	 * function opens one: ./early-socket.ts): taken on the first open instead of a new one, and
	 * told while this connection runs (no early socket for it meanwhile). Default: the page's one.
	 */
	early?: Pick<EarlySockets, 'take' | 'running'>;
	/** First retry delay and cap (ms). */
	minDelayMs?: number;
	maxDelayMs?: number;
	/** After this much silence, send a ping as a probe (the agent's WebSocket pings are invisible here). */
	probeAfterMs?: number;
	/** After this much silence, the socket is taken as dead and replaced. */
	deadAfterMs?: number;
	/** Failed attempts in a row before the state reads 'offline' (retrying goes on). */
	offlineAfter?: number;
	random?: () => number;
	/** Whether the browser thinks it is online; default navigator.onLine. */
	isOnline?: () => boolean;
}

const OPEN = 1;

/** Delay before retry `attempt` (1-based): min·2^(attempt-1), capped, ±20 % jitter. */
export function backoffDelay(
	attempt: number,
	min: number,
	max: number,
	random: () => number
): number {
	const base = Math.min(max, min * 2 ** Math.max(0, attempt - 1));
	return Math.round(base * (0.8 + 0.4 * random()));
}

export class ScreenConnection {
	state: ConnectionState = $state('connecting');
	/** Failed attempts since the last successful open. */
	failures = $state(0);

	#options: Required<Omit<ConnectionOptions, 'onOpen' | 'onInvalid'>> &
		Pick<ConnectionOptions, 'onOpen' | 'onInvalid'>;
	#socket: SocketLike | null = null;
	#retryTimer: ReturnType<typeof setTimeout> | undefined;
	#silenceTimer: ReturnType<typeof setInterval> | undefined;
	#lastMessageAt = 0;
	/** When the probe went out (Date.now()), while one waits for an answer; null: none sent. */
	#probedAt: number | null = null;
	#stopped = true;
	#everConnected = false;

	constructor(options: ConnectionOptions) {
		this.#options = {
			createSocket: (url) => new WebSocket(url),
			early: earlySockets,
			minDelayMs: 500,
			maxDelayMs: 5000,
			probeAfterMs: 12_000,
			deadAfterMs: 25_000,
			offlineAfter: 5,
			random: Math.random,
			isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
			...options
		};
	}

	start(): void {
		if (!this.#stopped) return;
		this.#stopped = false;
		if (typeof window !== 'undefined') {
			window.addEventListener('online', this.#onOnline);
			window.addEventListener('offline', this.#onOffline);
		}
		this.#silenceTimer = setInterval(this.#checkSilence, 1000);
		this.#options.early.running(this.#options.url, true);
		this.#open();
	}

	stop(): void {
		if (!this.#stopped) this.#options.early.running(this.#options.url, false);
		this.#stopped = true;
		clearTimeout(this.#retryTimer);
		clearInterval(this.#silenceTimer);
		if (typeof window !== 'undefined') {
			window.removeEventListener('online', this.#onOnline);
			window.removeEventListener('offline', this.#onOffline);
		}
		this.#discard();
	}

	/** Close any socket and connect again now (a fresh snapshot), rather than wait for the backoff. */
	retry(): void {
		if (this.#stopped) return;
		clearTimeout(this.#retryTimer);
		this.#open();
	}

	/** Send a message if connected; false when it could not be sent. */
	send(message: ClientMessage): boolean {
		if (this.#socket?.readyState !== OPEN) return false;
		this.#socket.send(JSON.stringify(message));
		return true;
	}

	#open(): void {
		if (this.#stopped) return;
		this.#discard();
		if (this.state !== 'offline') this.state = this.#everConnected ? 'reconnecting' : 'connecting';
		const early = this.#everConnected ? null : this.#options.early.take(this.#options.url);
		let socket: SocketLike;
		try {
			socket = early?.socket ?? this.#options.createSocket(this.#options.url);
		} catch {
			this.#scheduleRetry();
			return;
		}
		this.#socket = socket;
		this.#lastMessageAt = Date.now();
		this.#probedAt = null;
		socket.onopen = () => this.#opened(socket);
		socket.onmessage = (event) => this.#received(socket, event);
		socket.onerror = () => {
			// A close event follows; retrying is scheduled there.
		};
		socket.onclose = () => {
			if (socket !== this.#socket) return;
			this.#socket = null;
			this.#scheduleRetry();
		};
		// An early socket already open: what it got meanwhile, in order, as if it came now (any
		// message still queued for it comes after, to the handler just set).
		if (early && socket.readyState === OPEN) {
			this.#opened(socket);
			for (const event of early.messages) this.#received(socket, event);
		}
	}

	#opened(socket: SocketLike): void {
		if (socket !== this.#socket) return;
		this.#everConnected = true;
		this.failures = 0;
		this.state = 'connected';
		this.#lastMessageAt = Date.now();
		this.#options.onOpen?.();
	}

	#received(socket: SocketLike, event: MessageEvent): void {
		if (socket !== this.#socket) return;
		this.#lastMessageAt = Date.now();
		this.#probedAt = null;
		if (this.state !== 'connected') this.state = 'connected';
		// Validated here (core/relay.ts): a bad message is dropped, never drawn, and named to the
		// screen (onInvalid), which says its cards may be out of date.
		const parsed = parseServerMessage(String(event.data));
		if (!parsed.ok) {
			console.warn(`kds: dropped a bad message from the agent: ${parsed.error}`);
			this.#options.onInvalid?.(parsed.error);
			return;
		}
		if (this.#options.onMessage(parsed.message) === 'gap') this.send({ type: 'resync' });
	}

	#scheduleRetry(): void {
		if (this.#stopped) return;
		this.failures += 1;
		const offline = !this.#options.isOnline() || this.failures > this.#options.offlineAfter;
		this.state = offline ? 'offline' : this.#everConnected ? 'reconnecting' : 'connecting';
		clearTimeout(this.#retryTimer);
		const { minDelayMs, maxDelayMs, random } = this.#options;
		this.#retryTimer = setTimeout(
			() => this.#open(),
			backoffDelay(this.failures, minDelayMs, maxDelayMs, random)
		);
	}

	/** Close the current socket without triggering a retry. */
	#discard(): void {
		const socket = this.#socket;
		this.#socket = null;
		if (!socket) return;
		socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
		try {
			socket.close();
		} catch {
			// already closed
		}
	}

	/**
	 * A socket is only called dead when a probe went unanswered for `deadAfterMs - probeAfterMs`,
	 * never on silence alone: this check runs on a timer, and a page's timers can run late (a
	 * hidden tab checks once a minute, a stalled page after the stall, maybe before the messages
	 * that arrived meanwhile). A late check that finds a long silence probes first.
	 */
	#checkSilence = () => {
		if (this.#stopped || this.#socket?.readyState !== OPEN) return;
		const now = Date.now();
		if (now - this.#lastMessageAt < this.#options.probeAfterMs) return;
		if (this.#probedAt === null) {
			this.#probedAt = now;
			this.send({ type: 'ping' });
		} else if (now - this.#probedAt >= this.#options.deadAfterMs - this.#options.probeAfterMs) {
			this.#discard();
			this.#scheduleRetry();
		}
	};

	#onOnline = () => {
		// Back online: try now rather than wait out the backoff.
		if (this.#socket?.readyState === OPEN) return;
		clearTimeout(this.#retryTimer);
		this.state = this.#everConnected ? 'reconnecting' : 'connecting';
		this.#open();
	};

	#onOffline = () => {
		this.state = 'offline';
	};
}
