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
import type { MessageRecorder } from '../inspector/recorder.ts';
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
import { breathe, requireInSteps } from '../load-in-steps.ts';

/** Largest accepted HTTP body. */
export const HTTP_BODY_LIMIT = 1024 * 1024;

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface HttpServerOptions {
	engine: Engine;
	logger: Logger;
	/** Directory of the adapter-node build (with handler.js); null serves no UI. */
	uiDir: string | null;
	/** The inspector's recorder; integrator API requests are recorded with it. */
	recorder?: MessageRecorder;
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
 * Fastify's dependency tree, slowest modules first split into steps of their own (the longest
 * step ~25 ms on the 2-core build machine, where Fastify with all of them is ~170 ms in one
 * block): two copies of ajv (fast-json-stringify's and @fastify/ajv-compiler's), each in four
 * steps, ajv-formats, the router, light-my-request, avvio, semver. Resolved from Fastify's own
 * directory, so they are the very modules it then requires (agent/load-in-steps.ts).
 */
const ajvOf = (owner: string) => [
	[owner, 'ajv/dist/compile/codegen'],
	[owner, 'ajv/dist/compile'],
	[owner, 'ajv/dist/vocabularies/validation'],
	[owner, 'ajv/dist/vocabularies/applicator'],
	[owner, 'ajv']
];
export const FASTIFY_PARTS = [
	['@fastify/proxy-addr'],
	['fast-json-stringify', 'fast-uri'],
	['fast-json-stringify', 'json-schema-ref-resolver'],
	['fast-json-stringify', '@fastify/merge-json-schemas'],
	['fast-json-stringify', 'rfdc'],
	...ajvOf('fast-json-stringify'),
	['fast-json-stringify', 'ajv-formats'],
	['fast-json-stringify'],
	['@fastify/fast-json-stringify-compiler'],
	...ajvOf('@fastify/ajv-compiler'),
	['@fastify/ajv-compiler'],
	['avvio'],
	['semver'],
	['light-my-request'],
	['find-my-way']
];

async function importFastify(): Promise<typeof import('fastify')> {
	try {
		const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
		await requireInSteps(fromFastify, FASTIFY_PARTS);
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
	if (options.recorder) registerMessageHooks(app, options.recorder);
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
