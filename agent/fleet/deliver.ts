/**
 * The integrator API's fan-out to remote screens: each gets the request as the contract's TCP
 * message, once, and its outcome is what its TCP reply said (or UNREACHABLE / NO_REPLY when there
 * was none): the fleet's own statuses, which the HTTP routes turn into answers. Nothing is retried and nothing of it is stored here: the remote screen
 * holds what it took, and the central's copy follows from its relay.
 */
import type { Screen } from '../engine/engine.ts';
import type { RemoteOutcome } from './remote-link.ts';

/** Where remote screens are written (RemoteScreens). */
export interface RemoteWriter {
	deliver(screenId: string, message: object, orderId: string): Promise<RemoteOutcome>;
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

/** Send one command to each remote screen, all at once; one outcome per screen, in order. */
export function deliverToRemotes(
	writer: RemoteWriter,
	screens: readonly Screen[],
	command: string,
	order: { id: string; time?: unknown }
): Promise<RemoteOutcome[]> {
	const message = { command, order: toTcpOrder(order) };
	return Promise.all(screens.map((screen) => writer.deliver(screen.config.id, message, order.id)));
}
