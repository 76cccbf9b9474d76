/**
 * The integrator API's fan-out to remote screens: each gets the request as the contract's TCP
 * message, once, and its delivery status is what its TCP reply said (or UNREACHABLE / NO_REPLY
 * when there was none). Nothing is retried and nothing of it is stored here: the remote screen
 * holds what it took, and the central's copy follows from its relay.
 */
import type { Screen } from '../engine/engine.ts';
import type { RemoteStatus } from './remote-link.ts';

/** A delivery status entry (contract 2.10), with `message` when a remote screen did not take it. */
export interface DeliveryStatus {
	device: string;
	status: string;
	type?: string;
	/** Simulator extension, non-SUCCESS only: what happened, in one sentence. */
	message?: string;
}

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

/**
 * When no screen took the request, the answer says so instead of a success: every screen
 * refused it the same contract way → that refusal's status (409 duplicate, 404 not found);
 * otherwise 502 NOT_DELIVERED. Null when at least one screen took it (201/200 as usual).
 */
export function undelivered(
	statuses: readonly DeliveryStatus[]
): { statusCode: number; code: string; message: string } | null {
	if (statuses.length === 0 || statuses.some((s) => s.status === 'SUCCESS')) return null;
	const all = (status: string) => statuses.every((s) => s.status === status);
	const each = statuses.map((s) => `${s.device}: ${s.status}${s.message ? ` (${s.message})` : ''}`);
	if (all('DUPLICATE_ORDER_ID'))
		return {
			statusCode: 409,
			code: 'DUPLICATE_ORDER_ID',
			message: 'Could not create resource. Id already exists'
		};
	if (all('ORDER_DOES_NOT_EXIST'))
		return {
			statusCode: 404,
			code: 'ORDER_DOES_NOT_EXIST',
			message: 'Could not update. No resource found'
		};
	return {
		statusCode: 502,
		code: 'NOT_DELIVERED',
		message: `No screen took the request: ${each.join('; ')}`
	};
}
