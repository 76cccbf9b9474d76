/**
 * The simulator's own notification routes for its UI and for tests (not part of the integrator
 * contract): what notifications left on a screen, and acknowledging a pop-up without a browser.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import type { Notifications } from '../notify/notification-state.ts';
import { redact } from '../notify/webhook.ts';
import { declared, unknownScreen } from './responses.ts';

export function registerScreenNotificationApi(
	app: FastifyInstance,
	engine: Engine,
	notifications: Notifications
): void {
	/** Takeout statuses, open pop-ups and the screen's queued deliveries (callback URLs redacted). */
	app.get<{ Params: { id: string } }>(
		'/api/screens/:id/notifications',
		declared('GET /api/screens/:id/notifications'),
		async (req, reply) => {
			const { id } = req.params;
			if (!engine.screen(id)) return reply.code(404).send(unknownScreen(id));
			const deliveries = notifications.deliveries(id).map((d) => ({
				...d,
				notificationUrl: d.notificationUrl && redact(d.notificationUrl)
			}));
			return { ...notifications.state(id), deliveries };
		}
	);

	/** As OK on the pop-up: it goes from every browser of the screen. */
	app.post<{ Params: { id: string; popupId: string } }>(
		'/api/screens/:id/popups/:popupId/ack',
		declared('POST /api/screens/:id/popups/:popupId/ack'),
		async (req, reply) => {
			const { id, popupId } = req.params;
			if (!engine.screen(id)) return reply.code(404).send(unknownScreen(id));
			if (!notifications.acknowledge(id, popupId)) {
				return reply.code(404).send({
					code: 'NOT_FOUND',
					message: `No open pop-up ${popupId} on screen ${id} (already acknowledged?)`
				});
			}
			return { ok: true };
		}
	);
}
