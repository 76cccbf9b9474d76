/**
 * HTTP request bodies under the agent's limits: every body counts, while it is being read, against
 * the byte budget it shares with the TCP listeners (agent/byte-budget.ts), and must arrive whole
 * within the message timeout. A body evicted by the budget is answered 503 `BUSY`, one that stalls
 * 408 `REQUEST_TIMEOUT`; both close the connection, and nothing of the request takes effect.
 */
import type { FastifyInstance } from 'fastify';
import { Transform, type TransformCallback } from 'node:stream';
import type { ByteBudget, Holder } from '../byte-budget.ts';
import type { Logger } from '../log.ts';
import { ApiError } from './integrators/errors.ts';

export interface BodyLimits {
	budget: ByteBudget;
	/** A body must be whole this long after its headers (ms). */
	messageTimeoutMs: number;
	logger: Logger;
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
			const seconds = Math.round(limits.messageTimeoutMs / 100) / 10;
			this.refuse(
				new ApiError(
					408,
					'REQUEST_TIMEOUT',
					`body: not complete ${seconds} s after the headers (${this.bytes} bytes came); send the whole request at once`
				)
			);
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
		this.refuse(
			new ApiError(
				503,
				'BUSY',
				'The simulator is holding too many unfinished requests; this one was refused to keep memory bounded. Send it again.'
			)
		);
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
	app.addHook('preParsing', async (req, reply, payload) => {
		const length = req.headers['content-length'];
		if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0'))
			return payload;
		const counted: CountedBody = new CountedBody(limits, (err) => {
			limits.logger.warn(
				{ source: `${req.socket.remoteAddress}:${req.socket.remotePort}`, url: req.url },
				err.statusCode === 408
					? 'HTTP body too slow; refused and closing the connection'
					: 'HTTP bodies over the pending-bytes budget; refused the newest and closing its connection'
			);
			reply.header('connection', 'close');
			payload.unpipe(counted);
			payload.resume();
			counted.destroy(err);
		});
		payload.on('error', (err) => counted.destroy(err));
		// A client that goes away mid-body leaves the stream unended: forget its bytes and timer.
		req.raw.once('close', () => counted.finish());
		return payload.pipe(counted);
	});
}
