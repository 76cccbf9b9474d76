/**
 * The HTTP integrator API of the contract (sections 4.1-4.4, 5, 7) as one Fastify plugin: order
 * routes, information routes, notification routes, 405 answers, the OpenAPI document and /docs. Its own error handler
 * gives every refusal the one shape of errors.ts; it applies to these routes only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pkg from '../../../package.json' with { type: 'json' };
import type { SimConfig } from '../../config.ts';
import type { Engine } from '../../engine/engine.ts';
import type { RemoteWriter } from '../../fleet/deliver.ts';
import type { Notifications } from '../../notify/notification-state.ts';
import { registerDocs } from './docs.ts';
import { createErrorHandler } from './errors.ts';
import { registerInformationRoutes } from './information.ts';
import { registerNotificationRoutes } from './notifications.ts';
import { registerOrderRoutes } from './orders.ts';
import { METHODS } from './paths.ts';
import { Tenancy } from './tenancy.ts';
import type { Faults } from '../../faults/registry.ts';
import { registerFaultHooks } from './fault-hooks.ts';

export interface IntegratorApiOptions {
	engine: Engine;
	/** The running config: brands, their tokens, locations and screens. */
	config: SimConfig;
	/** Takeout notifications and pop-ups (contract 4.4). */
	notifications: Notifications;
	/** Where orders for remote screens are written (agent/fleet). */
	remotes: RemoteWriter;
	/** Faults on cue (docs/faults.md): their hooks are on these routes only. */
	faults?: Faults;
}

/** Any other method on a known path: 405 with Allow (OPTIONS: 204 with Allow). */
function registerMethodNotAllowed(app: FastifyInstance): void {
	for (const [url, methods] of Object.entries(METHODS)) {
		const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
		const allow = [...allowed, 'OPTIONS'].join(', ');
		const message = (method: string) =>
			`${method} is not allowed on ${url.replace(/:(\w+)/g, '{$1}')}; use ${methods.join(' or ')}`;
		// Answered in onRequest, before the body is read: a wrong method is the first thing to fix.
		const refuse = async (req: FastifyRequest, reply: FastifyReply) => {
			reply.header('allow', allow);
			if (req.method === 'OPTIONS') return reply.code(204).send();
			return reply.code(405).send({ code: 'METHOD_NOT_ALLOWED', message: message(req.method) });
		};
		const others = app.supportedMethods.filter((m) => !allowed.includes(m));
		app.route({ method: others, url, onRequest: refuse, handler: refuse });
	}
}

export async function registerIntegratorApi(
	app: FastifyInstance,
	options: IntegratorApiOptions
): Promise<void> {
	const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
	await app.register(async (scope) => {
		scope.setErrorHandler(createErrorHandler(bodyLimit));
		// Bodies are JSON only: without this, Fastify would hand text/plain bodies over as strings.
		scope.removeContentTypeParser('text/plain');
		// Any other content type, or none: read the body, so the inspector shows what was sent, then
		// refuse it with Fastify's own 415 error (answered by the error handler above). In this
		// scope only: elsewhere, unknown paths still reach the UI with their bodies unread.
		// (Imported here, not at the top: Fastify loads only when an HTTP server is built, see server.ts.)
		const { errorCodes } = await import('fastify');
		scope.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
			req.kdsRawBody = body as string;
			done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(req.headers['content-type']), undefined);
		});
		if (options.faults) registerFaultHooks(scope, options.faults);
		const tenancy = new Tenancy(options.config, options.engine);
		registerOrderRoutes(scope, options.engine, tenancy, options.remotes, options.faults);
		registerInformationRoutes(scope, options.engine, tenancy);
		registerNotificationRoutes(scope, options.engine, options.notifications, tenancy);
		registerMethodNotAllowed(scope);
		await registerDocs(scope, pkg.version);
	});
}
