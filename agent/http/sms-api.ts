/**
 * The simulated SMS outbox over HTTP (simulator API, not part of the integrator contract):
 *
 *   GET /api/sms?location=loc-1&order=1001&screen=kds-1&kind=ready&limit=50
 *
 * Every filter is optional; texts come newest first (at most `limit`, default 200, up to 1000).
 */
import type { FastifyInstance } from 'fastify';
import type { SmsOutbox } from '../notify/sms.ts';

type Query = Partial<Record<'location' | 'order' | 'screen' | 'kind' | 'limit', string>>;

export function registerSmsApi(app: FastifyInstance, outbox: SmsOutbox): void {
	app.get<{ Querystring: Query }>('/api/sms', async (req, reply) => {
		const { location, order, screen, kind, limit } = req.query;
		const errors: Array<{ path: string; message: string }> = [];
		if (kind !== undefined && kind !== 'received' && kind !== 'ready') {
			errors.push({
				path: 'kind',
				message: `expected received or ready, got ${JSON.stringify(kind)}`
			});
		}
		const max = limit === undefined ? 200 : Number(limit);
		if (!Number.isInteger(max) || max < 1 || max > 1000) {
			errors.push({
				path: 'limit',
				message: `expected an integer 1-1000, got ${JSON.stringify(limit)}`
			});
		}
		if (errors.length > 0) {
			return reply.code(422).send({
				code: 'VALIDATION_FAILED',
				message: errors.map((e) => `${e.path}: ${e.message}`).join('; '),
				errors
			});
		}
		return outbox.list({
			location,
			order,
			screen,
			kind: kind as 'received' | 'ready' | undefined,
			limit: max
		});
	});
}
