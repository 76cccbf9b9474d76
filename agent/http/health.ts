/**
 * GET /health: whether the simulator takes orders, for a POS or a script that checks before it
 * starts. No token needed (it names no customer data, and probes have none): 200
 * `{status: "ok", version, screens}` while every screen's TCP listener is open (the HTTP port
 * answers, or there would be no reply); 503 `{status: "unavailable", ...}` with the screens whose
 * listener is closed marked `listening: false`. While the agent shuts down, Fastify answers 503 on
 * its own.
 *
 * As the vendor's /health: an `x-integration-token` that is present but not a brand's token is
 * answered 401 (the integrator API's error shape), so a client that checks its token before it
 * starts sees the failure there, not on its first order. No token at all stays 200, for probes.
 */
import type { FastifyInstance } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };
import type { Health, ScreenListener } from './integrators/responses.ts';
import { declared } from './responses.ts';
import { ApiError } from './integrators/errors.ts';

export type { Health, ScreenListener };

export const HEALTH_PATH = '/health';

export function health(listeners: ScreenListener[]): Health {
	return {
		status: listeners.every((s) => s.listening) ? 'ok' : 'unavailable',
		version: pkg.version,
		screens: listeners
	};
}

/**
 * `listeners` reports each live screen's TCP listener as it is now; `isToken` says whether a
 * token sent in x-integration-token is a brand's (default: no token is checked).
 */
export function registerHealth(
	app: FastifyInstance,
	listeners: () => ScreenListener[],
	isToken?: (token: string) => boolean
): void {
	app.get(HEALTH_PATH, declared('GET /health'), async (req, reply) => {
		const sent = req.headers['x-integration-token'];
		const token = (Array.isArray(sent) ? sent.join(',') : sent)?.trim();
		if (isToken && token !== undefined && !isToken(token)) {
			const why =
				token === ''
					? "x-integration-token: empty; send your brand's integration token, or no header at all for a plain probe"
					: 'x-integration-token: not a valid integration token';
			return reply
				.code(401)
				.header('cache-control', 'no-store')
				.send(new ApiError(401, 'UNAUTHORIZED', why).body());
		}
		const body = health(listeners());
		return reply
			.code(body.status === 'ok' ? 200 : 503)
			.header('cache-control', 'no-store')
			.send(body);
	});
}
