/**
 * The integrator API's fan-out to remote screens: each gets the request as the contract's TCP
 * message, once, and its delivery status is what its TCP reply said (or UNREACHABLE / NO_REPLY
 * when there was none). Nothing is retried and nothing of it is stored here: the remote screen
 * holds what it took, and the central's copy follows from its relay.
 */
import type { Screen } from '../engine/engine.ts';
import { DUPLICATE_MESSAGE, NOT_FOUND_MESSAGE } from '../http/integrators/errors.ts';
import type { DeliveryStatus } from '../http/integrators/responses.ts';
import type { RemoteStatus } from './remote-link.ts';

export function isRemote(screen: Screen): boolean {
	return screen.config.remote !== undefined;
}

/**
 * The order as the TCP interface declares it: `time` as int milliseconds when the HTTP body
 * gave an ISO 8601 time with its offset (one without an offset is sent as it came).
 */
export function toTcpOrder<T extends { time?: unknown }>(order: T): T {
	const time = order.time;
	if (typeof time !== 'string' || !/(Z|[+-]\d\d:?\d\d)$/i.test(time)) return order;
	const ms = Date.parse(time);
	return Number.isNaN(ms) ? order : { ...order, time: ms };
}

/** Send one command to each remote screen, all at once; one status per screen, in order. */
export async function deliverToRemotes(
	screens: readonly Screen[],
	command: string,
	order: { id: string; time?: unknown },
	withType: boolean
): Promise<DeliveryStatus[]> {
	const message = { command, order: toTcpOrder(order) };
	return Promise.all(
		screens.map(async (screen) => {
			const outcome = screen.remote
				? await screen.remote.deliver(message, order.id)
				: {
						status: 'UNREACHABLE' as RemoteStatus,
						message: 'the link to this remote screen is not started'
					};
			return {
				device: screen.config.id,
				status: outcome.status,
				...(withType ? { type: screen.config.type } : {}),
				...(outcome.status === 'SUCCESS' ? {} : { message: outcome.message })
			};
		})
	);
}

/** A refusal instead of a success: what `undelivered` answers. */
export interface Undelivered {
	statusCode: number;
	body: {
		code: 'DUPLICATE_ORDER_ID' | 'ORDER_DOES_NOT_EXIST' | 'NOT_DELIVERED';
		message: string;
		errors?: Array<{ path: string; message: string }>;
		deliveryStatuses?: DeliveryStatus[];
	};
}

/**
 * When no screen took the request, the answer says so instead of a success: every screen
 * refused it the same contract way → that refusal as a local screen's would be answered (409
 * duplicate, 404 not found, each screen in `errors`); otherwise 502 NOT_DELIVERED with every
 * screen's status. Null when at least one screen took it (201/200 as usual).
 */
export function undelivered(
	statuses: readonly DeliveryStatus[],
	orderId: string
): Undelivered | null {
	if (statuses.length === 0 || statuses.some((s) => s.status === 'SUCCESS')) return null;
	const all = (status: string) => statuses.every((s) => s.status === status);
	const errors = (what: string) =>
		statuses.map((s) => ({
			path: 'id',
			message: `order ${JSON.stringify(orderId)} ${what} screen ${s.device} (its reply)`
		}));
	if (all('DUPLICATE_ORDER_ID')) {
		const body = { code: 'DUPLICATE_ORDER_ID' as const, message: DUPLICATE_MESSAGE };
		return { statusCode: 409, body: { ...body, errors: errors('is already on') } };
	}
	if (all('ORDER_DOES_NOT_EXIST')) {
		const body = { code: 'ORDER_DOES_NOT_EXIST' as const, message: NOT_FOUND_MESSAGE };
		return { statusCode: 404, body: { ...body, errors: errors('is not on') } };
	}
	const each = statuses.map((s) => `${s.device}: ${s.status}${s.message ? ` (${s.message})` : ''}`);
	return {
		statusCode: 502,
		body: {
			code: 'NOT_DELIVERED',
			message: `No screen took the request: ${each.join('; ')}`,
			deliveryStatuses: [...statuses]
		}
	};
}
