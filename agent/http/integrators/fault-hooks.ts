/**
 * Faults on the HTTP integrator API (docs/faults.md), per route and optionally per location or
 * screen: a status (nothing is taken), a delay (taken, answered late), a connection dropped
 * without a response (nothing is taken), and a response lost (taken, the connection closed
 * instead of the answer); a delay composes with each of the others, on the agent's clock. Registered in the integrator API's scope only; with no HTTP fault on,
 * each hook reads one null (`faults.http`) or one undefined (`req.kdsFault`) and returns.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FAULT_STATUSES, faultRouteOf, type KindsWhere } from '#core/fault-kinds';
import { orderFingerprint, type FaultTouch } from '#core/fault-findings';
import type { Faults, Firing } from '../../faults/registry.ts';

declare module 'fastify' {
	interface FastifyRequest {
		/** The fault that touched this request, if any (the inspector's entry names it). */
		kdsFault?: FaultTouch;
		/** What that fault does once the request is handled: wait this long, or lose the answer. */
		kdsFaultAfter?: { delayMs: number } | { lost: true; delayMs: number };
	}
}

const STATUS_CODES = {
	500: 'INTERNAL_SERVER_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
	429: 'TOO_MANY_REQUESTS'
} satisfies Record<(typeof FAULT_STATUSES)[number], string>;

function devicesOf(req: FastifyRequest): string[] {
	const header = req.headers['x-device-ids'];
	const text = Array.isArray(header) ? header.join(',') : (header ?? 'all');
	return text.split(',').map((id) => id.trim());
}

function headerOf(req: FastifyRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

type RequestKind = KindsWhere<{ transport: 'http'; stage: 'before-commit' | 'reply' }>;

export function registerFaultHooks(scope: FastifyInstance, faults: Faults): void {
	scope.decorateRequest('kdsFault', undefined);
	scope.decorateRequest('kdsFaultAfter', undefined);

	const touch = (
		req: FastifyRequest,
		firing: Firing,
		committed: boolean,
		retryAfterMs?: number
	) => {
		const body = req.body as { id?: unknown } | undefined;
		const path = req.url.split('?')[0];
		req.kdsFault = faults.touched(firing, {
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

	/**
	 * What each kind does to a request, one entry per kind of the table that acts on a request (a
	 * kind left out does not compile). `waitMs` is the delay composed with it (0: none); a fault
	 * that answers before the route (status, drop) waits first, one that acts on the answer waits
	 * in onSend.
	 */
	const EFFECTS = {
		'http-status': (req, reply, firing, waitMs) => {
			const spec = firing.fault.spec as { status: keyof typeof STATUS_CODES; retryAfter?: number };
			const retryAfter = spec.retryAfter ?? (spec.status === 429 ? 1 : undefined);
			touch(req, firing, false, retryAfter === undefined ? undefined : retryAfter * 1000);
			const answer = () => {
				if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
				reply.code(spec.status).send({
					code: STATUS_CODES[spec.status],
					message: `fault ${firing.fault.id}: answered ${spec.status}; nothing was taken`
				});
			};
			if (waitMs > 0) faults.later(waitMs, answer);
			else answer();
			return false;
		},
		'http-drop': (req, _reply, firing, waitMs) => {
			touch(req, firing, false);
			const drop = () => {
				req.kdsRecordUnanswered?.(
					0,
					`no response: connection dropped (fault ${firing.fault.id}); nothing was taken`
				);
				// No response at all: the connection ends (nothing was taken).
				req.socket.destroy();
			};
			if (waitMs > 0) faults.later(waitMs, drop);
			else drop();
			return false;
		},
		'http-delay': (req, _reply, firing, waitMs) => {
			touch(req, firing, true);
			req.kdsFaultAfter = { delayMs: waitMs };
			return true;
		},
		'http-response-lost': (req, _reply, firing, waitMs) => {
			touch(req, firing, true);
			req.kdsFaultAfter = { lost: true, delayMs: waitMs };
			return true;
		}
	} satisfies Record<
		RequestKind,
		(req: FastifyRequest, reply: FastifyReply, firing: Firing, waitMs: number) => boolean
	>;

	// After the body is read (so the inspector and the judgement have the order), before the route.
	scope.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done) => {
		if (faults.http === null) return done();
		const route = faultRouteOf(req.method, req.url.split('?')[0]);
		if (route === undefined) return done();
		const firing = faults.httpFault(route, headerOf(req, 'x-location-id'), devicesOf(req));
		if (firing === undefined) return done();
		const { fault, delay } = firing;
		const kind = fault.spec.kind as RequestKind;
		const waitMs = (delay ?? (kind === 'http-delay' ? fault : undefined))?.delay() ?? 0;
		// true: the route runs (the answer is acted on in onSend); false: answered here.
		if (EFFECTS[kind](req, reply, firing, waitMs)) done();
	});

	scope.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
		const after = req.kdsFaultAfter;
		if (after === undefined) return done(null, payload);
		const act = () => {
			if ('lost' in after) {
				// Handled and committed; the answer never leaves: the connection is closed instead.
				req.kdsRecordUnanswered?.(
					reply.statusCode,
					`${reply.statusCode} taken, then the response was lost (fault ${req.kdsFault?.faultId})`
				);
				req.socket.destroy();
			}
			done(null, payload);
		};
		if (after.delayMs > 0) faults.later(after.delayMs, act);
		else act();
	});
}
