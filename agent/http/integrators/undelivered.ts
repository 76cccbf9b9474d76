/**
 * The answer to an order write that remote screens did not take (docs/fleet.md): the fleet's
 * outcomes (fleet/deliver.ts) turned into the integrator API's statuses and refusals.
 */
import { DUPLICATE_MESSAGE, NOT_FOUND_MESSAGE } from './errors.ts';
import type { DeliveryStatus } from './responses.ts';

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
	// QUEUED: a screen offline from the cloud took it, to show when back online (docs/faults.md).
	if (
		statuses.length === 0 ||
		statuses.some((s) => s.status === 'SUCCESS' || s.status === 'QUEUED')
	)
		return null;
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
