/**
 * The certification runs' part of the OpenAPI document (tag Certify; docs/certify.md), apart from
 * the admin API's so that each section can change on its own. The request bodies are the
 * schemas the routes validate with (./certify-api.ts); the answers are described in words and
 * by the shapes at the top of ./certify-api.ts.
 */
import type * as z from 'zod';
import { CertifySkipSchema, CertifyStartSchema } from './certify-api.ts';

export const CERTIFY_COMPONENTS: Array<[string, z.ZodType, string]> = [
	['CertifyStart', CertifyStartSchema, 'A certification run: the capabilities the POS declares.'],
	['CertifySkip', CertifySkipSchema, 'Skip the current step, with the reason.']
];

export const CERTIFY_TAG = {
	name: 'Certify',
	description:
		'Certification runs (not the kitchen display contract, not the vendor’s certification): the simulator grades a POS scenario by scenario, arming the faults itself, and writes a report (JSON, JUnit, HTML). docs/certify.md.'
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = { type: 'object' };
const json = (description: string, schema: unknown = object) => ({
	description,
	content: { 'application/json': { schema } }
});
const GUARD = {
	'403': json('Not from loopback and without the admin token.', ref('SimulatorError'))
};
const security = [{}, { adminToken: [] }];
const STATE =
	'The run: its steps with their status and verdict, and the current step (instruction, harness step, live verdict).';
const NO_RUN = json('No run in progress.', ref('SimulatorError'));

export function certifyPaths(): Record<string, Record<string, unknown>> {
	const op = (summary: string, responses: Record<string, unknown>, body?: string) => ({
		summary,
		tags: ['Certify'],
		security,
		...(body
			? { requestBody: { required: true, content: { 'application/json': { schema: ref(body) } } } }
			: {}),
		responses: { ...responses, ...GUARD }
	});
	return {
		'/api/admin/certify/scenarios': {
			get: op('The scenario catalog, with the suite version', { '200': json('The catalog.') })
		},
		'/api/admin/certify': {
			post: op(
				'Start a run for the capabilities declared (the simulator arms each step’s faults itself)',
				{
					'201': json(STATE),
					'409': json('A run is in progress.', ref('SimulatorError')),
					'422': json(
						'A field is not valid (VALIDATION_FAILED, naming each).',
						ref('SimulatorError')
					)
				},
				'CertifyStart'
			),
			get: op('The run in progress, or the last', {
				'200': json(STATE),
				'404': json('No run yet.', ref('SimulatorError'))
			})
		},
		'/api/admin/certify/advance': {
			post: op('The current step is done: judge it, start the next', {
				'200': json(STATE),
				'409': NO_RUN
			})
		},
		'/api/admin/certify/skip': {
			post: op(
				'Skip the current step, with a reason',
				{
					'200': json(STATE),
					'409': NO_RUN,
					'422': json('No reason (VALIDATION_FAILED).', ref('SimulatorError'))
				},
				'CertifySkip'
			)
		},
		'/api/admin/certify/stop': {
			post: op('Stop the run: the steps not reached are skipped', {
				'200': json(STATE),
				'409': NO_RUN
			})
		},
		'/api/admin/certify/report': {
			get: {
				...op('The report: JSON, JUnit XML (?format=junit) or printable HTML (?format=html)', {
					'200': {
						description: 'The report.',
						content: {
							'application/json': { schema: object },
							'application/xml': { schema: { type: 'string' } },
							'text/html': { schema: { type: 'string' } }
						}
					},
					'404': json('No run yet.', ref('SimulatorError'))
				}),
				parameters: [
					{
						name: 'format',
						in: 'query',
						required: false,
						schema: { type: 'string', enum: ['json', 'junit', 'html'] }
					}
				]
			}
		}
	};
}
