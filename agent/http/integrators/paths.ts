import type { TcpCommandName } from '#core/tcp-message';

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

/**
 * The order routes by the names `kds-sim send --route` takes, with the order command each
 * carries: the one map from route to command (the routes, the inspector's findings and the CLI
 * read it).
 */
export const ORDER_ROUTES = {
	create: { method: 'POST', path: PATHS.orders, command: 'create-order' },
	update: { method: 'PUT', path: PATHS.orders, command: 'update-order' },
	partial: { method: 'PUT', path: PATHS.partial, command: 'partial-update-order' },
	cancel: { method: 'PUT', path: PATHS.cancel, command: 'cancel-order' }
} as const satisfies Record<string, { method: string; path: string; command: TcpCommandName }>;

const COMMAND_BY_ROUTE = new Map<string, TcpCommandName>(
	Object.values(ORDER_ROUTES).map((r) => [`${r.method} ${r.path}`, r.command])
);

/** The order command a request to `path` (no query) with `method` carries, if an order route. */
export function orderCommandOf(method: string, path: string): TcpCommandName | undefined {
	return COMMAND_BY_ROUTE.get(`${method} ${path}`);
}

/**
 * orderCommandOf of a route already written `METHOD path` (the inspector's command, the path as
 * the client sent it). A trailing slash names the same route: the router ignores it (server.ts),
 * so its findings must too.
 */
export function orderCommandOfRoute(route: string): TcpCommandName | undefined {
	return (
		COMMAND_BY_ROUTE.get(route) ??
		(route.endsWith('/') ? COMMAND_BY_ROUTE.get(route.slice(0, -1)) : undefined)
	);
}

/** `/a/:b/c` as OpenAPI writes it: `/a/{b}/c`. */
export function openApiPath(path: string): string {
	return path.replace(/:(\w+)/g, '{$1}');
}
