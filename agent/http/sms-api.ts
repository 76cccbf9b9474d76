/**
 * The simulated SMS outbox over HTTP (simulator API, not part of the integrator contract):
 *
 *   GET /api/sms?location=loc-1&order=1001&screen=kds-1&kind=bumped&limit=50
 *
 * Every filter is optional; texts come newest first (at most `limit`, default 200, up to 1000).
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { SMS_KINDS } from '#core/sms';
import type { SmsOutbox } from '../notify/sms.ts';
import { choiceParam, limitParam, parseQuery, textParam } from './query.ts';
import { declared } from './responses.ts';

const SmsQuerySchema = z.object({
	location: textParam(),
	order: textParam(),
	screen: textParam(),
	kind: choiceParam(SMS_KINDS),
	limit: limitParam(1000, 200)
});

export function registerSmsApi(app: FastifyInstance, outbox: SmsOutbox): void {
	app.get('/api/sms', declared('GET /api/sms'), async (req) =>
		outbox.list(parseQuery(SmsQuerySchema, req.query))
	);
}
