/**
 * The simulator's admin API, for integrators' test suites and the inspector: what each screen
 * shows (JSON), the message log (list, live stream, re-send), and reset. Not part of the
 * integrator contract, and not reachable with an integration token alone: requests from the
 * loopback interface are trusted (unless configured otherwise); any other request needs the
 * admin token in `x-admin-token` or a signed-in browser's cookie (./access.ts).
 */
import { rushNumberSchema, RUSH_SCREENS } from '../rush-options.ts';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { SEVERITIES } from '#core/conformance';
import { DEFAULT_RECONNECT_SECONDS, SCREEN_ROLES } from '#core/expo';
import { formatErrors, parseWith, showValue } from '#core/parse';
import { MESSAGE_RESULTS } from '#core/message-entry';
import type { Engine } from '../engine/engine.ts';
import type { MessageEntry, MessageLog } from '../inspector/message-log.ts';
import { screenJson } from '../inspector/screen-view.ts';
import type { SmsOutbox } from '../notify/sms.ts';
import { INSPECTOR_EDIT_HEADER } from './message-hooks.ts';
import { validationError } from './integrators/errors.ts';
import { choiceParam, limitParam, parseQuery, textParam } from './query.ts';
import { declared, unknownScreen } from './responses.ts';

/** GET /api/admin/messages: the log's filters (422 naming the parameter when one is unreadable). */
export const MessageQuerySchema = z.object({
	screen: textParam().describe('Only messages to this screen id.'),
	order: textParam().describe('Only messages about this order id.'),
	severity: choiceParam(SEVERITIES).describe('Only messages with a finding of this severity.'),
	result: choiceParam(MESSAGE_RESULTS).describe(
		'Only the messages refused (any reply but acceptance, bytes that are not JSON included), or only those accepted.'
	),
	limit: limitParam(999_999, 200).describe('The newest this many (1-999999; default 200).')
});

/** PUT /api/admin/screens/:id/communication (stations and expo, docs/screens.md). */
export const CommunicationBodySchema = z.strictObject({
	role: z
		.enum(SCREEN_ROLES, {
			error: (i) => `expected one of ${SCREEN_ROLES.join(', ')}, got ${showValue(i.input)}`
		})
		.describe('station: shows its own items; expo: the whole order, completed by the stations.'),
	bumpsTo: z
		.array(z.string().min(1, { error: 'expected a screen id' }), {
			error: (i) => `expected an array of expo screen ids, got ${showValue(i.input)}`
		})
		.default([])
		.describe("A station's rule: the expo screens of its location its bumps complete items on."),
	reconnectSeconds: z
		.number({ error: (i) => `expected a number of seconds 0-120, got ${showValue(i.input)}` })
		.min(0, { error: 'expected a number of seconds 0-120' })
		.max(120, { error: 'expected a number of seconds 0-120' })
		.default(DEFAULT_RECONNECT_SECONDS)
		.describe(
			`How long the screen re-establishes its connection, as the vendor's does (10-20 s); default ${DEFAULT_RECONNECT_SECONDS}.`
		)
});

/** Auto Clear, as the admin API needs it (agent/engine/auto-clear.ts; handed in by app.ts). */
export interface LocationClearing {
	clearNow(locationId: string): Promise<number | null>;
	next(locationId: string): number | null;
}

/** POST /api/admin/rush: `kds-sim rush`'s options (docs/testing.md). */
export const RushBodySchema = z.strictObject({
	rate: rushNumberSchema('rate'),
	duration: rushNumberSchema('duration'),
	orders: rushNumberSchema('orders'),
	seed: rushNumberSchema('seed'),
	screens: z.array(z.string().min(1)).optional().describe(RUSH_SCREENS.describe),
	tcp: rushNumberSchema('tcp'),
	updates: rushNumberSchema('updates'),
	cancels: rushNumberSchema('cancels')
});

/** The rush, as the admin API needs it (agent/rush/control.ts; handed in by app.ts). */
export interface RushControlling {
	start(options: z.output<typeof RushBodySchema>): { seed: number } | null;
	stop(): Promise<{ stopped: boolean; summary: unknown }>;
}

export interface AdminOptions {
	/** `kds-sim rush` run by the simulator itself. */
	rush?: RushControlling;
	/** Auto Clear's "clear now" and next clear time. */
	autoClear?: LocationClearing;
	/** The SMS outbox, for the texts in the JSON view of each screen. */
	sms?: SmsOutbox;
	/** Start clean: see RunningAgent.reset. */
	reset: (screenId?: string) => Promise<void>;
	/**
	 * Send a TCP message to a screen as its listener would (the agent's TCP handler, handed in by
	 * app.ts: HTTP knows no other transport), for the re-send of a logged TCP message.
	 */
	sendTcp: (
		screenId: string,
		text: string,
		source: string,
		reply: (text: string | null) => void,
		options?: { editedFrom?: number }
	) => void;
}

export { isLoopback } from './access.ts';

export function registerAdminApi(
	app: FastifyInstance,
	engine: Engine,
	messages: MessageLog,
	options: AdminOptions
): void {
	/**
	 * Send a logged message again, as it came (TCP to its screen, HTTP with its brand's token and
	 * Content-Type), or, with `edited`, that payload in its place, logged as an edit of it.
	 */
	const resend = async (entryId: number, edited?: string): Promise<{ result: string } | null> => {
		const entry = messages.get(entryId);
		const screen = entry && engine.screen(entry.screenIds[0] ?? '');
		if (!entry || !screen) return null;
		const payload = edited ?? entry.raw;
		if (entry.interface === 'tcp') {
			const source = edited === undefined ? 'inspector re-send' : `inspector edit of #${entryId}`;
			return new Promise((resolve) =>
				options.sendTcp(
					screen.config.id,
					payload,
					source,
					(reply) => resolve({ result: reply ?? 'not committed' }),
					edited === undefined ? {} : { editedFrom: entryId }
				)
			);
		}
		const [method, url] = (entry.command ?? '').split(' ');
		// With the Content-Type it came with (entries of earlier versions did not keep it: JSON).
		const contentType = entry.contentType === undefined ? 'application/json' : entry.contentType;
		const res = await app.inject({
			method: method as 'POST' | 'PUT',
			url,
			payload,
			headers: {
				...(edited === undefined ? {} : { [INSPECTOR_EDIT_HEADER]: String(entryId) }),
				...(contentType === null ? {} : { 'content-type': contentType }),
				'x-integration-token': screen.brand.token,
				'x-location-id': screen.location.id,
				'x-device-ids': entry.screenIds.join(',')
			}
		});
		return { result: `${res.statusCode} ${res.body}` };
	};

	// Guarded by the access rule of ./access.ts (registered on the server before these routes).
	app.register(async (admin) => {
		// Guarded like every admin route: it carries the brand tokens.
		admin.get('/api/admin/integration', declared('GET /api/admin/integration'), async () => {
			type Location = { id: string; name: string; screens: unknown[] };
			const brands = new Map<string, { name: string; token: string; locations: Location[] }>();
			for (const screen of engine.screens.values()) {
				if (screen.config.deleted) continue;
				let brand = brands.get(screen.brand.token);
				if (!brand) {
					brand = { name: screen.brand.name, token: screen.brand.token, locations: [] };
					brands.set(screen.brand.token, brand);
				}
				let location = brand.locations.find((l) => l.id === screen.location.id);
				if (!location) {
					location = { id: screen.location.id, name: screen.location.name, screens: [] };
					brand.locations.push(location);
				}
				location.screens.push({
					id: screen.config.id,
					name: screen.config.name,
					tcp: engine.tcpEndpoint(screen.config.id)
				});
			}
			return { brands: [...brands.values()] };
		});

		admin.get('/api/admin/screens', declared('GET /api/admin/screens'), async () =>
			[...engine.screens.values()]
				.filter((s) => !s.config.deleted)
				.map((s) => screenJson(engine, s, { sms: options.sms, messages }))
		);

		admin.get<{ Params: { id: string } }>(
			'/api/admin/screens/:id',
			declared('GET /api/admin/screens/:id'),
			async (req, reply) => {
				const screen = engine.liveScreen(req.params.id);
				if (!screen) {
					return reply.code(404).send(unknownScreen(req.params.id));
				}
				return screenJson(engine, screen, { sms: options.sms, messages });
			}
		);

		admin.delete<{ Params: { id: string } }>(
			'/api/admin/screens/:id',
			declared('DELETE /api/admin/screens/:id'),
			async (req, reply) => {
				const screen = engine.liveScreen(req.params.id);
				if (!screen) return reply.code(404).send(unknownScreen(req.params.id));
				if (screen.config.remote) {
					return reply.code(409).send({
						code: 'ACTION_REFUSED',
						message: `screen ${screen.config.id} lives in another simulator: remove it there`
					});
				}
				engine.removeScreen(screen.config.id);
				return { removed: screen.config.id };
			}
		);

		// Stations and expo: a screen's role and communication rule, changed at run time.
		admin.put<{ Params: { id: string } }>(
			'/api/admin/screens/:id/communication',
			declared('PUT /api/admin/screens/:id/communication'),
			async (req, reply) => {
				const screen = engine.liveScreen(req.params.id);
				if (!screen) return reply.code(404).send(unknownScreen(req.params.id));
				const parsed = parseWith(CommunicationBodySchema, req.body ?? {});
				if (!parsed.ok) throw validationError(parsed.errors, formatErrors(parsed.errors));
				const { role, bumpsTo, reconnectSeconds } = parsed.value;
				if (screen.config.remote) {
					return reply.code(409).send({
						code: 'ACTION_REFUSED',
						message: `screen ${screen.config.id} lives in another simulator: change it there`
					});
				}
				const problem = engine.reconfigureScreen(
					screen.config.id,
					role,
					bumpsTo,
					reconnectSeconds * 1000
				);
				if (problem) {
					const path = problem.index === null ? 'role' : `bumpsTo[${problem.index}]`;
					return reply
						.code(409)
						.send({ code: 'ACTION_REFUSED', message: `${path}: ${problem.message}` });
				}
				return {
					id: screen.config.id,
					role: screen.config.role,
					bumpsTo: screen.config.communication?.bumpsTo ?? [],
					reconnectingUntil: engine.reconnectingUntil(screen.config.id)
				};
			}
		);

		// Auto Clear's "clear now": every ticket of the location removed, with no webhook or SMS.
		admin.post<{ Params: { id: string } }>(
			'/api/admin/locations/:id/clear',
			declared('POST /api/admin/locations/:id/clear'),
			async (req, reply) => {
				const cleared = await options.autoClear?.clearNow(req.params.id);
				if (cleared === null || cleared === undefined) {
					return reply
						.code(404)
						.send({ code: 'NOT_FOUND', message: `Unknown location ${req.params.id}` });
				}
				return {
					location: req.params.id,
					cleared,
					nextAutoClear: options.autoClear?.next(req.params.id) ?? null
				};
			}
		);

		// A rush on demand (docs/testing.md): realistic orders through this simulator's TCP and HTTP.
		admin.post('/api/admin/rush', declared('POST /api/admin/rush'), async (req, reply) => {
			const parsed = parseWith(RushBodySchema, req.body ?? {});
			if (!parsed.ok) throw validationError(parsed.errors, formatErrors(parsed.errors));
			const started = options.rush?.start(parsed.value);
			if (!started) {
				return reply
					.code(409)
					.send({ code: 'ACTION_REFUSED', message: 'a rush is running: stop it first' });
			}
			return reply.code(202).send({ running: true, seed: started.seed });
		});
		admin.delete('/api/admin/rush', declared('DELETE /api/admin/rush'), async () => {
			const { stopped, summary } = (await options.rush?.stop()) ?? {
				stopped: false,
				summary: null
			};
			return { stopped, summary };
		});

		admin.get('/api/admin/messages', declared('GET /api/admin/messages'), async (req) => {
			const { screen, order, severity, result, limit } = parseQuery(MessageQuerySchema, req.query);
			return messages.list({ screen, orderId: order, severity, result, limit });
		});

		/**
		 * Server-sent events: one `message` event per new entry, its id the entry's. A client that
		 * comes back with `Last-Event-ID` (EventSource does by itself) first gets what it missed,
		 * from the log; when the log no longer holds all of that, a `resync` event instead, and the
		 * client loads the log again. Each connection starts with a `ready` event whose id is the
		 * newest entry's, so a client that saw no entry yet also resumes from where it was.
		 */
		admin.get('/api/admin/messages/stream', (req, reply) => {
			const lastEventId = req.headers['last-event-id'];
			reply.hijack();
			const res = reply.raw;
			res.writeHead(200, {
				'content-type': 'text/event-stream',
				'cache-control': 'no-cache',
				connection: 'keep-alive'
			});
			const send = (entry: MessageEntry) =>
				res.write(`id: ${entry.id}\ndata: ${JSON.stringify(entry)}\n\n`);
			if (typeof lastEventId === 'string') {
				const missed = /^\d{1,15}$/.test(lastEventId) ? messages.since(Number(lastEventId)) : null;
				if (missed) for (const entry of missed) send(entry);
				else res.write(`event: resync\ndata: ${JSON.stringify({ lastEventId })}\n\n`);
			}
			res.write(`id: ${messages.lastId}\nevent: ready\ndata: ${messages.lastId}\n\n`);
			const unsubscribe = messages.subscribe(send);
			const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
			req.raw.on('close', () => {
				clearInterval(keepAlive);
				unsubscribe();
			});
		});

		admin.post<{ Params: { id: string }; Body: { payload?: unknown } | undefined }>(
			'/api/admin/messages/:id/resend',
			declared('POST /api/admin/messages/:id/resend'),
			async (req, reply) => {
				const edited = req.body?.payload;
				if (edited !== undefined && typeof edited !== 'string') {
					return reply.code(400).send({
						code: 'BAD_BODY',
						message: `payload: expected the edited payload as a string, got ${edited === null ? 'null' : typeof edited}`
					});
				}
				const outcome = await resend(Number(req.params.id), edited);
				if (!outcome) {
					return reply
						.code(404)
						.send({ code: 'NOT_FOUND', message: `No message ${req.params.id} in the log` });
				}
				return outcome;
			}
		);

		admin.post<{ Body: { screen?: string } | undefined }>(
			'/api/admin/reset',
			declared('POST /api/admin/reset'),
			async (req, reply) => {
				const screenId = req.body?.screen;
				if (screenId !== undefined && !engine.screen(screenId)) {
					return reply.code(404).send(unknownScreen(screenId));
				}
				await options.reset(screenId);
				return { reset: screenId ?? 'all' };
			}
		);
	});
}
