/**
 * The OpenAPI 3.1 document the simulator serves (/openapi.json, /docs), composed of its sections:
 * the integrator routes (./integrators/openapi.ts), the simulator's and admin API's
 * (./admin-openapi.ts), the faults' (./faults-openapi.ts) and the certification runs'
 * (./certify-openapi.ts). Every schema is a zod schema the routes validate with or answer from,
 * turned into JSON Schema 2020-12 (OpenAPI 3.1's) once, here. Built once at start-up.
 */
import * as z from 'zod';
import {
	ADMIN_COMPONENTS,
	ADMIN_SECURITY_SCHEME,
	ADMIN_TAGS,
	adminPaths
} from './admin-openapi.ts';
import { CERTIFY_COMPONENTS, CERTIFY_TAG, certifyPaths } from './certify-openapi.ts';
import { FAULT_COMPONENTS, FAULTS_TAG, faultPaths } from './faults-openapi.ts';
import {
	HEALTH_PATH,
	INTEGRATOR_COMPONENTS,
	INTEGRATOR_PARAMETERS,
	INTEGRATOR_RESPONSES,
	integratorPaths
} from './integrators/openapi.ts';

/** The named schemas of the document: id, zod schema, description. */
export const COMPONENTS: Array<[string, z.ZodType, string]> = [
	...INTEGRATOR_COMPONENTS,
	// The simulator's and the admin API's (tags Simulator and Admin; ./admin-openapi.ts).
	...ADMIN_COMPONENTS,
	// Faults on cue (tag Faults; ./faults-openapi.ts).
	...FAULT_COMPONENTS,
	// Certification runs (tag Certify; ./certify-openapi.ts).
	...CERTIFY_COMPONENTS
];

function componentSchemas(): Record<string, unknown> {
	const registry = z.registry<{ id: string }>();
	for (const [id, schema] of COMPONENTS) registry.add(schema, { id });
	const { schemas } = z.toJSONSchema(registry, {
		target: 'draft-2020-12',
		io: 'input',
		unrepresentable: 'any',
		uri: (id) => `#/components/schemas/${id}`,
		// The answers' schemas are strict (so the tests see a field no schema names), but the
		// document leaves objects open: a client should take a field added in a later version.
		override: ({ jsonSchema }) => {
			if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
		}
	});
	const out: Record<string, unknown> = {};
	for (const [id, , description] of COMPONENTS) {
		const { $schema: _s, $id: _i, ...schema } = schemas[id] as Record<string, unknown>;
		out[id] = { description, ...schema };
	}
	return out;
}

/** The whole document; `version` is the simulator's version. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
	return {
		openapi: '3.1.0',
		info: {
			title: 'KDS integrator API (simulator), with the simulator and admin API',
			version,
			description:
				'The HTTP integrator interface of the kitchen display contract, as served by the simulator ' +
				'(tags Orders, Information, Notifications, Health). Point {base_url} here. Every error answers ' +
				'{code, message, errors?}. See docs/http-api.md. The tags Simulator and Admin are the ' +
				"simulator's own API for test suites (reset, the JSON view of each screen, the message log, " +
				"a cook's actions): not part of the contract, so a real screen has none of them."
		},
		servers: [{ url: '/', description: 'This simulator' }],
		security: [{ integrationToken: [] }],
		tags: [
			{ name: 'Orders' },
			{ name: 'Information' },
			{ name: 'Notifications' },
			{ name: 'Health' },
			...ADMIN_TAGS,
			FAULTS_TAG,
			CERTIFY_TAG
		],
		paths: {
			...HEALTH_PATH,
			...integratorPaths(),
			...adminPaths(),
			...faultPaths(),
			...certifyPaths()
		},
		components: {
			schemas: componentSchemas(),
			securitySchemes: {
				integrationToken: {
					type: 'apiKey',
					in: 'header',
					name: 'x-integration-token',
					description: 'Identifies the brand. The demo token is kds-demo-token.'
				},
				adminToken: ADMIN_SECURITY_SCHEME
			},
			parameters: INTEGRATOR_PARAMETERS,
			responses: INTEGRATOR_RESPONSES
		}
	};
}
