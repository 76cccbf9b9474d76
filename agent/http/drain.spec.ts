/**
 * Draining the rest of a refused request's body (drain.ts): read while it keeps coming, within
 * the bounds; a body that stops is not waited for.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drainRequest } from './drain.ts';

/** A request whose body the test writes. */
function request(headers: Record<string, string> = {}) {
	const body = new PassThrough();
	return {
		body,
		req: Object.assign(body, { headers, complete: false }) as unknown as IncomingMessage
	};
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('drainRequest', () => {
	it('reads the body to its end while it keeps coming', async () => {
		const { body, req } = request();
		let drained = false;
		const drain = drainRequest(req, 1024, 5000, 200).then(() => (drained = true));
		for (let i = 0; i < 5; i++) {
			body.write('x'.repeat(10));
			await tick(100);
		}
		expect(drained).toBe(false);
		body.end();
		await drain;
		expect(body.readableEnded).toBe(true);
	});

	it('stops when the body stops coming, before the overall bound', async () => {
		const { body, req } = request();
		const started = Date.now();
		const drain = drainRequest(req, 1024, 60_000, 200);
		body.write('partial');
		await drain;
		// Ended by the idle gap (200 ms), not by the 60 s bound: the promise settled at all.
		expect(Date.now() - started).toBeLessThan(60_000);
		expect(body.readableEnded).toBe(false);
	});

	it('stops past the byte limit, and at once for a body declared longer than it', async () => {
		const { body, req } = request();
		const drain = drainRequest(req, 100, 60_000, 60_000);
		body.write('x'.repeat(101));
		await drain;
		const declared = request({ 'content-length': '101' });
		await drainRequest(declared.req, 100, 60_000, 60_000);
		expect(declared.body.readableFlowing).toBe(null);
	});
});
