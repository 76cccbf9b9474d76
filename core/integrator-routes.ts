/**
 * The integrator routes of the contract (sections 4.2-4.4): path, method and the order command
 * each carries, as ONE table. Everything that names an integrator route derives from it:
 *
 * - the agent's routes and their 405 answers (`agent/http/integrators/paths.ts` re-exports
 *   `PATHS`, `METHODS`, `ORDER_ROUTES`, `orderCommandOf`, `orderCommandOfRoute`);
 * - the OpenAPI document (`agent/http/integrators/openapi.ts`, which checks it documents every
 *   route of the table);
 * - the inspector's hooks (`agent/http/message-hooks.ts`: which requests are logged, which carry
 *   an order command) and the inspector's field view (`core/view/order-fields.ts`);
 * - the faults' routes and judgement (`core/faults.ts`, `core/fault-findings.ts`): use
 *   `integratorRouteOf` / `routeFamilyOf` / `routeKey` instead of spelling a path out.
 *
 * Exports, for whoever adopts them:
 *
 * - `INTEGRATOR_ROUTES`: the table, one row per (method, path): `{ name, method, path, family,
 *   command? }`;
 * - `PATHS` (path by name), `METHODS` (methods by path), `ORDER_ROUTES` (the four order routes by
 *   the names `kds-sim send --route` takes);
 * - `routeKey(route)`: `METHOD path`, as the inspector logs an HTTP message's command;
 * - `integratorRouteOf(method, path)`: the row a request is on (a trailing slash names the same
 *   route, as the router treats it); `orderCommandOf(method, path)` and `orderCommandOfRoute('METHOD
 *   path')`: the order command a request carries;
 * - `routeFamilyOf(path)`: orders, information or notifications, by the path's prefix (also for a
 *   path under a family that is no route of the table).
 *
 * Pure: no Node, no DOM. Paths exactly as the contract writes them (`:locationId` a parameter).
 */
import type { TcpCommandName } from './tcp-message.ts';

/** The three groups of the contract's routes, by their path prefix. */
export const ROUTE_FAMILIES = {
	orders: '/integrators/kds-orders',
	information: '/integrators/kds-information',
	notifications: '/integrators/kds-notifications'
} as const;

export type RouteFamily = keyof typeof ROUTE_FAMILIES;

export interface IntegratorRoute {
	/** Its name here (and `kds-sim send --route`'s for the order routes). */
	name: string;
	method: 'GET' | 'POST' | 'PUT';
	path: string;
	family: RouteFamily;
	/** The order command it carries (the order routes only). */
	command?: TcpCommandName;
}

const O = ROUTE_FAMILIES.orders;
const I = ROUTE_FAMILIES.information;
const N = ROUTE_FAMILIES.notifications;

/** The contract's integrator routes: the one table. */
export const INTEGRATOR_ROUTES = [
	{ name: 'activeOrders', method: 'GET', path: `${O}/active`, family: 'orders' },
	{ name: 'create', method: 'POST', path: O, family: 'orders', command: 'create-order' },
	{ name: 'update', method: 'PUT', path: O, family: 'orders', command: 'update-order' },
	{
		name: 'partial',
		method: 'PUT',
		path: `${O}/partial`,
		family: 'orders',
		command: 'partial-update-order'
	},
	{ name: 'cancel', method: 'PUT', path: `${O}/cancel`, family: 'orders', command: 'cancel-order' },
	{
		name: 'customerArrived',
		method: 'POST',
		path: `${N}/customer-arrived`,
		family: 'notifications'
	},
	{
		name: 'estimatedArrival',
		method: 'POST',
		path: `${N}/estimated-arrival-update`,
		family: 'notifications'
	},
	{ name: 'sendMessage', method: 'POST', path: `${N}/send-message`, family: 'notifications' },
	{ name: 'information', method: 'GET', path: I, family: 'information' },
	{ name: 'locations', method: 'GET', path: `${I}/locations`, family: 'information' },
	{
		name: 'devices',
		method: 'GET',
		path: `${I}/locations/:locationId/devices`,
		family: 'information'
	}
] as const satisfies readonly IntegratorRoute[];

type Route = (typeof INTEGRATOR_ROUTES)[number];

/** Create and update share their path, named `orders`; every other path is named as its route. */
const pathName = (r: Route) => (r.name === 'create' || r.name === 'update' ? 'orders' : r.name);

/** Each path by name. */
export const PATHS = Object.fromEntries(INTEGRATOR_ROUTES.map((r) => [pathName(r), r.path])) as {
	readonly [R in Route as R['name'] extends 'create' | 'update' ? 'orders' : R['name']]: R['path'];
};

/** Methods each path answers; any other method is answered 405 with an Allow header. */
export const METHODS: Readonly<Record<string, readonly string[]>> = INTEGRATOR_ROUTES.reduce<
	Record<string, string[]>
>((methods, r) => {
	(methods[r.path] ??= []).push(r.method);
	return methods;
}, {});

type OrderRoute = Extract<Route, { command: TcpCommandName }>;

/**
 * The order routes by the names `kds-sim send --route` takes, with the order command each
 * carries: the one map from route to command.
 */
export const ORDER_ROUTES = Object.fromEntries(
	INTEGRATOR_ROUTES.filter((r): r is OrderRoute => 'command' in r).map((r) => [
		r.name,
		{ method: r.method, path: r.path, command: r.command }
	])
) as {
	readonly [K in OrderRoute['name']]: Pick<
		Extract<OrderRoute, { name: K }>,
		'method' | 'path' | 'command'
	>;
};

/** `METHOD path`: how the inspector names an HTTP message's route (its `command`). */
export function routeKey(route: { method: string; path: string }): string {
	return `${route.method} ${route.path}`;
}

const BY_KEY = new Map<string, IntegratorRoute>(INTEGRATOR_ROUTES.map((r) => [routeKey(r), r]));

/** A path without its trailing slash: the router reads `/a/` as `/a` (agent/http/server.ts). */
const withoutSlash = (path: string) =>
	path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;

/**
 * The route a request (`method`, `path` with no query) is on, if one of the table's literal paths
 * (`devices`, which has a parameter, is not matched here).
 */
export function integratorRouteOf(method: string, path: string): IntegratorRoute | undefined {
	return BY_KEY.get(`${method} ${path}`) ?? BY_KEY.get(`${method} ${withoutSlash(path)}`);
}

/** The order command a request to `path` (no query) with `method` carries, if an order route. */
export function orderCommandOf(method: string, path: string): TcpCommandName | undefined {
	return integratorRouteOf(method, path)?.command;
}

/**
 * orderCommandOf of a route already written `METHOD path` (the inspector's command, the path as
 * the client sent it). A trailing slash names the same route: the router ignores it, so the
 * findings and the inspector's views must too.
 */
export function orderCommandOfRoute(route: string | null): TcpCommandName | undefined {
	if (route === null) return undefined;
	return (BY_KEY.get(route) ?? BY_KEY.get(withoutSlash(route)))?.command;
}

/** The family a path (no query) belongs to by its prefix, whether or not a route of the table. */
export function routeFamilyOf(path: string): RouteFamily | undefined {
	for (const [family, prefix] of Object.entries(ROUTE_FAMILIES) as Array<[RouteFamily, string]>) {
		if (path.startsWith(prefix)) return family;
	}
	return undefined;
}
