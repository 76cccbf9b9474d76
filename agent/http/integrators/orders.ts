/**
 * The order routes (contract 4.2): create, full update, partial update, cancel and the active
 * orders of screens. A request is decided on every screen it names before anything changes;
 * only when every screen accepts are all the changes committed, in one transaction
 * (Engine.commit). The rules themselves are the shared core's, the same ones TCP runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Faults } from '../../faults/registry.ts';
import type * as z from 'zod';
import type { Engine, Screen } from '../../engine/engine.ts';
import { deliverToRemotes, isRemote, type RemoteWriter } from '../../fleet/deliver.ts';
import type { ScreenBatch } from '../../store/store.ts';
import {
	CancelOrderSchema,
	HttpOrderSchema,
	PartialOrderSchema,
	type OrderCommand
} from '#core/order-schema';
import { formatErrors, parseWith, showValue, type ReadOptions } from '#core/parse';
import type { Outcome } from '#core/outcome';
import { isLive } from '#core/screen';
import { declared } from '../responses.ts';
import { ApiError, DUPLICATE_MESSAGE, orderNotOnScreens, validationError } from './errors.ts';
import { ORDER_ROUTES, PATHS } from './paths.ts';
import {
	DELIVERY_STATUS,
	type ActiveOrdersEntry,
	type DeliveryStatus,
	type OrderResponse
} from './responses.ts';
import type { Target, Tenancy } from './tenancy.ts';
import { undelivered } from './undelivered.ts';

declare module 'fastify' {
	interface FastifyRequest {
		/** Set by the order routes' onRequest hook from the three headers. */
		kdsTarget: Target | null;
	}
}

/**
 * Validate a JSON body with one of the core's schemas; 422 naming every offending field. The
 * parser's outcomes (what it normalised) go to `outcomes` when given.
 */
export function parseBody<S extends z.ZodType>(
	schema: S,
	body: unknown,
	options: ReadOptions = {},
	outcomes?: (list: Outcome[], plain: boolean) => void
): z.output<S> {
	if (body === undefined)
		throw new ApiError(400, 'INVALID_JSON', 'body: empty; expected a JSON object');
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		const message = `expected a JSON object, got ${showValue(body)}`;
		throw validationError([{ path: '', message }], `body: ${message}`);
	}
	const parsed = parseWith(schema, body, [], options);
	if (!parsed.ok) throw validationError(parsed.errors, formatErrors(parsed.errors));
	if (outcomes) outcomes(parsed.outcomes ?? [], parsed.plain === true);
	return parsed.value;
}

/**
 * parseBody for an order route, a date-time with no offset read in the location's time zone;
 * marks the request valid and keeps the parser's outcomes, so its findings skip a second parse
 * (and, for an order read as the common case, the walk for unknown fields).
 */
function parseOrderBody<S extends z.ZodType>(req: FastifyRequest, schema: S): z.output<S> {
	// The inspector's findings read the order as this request found it (message-hooks.ts).
	req.kdsNoteBefore?.();
	const timeZone = targetOf(req).location.config.timezone;
	const value = parseBody(schema, req.body, { timeZone }, (list, plain) => {
		req.kdsOutcomes = list;
		req.kdsPlain = plain;
	});
	req.kdsSchemaValid = true;
	req.kdsOrder = value as OrderCommand['order'];
	return value;
}

function targetOf(req: FastifyRequest): Target {
	// The hook always sets it before the handler runs.
	return req.kdsTarget as Target;
}

/**
 * Decide on every screen, then commit all or, if any screen refuses, nothing (404). Remote
 * screens (agent/fleet) are judged on their copy while it is current, then sent the command
 * over TCP once; their statuses are what they replied. Returns every screen's status, or
 * `DELIVERED` when every screen is local (each one's status is then "SUCCESS").
 */
async function applyAll(
	engine: Engine,
	writer: RemoteWriter,
	req: FastifyRequest,
	command: OrderCommand,
	faults: Faults | undefined,
	withType: boolean
): Promise<DeliveryStatus[] | typeof DELIVERED> {
	const { screens } = targetOf(req);
	// Screens offline from the cloud (a fault): one size check when there is none.
	if (faults !== undefined && faults.offline.size > 0) {
		const offline = offlineStatuses(faults, screens, command, withType);
		if (offline.size > 0)
			return withOffline(engine, writer, req, command, faults, withType, offline);
	}
	const at = engine.now();
	const batches: ScreenBatch[] = [];
	const missing: string[] = [];
	const remotes: Screen[] = [];
	// The findings read the order as the request found it (message-hooks.ts, req.kdsBefore): the
	// first screen that still holds that very record (or, for a new id, none) is decided with the
	// outcomes too, and its decision handed to them, so they do not decide the message again.
	const before = req.kdsBefore;
	let explain = before !== undefined;
	for (const screen of screens) {
		const remote = isRemote(screen);
		if (remote) remotes.push(screen);
		// A remote screen's copy judges only while current (the remote's reply has the last word).
		if (remote && (command.command === 'create-order' || screen.remote?.state !== 'live')) continue;
		const explained = explain && screen.state.orders.get(command.order.id) === before?.existing;
		const decision = engine.decide(screen.config.id, command, at, explained);
		if (explained) {
			explain = false;
			req.kdsDecided = { decision, at };
		}
		if (!decision.ok) missing.push(screen.config.id);
		else if (!remote) batches.push({ screenId: screen.config.id, changes: decision.changes });
	}
	if (missing.length > 0) {
		// Creates were checked against the whole location before, so only updates get here.
		await engine.settled();
		throw orderNotOnScreens(command.order.id, missing);
	}
	// Local screens only (the usual case): no remote message built, no second promise to wait for.
	if (remotes.length === 0) {
		await engine.commit(batches);
		return DELIVERED;
	}
	const [, outcomes] = await Promise.all([
		engine.commit(batches),
		deliverToRemotes(writer, remotes, command.command, command.order)
	]);
	// Each remote screen's status is what it replied (fleet/deliver.ts), its message when refused.
	const byDevice = new Map<string, DeliveryStatus>();
	remotes.forEach((screen, i) => {
		const { status, message } = outcomes[i];
		byDevice.set(screen.config.id, {
			device: screen.config.id,
			status,
			...(withType ? { type: screen.config.type } : {}),
			...(status === 'SUCCESS' ? {} : { message })
		});
	});
	return statuses(screens, withType).map((s) => byDevice.get(s.device) ?? s);
}

/**
 * The statuses of the target screens that are offline from the cloud (docs/faults.md): `fail`
 * mode, UNREACHABLE (nothing reaches it); `queue` mode, QUEUED (the command waits, and is applied
 * when the screen is back online).
 */
function offlineStatuses(
	faults: Faults,
	screens: Screen[],
	command: OrderCommand,
	withType: boolean
): Map<string, DeliveryStatus> {
	const out = new Map<string, DeliveryStatus>();
	for (const screen of screens) {
		const fault = faults.offline.get(screen.config.id);
		if (fault === undefined || fault.spec.kind !== 'cloud-offline') continue;
		const queue = fault.spec.mode === 'queue';
		out.set(screen.config.id, {
			device: screen.config.id,
			status: queue ? DELIVERY_STATUS.queued : 'UNREACHABLE',
			...(withType ? { type: screen.config.type } : {}),
			message: queue
				? `screen ${screen.config.id} is offline from the cloud (fault ${fault.id}): the order waits, and is shown when it is back online`
				: `screen ${screen.config.id} is offline from the cloud (fault ${fault.id}): the order did not reach it (TCP still does)`
		});
	}
	return out;
}

/** applyAll with some target screens offline from the cloud: the others as usual. */
async function withOffline(
	engine: Engine,
	writer: RemoteWriter,
	req: FastifyRequest,
	command: OrderCommand,
	faults: Faults,
	withType: boolean,
	offline: Map<string, DeliveryStatus>
): Promise<DeliveryStatus[]> {
	const target = targetOf(req);
	const online = target.screens.filter((s) => !offline.has(s.config.id));
	for (const [id, status] of offline) {
		if (status.status === DELIVERY_STATUS.queued) faults.queueOffline(id, command);
	}
	let list: DeliveryStatus[] = [];
	if (online.length > 0) {
		req.kdsTarget = { ...target, screens: online };
		try {
			const applied = await applyAll(engine, writer, req, command, undefined, withType);
			list = applied === DELIVERED ? statuses(online, withType) : applied;
		} finally {
			req.kdsTarget = target;
		}
	}
	const byDevice = new Map(list.map((s) => [s.device, s]));
	return target.screens.map((s) => offline.get(s.config.id) ?? byDevice.get(s.config.id)!);
}

/** applyAll's answer when every screen is local: each took the request. */
const DELIVERED = Symbol('every screen delivered');

/**
 * The text after the order id of the success body for every screen local (`,"deliveryStatuses":
 * […]}`), per screen config and form (create names each screen's type): made once per screen.
 */
const successTails = new WeakMap<object, { create?: string; update?: string }>();

function successTail(screens: Screen[], withType: boolean): string {
	const tail = (list: Screen[]) =>
		`,"deliveryStatuses":${JSON.stringify(statuses(list, withType))}}`;
	if (screens.length !== 1) return tail(screens);
	const { config } = screens[0];
	let tails = successTails.get(config);
	if (tails === undefined) successTails.set(config, (tails = {}));
	return withType ? (tails.create ??= tail(screens)) : (tails.update ??= tail(screens));
}

/**
 * 201/200 with every screen's status, or the refusal when no screen took it (undelivered.ts).
 * Every screen local: the body's text is made here, the very bytes JSON.stringify makes of
 * `{ orderId, deliveryStatuses }` (the route's serializer), from a tail made once per screen.
 */
function answer(
	reply: FastifyReply,
	code: number,
	orderId: string,
	list: DeliveryStatus[] | typeof DELIVERED,
	screens: Screen[],
	withType: boolean
) {
	if (list === DELIVERED) {
		return reply
			.code(code)
			.header('content-type', JSON_UTF8)
			.send(`{"orderId":${JSON.stringify(orderId)}${successTail(screens, withType)}`);
	}
	const failed = undelivered(list, orderId);
	if (failed) return reply.code(failed.statusCode).send(failed.body);
	const body: OrderResponse = { orderId, deliveryStatuses: list };
	return reply.code(code).send(body);
}

/** The content type Fastify gives a body it serialises. */
const JSON_UTF8 = 'application/json; charset=utf-8';

function statuses(screens: Screen[], withType: boolean): DeliveryStatus[] {
	return screens.map((s) =>
		withType
			? { device: s.config.id, status: DELIVERY_STATUS.delivered, type: s.config.type }
			: { device: s.config.id, status: DELIVERY_STATUS.delivered }
	);
}

export function registerOrderRoutes(
	app: FastifyInstance,
	engine: Engine,
	tenancy: Tenancy,
	writer: RemoteWriter,
	faults?: Faults
): void {
	app.decorateRequest('kdsTarget', null);
	// Headers are checked before the body is read, so a stranger learns nothing from body errors.
	// Callback style: no promise per request; a throw is answered as a rejection would be.
	const onRequest = (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
		req.kdsTarget = tenancy.target(req.headers);
		done();
	};

	app.get(
		PATHS.activeOrders,
		{ onRequest, ...declared(`GET ${PATHS.activeOrders}`) },
		async (req) => {
			await engine.settled();
			return targetOf(req).screens.map((screen): ActiveOrdersEntry => {
				const queue = engine.queue(screen.config.id);
				return {
					deviceId: screen.config.id,
					deviceName: screen.config.name,
					orderCount: queue.length,
					// Contract 2.9: the id and name given at create, not the name as updated since.
					orders: queue.map((r) => ({
						orderId: r.context.id,
						orderName: r.context.createdName ?? r.context.fields.name
					}))
				};
			});
		}
	);

	app.post(PATHS.orders, { onRequest, ...declared(`POST ${PATHS.orders}`) }, async (req, reply) => {
		const target = targetOf(req);
		const order = parseOrderBody(req, HttpOrderSchema);
		// Unique per location: a live order (on screen or on hold) on any of its screens blocks it.
		const holders = target.location.screens.filter((s) => {
			const record = s.state.orders.get(order.id);
			return record !== undefined && isLive(record);
		});
		if (holders.length > 0) {
			await engine.settled();
			throw new ApiError(
				409,
				'DUPLICATE_ORDER_ID',
				DUPLICATE_MESSAGE,
				holders.map((s) => ({
					path: 'id',
					message: `order ${JSON.stringify(order.id)} is already on screen ${s.config.id} (on the screen or on hold)`
				}))
			);
		}
		const command = { command: ORDER_ROUTES.create.command, order };
		const list = await applyAll(engine, writer, req, command, faults, true);
		req.log.debug({ orderId: order.id, devices: target.screens.length }, 'order created over HTTP');
		return answer(reply, 201, order.id, list, target.screens, true);
	});

	app.put(PATHS.orders, { onRequest, ...declared(`PUT ${PATHS.orders}`) }, async (req, reply) => {
		const order = parseOrderBody(req, HttpOrderSchema);
		const command = { command: ORDER_ROUTES.update.command, order };
		const list = await applyAll(engine, writer, req, command, faults, false);
		return answer(reply, 200, order.id, list, targetOf(req).screens, false);
	});

	app.put(PATHS.partial, { onRequest, ...declared(`PUT ${PATHS.partial}`) }, async (req, reply) => {
		const order = parseOrderBody(req, PartialOrderSchema);
		const command = { command: ORDER_ROUTES.partial.command, order };
		const list = await applyAll(engine, writer, req, command, faults, false);
		return answer(reply, 200, order.id, list, targetOf(req).screens, false);
	});

	app.put(PATHS.cancel, { onRequest, ...declared(`PUT ${PATHS.cancel}`) }, async (req, reply) => {
		const order = parseOrderBody(req, CancelOrderSchema);
		const command = { command: ORDER_ROUTES.cancel.command, order };
		const list = await applyAll(engine, writer, req, command, faults, false);
		return answer(reply, 200, order.id, list, targetOf(req).screens, false);
	});
}
