/**
 * The simulator's own notification routes for its UI and for tests (not part of the integrator
 * contract): what notifications left on a screen, acknowledging a pop-up without a browser, and
 * the Take Out view's "Ready for pickup" step without a browser (for CI runs).
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

	/** As "Ready for pickup" on the screen's Take Out view (the "ready" text, when that trigger is on). */
	app.post<{ Params: { id: string; orderId: string } }>(
		'/api/screens/:id/orders/:orderId/ready',
		declared('POST /api/screens/:id/orders/:orderId/ready'),
		async (req, reply) => {
			const { id, orderId } = req.params;
			if (!engine.screen(id)) return reply.code(404).send(unknownScreen(id));
			if (!notifications.ready(id, orderId)) {
				return reply.code(409).send({
					code: 'ACTION_REFUSED',
					message: `ready: order ${orderId} is not on screen ${id} (bumped, or never sent there)`
				});
			}
			return { ok: true };
		}
	);
}
