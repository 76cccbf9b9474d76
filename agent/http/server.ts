/**
 * The agent's one HTTP port: the simulator API, the integrator API, the WebSocket relay and the
 * built SvelteKit UI. Fastify does the routing, body parsing and limits.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ByteBudget } from '../byte-budget.ts';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import type { MessageLog } from '../inspector/message-log.ts';
import { Access, registerAccess } from './access.ts';
import { registerBodyLimits } from './body-budget.ts';
import { createErrorHandler } from './integrators/errors.ts';
import { JSON_KEY_POLICY } from './json-keys.ts';
import { registerDrainBeforeClose } from './drain.ts';
import { serveUpgradesAsHttp1 } from './h2c.ts';
import { registerMessageHooks } from './message-hooks.ts';
import { registerSimulatorApi } from './simulator-api.ts';
import type { SmsOutbox } from '../notify/sms.ts';
import { registerSmsApi } from './sms-api.ts';

/** Largest accepted HTTP body. */
export const HTTP_BODY_LIMIT = 1024 * 1024;

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface HttpServerOptions {
	engine: Engine;
	logger: Logger;
	/** Directory of the adapter-node build (with handler.js); null serves no UI. */
	uiDir: string | null;
	/** The inspector's message log; integrator API requests are recorded in it. */
	messages?: MessageLog;
	/** The simulated SMS outbox, listed at GET /api/sms. */
	sms?: SmsOutbox;
	/**
	 * Bodies count against the pending-bytes budget shared with TCP, and must be whole within
	 * `messageTimeoutMs` of their headers (the whole request too, headers included).
	 */
	limits?: { budget: ByteBudget; messageTimeoutMs: number };
	/** Who may read customer data and use the admin API (default: loopback only). */
	access?: Access;
	/** Extra route plugins (the integrator API registers itself here). */
	plugins?: Array<(app: FastifyInstance) => void | Promise<void>>;
}

/**
 * The UI's request handler, imported on the first UI request rather than at start-up: the
 * SvelteKit server is a good part of the agent's start-up time and idle memory, and a simulator
 * driven only over TCP and the APIs never needs it.
 */
function lazyUi(uiDir: string | null, logger: Logger): NodeHandler | null {
	if (!uiDir) return null;
	const file = join(resolve(uiDir), 'handler.js');
	if (!existsSync(file)) {
		logger.warn(`No built UI at ${file}; run "npm run build" (npm start does it for you)`);
		return null;
	}
	let handler: NodeHandler | undefined;
	let loading: Promise<NodeHandler> | undefined;
	return (req, res, next) => {
		if (handler) return handler(req, res, next);
		loading ??= import(pathToFileURL(file).href).then(
			(mod: { handler: NodeHandler }) => (handler = mod.handler)
		);
		loading
			.then(
				(loaded) => loaded(req, res, next),
				(err: unknown) => {
					logger.error({ err }, `Cannot load the UI from ${file}`);
					res.statusCode = 500;
					res.end('The UI could not be loaded');
				}
			)
			.catch((err: unknown) => {
				// A throw from the handler itself: as Fastify would, log it and answer 500.
				logger.error({ err }, 'UI request failed');
				if (!res.headersSent) res.statusCode = 500;
				res.end();
			});
	};
}

/**
 * Let the event loop run between the steps of building the HTTP stack: the TCP listeners are
 * already open (app.ts), and an order that arrives meanwhile is answered before the next step.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fastify's own dependencies that take longest to load (5-50 ms each on an idle 2-core build
 * machine; Fastify with all of them ~170 ms in one block). Required one per turn of the event
 * loop, from Fastify's own directory so they are the very modules it then requires, before
 * Fastify itself; the quickest first, so that a POS already waiting on the screens' new ports is
 * served between short steps. A name that does not resolve (another Fastify version) is skipped.
 */
const FASTIFY_PARTS = [
	'@fastify/proxy-addr',
	'avvio',
	'find-my-way',
	'light-my-request',
	'semver',
	'fast-json-stringify',
	'@fastify/fast-json-stringify-compiler',
	'@fastify/ajv-compiler'
];

async function importFastify(): Promise<typeof import('fastify')> {
	try {
		const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
		for (const name of FASTIFY_PARTS) {
			try {
				fromFastify(name);
			} catch {
				// not one of this Fastify's dependencies: Fastify loads what it needs itself
			}
			await breathe();
		}
	} catch {
		// Fastify not resolvable this way (a bundler's layout): imported in one go below
	}
	return import('fastify');
}

export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
	// Imported here, not at the top: a simulator started only to be imported (tests, the CLI's
	// send command) never pays for it.
	const { default: Fastify, LogController } = await importFastify();
	await breathe();
	const app = Fastify({
		loggerInstance: options.logger as FastifyBaseLogger,
		// Per-request logs would cost on the hot path; errors are still logged.
		logController: new LogController({ disableRequestLogging: true }),
		bodyLimit: HTTP_BODY_LIMIT,
		onProtoPoisoning: JSON_KEY_POLICY,
		onConstructorPoisoning: JSON_KEY_POLICY,
		// `/integrators/kds-orders/` is `/integrators/kds-orders`: clients that build URLs by
		// joining a base that ends in "/" send the slash. Paths no route claims (the UI's) are
		// untouched: they reach SvelteKit as sent.
		routerOptions: { ignoreTrailingSlash: true },
		forceCloseConnections: true,
		return503OnClosing: true,
		// Node's own backstop for a request whose headers or body stall (checked every 30 s or so).
		...(options.limits ? { requestTimeout: options.limits.messageTimeoutMs } : {})
	});
	if (options.limits) registerBodyLimits(app, { ...options.limits, logger: options.logger });
	// The simulator and admin APIs answer a body Fastify refuses (malformed JSON, wrong content
	// type, too large) in the integrator API's one shape, `{code, message}`, with its wording.
	app.setErrorHandler(createErrorHandler(HTTP_BODY_LIMIT));
	registerDrainBeforeClose(app);
	serveUpgradesAsHttp1(app.server);
	// First: the guard is put in front of the guarded routes as they are registered.
	registerAccess(app, options.access ?? new Access());
	if (options.messages) registerMessageHooks(app, options.messages);
	registerSimulatorApi(app, options.engine);
	if (options.sms) registerSmsApi(app, options.sms);
	for (const plugin of options.plugins ?? []) {
		await breathe();
		await plugin(app);
	}
	await breathe();

	const ui = lazyUi(options.uiDir, options.logger);
	app.setNotFoundHandler((req, reply) => {
		const path = req.url.split('?')[0];
		if (!ui || path.startsWith('/api/') || path.startsWith('/integrators/')) {
			return reply.code(404).send({ code: 'NOT_FOUND', message: `No route ${req.method} ${path}` });
		}
		reply.hijack();
		ui(req.raw, reply.raw, () => {
			reply.raw.statusCode = 404;
			reply.raw.end('Not found');
		});
	});
	return app;
}
