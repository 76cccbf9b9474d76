/**
 * GET /api/admin/messages/session: a stretch of the inspector's log as a session file
 * (core/session.ts, docs/replay.md), for `kds-sim replay` and the inspector's Export button.
 * Which messages: `from` and `to` (ids, both included), or `ids` (a list), or `since` and `until`
 * (times: a certification run's), narrowed by `screen` and `order` as the log's own list is; customer data redacted unless `redact=false`. Guarded
 * like every admin route (./access.ts, by its path). Answered as JSON Lines, a download.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { SESSION_MEDIA_TYPE, sessionOf, writeSession } from '#core/session';
import type { Engine } from '../engine/engine.ts';
import type { MessageLog } from '../inspector/message-log.ts';
import { choiceParam, parseQuery, textParam } from './query.ts';

const idParam = (what: string) =>
	z
		.string()
		.regex(/^\d{1,15}$/, { error: `expected a message id (a whole number)` })
		.transform(Number)
		.optional()
		.describe(what);

const timeParam = (what: string) =>
	z.iso
		.datetime({ offset: true, error: 'expected an ISO 8601 date-time, e.g. 2026-12-07T05:00:00Z' })
		.transform((t) => Date.parse(t))
		.optional()
		.describe(what);

/** The session export's query (422 naming each parameter it cannot read). */
export const SessionQuerySchema = z
	.object({
		from: idParam('The first message (its id in the log), included; default the oldest kept.'),
		to: idParam('The last message, included; default the newest.'),
		ids: z
			.string()
			.regex(/^\d{1,15}(,\d{1,15})*$/, { error: 'expected message ids separated by commas' })
			.transform((s) => new Set(s.split(',').map(Number)))
			.optional()
			.describe('Only these messages (ids, comma-separated), instead of a stretch.'),
		since: timeParam(
			'Only messages received at or after this time (ISO 8601), e.g. a run’s start.'
		),
		until: timeParam('Only messages received at or before this time (ISO 8601).'),
		screen: textParam().describe('Only messages to this screen id.'),
		order: textParam().describe('Only messages about this order id.'),
		redact: choiceParam(['true', 'false']).describe(
			'false keeps customer data (names, phones, addresses); default true: redacted.'
		)
	})
	.superRefine((q, ctx) => {
		if (q.from !== undefined && q.to !== undefined && q.from > q.to)
			ctx.addIssue({
				code: 'custom',
				path: ['to'],
				message: `expected ${q.from} (from) or more, got ${q.to}`
			});
	});

export function registerSessionApi(
	app: FastifyInstance,
	engine: Engine,
	messages: MessageLog
): void {
	app.get('/api/admin/messages/session', async (req, reply) => {
		const q = parseQuery(SessionQuerySchema, req.query);
		const entries = messages
			.list({ screen: q.screen, orderId: q.order })
			.filter(
				(e) =>
					(q.ids === undefined || q.ids.has(e.id)) &&
					(q.from === undefined || e.id >= q.from) &&
					(q.to === undefined || e.id <= q.to) &&
					(q.since === undefined || e.at >= q.since) &&
					(q.until === undefined || e.at <= q.until)
			);
		const now = engine.now();
		const session = sessionOf(entries, {
			simulator: pkg.version,
			now,
			locationOf: (id) => engine.screen(id)?.location.id ?? null,
			redact: q.redact !== 'false'
		});
		const stamp = new Date(now).toISOString().replace(/[:.]/g, '-').slice(0, 19);
		return reply
			.header('content-type', `${SESSION_MEDIA_TYPE}; charset=utf-8`)
			.header('content-disposition', `attachment; filename="kds-session-${stamp}.jsonl"`)
			.header('cache-control', 'no-store')
			.send(writeSession(session));
	});
}

/** Its entry of the OpenAPI document (outside the JSON table: the answer is JSON Lines). */
export function sessionOpenApi(errorRef: object, forbidden: string, invalid: string) {
	return {
		get: {
			summary: 'A stretch of the message log as a session file (JSON Lines), for kds-sim replay',
			description:
				'A header line (format, version, simulator version, created at, the locations and screens involved), then one line per message, oldest first: its offset in ms from the first, its transport (TCP: the screen; HTTP: method, route, location, devices, Content-Type), the whole message as sent and the reply it got. Customer data (names, phones, addresses) redacted unless redact=false. docs/replay.md.',
			tags: ['Admin'],
			security: [{}, { adminToken: [] }],
			parameters: Object.entries(SessionQuerySchema.shape).map(([name, schema]) => ({
				name,
				in: 'query',
				required: false,
				description: (schema as z.ZodType).description,
				schema: { type: 'string' }
			})),
			responses: {
				'200': {
					description: 'The session file, as a download.',
					content: { [SESSION_MEDIA_TYPE]: {} }
				},
				'403': { description: forbidden, content: { 'application/json': { schema: errorRef } } },
				'422': { description: invalid, content: { 'application/json': { schema: errorRef } } }
			}
		}
	};
}
