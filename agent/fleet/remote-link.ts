/**
 * The central simulator's link to one remote screen (a screen another simulator hosts, on a Pi):
 *
 * - reads: a WebSocket to the remote agent's browser relay (/ws?screen=<id>), the same one its
 *   browsers use: a snapshot, then every change; reconnected with a backoff when it drops, and
 *   pinged so that an unplugged Pi (no FIN, no RST) is noticed within seconds;
 * - writes: the screen's own TCP endpoint, the contract's order interface, one message per
 *   connection (write, half-close, read the reply until the close). Never retried: the caller
 *   reports what happened, so nothing is taken for delivered that was not.
 */
import { connect } from 'node:net';
import { createRequire } from 'node:module';
import type { WebSocket } from 'ws';
import type { ClientMessage, ServerMessage } from '#core/relay';
import { UNABLE_TO_PARSE } from '#core/tcp-message';
import { REJECT_CODES, type ActionTarget, type ScreenAction } from '#core/screen';
import type { Logger } from '../log.ts';

export type LinkState =
	/** Not yet connected since start (or since the remote was heard again). */
	| 'connecting'
	/** The relay is open and its snapshot arrived. */
	| 'live'
	/** The relay is not open: the central's copy of the screen is not current. */
	| 'unreachable';

/**
 * What one write to a remote screen came to, as a delivery status (docs/fleet.md):
 * SUCCESS the screen replied with the order id; DUPLICATE_ORDER_ID, ORDER_DOES_NOT_EXIST and
 * UNABLE_TO_PARSE_DATA its contract refusals; REFUSED another reply; UNREACHABLE no connection
 * (nothing was written); NO_REPLY written, but no reply came (it may or may not be there).
 */
export const REMOTE_FAILURES = [
	'DUPLICATE_ORDER_ID',
	'ORDER_DOES_NOT_EXIST',
	'UNABLE_TO_PARSE_DATA',
	'REFUSED',
	'UNREACHABLE',
	'NO_REPLY'
] as const;

export type RemoteStatus = 'SUCCESS' | (typeof REMOTE_FAILURES)[number];

export interface RemoteOutcome {
	status: RemoteStatus;
	/** The reply's text (absent when there was none). */
	reply?: string;
	/** One sentence for a person: what happened and where. */
	message?: string;
}

export interface RemoteLinkOptions {
	/** The remote agent's HTTP base URL (http://host:port). */
	url: string;
	/** The screen's id in the remote agent. */
	screen: string;
	/** The screen's TCP endpoint (where orders are written). */
	tcp: { host: string; port: number };
	adminToken?: string;
	logger: Logger;
	/** Every relay message from the remote, in order. */
	onMessage: (message: ServerMessage) => void;
	/** The link's state changed. */
	onState: (state: LinkState) => void;
	/** First reconnect delay; doubles up to maxRetryMs (ms). */
	retryMs?: number;
	maxRetryMs?: number;
	/** A relay that has not answered a ping for this long is taken for gone (ms). */
	pingMs?: number;
	/** TCP: connecting may take this long (ms). */
	connectTimeoutMs?: number;
	/** TCP: the reply must come this long after the write (ms). */
	replyTimeoutMs?: number;
}

/** The screen's refusals (the core's reply codes) as delivery statuses. */
const REPLY_STATUS: Record<string, RemoteStatus> = {
	...Object.fromEntries(REJECT_CODES.map((code) => [code, code])),
	[UNABLE_TO_PARSE]: 'UNABLE_TO_PARSE_DATA'
};

/** The delivery status a TCP reply stands for, for an order with this id. */
export function statusOfReply(reply: string, orderId: string): RemoteStatus {
	const text = reply.trim();
	if (text === orderId) return 'SUCCESS';
	return REPLY_STATUS[text] ?? 'REFUSED';
}

let wsClass: typeof WebSocket | undefined;
function WebSocketClass(): typeof WebSocket {
	// Loaded on first use, as the relay loads ws: a simulator without remote screens never does.
	wsClass ??= (createRequire(import.meta.url)('ws') as { WebSocket: typeof WebSocket }).WebSocket;
	return wsClass;
}

export class RemoteLink {
	state: LinkState = 'connecting';
	private ws: WebSocket | null = null;
	private retryTimer: NodeJS.Timeout | null = null;
	private pingTimer: NodeJS.Timeout | null = null;
	private retryMs: number;
	private stopped = true;
	private answered = true;
	private lastRefusal: string | null = null;

	constructor(private readonly options: RemoteLinkOptions) {
		this.retryMs = options.retryMs ?? 500;
	}

	/** Started and not stopped (connected or trying to be). */
	get running(): boolean {
		return !this.stopped;
	}

	get where(): string {
		return `${this.options.url} (screen ${this.options.screen})`;
	}

	/** Open the relay and keep it open (reconnecting) until stop(). */
	start(): void {
		if (!this.stopped) return;
		this.stopped = false;
		this.retryMs = this.options.retryMs ?? 500;
		this.open();
	}

	/** Close the relay and stop reconnecting; the state becomes unreachable. */
	stop(): void {
		this.stopped = true;
		if (this.retryTimer) clearTimeout(this.retryTimer);
		this.retryTimer = null;
		this.dropSocket();
		this.setState('unreachable');
	}

	/** Ask the remote for a fresh snapshot (the copy lost track). */
	resync(): void {
		this.sendRelay({ type: 'resync' });
	}

	/**
	 * A screen action from a central browser (bump, recall, …), done by the remote screen itself:
	 * its relay then says what changed. False when the relay is not open.
	 */
	act(action: ScreenAction, orderId?: string, target: ActionTarget = {}): boolean {
		if (this.state !== 'live') return false;
		return this.sendRelay({
			type: 'action',
			action,
			...(orderId === undefined ? {} : { orderId }),
			...(target.course === undefined ? {} : { course: target.course }),
			...(target.lineId === undefined ? {} : { lineId: target.lineId })
		});
	}

	/** Acknowledge a pop-up on the remote screen. */
	acknowledgePopup(id: string): boolean {
		return this.sendRelay({ type: 'popup.ack', id });
	}

	/** Write one contract message to the screen's TCP endpoint; resolves with what came of it. */
	send(message: object, orderId: string): Promise<RemoteOutcome> {
		const { host, port } = this.options.tcp;
		const connectTimeoutMs = this.options.connectTimeoutMs ?? 3000;
		const replyTimeoutMs = this.options.replyTimeoutMs ?? 5000;
		const endpoint = `${host}:${port}`;
		return new Promise((resolve) => {
			let written = false;
			let settled = false;
			const received: Buffer[] = [];
			const socket = connect({ host, port });
			const finish = (outcome: RemoteOutcome) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				socket.destroy();
				resolve(outcome);
			};
			let timer = setTimeout(
				() =>
					finish({
						status: 'UNREACHABLE',
						message: `no TCP connection to ${endpoint} within ${connectTimeoutMs} ms; nothing was sent`
					}),
				connectTimeoutMs
			);
			socket.setNoDelay(true);
			socket.on('connect', () => {
				clearTimeout(timer);
				timer = setTimeout(
					() =>
						finish({
							status: 'NO_REPLY',
							message: `sent to ${endpoint}, no reply within ${replyTimeoutMs} ms: the screen may or may not have it`
						}),
					replyTimeoutMs
				);
				written = true;
				socket.end(`${JSON.stringify(message)}\n`);
			});
			socket.on('data', (data) => received.push(data));
			socket.on('error', (err: NodeJS.ErrnoException) => {
				finish(
					written
						? {
								status: 'NO_REPLY',
								message: `sent to ${endpoint}, then ${err.code ?? err.message}: the screen may or may not have it`
							}
						: {
								status: 'UNREACHABLE',
								message: `cannot connect to ${endpoint} (${err.code ?? err.message}); nothing was sent`
							}
				);
			});
			socket.on('close', () => {
				const reply = Buffer.concat(received).toString('utf8').trim();
				if (reply === '') {
					finish({
						status: 'NO_REPLY',
						message: `sent to ${endpoint}, closed without a reply: the screen may or may not have it`
					});
					return;
				}
				const status = statusOfReply(reply, orderId);
				finish(
					status === 'SUCCESS'
						? { status, reply }
						: { status, reply, message: `the screen at ${endpoint} replied ${reply}` }
				);
			});
		});
	}

	private open(): void {
		const { url, screen, adminToken } = this.options;
		const wsUrl = `${url.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws?screen=${encodeURIComponent(screen)}`;
		const Ws = WebSocketClass();
		const ws = new Ws(wsUrl, {
			headers: adminToken ? { 'x-admin-token': adminToken } : {},
			handshakeTimeout: this.options.connectTimeoutMs ?? 3000
		});
		this.ws = ws;
		ws.on('message', (data) => {
			let message: ServerMessage;
			try {
				message = JSON.parse(String(data));
			} catch {
				return;
			}
			if (message.type === 'snapshot') {
				this.lastRefusal = null;
				this.retryMs = this.options.retryMs ?? 500;
				this.options.onMessage(message);
				this.setState('live');
				return;
			}
			this.options.onMessage(message);
		});
		ws.on('pong', () => (this.answered = true));
		// Refused by the remote agent (403 without its admin token, 404 no such screen): said once.
		ws.on('unexpected-response', (_req, res) => {
			const reason = `HTTP ${res.statusCode}`;
			if (reason !== this.lastRefusal) {
				this.lastRefusal = reason;
				this.options.logger.warn(
					{ remote: this.where, status: res.statusCode },
					`remote screen's relay refused the connection (${reason}${res.statusCode === 403 ? ': set remote.adminToken to its admin token' : ''})`
				);
			}
			res.resume();
			ws.terminate();
		});
		ws.on('open', () => {
			this.answered = true;
			this.pingTimer = setInterval(() => {
				if (!this.answered) {
					this.options.logger.warn({ remote: this.where }, 'remote screen stopped answering');
					ws.terminate();
					return;
				}
				this.answered = false;
				ws.ping();
			}, this.options.pingMs ?? 2000);
			this.pingTimer.unref();
		});
		ws.on('error', (err) =>
			this.options.logger.debug({ err, remote: this.where }, 'remote relay error')
		);
		ws.on('close', () => {
			if (this.ws !== ws) return;
			this.dropSocket();
			if (this.stopped) return;
			this.setState('unreachable');
			this.retryTimer = setTimeout(() => {
				this.retryTimer = null;
				if (!this.stopped) this.open();
			}, this.retryMs);
			this.retryTimer.unref();
			this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5000);
		});
	}

	private sendRelay(message: ClientMessage): boolean {
		const ws = this.ws;
		if (!ws || ws.readyState !== 1) return false;
		ws.send(JSON.stringify(message));
		return true;
	}

	private dropSocket(): void {
		if (this.pingTimer) clearInterval(this.pingTimer);
		this.pingTimer = null;
		const ws = this.ws;
		this.ws = null;
		if (ws) {
			ws.removeAllListeners('close');
			ws.on('error', () => {});
			ws.terminate();
		}
	}

	private setState(state: LinkState): void {
		if (this.state === state) return;
		this.state = state;
		this.options.onState(state);
	}
}
