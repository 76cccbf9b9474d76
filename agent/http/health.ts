/**
 * GET /health: whether the simulator takes orders, for a POS or a script that checks before it
 * starts. No token (it names no customer data): 200 `{status: "ok", version, screens}` while every
 * screen's TCP listener is open (the HTTP port answers, or there would be no reply); 503
 * `{status: "unavailable", ...}` with the screens whose listener is closed marked
 * `listening: false`. While the agent shuts down, Fastify answers 503 on its own.
 */
import type { FastifyInstance } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };
import type { Health, ScreenListener } from './integrators/responses.ts';
import { declared } from './responses.ts';

export type { Health, ScreenListener };

export const HEALTH_PATH = '/health';

export function health(listeners: ScreenListener[]): Health {
	return {
		status: listeners.every((s) => s.listening) ? 'ok' : 'unavailable',
		version: pkg.version,
		screens: listeners
	};
}

/** `listeners` reports each live screen's TCP listener as it is now. */
export function registerHealth(app: FastifyInstance, listeners: () => ScreenListener[]): void {
	app.get(HEALTH_PATH, declared('GET /health'), async (_req, reply) => {
		const body = health(listeners());
		return reply
			.code(body.status === 'ok' ? 200 : 503)
			.header('cache-control', 'no-store')
			.send(body);
	});
}
