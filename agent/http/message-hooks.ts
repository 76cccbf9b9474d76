/**
 * Records every integrator API request in the inspector's message log: method and path, the
 * screens it named, the order id, the status and (when refused) the message, and the body.
 */
import type { FastifyInstance } from 'fastify';
import type { MessageLog } from '../message-log.ts';

declare module 'fastify' {
	interface FastifyRequest {
		/** The response body, kept for the message log. */
		kdsReplyBody?: string;
	}
}

function idOf(body: unknown): string | null {
	const id = (body as { id?: unknown } | null)?.id;
	return typeof id === 'string' ? id : null;
}

export function registerMessageHooks(app: FastifyInstance, log: MessageLog): void {
	const logged = (url: string) =>
		url.startsWith('/integrators/kds-orders') || url.startsWith('/integrators/kds-notifications');
	app.addHook('onSend', async (req, _reply, payload) => {
		if (logged(req.url) && typeof payload === 'string') req.kdsReplyBody = payload;
		return payload;
	});
	app.addHook('onResponse', async (req, reply) => {
		if (!logged(req.url)) return;
		const status = reply.statusCode;
		let message = '';
		if (status >= 400 && req.kdsReplyBody) {
			try {
				message = (JSON.parse(req.kdsReplyBody) as { message?: string }).message ?? '';
			} catch {
				// not JSON: status only
			}
		}
		const target = (req as { kdsTarget?: { screens: Array<{ config: { id: string } }> } | null })
			.kdsTarget;
		log.record({
			at: Date.now(),
			interface: 'http',
			source: `${req.socket.remoteAddress}:${req.socket.remotePort}`,
			screenIds: target?.screens.map((s) => s.config.id) ?? [],
			command: `${req.method} ${req.url.split('?')[0]}`,
			orderId: idOf(req.body),
			result: message ? `${status} ${message}` : String(status),
			ok: status < 400,
			raw: req.body === undefined ? '' : JSON.stringify(req.body, null, 2),
			findings: []
		});
	});
}
