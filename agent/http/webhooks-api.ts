/**
 * The brands' webhook endpoints and their delivery logs over HTTP (admin API, docs/webhooks.md),
 * what the vendor's portal does by hand:
 *
 *   GET    /api/admin/webhooks?brand=brand-1           the endpoints (URLs redacted)
 *   POST   /api/admin/webhooks                         add one: {url, triggers?, locations?, ...}
 *   DELETE /api/admin/webhooks/:id                     remove one
 *   GET    /api/admin/webhooks/:id/deliveries?event=&order=&status=&limit=
 *   POST   /api/admin/webhooks/deliveries/:id/resend   send a delivery's body again
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { WEBHOOK_EVENTS } from '#core/webhooks';
import { EndpointError, type Webhooks } from '../notify/webhooks.ts';
import { validationError } from './integrators/errors.ts';
import { choiceParam, limitParam, parseQuery, textParam } from './query.ts';
import { declared } from './responses.ts';

const ListQuerySchema = z.object({ brand: textParam() });

const DeliveryQuerySchema = z.object({
	event: choiceParam(WEBHOOK_EVENTS),
	order: textParam(),
	status: choiceParam(['pending', 'delivered', 'failed']),
	limit: limitParam(1000, 200)
});

export function registerWebhooksApi(app: FastifyInstance, webhooks: Webhooks): void {
	app.get('/api/admin/webhooks', declared('GET /api/admin/webhooks'), async (req) =>
		webhooks.endpoints(parseQuery(ListQuerySchema, req.query).brand)
	);

	app.post('/api/admin/webhooks', declared('POST /api/admin/webhooks'), async (req, reply) => {
		try {
			return reply.code(201).send(webhooks.add(req.body));
		} catch (err) {
			if (err instanceof EndpointError) throw validationError(err.errors, err.message);
			throw err;
		}
	});

	app.delete<{ Params: { id: string } }>(
		'/api/admin/webhooks/:id',
		declared('DELETE /api/admin/webhooks/:id'),
		async (req, reply) => {
			if (!webhooks.remove(req.params.id)) return reply.code(404).send(noEndpoint(req.params.id));
			return { removed: req.params.id };
		}
	);

	app.get<{ Params: { id: string } }>(
		'/api/admin/webhooks/:id/deliveries',
		declared('GET /api/admin/webhooks/:id/deliveries'),
		async (req, reply) => {
			const filter = parseQuery(DeliveryQuerySchema, req.query);
			const deliveries = webhooks.deliveries(req.params.id, filter);
			// A removed endpoint's log stays readable while it has one.
			if (deliveries.length === 0 && !webhooks.endpoint(req.params.id))
				return reply.code(404).send(noEndpoint(req.params.id));
			return deliveries;
		}
	);

	app.post<{ Params: { id: string } }>(
		'/api/admin/webhooks/deliveries/:id/resend',
		declared('POST /api/admin/webhooks/deliveries/:id/resend'),
		async (req, reply) => {
			const sent = webhooks.resend(req.params.id);
			if (!sent) {
				return reply.code(404).send({
					code: 'NOT_FOUND' as const,
					message: `No delivery ${req.params.id} to an endpoint that still exists`
				});
			}
			return reply.code(201).send(sent);
		}
	);
}

function noEndpoint(id: string) {
	return {
		code: 'NOT_FOUND' as const,
		message: `No webhook endpoint ${id} (see GET /api/admin/webhooks)`
	};
}
