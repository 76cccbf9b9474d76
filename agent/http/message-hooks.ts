/**
 * Records every integrator API request in the inspector's message log: method and path, the
 * screens it named, the order id, the status and (when refused) the message, and the body.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { METHODS, orderCommandOfRoute, routeFamilyOf } from './integrators/paths.ts';
import { JSON_KEY_POLICY } from './json-keys.ts';
import { ApiError } from './integrators/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#core/json-depth';
import {
	checkConformance,
	REPLACEMENT_CHARACTER,
	type CheckContext,
	type Finding
} from '#core/conformance';
import type { OrderRecord } from '#core/order-machine';
import type { Outcome } from '#core/outcome';
import type { OrderCommand } from '#core/order-schema';
import type { Screen } from '../engine/engine.ts';
import type { MessageRecorder } from '../inspector/recorder.ts';
import { faultLabel, RAW_IS_JSON } from '#core/message-entry';

declare module 'fastify' {
	interface FastifyRequest {
		/** The response body, kept for the message log. */
		kdsReplyBody?: string;
		/**
		 * A request body as received, kept for the message log: JSON, or a body the integrator API
		 * refused for its content type (integrators/index.ts).
		 */
		kdsRawBody?: string;
		/** The order the request names as it was before the request, for the findings. */
		kdsBefore?: { existing?: OrderRecord; autoHold?: boolean };
		/**
		 * Notes `kdsBefore`: called by the order routes first thing, before they decide (there when
		 * the inspector records, registerMessageHooks; a route of no hooks of its own runs no
		 * preHandler hook at all).
		 */
		kdsNoteBefore?: () => void;
		/** Set by an order route once the body passed the route's schema (the check's schema). */
		kdsSchemaValid?: boolean;
		/** The order as the route's parser read it. */
		kdsOrder?: OrderCommand['order'];
		/** What the core decided about the request's order (its parser's outcomes). */
		kdsOutcomes?: Outcome[];
		/** The route's parser read the order as the common case (`plain` of #core/parse). */
		kdsPlain?: boolean;
		/**
		 * The route's decision of the request on the screen the findings read (kdsBefore), made
		 * with the outcomes: the findings take it instead of deciding again (#core/conformance).
		 */
		kdsDecided?: CheckContext['decided'];
		/**
		 * Record a request a fault left without a response on the wire (docs/faults.md): dropped
		 * (status 0) or handled with its response lost. Once; onResponse then records nothing.
		 */
		kdsRecordUnanswered?: (status: number, result: string) => void;
	}
}

/**
 * The header the inspector's re-send (app.inject, never a socket) sets on an edited payload: the
 * id of the message it was edited from. Ignored on requests from the network.
 */
export const INSPECTOR_EDIT_HEADER = 'x-kds-inspector-edit';

/*
 * An entry lives until 2,000 more have come (the log's retention): whatever it holds outlives the
 * young generation and is copied by the garbage collector on its way to the old one. So the
 * strings and arrays that are the same for every request of a route, a connection or a screen
 * are made once and shared by the entries, and an entry without findings shares one empty list.
 */

/** `METHOD path` of the contract's routes, made once (the command of most entries). */
const ROUTE_NAMES = new Map<string, string>();
const NO_FINDINGS: Finding[] = Object.freeze([]) as unknown as Finding[];
const SOURCE = Symbol('kds.inspectorSource');
const screenIdsOf = new WeakMap<Screen, string[]>();

const pathOf = (url: string) => {
	const query = url.indexOf('?');
	return query < 0 ? url : url.slice(0, query);
};

function routeOf(req: FastifyRequest): string {
	const path = pathOf(req.url);
	const key = `${req.method} ${path}`;
	const known = ROUTE_NAMES.get(key);
	if (known !== undefined) return known;
	if (METHODS[path] !== undefined && ROUTE_NAMES.size < 64) ROUTE_NAMES.set(key, key);
	return key;
}

/** `address:port` of the request's connection, made once per connection. */
function sourceOf(req: FastifyRequest): string {
	const socket = req.socket as typeof req.socket & { [SOURCE]?: string };
	return (socket[SOURCE] ??= `${socket.remoteAddress}:${socket.remotePort}`);
}

function screenIds(screens: readonly Screen[]): string[] {
	if (screens.length !== 1) return screens.map((s) => s.config.id);
	let ids = screenIdsOf.get(screens[0]);
	if (ids === undefined) screenIdsOf.set(screens[0], (ids = [screens[0].config.id]));
	return ids;
}

function targetScreens(req: FastifyRequest): Screen[] {
	return (req as { kdsTarget?: { screens: Screen[] } | null }).kdsTarget?.screens ?? [];
}

function findingsOf(req: FastifyRequest, route: string): Finding[] {
	const command = orderCommandOfRoute(route);
	if (!command || req.body === undefined) return NO_FINDINGS;
	const findings = checkConformance({
		interface: 'http',
		command,
		raw: req.body,
		existing: req.kdsBefore?.existing,
		autoHold: req.kdsBefore?.autoHold,
		// The route parsed the body with the very schema the check would run: no second parse.
		schemaValid: req.kdsSchemaValid === true,
		parsed: req.kdsOrder,
		outcomes: req.kdsOutcomes ?? [],
		plain: req.kdsPlain === true,
		decided: req.kdsDecided,
		// One scan of the body's text, so the strings are searched only when it holds a U+FFFD.
		replacementChar: req.kdsRawBody?.includes(REPLACEMENT_CHARACTER)
	});
	return findings.length === 0 ? NO_FINDINGS : findings;
}

function idOf(body: unknown): string | null {
	const id = (body as { id?: unknown } | null)?.id;
	return typeof id === 'string' ? id : null;
}

/**
 * The order id a request names: from the parsed body, or, for a body refused before it was parsed
 * (its content type), from its text when that is JSON, so filtering the log by an order id also
 * finds the attempts that never reached the screen.
 */
function orderIdOf(req: FastifyRequest): string | null {
	if (req.body !== undefined || !req.kdsRawBody) return idOf(req.body);
	try {
		return idOf(JSON.parse(req.kdsRawBody));
	} catch {
		return null;
	}
}

const tooDeep = () =>
	new ApiError(
		400,
		'INVALID_JSON',
		`body: nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; an order needs 5`
	);

export function registerMessageHooks(app: FastifyInstance, recorder: MessageRecorder): void {
	// Declared, so every request is made with them (one shape, no property added per request).
	for (const field of [
		'kdsReplyBody',
		'kdsRawBody',
		'kdsBefore',
		'kdsSchemaValid',
		'kdsOrder',
		'kdsOutcomes',
		'kdsPlain',
		'kdsDecided'
	] as const) {
		app.decorateRequest(field, undefined);
	}
	/** The last content type seen: the same text is kept once, not once per entry. */
	let lastContentType: string | undefined;
	// The order and notification routes are logged (#core/integrator-routes' families), not the
	// information routes.
	const logged = (url: string) => {
		const family = routeFamilyOf(url);
		return family === 'orders' || family === 'notifications';
	};
	// JSON bodies: Fastify's own parser (same limits, same errors), fed the text, which the log
	// keeps as received rather than serialising it again. A `__proto__` or `constructor` key is
	// kept as the plain data JSON.parse makes of it (see JSON_KEY_POLICY in server.ts).
	const parseJson = app.getDefaultJsonParser(JSON_KEY_POLICY, JSON_KEY_POLICY);
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
		req.kdsRawBody = body as string;
		// Refused before JSON.parse builds it, as over TCP (#core/json-depth).
		if (nestsDeeperThan(body as string)) return done(tooDeep(), undefined);
		parseJson(req, body as string, done);
	});
	// The order as the request found it: only the order routes' findings read it, so those routes
	// note it themselves before deciding (where a preHandler hook did, for every request).
	app.decorateRequest('kdsNoteBefore', function noteBefore(this: FastifyRequest) {
		const screens = targetScreens(this);
		const id = idOf(this.body);
		let existing: OrderRecord | undefined;
		if (id !== null) {
			for (const screen of screens) {
				existing = screen.state.orders.get(id);
				if (existing !== undefined) break;
			}
		}
		this.kdsBefore = { existing, autoHold: screens[0]?.config.settings.autoHoldFutureOrders };
	});
	// Callback-style hooks: no promise and no extra turn of the microtask queue per request (a
	// throw is handled as a rejection would be).
	app.addHook('onSend', (req, _reply, payload, done) => {
		if (typeof payload === 'string' && logged(req.url)) req.kdsReplyBody = payload;
		done(null, payload);
	});
	app.addHook('onResponse', (req, reply, done) => {
		if (logged(req.url) && req.kdsFault?.messageId === undefined) record(req, reply.statusCode);
		done();
	});
	app.decorateRequest(
		'kdsRecordUnanswered',
		function recordUnanswered(this: FastifyRequest, status: number, result: string) {
			if (logged(this.url) && this.kdsFault?.messageId === undefined) record(this, status, result);
		}
	);

	function record(req: FastifyRequest, status: number, unanswered?: string): void {
		let message = '';
		if (unanswered === undefined && status >= 400 && req.kdsReplyBody) {
			try {
				message = (JSON.parse(req.kdsReplyBody) as { message?: string }).message ?? '';
			} catch {
				// not JSON: status only
			}
		}
		// Only the inspector's re-send (app.inject) arrives without a socket port; only it can say
		// that its payload was edited.
		const route = routeOf(req);
		const findings = findingsOf(req, route);
		let contentType = req.headers['content-type'];
		if (contentType === lastContentType) contentType = lastContentType;
		else lastContentType = contentType;
		const injected = req.socket.remotePort === undefined;
		const edited = injected ? Number(req.headers[INSPECTOR_EDIT_HEADER]) : NaN;
		const entry = recorder.record(
			{
				interface: 'http',
				source: !injected
					? sourceOf(req)
					: Number.isInteger(edited)
						? `inspector edit of #${edited}`
						: 'inspector re-send',
				...(Number.isInteger(edited) ? { editedFrom: edited } : {}),
				screenIds: screenIds(targetScreens(req)),
				command: route,
				orderId: orderIdOf(req),
				result: unanswered ?? (message ? `${status} ${message}` : String(status)),
				// A fault that left the request without a response: nothing went back on the wire.
				reply: unanswered === undefined ? (req.kdsReplyBody ?? '') : '',
				ok: unanswered === undefined ? status < 400 : status >= 200 && status < 400,
				// As received, like a TCP payload (the inspector pretty-prints whatever it shows).
				raw: req.kdsRawBody ?? (req.body === undefined ? '' : JSON.stringify(req.body)),
				contentType: contentType ?? null,
				// Only on a request a fault touched (integrators/fault-hooks.ts).
				...(req.kdsFault === undefined ? {} : { fault: faultLabel(req.kdsFault) }),
				findings
			},
			// Refused: the core's reasons first (the body has the contract's words), else the
			// refusal's own message.
			{ sent: message || null }
		);
		// Parsed as JSON, and kept whole: the log on disk may write it as it came.
		if (req.kdsFault !== undefined) req.kdsFault.messageId = entry.id;
		if (req.body !== undefined && req.kdsRawBody !== undefined && entry.raw === req.kdsRawBody)
			(entry as { [RAW_IS_JSON]?: boolean })[RAW_IS_JSON] = true;
	}
}
