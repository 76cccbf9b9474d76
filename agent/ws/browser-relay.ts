/**
 * WebSocket hub: browsers showing a screen connect to /ws?screen=<id>, get a snapshot, then every
 * change. Clients are pinged and dropped when they stop answering; a client that cannot keep up
 * is dropped too, and resyncs from a fresh snapshot when it reconnects.
 */
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { parseClientMessage } from '#core/relay';
import { ITEM_ACTIONS } from '#core/screen';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';

export interface RelayOptions {
	heartbeatMs?: number;
	/** Drop a client whose unsent data exceeds this many bytes. */
	maxBufferedBytes?: number;
	/** Why this upgrade request may not see the screen; null lets it in (default: everyone). */
	refusal?: (req: IncomingMessage) => string | null;
	/** A browser acknowledged a pop-up (`{type: 'popup.ack', id}`). */
	onPopupAck?: (screenId: string, popupId: string) => void;
	/**
	 * "Ready for pickup" tapped on the Take Out view (`{type: 'takeout.ready', orderId}`): true
	 * when it was done (or already was), false when the screen has no such order live.
	 */
	onTakeoutReady?: (screenId: string, orderId: string) => boolean;
	/** Why this screen cannot be shown now (a remote screen not reachable); null: it can. */
	unavailable?: (screenId: string) => string | null;
}

export interface Relay {
	/** Browsers showing this screen now. */
	connected(screenId: string): number;
	/** Close every browser of this screen (they reconnect, and see why if they cannot). */
	disconnect(screenId: string): void;
	close(): void;
}

export function attachRelay(
	server: Server,
	engine: Engine,
	logger: Logger,
	options: RelayOptions = {}
): Relay {
	// Required here rather than imported at the top, so the TCP listeners open before it loads.
	const wsModule = createRequire(import.meta.url)('ws') as {
		WebSocketServer: typeof WebSocketServer;
	};
	const wss = new wsModule.WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
	const alive = new WeakMap<WebSocket, boolean>();
	const sockets = new Map<string, Set<WebSocket>>();
	const maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;

	server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		if (url.pathname !== '/ws') return; // other upgrade handlers (Vite in dev) may want it
		const screenId = url.searchParams.get('screen') ?? '';
		if (!engine.liveScreen(screenId)) {
			socket.end(
				'HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nUnknown screen\n'
			);
			return;
		}
		const refused = options.refusal?.(req) ?? null;
		if (refused !== null) {
			const body = JSON.stringify({ code: 'ADMIN_ONLY', message: refused });
			socket.end(
				`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
			);
			return;
		}
		const down = options.unavailable?.(screenId) ?? null;
		if (down !== null) {
			const body = JSON.stringify({ code: 'SCREEN_UNREACHABLE', message: down });
			socket.end(
				`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
			);
			return;
		}
		wss.handleUpgrade(req, socket, head, (ws) => serve(ws, screenId));
	});

	function serve(ws: WebSocket, screenId: string) {
		alive.set(ws, true);
		let ofScreen = sockets.get(screenId);
		if (!ofScreen) sockets.set(screenId, (ofScreen = new Set()));
		ofScreen.add(ws);
		ws.on('pong', () => alive.set(ws, true));
		const send = (encoded: string) => {
			if (ws.bufferedAmount > maxBuffered) {
				logger.warn({ screen: screenId }, 'browser too slow; dropping it (it will resync)');
				ws.terminate();
				return;
			}
			ws.send(encoded);
		};
		// Joining first lets what waits for a browser (queued notifications) be delivered before
		// the snapshot is taken: this browser's snapshot has it.
		const leave = engine.fanout.join(screenId);
		send(JSON.stringify(engine.fanout.snapshot(screenId)));
		const unsubscribe = engine.fanout.subscribe(screenId, (_message, encoded) => send(encoded));
		ws.on('message', (data) => {
			alive.set(ws, true); // anything the browser sends answers for it as well as a pong
			// Validated once here (core/relay.ts): a bad message gets an error naming its bad fields,
			// and nothing else happens; the socket and every other browser go on.
			const parsed = parseClientMessage(String(data));
			if (!parsed.ok) {
				logger.debug({ screen: screenId, error: parsed.error }, 'bad browser message');
				send(JSON.stringify({ type: 'error', code: 'BAD_MESSAGE', message: parsed.error }));
				return;
			}
			const message = parsed.message;
			if (message.type === 'ping') {
				send(JSON.stringify({ type: 'pong', now: engine.now() }));
			} else if (message.type === 'resync') {
				send(JSON.stringify(engine.fanout.snapshot(screenId)));
			} else if (message.type === 'popup.ack') {
				options.onPopupAck?.(screenId, message.id);
			} else if (message.type === 'takeout.ready') {
				if (options.onTakeoutReady?.(screenId, message.orderId) === false) {
					send(
						JSON.stringify({
							type: 'error',
							code: 'ACTION_REFUSED',
							message: `ready: order ${message.orderId} is not on this screen`
						})
					);
				}
			} else if (message.action === 'fire-course' && message.course === undefined) {
				send(
					JSON.stringify({
						type: 'error',
						code: 'BAD_MESSAGE',
						message: "course: required (a string; '' is the items without a course)"
					})
				);
			} else if (ITEM_ACTIONS.includes(message.action) && message.lineId === undefined) {
				send(
					JSON.stringify({
						type: 'error',
						code: 'BAD_MESSAGE',
						message: `lineId: required for ${message.action} (the item's lineId)`
					})
				);
			} else {
				const { course, lineId } = message;
				const ok = engine.runAction(screenId, message.action, message.orderId, { course, lineId });
				if (!ok) {
					const what = message.orderId
						? `order ${message.orderId}${lineId === undefined ? '' : ` item ${lineId}`}`
						: 'no bumped order';
					send(
						JSON.stringify({
							type: 'error',
							code: 'ACTION_REFUSED',
							message: `${message.action}: ${what} cannot be changed so`
						})
					);
				}
			}
		});
		ws.on('close', () => {
			unsubscribe();
			leave();
			sockets.get(screenId)?.delete(ws);
		});
		ws.on('error', (err) => logger.debug({ err, screen: screenId }, 'websocket error'));
	}

	// A browser that did not answer the last ping by the next tick is terminated; but a tick that
	// comes late (the agent's event loop stalled: a long GC, a loaded machine) runs before the loop
	// has read the pongs that came in meanwhile, so that round judges no one and only pings again.
	const heartbeatMs = options.heartbeatMs ?? 10_000;
	let lastBeat = performance.now();
	const heartbeat = setInterval(() => {
		const now = performance.now();
		const late = now - lastBeat > heartbeatMs * 1.5;
		lastBeat = now;
		for (const ws of wss.clients) {
			if (alive.get(ws) === false && !late) {
				ws.terminate();
				continue;
			}
			alive.set(ws, false);
			ws.ping();
		}
	}, heartbeatMs);
	heartbeat.unref();

	return {
		connected: (screenId) => engine.fanout.viewers(screenId),
		disconnect(screenId) {
			for (const ws of sockets.get(screenId) ?? []) ws.terminate();
		},
		close() {
			clearInterval(heartbeat);
			for (const ws of wss.clients) ws.terminate();
			wss.close();
		}
	};
}
