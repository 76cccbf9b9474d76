/**
 * Faults on cue over HTTP (admin API, docs/faults.md), a section of its own:
 *
 *   GET    /api/admin/faults            every fault, with how often each fired
 *   POST   /api/admin/faults            add one `{kind, ...}`, several `{faults: [...]}`, or a
 *                                       profile `{profile, screen?}` (the config's own or built
 *                                       in); all or none (422 naming each)
 *   DELETE /api/admin/faults/:id        remove one
 *   POST   /api/admin/faults/reset      remove every fault
 *   GET    /api/admin/faults/report     what each client did after each fault (JSON)
 *   GET    /api/faults                  which screens have a fault on (no customer data: the
 *                                       screens' plain indicator reads it)
 *
 * Its answers are declared here (FAULT_RESPONSES) and documented by ./faults-openapi.ts.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { FAULT_KINDS } from '#core/fault-kinds';
import { judgeFaults } from '#core/fault-findings';
import { formatErrors } from '#core/parse';
import type { Faults } from '../faults/registry.ts';
import type { MessageLog } from '../inspector/message-log.ts';
import { validationError } from './integrators/errors.ts';
import { SimulatorErrorSchema } from './responses.ts';

const FaultSchema = z
	.looseObject({
		id: z.string(),
		kind: z.enum(FAULT_KINDS),
		addedAt: z.number(),
		fired: z.int(),
		seed: z.int(),
		active: z.boolean()
	})
	.describe('A fault as added (its fields as given, defaults filled in), with its state.');

export const FaultListSchema = z.strictObject({ faults: z.array(FaultSchema) });
export const FaultsAddedSchema = z.strictObject({ added: z.array(FaultSchema) });
export const FaultsOnSchema = z.strictObject({
	any: z.boolean(),
	screens: z.record(z.string(), z.array(z.string()))
});
const FindingSchema = z.strictObject({
	rule: z.string(),
	severity: z.enum(['error', 'warning', 'info']),
	client: z.string(),
	faultId: z.string(),
	kind: z.enum(FAULT_KINDS),
	touchId: z.int(),
	orderId: z.string().nullable(),
	messageId: z.int().optional(),
	message: z.string()
});
export const ResilienceReportSchema = z.strictObject({
	clients: z.array(
		z.strictObject({
			client: z.string(),
			touched: z.record(z.string(), z.int()),
			verdict: z.enum(['ok', 'warning', 'error']),
			findings: z.array(FindingSchema)
		})
	)
});

const GUARDED = { 403: SimulatorErrorSchema };
export const FAULT_RESPONSES = {
	'GET /api/admin/faults': { 200: FaultListSchema, ...GUARDED },
	'POST /api/admin/faults': { 201: FaultsAddedSchema, 422: SimulatorErrorSchema, ...GUARDED },
	'DELETE /api/admin/faults/:id': {
		200: z.strictObject({ removed: z.string() }),
		404: SimulatorErrorSchema,
		...GUARDED
	},
	'POST /api/admin/faults/reset': { 200: z.strictObject({ removed: z.int() }), ...GUARDED },
	'GET /api/admin/faults/report': { 200: ResilienceReportSchema, ...GUARDED },
	'GET /api/faults': { 200: FaultsOnSchema }
} satisfies Record<string, Record<number, z.ZodType>>;

const asJson = () => JSON.stringify;
const declared = (route: keyof typeof FAULT_RESPONSES) => ({
	schema: { response: FAULT_RESPONSES[route] },
	serializerCompiler: asJson
});

/**
 * The specs a POST body stands for: one fault, a list, or a profile (the config's own or a
 * built-in one), on a screen or, named without one, as the config and `--faults` put it.
 */
function specsOf(
	body: unknown,
	faults: Faults
): { specs: unknown[] } | { errors: { path: string; message: string }[] } {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		return {
			errors: [
				{ path: '', message: 'expected a fault {kind, ...}, {faults: [...]} or {profile, screen}' }
			]
		};
	const {
		faults: list,
		profile,
		screen
	} = body as {
		faults?: unknown;
		profile?: unknown;
		screen?: unknown;
	};
	if (list !== undefined) {
		if (!Array.isArray(list) || list.length === 0)
			return { errors: [{ path: 'faults', message: 'expected a non-empty array of faults' }] };
		return { specs: list };
	}
	if (profile !== undefined) {
		const errors = [];
		if (typeof profile !== 'string')
			errors.push({
				path: 'profile',
				message: `expected one of ${faults.profileNames().join(', ')}, got ${JSON.stringify(profile)}`
			});
		if (screen !== undefined && typeof screen !== 'string')
			errors.push({ path: 'screen', message: 'expected a screen id' });
		if (errors.length > 0) return { errors };
		const made = faults.profile(profile as string, screen as string | undefined);
		return made.ok ? { specs: made.specs } : { errors: made.errors };
	}
	return { specs: [body] };
}

export function registerFaultsApi(
	app: FastifyInstance,
	faults: Faults,
	messages: MessageLog
): void {
	app.get('/api/admin/faults', declared('GET /api/admin/faults'), async () => ({
		faults: faults.list()
	}));

	app.post('/api/admin/faults', declared('POST /api/admin/faults'), async (req, reply) => {
		const read = specsOf(req.body, faults);
		const result =
			'errors' in read ? { ok: false as const, errors: read.errors } : faults.add(read.specs);
		if (!result.ok) throw validationError(result.errors, formatErrors(result.errors));
		const ids = new Set(result.added.map((fault) => fault.id));
		return reply.code(201).send({ added: faults.list().filter((fault) => ids.has(fault.id)) });
	});

	app.delete<{ Params: { id: string } }>(
		'/api/admin/faults/:id',
		declared('DELETE /api/admin/faults/:id'),
		async (req, reply) => {
			if (!faults.remove(req.params.id))
				return reply.code(404).send({
					code: 'NOT_FOUND',
					message: `No fault ${req.params.id} (see GET /api/admin/faults)`
				});
			return { removed: req.params.id };
		}
	);

	app.post('/api/admin/faults/reset', declared('POST /api/admin/faults/reset'), async () => {
		const removed = faults.list().length;
		faults.reset();
		return { removed };
	});

	app.get('/api/admin/faults/report', declared('GET /api/admin/faults/report'), async () =>
		judgeFaults(faults.touchedList(), messages.list({ limit: 999_999 }))
	);

	app.get('/api/faults', declared('GET /api/faults'), async () => ({
		any: faults.any,
		screens: faults.byScreen()
	}));
}
