/** What an order write answers when remote screens did not take it (docs/fleet.md). */
import { describe, expect, it } from 'vitest';
import type { DeliveryStatus } from './responses.ts';
import { undelivered } from './undelivered.ts';

const status = (device: string, s: DeliveryStatus['status'], message?: string) => ({
	device,
	status: s,
	...(message ? { message } : {})
});

describe('undelivered', () => {
	it('null while one screen took it: 201/200 with every status', () => {
		expect(undelivered([status('kds-1', 'SUCCESS'), status('pi-1', 'UNREACHABLE', 'x')], 'A')).toBe(
			null
		);
	});

	it('every screen refused the same contract way: that refusal, each screen in errors', () => {
		expect(undelivered([status('pi-1', 'DUPLICATE_ORDER_ID', 'r')], 'A')).toEqual({
			statusCode: 409,
			body: {
				code: 'DUPLICATE_ORDER_ID',
				message: 'Could not create resource. Id already exists',
				errors: [{ path: 'id', message: 'order "A" is already on screen pi-1 (its reply)' }]
			}
		});
		expect(undelivered([status('pi-1', 'ORDER_DOES_NOT_EXIST', 'r')], 'A')?.statusCode).toBe(404);
	});

	it('otherwise 502 NOT_DELIVERED naming each screen and what it said', () => {
		const list = [status('pi-1', 'UNREACHABLE', 'no route'), status('pi-2', 'DUPLICATE_ORDER_ID')];
		expect(undelivered(list, 'A')).toEqual({
			statusCode: 502,
			body: {
				code: 'NOT_DELIVERED',
				message:
					'No screen took the request: pi-1: UNREACHABLE (no route); pi-2: DUPLICATE_ORDER_ID',
				deliveryStatuses: list
			}
		});
	});
});
