/**
 * The faults' part of the OpenAPI document (tag Faults; docs/faults.md), apart from the admin
 * API's so that each section can change on its own. The answers are the schemas the routes
 * declare (./faults-api.ts FAULT_RESPONSES); the request body is the core's fault schema.
 */
import * as z from 'zod';
import { FaultSpecSchema } from '#core/fault-kinds';
import {
	FAULT_RESPONSES,
	FaultListSchema,
	FaultsAddedSchema,
	FaultsOnSchema,
	ResilienceReportSchema
} from './faults-api.ts';
import { SimulatorErrorSchema } from './responses.ts';
import { componentRef, openApiPaths } from './openapi-paths.ts';

/** The request body of POST /api/admin/faults: one fault, several, or a profile for a screen. */
export const FaultsBodySchema = z.union([
	FaultSpecSchema,
	z.strictObject({ faults: z.array(FaultSpecSchema).min(1) }),
	z.strictObject({
		profile: z
			.string()
			.describe(
				"A profile: the config file's own (faults.profiles) or a built-in one (flaky-wifi, wifi-down, cloud-trouble)."
			),
		screen: z
			.string()
			.optional()
			.describe(
				'The screen it goes on; absent: a config profile as written, a built-in one on every screen.'
			)
	})
]);

export const FAULT_COMPONENTS: Array<[string, z.ZodType, string]> = [
	['FaultSpec', FaultSpecSchema, 'A fault to add: its kind, its target, when it fires.'],
	['FaultsBody', FaultsBodySchema, 'One fault, several (all or none), or a profile for a screen.'],
	['FaultList', FaultListSchema, 'Every fault, with how often each fired.'],
	['FaultsAdded', FaultsAddedSchema, 'The faults added.'],
	['FaultsOn', FaultsOnSchema, 'Which screens have a fault on (the screens’ indicator).'],
	['ResilienceReport', ResilienceReportSchema, 'What each client did after each fault.']
];

export const FAULTS_TAG = {
	name: 'Faults',
	description:
		'Faults on cue (not the kitchen display contract): make a screen lose a reply, refuse connections, answer slowly or go offline, and see what the POS did next. docs/faults.md.'
};

const ref = componentRef;
const nameOf = (schema: z.ZodType) =>
	schema === SimulatorErrorSchema
		? 'SimulatorError'
		: FAULT_COMPONENTS.find(([, s]) => s === schema)?.[0];

const OPERATIONS: Record<keyof typeof FAULT_RESPONSES, { summary: string; body?: string }> = {
	'GET /api/admin/faults': { summary: 'Every fault, with how often each fired' },
	'POST /api/admin/faults': {
		summary: 'Add a fault (or several, all or none; or a profile). 422 names every wrong field',
		body: 'FaultsBody'
	},
	'DELETE /api/admin/faults/:id': { summary: 'Remove one fault' },
	'POST /api/admin/faults/reset': { summary: 'Remove every fault' },
	'GET /api/admin/faults/report': {
		summary: 'The resilience report: what each client did after each fault, as findings'
	},
	'GET /api/faults': { summary: 'Which screens have a fault on (no customer data)' }
};

export function faultPaths(): Record<string, Record<string, unknown>> {
	return openApiPaths(
		Object.entries(FAULT_RESPONSES).map(([route, responses]) => {
			const op = OPERATIONS[route as keyof typeof FAULT_RESPONSES];
			return {
				route,
				summary: op.summary,
				tag: 'Faults',
				parameters: route.includes(':id')
					? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'f1' }]
					: undefined,
				body: op.body ? { component: op.body, required: true } : undefined,
				responses: Object.fromEntries(
					Object.entries(responses as Record<number, z.ZodType>).map(([status, schema]) => {
						const name = nameOf(schema);
						const description =
							status === '403'
								? 'Not from loopback and without the admin token.'
								: status === '422'
									? 'A field is not valid (VALIDATION_FAILED, naming each); nothing changed.'
									: status === '404'
										? 'No such fault.'
										: 'OK';
						return [status, { description, schema: name ? ref(name) : { type: 'object' } }];
					})
				)
			};
		})
	);
}
