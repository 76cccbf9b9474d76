/**
 * The HTTP port's whole stack: the Fastify server with every route (UI, integrator, screen,
 * fleet, admin, SMS APIs), the access guard, and the WebSocket relay to the browsers, listening.
 *
 * startAgent (agent/app.ts) imports this module dynamically, after the screens' TCP listeners are
 * open: in the production bundle it is a chunk of its own (esbuild --splitting), so none of its
 * code (Fastify, the routes' schemas, the OpenAPI document) is loaded, compiled or run before a
 * POS can be answered (npm run bench -- start).
 */
import type { FastifyInstance } from 'fastify';
import pkg from '../package.json' with { type: 'json' };
import type { ByteBudget } from './byte-budget.ts';
import type { SimConfig } from './config.ts';
import type { Engine } from './engine/engine.ts';
import type { DiscoveryListener } from './fleet/adopt.ts';
import { registerFleetApi } from './http/fleet-api.ts';
import { Access } from './http/access.ts';
import { registerAdminApi, type AdminOptions } from './http/admin-api.ts';
import { registerHealth, type ScreenListener } from './http/health.ts';
import { registerIntegratorApi } from './http/integrators/index.ts';
import type { RemoteWriter } from './fleet/deliver.ts';
import { isIntegrationToken } from './http/integrators/tenancy.ts';
import { registerScreenNotificationApi } from './http/notification-state-api.ts';
import { registerTrackerApi } from './http/tracker-api.ts';
import { createHttpServer } from './http/server.ts';
import type { MessageLog } from './inspector/message-log.ts';
import type { MessageRecorder } from './inspector/recorder.ts';
import type { Logger } from './log.ts';
import type { Notifications } from './notify/notification-state.ts';
import type { SmsOutbox } from './notify/sms.ts';
import type { Webhooks } from './notify/webhooks.ts';
import { registerWebhooksApi } from './http/webhooks-api.ts';
import { registerFaultsApi } from './http/faults-api.ts';
import { registerCertifyApi } from './http/certify-api.ts';
import { certifyRuns } from './certify/deps.ts';
import { registerSessionApi } from './http/session-api.ts';
import type { Faults } from './faults/registry.ts';
import { attachRelay, type Relay } from './ws/browser-relay.ts';

export interface HttpStackOptions {
	engine: Engine;
	config: SimConfig;
	logger: Logger;
	/** The inspector's log (the admin API reads it) and its recorder (HTTP's hooks write it). */
	messages: MessageLog;
	recorder: MessageRecorder;
	/** The agent's TCP handler, for the inspector's re-send of a TCP message. */
	sendTcp: AdminOptions['sendTcp'];
	autoClear: AdminOptions['autoClear'];
	rush: AdminOptions['rush'];
	sms: SmsOutbox;
	webhooks: Webhooks;
	notifications: Notifications;
	/** Where orders for remote screens are written (agent/fleet). */
	remotes: RemoteWriter;
	limits: { budget: ByteBudget; messageTimeoutMs: number };
	/** Faults on cue (docs/faults.md), and the screens away for a reboot fault. */
	faults: Faults;
	rebooting: ReadonlySet<string>;
	adminToken?: string;
	trustLoopback?: boolean;
	/** The screens' TCP listeners as /health lists them, made again on each request. */
	listeners: () => ScreenListener[];
	/** Screens heard on the network (null: not listening), and the location adopting them. */
	discovered: { listener: DiscoveryListener | null; adoptingInto: string | null };
	reset(screenId?: string): Promise<void>;
	uiDir: string | null;
	host: string;
	port: number;
}

export interface HttpStack {
	http: FastifyInstance;
	relay: Relay;
}

/**
 * Build the server and start listening. On a failure, whatever was built is closed again and the
 * error thrown (a port taken: "Cannot listen for HTTP on host:port: EADDRINUSE").
 */
export async function startHttpStack(options: HttpStackOptions): Promise<HttpStack> {
	const { engine, config, logger, messages, sms, notifications } = options;
	const access = new Access({
		adminToken: options.adminToken,
		trustLoopback: options.trustLoopback
	});
	const http = await createHttpServer({
		engine,
		logger,
		recorder: options.recorder,
		sms,
		limits: options.limits,
		access,
		plugins: [
			(app) => registerHealth(app, options.listeners, (token) => isIntegrationToken(config, token)),
			(app) =>
				registerIntegratorApi(app, {
					engine,
					config,
					notifications,
					remotes: options.remotes,
					faults: options.faults
				}),
			(app) => registerScreenNotificationApi(app, engine, notifications),
			(app) => registerTrackerApi(app, engine, notifications),
			(app) =>
				registerFleetApi(app, {
					heard: () => options.discovered.listener?.list() ?? null,
					adoptingInto: options.discovered.adoptingInto
				}),
			(app) =>
				registerAdminApi(app, engine, messages, {
					sms,
					reset: options.reset,
					sendTcp: options.sendTcp,
					autoClear: options.autoClear,
					rush: options.rush
				}),
			(app) => registerWebhooksApi(app, options.webhooks),
			(app) => registerFaultsApi(app, options.faults, messages),
			(app) => registerSessionApi(app, engine, messages),
			(app) => registerCertifyApi(app, certifyRuns(options), pkg.version)
		],
		uiDir: options.uiDir
	});
	const relay = attachRelay(http.server, engine, logger, {
		// The screens' orders carry customer data: the same guard as the routes.
		refusal: (req) => access.refusal(req.headers, req.socket.remoteAddress),
		onPopupAck: (screenId, popupId) => notifications.acknowledge(screenId, popupId),
		onTakeoutReady: (screenId, orderId) => notifications.ready(screenId, orderId),
		unavailable: (screenId) => {
			if (options.rebooting.has(screenId)) return `screen ${screenId} is rebooting (a fault)`;
			const until = engine.reconnectingUntil(screenId);
			if (until !== null) {
				const seconds = Math.ceil((until - engine.now()) / 1000);
				return `screen ${screenId} is re-establishing its connection after its communication rules changed (about ${seconds} s)`;
			}
			const remote = engine.screen(screenId)?.remote;
			if (!remote || remote.state === 'live') return null;
			return `screen ${screenId} lives in another simulator (${remote.where}), which is not reachable now`;
		}
	});
	try {
		await http.listen({ host: options.host, port: options.port });
	} catch (err) {
		relay.close();
		await http.close();
		throw new Error(
			`Cannot listen for HTTP on ${options.host}:${options.port}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
			{ cause: err }
		);
	}
	return { http, relay };
}
