/**
 * The integrator routes as the agent's HTTP side reads them: all derived from the one table in
 * the core (#core/integrator-routes: path, method, command), which the core's own readers (the
 * inspector's field view, the faults) share. The router, the 405 answers, the OpenAPI document
 * and `kds-sim send` import them from here or from the core; nothing spells a route out again.
 */
export {
	INTEGRATOR_ROUTES,
	METHODS,
	ORDER_ROUTES,
	orderCommandOf,
	orderCommandOfRoute,
	PATHS,
	routeFamilyOf,
	routeKey
} from '#core/integrator-routes';

/** `/a/:b/c` as OpenAPI writes it: `/a/{b}/c`. */
export function openApiPath(path: string): string {
	return path.replace(/:(\w+)/g, '{$1}');
}
