/**
 * The simulator's own API for its UI and for tests (not part of the integrator contract):
 * locations and screens with live order counts, screen settings, and screen actions.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import { screenInfo } from '../engine/screens.ts';
import { ITEM_ACTIONS, SCREEN_ACTIONS, type ScreenAction } from '#core/screen';
import { formatErrors } from '#core/parse';
import { validationError } from './integrators/errors.ts';
import { declared, unknownScreen } from './responses.ts';

export function registerSimulatorApi(app: FastifyInstance, engine: Engine): void {
	app.get('/api/locations', declared('GET /api/locations'), async () => {
		const byLocation = new Map<
			string,
			{ id: string; name: string; brand: string; timezone: string; screens: unknown[] }
		>();
		for (const screen of engine.screens.values()) {
			if (screen.config.deleted) continue;
			let entry = byLocation.get(screen.location.id);
			if (!entry) {
				entry = {
					id: screen.location.id,
					name: screen.location.name,
					brand: screen.brand.name,
					// IANA zone: the UI shows every time in it, labelled, never in the browser's.
					timezone: screen.location.timezone,
					screens: []
				};
				byLocation.set(screen.location.id, entry);
			}
			entry.screens.push({
				id: screen.config.id,
				name: screen.config.name,
				orderCount: engine.queueLength(screen.config.id),
				tcp: engine.tcpEndpoint(screen.config.id),
				// A screen another simulator hosts (docs/fleet.md): where, and whether it is current.
				...(screen.remote && screen.config.remote
					? { remote: { url: screen.config.remote.url, state: screen.remote.state } }
					: {})
			});
		}
		return [...byLocation.values()];
	});

	app.get<{ Params: { id: string } }>(
		'/api/screens/:id',
		declared('GET /api/screens/:id'),
		async (req, reply) => {
			const screen = engine.liveScreen(req.params.id);
			if (!screen) return reply.code(404).send(unknownScreen(req.params.id));
			return screenInfo(screen);
		}
	);

	/** Everything the screen holds now: the same snapshot a browser gets on connect. */
	app.get<{ Params: { id: string } }>(
		'/api/screens/:id/state',
		declared('GET /api/screens/:id/state'),
		async (req, reply) => {
			const screen = engine.liveScreen(req.params.id);
			if (!screen) return reply.code(404).send(unknownScreen(req.params.id));
			return engine.fanout.snapshot(screen.config.id);
		}
	);

	app.post<{
		Params: { id: string };
		Body: { action?: string; orderId?: string; course?: unknown; lineId?: unknown };
	}>('/api/screens/:id/actions', declared('POST /api/screens/:id/actions'), async (req, reply) => {
		const screen = engine.liveScreen(req.params.id);
		if (!screen) return reply.code(404).send(unknownScreen(req.params.id));
		const { action, orderId, course, lineId } = req.body ?? {};
		if (!(SCREEN_ACTIONS as readonly unknown[]).includes(action)) {
			const expected = `expected one of ${SCREEN_ACTIONS.join(', ')}`;
			throw validationError([{ path: 'action', message: expected }], `action: ${expected}`);
		}
		const name = action as ScreenAction;
		if (name === 'fire-course' && (typeof course !== 'string' || typeof orderId !== 'string')) {
			const errors = [
				...(typeof orderId === 'string' ? [] : [{ path: 'orderId', message: 'expected a string' }]),
				...(typeof course === 'string'
					? []
					: [{ path: 'course', message: "expected a string (the course; '' for no course)" }])
			];
			throw validationError(errors, formatErrors(errors));
		}
		if (
			ITEM_ACTIONS.includes(name) &&
			(typeof lineId !== 'string' || typeof orderId !== 'string')
		) {
			const errors = [
				...(typeof orderId === 'string' ? [] : [{ path: 'orderId', message: 'expected a string' }]),
				...(typeof lineId === 'string'
					? []
					: [{ path: 'lineId', message: "expected a string (the item's lineId)" }])
			];
			throw validationError(errors, formatErrors(errors));
		}
		const fired = typeof course === 'string' ? course : undefined;
		const line = typeof lineId === 'string' ? lineId : undefined;
		if (!engine.runAction(screen.config.id, name, orderId, { course: fired, lineId: line })) {
			const what =
				name === 'fire-course'
					? `course ${JSON.stringify(fired)} of order ${orderId}`
					: line !== undefined
						? `item ${JSON.stringify(line)} of order ${orderId}`
						: orderId
							? `order ${orderId}`
							: 'no bumped order';
			return reply.code(409).send({
				code: 'ACTION_REFUSED',
				message: `${name}: ${what} cannot be changed so`
			});
		}
		return { ok: true };
	});
}
