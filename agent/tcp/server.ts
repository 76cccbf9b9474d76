/**
 * One TCP listener per screen: the direct order interface of contract section 4.5.
 *
 * Every client style of field-notes.md is served on the same port: write + half-close + read
 * until close; one persistent connection with one object per line; objects back to back; one
 * object split over many segments. Replies are the contract's bare strings. A reply ends with
 * "\n" when the message it answers was followed by a newline, and is bare otherwise (a one-shot
 * client that half-closes gets exactly the bare string, then the close).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { UNABLE_TO_PARSE } from '../../src/lib/core/schema.ts';
import type { Logger } from '../log.ts';
import { DEFAULT_MAX_MESSAGE_BYTES, Framer, type Frame } from './framer.ts';

export interface TcpScreenOptions {
	host: string;
	port: number;
	/** Handle one whole message; returns the reply string. Throwing drops the connection. */
	handle: (text: string, source: string) => string;
	logger: Logger;
	maxMessageBytes?: number;
	/** Close a connection that sends nothing for this long (ms). */
	idleTimeoutMs?: number;
	/**
	 * How long a reply waits to learn whether its message was followed by a newline, when the
	 * message ended exactly at the end of a read (ms). Only back-to-back clients ever wait.
	 */
	terminatorWaitMs?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

export function serveConnection(socket: Socket, options: TcpScreenOptions): void {
	const framer = new Framer({ maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES });
	const source = `${socket.remoteAddress}:${socket.remotePort}`;
	const wait = options.terminatorWaitMs ?? 25;
	let pending: string | null = null;
	let timer: NodeJS.Timeout | undefined;

	const flush = (terminator: string) => {
		if (timer) clearTimeout(timer);
		timer = undefined;
		if (pending === null) return;
		const reply = pending + terminator;
		pending = null;
		if (!socket.destroyed) socket.write(reply);
	};

	const onFrames = (frames: Frame[]) => {
		for (const frame of frames) {
			if (frame.kind === 'eol') {
				flush('\n');
				continue;
			}
			flush('');
			if (frame.kind === 'message') {
				try {
					pending = options.handle(frame.text, source);
				} catch (err) {
					// Nothing was acknowledged; dropping the connection tells the client so.
					options.logger.error({ err, source }, 'TCP message failed; closing the connection');
					socket.destroy();
					return;
				}
			} else {
				options.logger.info(
					{ source, kind: frame.kind, bytes: frame.kind === 'oversize' ? frame.bytes : frame.text.length },
					frame.kind === 'oversize' ? 'TCP message over the size limit' : 'TCP bytes that are not JSON'
				);
				pending = UNABLE_TO_PARSE;
			}
		}
		if (pending !== null && !timer) timer = setTimeout(() => flush(''), wait);
	};

	socket.setNoDelay(true);
	socket.setKeepAlive(true, 60_000);
	socket.setTimeout(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => {
		options.logger.info({ source }, 'TCP connection idle; closing');
		socket.destroy();
	});
	socket.on('data', (chunk) => onFrames(framer.push(chunk)));
	socket.on('end', () => {
		onFrames(framer.end());
		flush('');
		socket.end();
	});
	socket.on('error', (err) => options.logger.debug({ err, source }, 'TCP connection error'));
	socket.on('close', () => {
		if (timer) clearTimeout(timer);
	});
}

export interface TcpScreenServer {
	server: Server;
	host: string;
	port: number;
	close(): Promise<void>;
}

/** Listen for one screen. Resolves once listening, with the port the OS gave for port 0. */
export function listenTcpScreen(options: TcpScreenOptions): Promise<TcpScreenServer> {
	const sockets = new Set<Socket>();
	const server = createServer({ allowHalfOpen: true }, (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		serveConnection(socket, options);
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen({ host: options.host, port: options.port }, () => {
			server.off('error', reject);
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : options.port;
			resolve({
				server,
				host: options.host,
				port,
				close: () =>
					new Promise<void>((done) => {
						server.close(() => done());
						for (const socket of sockets) socket.destroy();
					})
			});
		});
	});
}
