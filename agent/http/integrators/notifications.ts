/**
 * The notification routes (contract 4.4): customer arrived and estimated arrival update for the
 * takeout view, and a pop-up message. Same headers and tenancy as the order routes. The answer
 * has one delivery status per named screen: SUCCESS (shown now), QUEUED (no browser shows the
 * screen; delivered when one does), or ORDER_DOES_NOT_EXIST (the order is not live there, so
 * nothing is sent there). 200 when every status is SUCCESS, 202 when any is QUEUED, 404 when the
 * order is live on none of the named screens.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine.ts';
import type { Notifications, SendResult } from '../../notify/notification-state.ts';
import {
	CustomerArrivedSchema,
	EstimatedArrivalSchema,
	SendMessageSchema,
	type CustomerArrived,
	type EstimatedArrival
} from '#core/notification-schema';
import { declared } from '../responses.ts';
import { orderNotOnScreens } from './errors.ts';
import { parseBody } from './orders.ts';
import { PATHS } from './paths.ts';
import { DELIVERY_STATUS, type NotificationResponse } from './responses.ts';
import type { Target, Tenancy } from './tenancy.ts';

function answer(reply: FastifyReply, result: SendResult, orderId?: string) {
	const body: NotificationResponse = {
		notificationId: result.notificationId,
		...(orderId !== undefined ? { orderId } : {}),
		deliveryStatuses: result.screens.map((s) => ({
			device: s.screenId,
			status: DELIVERY_STATUS[s.outcome]
		}))
	};
	const queued = result.screens.some((s) => s.outcome === 'queued');
	return reply.code(queued ? 202 : 200).send(body);
}

export function registerNotificationRoutes(
	app: FastifyInstance,
	engine: Engine,
	notifications: Notifications,
	tenancy: Tenancy
): void {
	// Headers first, before the body is read, as on the order routes (which decorate kdsTarget).
	const onRequest = async (req: FastifyRequest) => {
		req.kdsTarget = tenancy.target(req.headers);
	};
	const targetOf = (req: FastifyRequest) => req.kdsTarget as Target;
	// A retry.expiration with no offset is the local time of the location.
	const zoneOf = (req: FastifyRequest) => ({ timeZone: targetOf(req).location.config.timezone });

	/** Takeout notifications go only where the order is live; none such is a 404. */
	async function takeout(
		req: FastifyRequest,
		reply: FastifyReply,
		kind: 'customer-arrived' | 'estimated-arrival-update',
		body: CustomerArrived | EstimatedArrival
	) {
		const target = targetOf(req);
		const result = notifications.takeout({
			kind,
			orderId: body.id,
			locationId: target.location.config.id,
			screenIds: target.screens.map((s) => s.config.id),
			minutes: 'minutes' in body ? body.minutes : undefined,
			retry: body.retry
		});
		if (result.screens.every((s) => s.outcome === 'absent')) {
			await engine.settled();
			throw orderNotOnScreens(
				body.id,
				result.screens.map((s) => s.screenId)
			);
		}
		return answer(reply, result, body.id);
	}

	app.post(
		PATHS.customerArrived,
		{ onRequest, ...declared(`POST ${PATHS.customerArrived}`) },
		async (req, reply) =>
			takeout(
				req,
				reply,
				'customer-arrived',
				parseBody(CustomerArrivedSchema, req.body, zoneOf(req))
			)
	);

	app.post(
		PATHS.estimatedArrival,
		{ onRequest, ...declared(`POST ${PATHS.estimatedArrival}`) },
		async (req, reply) =>
			takeout(
				req,
				reply,
				'estimated-arrival-update',
				parseBody(EstimatedArrivalSchema, req.body, zoneOf(req))
			)
	);

	app.post(
		PATHS.sendMessage,
		{ onRequest, ...declared(`POST ${PATHS.sendMessage}`) },
		async (req, reply) => {
			const target = targetOf(req);
			const { message } = parseBody(SendMessageSchema, req.body);
			const result = notifications.message(
				target.screens.map((s) => s.config.id),
				message
			);
			return answer(reply, result);
		}
	);
}
