/**
 * The order tracker's data (docs/screens.md#order-tracker): a location's "Preparing" and "Ready"
 * boards for the customer-facing page /tracker/<location>, read from its screens' orders and the
 * Take Out views' "Ready for pickup" (core/view/tracker.ts decides). Names are customer data, so
 * the route has the admin guard (./access.ts) as every other route that shows them.
 */
import type { FastifyInstance } from 'fastify';
import { trackerBoard } from '#core/view/tracker';
import type { Engine } from '../engine/engine.ts';
import type { Notifications } from '../notify/notification-state.ts';
import { declared } from './responses.ts';

export function registerTrackerApi(
	app: FastifyInstance,
	engine: Engine,
	notifications: Notifications
): void {
	app.get<{ Params: { location: string } }>(
		'/api/tracker/:location',
		declared('GET /api/tracker/:location'),
		async (req, reply) => {
			const screens = [...engine.screens.values()].filter(
				(s) => !s.config.deleted && s.location.id === req.params.location
			);
			if (screens.length === 0) {
				return reply
					.code(404)
					.send({ code: 'NOT_FOUND', message: `Unknown location ${req.params.location}` });
			}
			const now = engine.now();
			const board = trackerBoard(
				screens.map((s) => ({
					role: s.config.role,
					records: s.state.orders.values(),
					readyAt: new Map(
						notifications
							.state(s.config.id)
							.takeout.filter((t) => t.readyAt !== undefined)
							.map((t) => [t.orderId, t.readyAt!])
					)
				})),
				now
			);
			const { location } = screens[0];
			return {
				location: { id: location.id, name: location.name, timezone: location.timezone },
				now,
				...board
			};
		}
	);
}
