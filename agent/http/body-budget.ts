/**
 * HTTP request bodies under the agent's limits: every body counts, while it is being read, against
 * the byte budget it shares with the TCP listeners (agent/byte-budget.ts), and must arrive whole
 * within the message timeout. A body evicted by the budget is answered 503 `BUSY`, one that stalls
 * 408 `REQUEST_TIMEOUT`; both close the connection, and nothing of the request takes effect.
 *
 * A body of a declared small length (Content-Length up to SMALL_BODY_BYTES, the usual order) is
 * charged its whole declared length when its headers arrive and read as it is, without a stream
 * in between: piping every body through a counting Transform cost 4 points of HTTP create
 * throughput (npm run bench:ladder). Larger bodies, and bodies of unknown length (chunked), are
 * counted as they arrive.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ByteBudget, Holder } from '../byte-budget.ts';
import type { Logger } from '../log.ts';
import { ApiError } from './integrators/errors.ts';

export interface BodyLimits {
	budget: ByteBudget;
	/** A body must be whole this long after its headers (ms). */
	messageTimeoutMs: number;
	logger: Logger;
}

/**
 * Up to this declared length a body is charged its declared length at once (64 KiB: a 100-item
 * order is about 20 KB; 1,000 requests at once would hold at most 64 MiB, the default budget).
 */
export const SMALL_BODY_BYTES = 64 * 1024;

const timeoutError = (limits: BodyLimits, bytes: number) => {
	const seconds = Math.round(limits.messageTimeoutMs / 100) / 10;
	return new ApiError(
		408,
		'REQUEST_TIMEOUT',
		`body: not complete ${seconds} s after the headers (${bytes} bytes came); send the whole request at once`
	);
};

const busyError = () =>
	new ApiError(
		503,
		'BUSY',
		'The simulator is holding too many unfinished requests; this one was refused to keep memory bounded. Send it again.'
	);

/** The declared body a request's stream is being read for (set on the request by the hook). */
const DECLARED = Symbol('kds.declaredBody');
/** Set on a socket once its 'close' is watched (once per connection, not per request). */
const WATCHED = Symbol('kds.bodySocketWatched');

type Counted = IncomingMessage & { [DECLARED]?: DeclaredBody };

/**
 * The request's own push, replaced on a request with a declared body: Node's HTTP parser pushes
 * each piece of the body into the request with it, and `null` once the body is whole (only once
 * the preParsing hooks ran: the headers' 'request' event calls them synchronously, before the
 * parser hands over any of the body). One shared function that finds the body on the request: no
 * closure and no 'end' listener per request.
 */
function countingPush(this: Counted, chunk: unknown, encoding?: BufferEncoding): boolean {
	const body = this[DECLARED];
	if (body !== undefined) {
		if (chunk === null) body.finish();
		else if (chunk) body.came += (chunk as Buffer).length;
	}
	return Readable.prototype.push.call(this, chunk, encoding);
}

/**
 * The bodies of declared small length being read, oldest first: one timer for all their
 * deadlines, armed for the oldest (every body has the same timeout, so the order they started in
 * is the order they fall due), instead of a timer per request. Linked through the bodies
 * themselves rather than held in a Set: a Set's add and delete per request showed as ~1 µs per
 * request in the agent's profiles.
 */
class DeclaredBodies {
	oldest: DeclaredBody | null = null;
	newest: DeclaredBody | null = null;
	private timer: NodeJS.Timeout | undefined;

	constructor(readonly limits: BodyLimits) {}

	add(body: DeclaredBody): void {
		body.older = this.newest;
		if (this.newest !== null) this.newest.newer = body;
		else this.oldest = body;
		this.newest = body;
		this.timer ??= setTimeout(() => this.due(), this.limits.messageTimeoutMs).unref();
	}

	remove(body: DeclaredBody): void {
		if (body.older !== null) body.older.newer = body.newer;
		else if (this.oldest === body) this.oldest = body.newer;
		if (body.newer !== null) body.newer.older = body.older;
		else if (this.newest === body) this.newest = body.older;
		body.older = body.newer = null;
	}

	private due(): void {
		this.timer = undefined;
		const now = performance.now();
		for (let body = this.oldest; body !== null; body = this.oldest) {
			if (body.deadline > now) {
				this.timer = setTimeout(() => this.due(), body.deadline - now + 1).unref();
				return;
			}
			// Refused: finished, so no longer the oldest.
			body.timedOut();
		}
	}

	/** A connection closed: forget the bytes and deadlines of the bodies it was sending. */
	closed(socket: unknown): void {
		for (let body = this.oldest; body !== null;) {
			const next = body.newer;
			if (body.payload.socket === socket) body.finish();
			body = next;
		}
	}
}

/**
 * A body of declared small length, read by Fastify straight from the request: charged its
 * declared length until it has been read (or refused, or its client went away).
 */
class DeclaredBody implements Holder {
	/** Bytes that came so far, for the 408's message: counted where Node's parser hands them over. */
	came = 0;
	readonly deadline: number;
	/** Refused before Fastify reads the body: the hook answers with it instead. */
	early: ApiError | undefined;
	/** Fastify reads the body itself (the hook is done): a refusal goes to its reader. */
	reading = false;
	private done = false;
	/** Neighbours among the bodies being read (DeclaredBodies), in the order they started. */
	older: DeclaredBody | null = null;
	newer: DeclaredBody | null = null;

	constructor(
		private readonly bodies: DeclaredBodies,
		readonly payload: Counted,
		private readonly req: FastifyRequest,
		private readonly reply: FastifyReply
	) {
		this.deadline = performance.now() + bodies.limits.messageTimeoutMs;
		payload[DECLARED] = this;
		payload.push = countingPush;
		bodies.add(this);
	}

	evict(): void {
		this.refuse(busyError());
	}

	timedOut(): void {
		this.refuse(timeoutError(this.bodies.limits, this.came));
	}

	private refuse(err: ApiError): void {
		warn(this.bodies.limits, this.req, err);
		this.finish();
		this.reply.header('connection', 'close');
		if (!this.reading) {
			this.early = err;
			return;
		}
		// Fastify reads the request itself: its reader takes the error and answers with it.
		const raw = this.payload;
		if (raw.listenerCount('error') > 0) raw.emit('error', err);
		else raw.socket.destroy();
		raw.resume();
	}

	finish(): void {
		if (this.done) return;
		this.done = true;
		this.payload[DECLARED] = undefined;
		this.bodies.remove(this);
		this.bodies.limits.budget.release(this);
	}
}

function warn(limits: BodyLimits, req: FastifyRequest, err: ApiError): void {
	limits.logger.warn(
		{ source: `${req.socket.remoteAddress}:${req.socket.remotePort}`, url: req.url },
		err.statusCode === 408
			? 'HTTP body too slow; refused and closing the connection'
			: 'HTTP bodies over the pending-bytes budget; refused the newest and closing its connection'
	);
}

/** Counts the bytes of one body as they pass, for the budget. */
class CountedBody extends Transform implements Holder {
	private bytes = 0;
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly limits: BodyLimits,
		private readonly refuse: (err: ApiError) => void
	) {
		super();
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.refuse(timeoutError(limits, this.bytes));
		}, limits.messageTimeoutMs);
	}

	override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
		this.bytes += chunk.length;
		if (!this.limits.budget.set(this, this.bytes)) return done();
		done(null, chunk);
	}

	override _flush(done: TransformCallback): void {
		this.finish();
		done();
	}

	override _destroy(err: Error | null, done: (error: Error | null) => void): void {
		this.finish();
		done(err);
	}

	evict(): void {
		this.refuse(busyError());
	}

	/** The body is done with (read, refused, or its client went away). */
	finish(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.limits.budget.release(this);
	}
}

/** Count every request body against the budget and the timeout. */
export function registerBodyLimits(app: FastifyInstance, limits: BodyLimits): void {
	const declaredBodies = new DeclaredBodies(limits);
	// Callback style: no promise and no extra turn of the microtask queue per request.
	app.addHook('preParsing', (req, reply, payload, done) => {
		const length = req.headers['content-length'];
		const chunked = req.headers['transfer-encoding'] !== undefined;
		if (!chunked && (length === undefined || length === '0')) return done(null, payload);
		const declared = Number(length);
		if (
			!chunked &&
			payload === req.raw &&
			Number.isSafeInteger(declared) &&
			declared <= SMALL_BODY_BYTES
		) {
			const socket = req.raw.socket as Socket & { [WATCHED]?: true };
			// A client that goes away mid-body: forget its bytes and deadline (one listener per
			// connection, however many requests it sends).
			if (socket[WATCHED] === undefined) {
				socket[WATCHED] = true;
				socket.once('close', () => declaredBodies.closed(socket));
			}
			const body = new DeclaredBody(declaredBodies, req.raw, req, reply);
			limits.budget.set(body, declared);
			if (body.early) {
				req.raw.resume();
				return done(body.early);
			}
			// Fastify attaches its reader as soon as the preParsing hooks are done, before any
			// timer or other connection's bytes can run.
			body.reading = true;
			return done(null, payload);
		}
		const counted: CountedBody = new CountedBody(limits, (err) => {
			warn(limits, req, err);
			reply.header('connection', 'close');
			payload.unpipe(counted);
			payload.resume();
			counted.destroy(err);
		});
		payload.on('error', (err) => counted.destroy(err));
		// A client that goes away mid-body leaves the stream unended: forget its bytes and timer.
		req.raw.once('close', () => counted.finish());
		done(null, payload.pipe(counted));
	});
}
