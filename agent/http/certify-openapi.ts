/**
 * The certification runs' part of the OpenAPI document (tag Certify; docs/certify.md), apart from
 * the admin API's so that each section can change on its own. The request bodies are the
 * schemas the routes validate with (./certify-api.ts); the answers are described in words and
 * by the shapes at the top of ./certify-api.ts. The operations are built by ./openapi-paths.ts,
 * as the admin API's and the faults' are.
 */
import type * as z from 'zod';
import { CertifySkipSchema, CertifyStartSchema } from './certify-api.ts';
import { componentRef, openApiPaths, type PathOperation } from './openapi-paths.ts';

export const CERTIFY_COMPONENTS: Array<[string, z.ZodType, string]> = [
	['CertifyStart', CertifyStartSchema, 'A certification run: the capabilities the POS declares.'],
	['CertifySkip', CertifySkipSchema, 'Skip the current step, with the reason.']
];

export const CERTIFY_TAG = {
	name: 'Certify',
	description:
		'Certification runs (not the kitchen display contract, not the vendor’s certification): the simulator grades a POS scenario by scenario, arming the faults itself, and writes a report (JSON, JUnit, HTML). docs/certify.md.'
};

const object = { type: 'object' };
const error = (description: string) => ({ description, schema: componentRef('SimulatorError') });
const STATE = {
	description:
		'The run: its steps with their status and verdict, and the current step (instruction, harness step, live verdict).',
	schema: object
};
const NO_RUN = error('No run in progress.');
const NO_RUN_YET = error('No run yet.');
/** Every route is guarded like the rest of /api/admin. */
const GUARD = { '403': error('Not from loopback and without the admin token.') };

type Operation = Omit<PathOperation, 'tag'>;

const OPERATIONS: Operation[] = [
	{
		route: 'GET /api/admin/certify/scenarios',
		summary: 'The scenario catalog, with the suite version',
		responses: { '200': { description: 'The catalog.', schema: object } }
	},
	{
		route: 'POST /api/admin/certify',
		summary:
			'Start a run for the capabilities declared (the simulator arms each step’s faults itself)',
		body: { component: 'CertifyStart', required: true },
		responses: {
			'201': STATE,
			'409': error('A run is in progress.'),
			'422': error('A field is not valid (VALIDATION_FAILED, naming each).')
		}
	},
	{
		route: 'GET /api/admin/certify',
		summary: 'The run in progress, or the last',
		responses: { '200': STATE, '404': NO_RUN_YET }
	},
	{
		route: 'POST /api/admin/certify/advance',
		summary: 'The current step is done: judge it, start the next',
		responses: { '200': STATE, '409': NO_RUN }
	},
	{
		route: 'POST /api/admin/certify/skip',
		summary: 'Skip the current step, with a reason',
		body: { component: 'CertifySkip', required: true },
		responses: { '200': STATE, '409': NO_RUN, '422': error('No reason (VALIDATION_FAILED).') }
	},
	{
		route: 'POST /api/admin/certify/stop',
		summary: 'Stop the run: the steps not reached are skipped',
		responses: { '200': STATE, '409': NO_RUN }
	},
	{
		route: 'GET /api/admin/certify/report',
		summary: 'The report: JSON, JUnit XML (?format=junit) or printable HTML (?format=html)',
		parameters: [
			{
				name: 'format',
				in: 'query',
				required: false,
				schema: { type: 'string', enum: ['json', 'junit', 'html'] }
			}
		],
		responses: {
			'200': {
				description: 'The report.',
				content: {
					'application/json': object,
					'application/xml': { type: 'string' },
					'text/html': { type: 'string' }
				}
			},
			'404': NO_RUN_YET
		}
	}
];

export function certifyPaths(): Record<string, Record<string, unknown>> {
	return openApiPaths(
		OPERATIONS.map((op) => ({ ...op, tag: 'Certify', responses: { ...op.responses, ...GUARD } }))
	);
}
