/**
 * A request refused before its body was read (413: over the body limit) is answered with
 * `Connection: close`. Closing while the client still sends makes the kernel reset the
 * connection, and a client that writes its whole body before it reads (Node fetch, Python
 * urllib/requests, Java HttpClient) then sees EPIPE or "fetch failed" instead of the answer. So
 * the rest of the body is read and thrown away first, up to a bound: DRAIN_LIMIT_BYTES more
 * bytes, for at most DRAIN_TIMEOUT_MS, and only while it keeps coming: a body that stops for
 * DRAIN_IDLE_MS (a client stalled in its body, answered 408) is answered then. A body declared
 * longer than the limit (Content-Length), or still coming past a bound, is answered and closed at
 * once: such a client may see a reset.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
export const DRAIN_TIMEOUT_MS = 10_000;
/** A body that sends nothing for this long is not coming: answer now. */
export const DRAIN_IDLE_MS = 1000;

/** Resolves once the request's body has ended, or a bound was reached. */
export function drainRequest(
	req: IncomingMessage,
	limit = DRAIN_LIMIT_BYTES,
	timeoutMs = DRAIN_TIMEOUT_MS,
	idleMs = DRAIN_IDLE_MS
): Promise<void> {
	// readableEnded: a request whose body was read to its end (also an injected one, which has no `complete`).
	if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
	const declared = Number(req.headers['content-length']);
	if (declared > limit) return Promise.resolve();
	return new Promise((resolve) => {
		let drained = 0;
		const done = () => {
			clearTimeout(timer);
			clearTimeout(idle);
			req.off('data', onData);
			req.off('end', done);
			req.off('close', done);
			req.off('error', done);
			resolve();
		};
		const onData = (chunk: Buffer) => {
			drained += chunk.length;
			if (drained > limit) return done();
			idle.refresh();
		};
		const timer = setTimeout(done, timeoutMs);
		const idle = setTimeout(done, idleMs);
		req.on('data', onData);
		req.once('end', done);
		req.once('close', done);
		req.once('error', done);
		// Whatever the body was piped into (the byte budget's counter, the parser) stopped reading:
		// left piped, its back-pressure would pause the drain until the timeout.
		req.unpipe();
		req.resume();
	});
}

/**
 * Drain before any reply that closes the connection on a request whose body is unread. A
 * callback hook, not an async one: every other reply goes on in the same tick.
 */
export function registerDrainBeforeClose(app: FastifyInstance): void {
	app.addHook('onSend', (req, reply, payload, done) => {
		if (reply.getHeader('connection') !== 'close' || req.raw.complete) return done(null, payload);
		void drainRequest(req.raw).then(() => done(null, payload));
	});
}
