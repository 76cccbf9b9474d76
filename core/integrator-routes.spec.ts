/**
 * The contract's routes, one table (#core/integrator-routes): what the agent, the OpenAPI
 * document, the inspector and the faults derive from it.
 */
import { describe, expect, it } from 'vitest';
import {
	INTEGRATOR_ROUTES,
	METHODS,
	ORDER_ROUTES,
	orderCommandOf,
	orderCommandOfRoute,
	PATHS,
	routeFamilyOf,
	routeKey
} from './integrator-routes.ts';

describe('the integrator route table', () => {
	it('names each path of the contract once, with the methods it answers', () => {
		expect(METHODS).toEqual({
			'/integrators/kds-orders/active': ['GET'],
			'/integrators/kds-orders': ['POST', 'PUT'],
			'/integrators/kds-orders/partial': ['PUT'],
			'/integrators/kds-orders/cancel': ['PUT'],
			'/integrators/kds-notifications/customer-arrived': ['POST'],
			'/integrators/kds-notifications/estimated-arrival-update': ['POST'],
			'/integrators/kds-notifications/send-message': ['POST'],
			'/integrators/kds-information': ['GET'],
			'/integrators/kds-information/locations': ['GET'],
			'/integrators/kds-information/locations/:locationId/devices': ['GET']
		});
		expect(PATHS.orders).toBe('/integrators/kds-orders');
		expect(PATHS.devices).toBe('/integrators/kds-information/locations/:locationId/devices');
		expect(new Set(INTEGRATOR_ROUTES.map(routeKey)).size).toBe(INTEGRATOR_ROUTES.length);
	});

	it('gives the four order routes their command, and no other route one', () => {
		expect(ORDER_ROUTES).toEqual({
			create: { method: 'POST', path: '/integrators/kds-orders', command: 'create-order' },
			update: { method: 'PUT', path: '/integrators/kds-orders', command: 'update-order' },
			partial: {
				method: 'PUT',
				path: '/integrators/kds-orders/partial',
				command: 'partial-update-order'
			},
			cancel: { method: 'PUT', path: '/integrators/kds-orders/cancel', command: 'cancel-order' }
		});
		expect(orderCommandOf('GET', '/integrators/kds-orders/active')).toBeUndefined();
		expect(orderCommandOf('DELETE', '/integrators/kds-orders')).toBeUndefined();
		expect(orderCommandOfRoute('POST /integrators/kds-notifications/send-message')).toBeUndefined();
		expect(orderCommandOfRoute(null)).toBeUndefined();
	});

	it('reads a trailing slash as the same route, as the router does', () => {
		expect(orderCommandOf('PUT', '/integrators/kds-orders/partial/')).toBe('partial-update-order');
		expect(orderCommandOfRoute('POST /integrators/kds-orders/')).toBe('create-order');
		expect(orderCommandOfRoute('PUT /integrators/kds-orders/cancel')).toBe('cancel-order');
	});

	it('puts a path in its family by prefix, routes of the table or not', () => {
		expect(routeFamilyOf('/integrators/kds-orders/active?x=1')).toBe('orders');
		expect(routeFamilyOf('/integrators/kds-notifications/whatever')).toBe('notifications');
		expect(routeFamilyOf('/integrators/kds-information/locations/loc-1/devices')).toBe(
			'information'
		);
		expect(routeFamilyOf('/api/screens')).toBeUndefined();
		for (const route of INTEGRATOR_ROUTES) expect(routeFamilyOf(route.path)).toBe(route.family);
	});
});
