/**
 * Faults on the HTTP integrator API (docs/faults.md), per route and optionally per location or
 * screen: a status (nothing is taken), a delay (taken, answered late), a connection dropped
 * without a response (nothing is taken), and a response lost (taken, the connection closed
 * instead of the answer). Registered in the integrator API's scope only; with no HTTP fault on,
 * each hook reads one null (`faults.http`) or one undefined (`req.kdsFault`) and returns.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { faultRouteOf, type LiveFault } from '#core/fault-kinds';
import { orderFingerprint, type FaultTouch } from '#core/fault-findings';
import type { Faults } from '../../faults/registry.ts';

declare module 'fastify' {
	interface FastifyRequest {
		/** The fault that touched this request, if any (the inspector's entry names it). */
		kdsFault?: FaultTouch;
		/** What that fault does once the request is handled: wait this long, or lose the answer. */
		kdsFaultAfter?: { delayMs: number } | { lost: true };
	}
}

const STATUS_CODES: Record<number, string> = {
	500: 'INTERNAL_SERVER_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
	429: 'TOO_MANY_REQUESTS'
};

function devicesOf(req: FastifyRequest): string[] {
	const header = req.headers['x-device-ids'];
	const text = Array.isArray(header) ? header.join(',') : (header ?? 'all');
	return text.split(',').map((id) => id.trim());
}

function headerOf(req: FastifyRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

export function registerFaultHooks(scope: FastifyInstance, faults: Faults): void {
	scope.decorateRequest('kdsFault', undefined);
	scope.decorateRequest('kdsFaultAfter', undefined);

	const touch = (
		req: FastifyRequest,
		fault: LiveFault,
		committed: boolean,
		retryAfterMs?: number
	) => {
		const body = req.body as { id?: unknown } | undefined;
		const path = req.url.split('?')[0];
		req.kdsFault = faults.touched(fault, {
			interface: 'http',
			screenId: devicesOf(req).join(','),
			source: `${req.socket.remoteAddress}:${req.socket.remotePort}`,
			command: `${req.method} ${path}`,
			orderId: typeof body?.id === 'string' ? body.id : null,
			fingerprint: orderFingerprint(body),
			committed,
			...(retryAfterMs === undefined ? {} : { retryAfterMs })
		});
	};

	// After the body is read (so the inspector and the judgement have the order), before the route.
	scope.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done) => {
		if (faults.http === null) return done();
		const route = faultRouteOf(req.method, req.url.split('?')[0]);
		if (route === undefined) return done();
		const fault = faults.httpFault(route, headerOf(req, 'x-location-id'), devicesOf(req));
		if (fault === undefined) return done();
		const spec = fault.spec;
		switch (spec.kind) {
			case 'http-status': {
				const retryAfter = spec.retryAfter ?? (spec.status === 429 ? 1 : undefined);
				touch(req, fault, false, retryAfter === undefined ? undefined : retryAfter * 1000);
				if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
				reply.code(spec.status).send({
					code: STATUS_CODES[spec.status],
					message: `fault ${fault.id}: answered ${spec.status}; nothing was taken`
				});
				return;
			}
			case 'http-drop':
				touch(req, fault, false);
				req.kdsRecordUnanswered?.(
					0,
					`no response: connection dropped (fault ${fault.id}); nothing was taken`
				);
				// No response at all: the connection ends (nothing was taken).
				req.socket.destroy();
				return;
			case 'http-delay':
				touch(req, fault, true);
				req.kdsFaultAfter = { delayMs: spec.delayMs };
				return done();
			case 'http-response-lost':
				touch(req, fault, true);
				req.kdsFaultAfter = { lost: true };
				return done();
			default:
				return done();
		}
	});

	scope.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
		const after = req.kdsFaultAfter;
		if (after === undefined) return done(null, payload);
		if ('lost' in after) {
			// Handled and committed; the answer never leaves: the connection is closed instead.
			req.kdsRecordUnanswered?.(
				reply.statusCode,
				`${reply.statusCode} taken, then the response was lost (fault ${req.kdsFault?.faultId})`
			);
			req.socket.destroy();
			return done(null, payload);
		}
		setTimeout(() => done(null, payload), after.delayMs);
	});
}
