/**
 * One TCP listener per screen: the direct order interface of contract section 4.5.
 *
 * Every client style seen in the field (docs/compatibility.md) is served on the same port: write + half-close + read
 * until close; one persistent connection with one object per line; objects back to back; one
 * object split over many segments. Replies are the contract's bare strings. A reply ends with
 * "\n" when the message it answers was followed by a newline, and is bare otherwise (a one-shot
 * client that half-closes gets exactly the bare string, then the close).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { UNABLE_TO_PARSE } from '#core/tcp-message';
import type { ByteBudget, Holder } from '../byte-budget.ts';
import type { Logger } from '../log.ts';
import { DEFAULT_MAX_MESSAGE_BYTES, Framer, type Frame } from './framer.ts';

/**
 * What of a refused run of bytes the inspector keeps: a plain-text line, XML or a binary run is
 * worth seeing, not a megabyte of it.
 */
export const REFUSED_TEXT_KEPT = 4096;

export interface TcpScreenOptions {
	host: string;
	port: number;
	/**
	 * Handle one whole message and call `reply` with the reply string once the command is
	 * committed; null means nothing was acknowledged, and the connection is dropped.
	 */
	/**
	 * `terminator` tells, once the connection knows, what follows the reply on the wire: '\n' when
	 * the message was followed by a newline, '' when not, null while still unknown.
	 */
	handle: (
		text: string,
		source: string,
		reply: (text: string | null, fault?: ReplyFault) => void,
		terminator: () => string | null
	) => void;
	/**
	 * The faults on this screen's port (agent/faults/): read once per connection and, through
	 * `handle`, per message, only as `faults.on`; absent or off, nothing else is done.
	 */
	faults?: { on: boolean; connection(socket: Socket, source: string): boolean };
	logger: Logger;
	/**
	 * Told of each frame refused before parsing (bytes that are not JSON, oversize, too deep,
	 * unfinished) once its reply is on the wire, with the exact reply; never called for a message
	 * that reached `handle`, so the accepted path does nothing more.
	 */
	refused?: (frame: RefusedFrame, source: string, reply: string) => void;
	maxMessageBytes?: number;
	/** Close a connection that sends nothing for this long (ms). */
	idleTimeoutMs?: number;
	/**
	 * The bytes of unfinished messages, shared with the other listeners and HTTP: past it, the
	 * connection whose message started last is closed first.
	 */
	budget?: ByteBudget;
	/** Close a connection whose message is still unfinished this long after its first byte (ms). */
	messageTimeoutMs?: number;
	/**
	 * How long a reply waits to learn whether its message was followed by a newline, when the
	 * message ended exactly at the end of a read (ms). Only back-to-back clients ever wait.
	 */
	terminatorWaitMs?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;
/** A whole message, however slowly sent, within 30 s of its first byte (TCP and HTTP bodies). */
export const DEFAULT_MESSAGE_TIMEOUT_MS = 30_000;

/** A frame refused before parsing. */
export type RefusedFrame = Exclude<Frame, { kind: 'message' | 'eol' }>;

/**
 * What a fault does to one message's reply (docs/faults.md): close the connection once the
 * order is committed, without the reply (lost reply); reset it (reset before commit); never
 * answer (no answer); or write it in pieces with pauses. A delay (slow reply) is the caller's:
 * it hands the reply over late, on the agent's clock (tcp/fault-effects.ts).
 */
export type ReplyFault =
	| { kind: 'close' }
	| { kind: 'reset' }
	| { kind: 'hold' }
	| {
			kind: 'pieces';
			pieces: number;
			pauseMs: number;
			/** Runs the pauses (the agent's clock). */
			later: (ms: number, run: () => void) => void;
	  };

/** One reply owed to the client, in message order. */
interface Slot {
	reply: string | null;
	/** '\n' when the message was followed by a newline, '' when not, null while unknown. */
	terminator: string | null;
	/** Set only on a refused frame's slot (an accepted message's slot never has it). */
	refused?: RefusedFrame;
	/** Set only on the slot of a reply a fault cuts into pieces. */
	pieces?: Omit<Extract<ReplyFault, { kind: 'pieces' }>, 'kind'>;
}

/** What the log says of a frame refused before parsing. */
function refusedFrame(frame: RefusedFrame): object {
	if (frame.kind === 'oversize' || frame.kind === 'unfinished') return { bytes: frame.bytes };
	if (frame.kind === 'too-deep') return { depth: frame.depth };
	return { bytes: frame.text.length };
}

/** One served connection, as its listener closes it. */
export interface Connection {
	/**
	 * Stop taking messages, write the replies still owed (in order), then close: as adapter-node
	 * closes HTTP connections, letting the requests in progress finish.
	 */
	shutdown(): void;
}

export function serveConnection(socket: Socket, options: TcpScreenOptions): Connection {
	const framer = new Framer({
		maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
		// What of a refused run the inspector shows: decoded only for a listener that records them.
		unfinishedGarbageHead: options.refused ? REFUSED_TEXT_KEPT : 0
	});
	const source = `${socket.remoteAddress}:${socket.remotePort}`;
	const wait = options.terminatorWaitMs ?? 25;
	const slots: Slot[] = [];
	let ended = false;
	/** The listener is closing: no more messages; close once every reply owed is written. */
	let closing = false;
	let timer: NodeJS.Timeout | undefined;
	/** Runs from the first held byte of a message until it is complete. */
	let messageTimer: NodeJS.Timeout | undefined;
	const messageTimeoutMs = options.messageTimeoutMs ?? DEFAULT_MESSAGE_TIMEOUT_MS;
	const budget = options.budget;
	const holder: Holder = {
		evict() {
			options.logger.warn(
				{ source, bytes: framer.buffered },
				'TCP messages over the pending-bytes budget; closing the connection of the newest'
			);
			socket.destroy();
		}
	};
	/**
	 * After each read: charge the budget what the framer's held bytes keep alive (`retained`, not
	 * only the bytes: a view of a chunk keeps the chunk); time the message they belong to.
	 */
	const account = (completed: boolean): boolean => {
		const held = framer.buffered;
		if (budget && !budget.set(holder, framer.retained)) return false;
		if (held === 0 || completed) {
			if (messageTimer) clearTimeout(messageTimer);
			messageTimer = undefined;
		}
		if (held > 0 && messageTimer === undefined) {
			messageTimer = setTimeout(() => {
				options.logger.warn(
					{ source, bytes: framer.buffered },
					`TCP message unfinished ${messageTimeoutMs / 1000} s after its first byte; closing the connection`
				);
				socket.destroy();
			}, messageTimeoutMs);
		}
		return true;
	};

	/** A reply is being written in pieces (a fault): the next wait for it. */
	let piecing = false;
	// Write every reply that is ready, in order; after the peer's half-close, close when done.
	const drain = () => {
		if (piecing) return;
		let out = '';
		let refused: Slot[] | undefined;
		while (slots.length > 0 && slots[0].reply !== null && slots[0].terminator !== null) {
			if (slots[0].pieces !== undefined) {
				// A reply a fault cuts into pieces: what is before it goes first, what is after waits.
				if (out && !socket.destroyed) socket.write(out);
				for (const slot of refused ?? []) {
					options.refused?.(slot.refused!, source, slot.reply! + slot.terminator);
				}
				writeInPieces(slots.shift()!);
				return;
			}
			const slot = slots.shift()!;
			out += slot.reply! + slot.terminator;
			if (slot.refused !== undefined) (refused ??= []).push(slot);
		}
		if (socket.destroyed) return;
		if (out) socket.write(out);
		if (refused) {
			for (const slot of refused) {
				options.refused?.(slot.refused!, source, slot.reply! + slot.terminator);
			}
		}
		if (closing && slots.length === 0) {
			// Nothing more will be read: the fd can go once the replies are handed to the kernel.
			socket.end(() => socket.destroy());
		} else if (ended && slots.length === 0) socket.end();
	};

	/** A fault's reply in pieces, a pause between each; the replies after it wait. */
	const writeInPieces = (slot: Slot) => {
		// Cut in bytes, as a network cuts segments: a character may end in the next piece, but
		// the bytes are the reply's (a cut in UTF-16 would send a lone surrogate as U+FFFD).
		const bytes = Buffer.from(slot.reply! + slot.terminator, 'utf8');
		const { pieces, pauseMs, later } = slot.pieces!;
		const size = Math.max(1, Math.ceil(bytes.length / pieces));
		let at = 0;
		piecing = true;
		const next = () => {
			if (socket.destroyed) return;
			socket.write(bytes.subarray(at, at + size));
			at += size;
			if (at < bytes.length) return void later(pauseMs, next);
			piecing = false;
			drain();
		};
		next();
	};

	/** What a fault does with a reply (the handler says, only while a fault is on). */
	const faulted = (slot: Slot, reply: string, fault: ReplyFault) => {
		switch (fault.kind) {
			case 'close':
				socket.destroy();
				return;
			case 'reset':
				socket.resetAndDestroy();
				return;
			case 'hold':
				return;
			case 'pieces':
				slot.pieces = fault;
				slot.reply = reply;
				drain();
		}
	};

	const settleLast = (terminator: string) => {
		const last = slots[slots.length - 1];
		if (last && last.terminator === null) last.terminator = terminator;
	};

	const onFrames = (frames: Frame[]) => {
		for (const frame of frames) {
			if (frame.kind === 'eol') {
				settleLast('\n');
				continue;
			}
			settleLast('');
			const slot: Slot = { reply: null, terminator: null };
			slots.push(slot);
			if (frame.kind === 'message') {
				options.handle(
					frame.text,
					source,
					(reply, fault) => {
						if (reply === null) {
							options.logger.error({ source }, 'TCP message not committed; closing the connection');
							socket.destroy();
							return;
						}
						if (fault !== undefined) return faulted(slot, reply, fault);
						slot.reply = reply;
						drain();
					},
					() => slot.terminator
				);
			} else {
				options.logger.info(
					{ source, kind: frame.kind, ...refusedFrame(frame) },
					frame.kind === 'oversize'
						? 'TCP message over the size limit'
						: frame.kind === 'too-deep'
							? 'TCP message nested too deep'
							: frame.kind === 'unfinished'
								? 'TCP message unfinished when the client closed its side'
								: 'TCP bytes that are not JSON'
				);
				slot.reply = UNABLE_TO_PARSE;
				if (options.refused) slot.refused = frame;
			}
		}
		if (timer) clearTimeout(timer);
		timer = undefined;
		const last = slots[slots.length - 1];
		if (last && last.terminator === null) {
			timer = setTimeout(() => {
				timer = undefined;
				settleLast('');
				drain();
			}, wait);
		}
		drain();
	};

	socket.setNoDelay(true);
	socket.setKeepAlive(true, 60_000);
	socket.setTimeout(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => {
		options.logger.info({ source }, 'TCP connection idle; closing');
		socket.destroy();
	});
	socket.on('data', (chunk) => {
		if (closing) return;
		const frames = framer.push(chunk);
		if (!account(frames.some((f) => f.kind !== 'eol'))) return;
		onFrames(frames);
	});
	socket.on('end', () => {
		ended = true;
		onFrames(framer.end());
		account(true);
		settleLast('');
		drain();
	});
	socket.on('error', (err) => options.logger.debug({ err, source }, 'TCP connection error'));
	socket.on('close', () => {
		if (timer) clearTimeout(timer);
		if (messageTimer) clearTimeout(messageTimer);
		budget?.release(holder);
	});
	return {
		shutdown() {
			if (closing || socket.destroyed) return;
			closing = true;
			socket.pause();
			// A message whose line end was still awaited is answered bare, as at the peer's close.
			settleLast('');
			drain();
		}
	};
}

export interface TcpScreenServer {
	server: Server;
	host: string;
	port: number;
	/**
	 * Stop accepting, write every reply still owed on each connection, then close it; a
	 * connection still open after `graceMs` (default 2 s: a reply waiting on a stuck commit) is
	 * destroyed.
	 */
	close(graceMs?: number): Promise<void>;
}

/** Listen for one screen. Resolves once listening, with the port the OS gave for port 0. */
/** How long a closing listener waits for the replies it owes (ms). */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

export function listenTcpScreen(options: TcpScreenOptions): Promise<TcpScreenServer> {
	const connections = new Map<Socket, Connection>();
	const faults = options.faults;
	const server = createServer({ allowHalfOpen: true }, (socket) => {
		// A screen that is down (a fault) resets the connection as it opens.
		if (faults !== undefined && faults.on) {
			if (faults.connection(socket, `${socket.remoteAddress}:${socket.remotePort}`)) return;
		}
		connections.set(socket, serveConnection(socket, options));
		socket.on('close', () => connections.delete(socket));
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
				close: (graceMs = DEFAULT_CLOSE_GRACE_MS) =>
					new Promise<void>((done) => {
						const force = setTimeout(() => {
							for (const socket of connections.keys()) socket.destroy();
						}, graceMs);
						server.close(() => {
							clearTimeout(force);
							done();
						});
						for (const connection of connections.values()) connection.shutdown();
					})
			});
		});
	});
}
