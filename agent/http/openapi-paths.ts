/**
 * The one builder of the OpenAPI document's operations for the simulator's own APIs (admin,
 * simulator: ./admin-openapi.ts; faults: ./faults-openapi.ts; certification runs:
 * ./certify-openapi.ts): a route `METHOD /path/:param` with its summary, tag, parameters, request
 * body and the answers its Fastify schemas declare becomes the operation under its OpenAPI path (`/path/{param}`). A route that may answer 403 is
 * guarded: loopback needs no token (the empty requirement), other hosts the admin token.
 */
import { openApiPath } from './integrators/paths.ts';

/** A named schema of the document's components. */
export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export interface PathOperation {
	/** `METHOD /path/:param`, as the route is declared. */
	route: string;
	summary: string;
	description?: string;
	tag: string;
	parameters?: object[];
	/** The request body's component, and whether it is required. */
	body?: { component: string; required: boolean };
	/**
	 * Each declared answer: its words and its body's schema (JSON), or its schema per media type
	 * (an answer in several formats).
	 */
	responses: Record<string, PathResponse>;
}

export type PathResponse =
	| { description: string; schema: object }
	| { description: string; content: Record<string, object> };

const contentOf = (response: PathResponse) =>
	'content' in response
		? Object.fromEntries(
				Object.entries(response.content).map(([type, schema]) => [type, { schema }])
			)
		: { 'application/json': { schema: response.schema } };

/** The operations under their OpenAPI paths, in the order given. */
export function openApiPaths(operations: PathOperation[]): Record<string, Record<string, unknown>> {
	const paths: Record<string, Record<string, unknown>> = {};
	for (const op of operations) {
		const space = op.route.indexOf(' ');
		const method = op.route.slice(0, space).toLowerCase();
		const key = openApiPath(op.route.slice(space + 1));
		paths[key] ??= {};
		paths[key][method] = {
			summary: op.summary,
			...(op.description ? { description: op.description } : {}),
			tags: [op.tag],
			// Loopback needs no token (the empty requirement); other hosts the admin token.
			security: '403' in op.responses ? [{}, { adminToken: [] }] : [],
			...(op.parameters ? { parameters: op.parameters } : {}),
			...(op.body
				? {
						requestBody: {
							required: op.body.required,
							content: { 'application/json': { schema: componentRef(op.body.component) } }
						}
					}
				: {}),
			responses: Object.fromEntries(
				Object.entries(op.responses).map(([status, response]) => [
					status,
					{ description: response.description, content: contentOf(response) }
				])
			)
		};
	}
	return paths;
}
