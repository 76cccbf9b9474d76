/**
 * The integrator routes of the contract (sections 4.2-4.4), paths exactly as written there.
 * The router, the 405 answers and the OpenAPI document all read this one table.
 */
export const PATHS = {
	activeOrders: '/integrators/kds-orders/active',
	orders: '/integrators/kds-orders',
	partial: '/integrators/kds-orders/partial',
	cancel: '/integrators/kds-orders/cancel',
	information: '/integrators/kds-information',
	locations: '/integrators/kds-information/locations',
	devices: '/integrators/kds-information/locations/:locationId/devices',
	customerArrived: '/integrators/kds-notifications/customer-arrived',
	estimatedArrival: '/integrators/kds-notifications/estimated-arrival-update',
	sendMessage: '/integrators/kds-notifications/send-message'
} as const;

/** Methods each path answers; any other method is answered 405 with an Allow header. */
export const METHODS: Record<string, readonly string[]> = {
	[PATHS.activeOrders]: ['GET'],
	[PATHS.orders]: ['POST', 'PUT'],
	[PATHS.partial]: ['PUT'],
	[PATHS.cancel]: ['PUT'],
	[PATHS.information]: ['GET'],
	[PATHS.locations]: ['GET'],
	[PATHS.devices]: ['GET'],
	[PATHS.customerArrived]: ['POST'],
	[PATHS.estimatedArrival]: ['POST'],
	[PATHS.sendMessage]: ['POST']
};

/** `/a/:b/c` as OpenAPI writes it: `/a/{b}/c`. */
export function openApiPath(path: string): string {
	return path.replace(/:(\w+)/g, '{$1}');
}
