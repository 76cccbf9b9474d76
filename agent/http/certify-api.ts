/**
 * Certification runs over HTTP (admin API, docs/certify.md), guarded like the rest of
 * /api/admin. One run at a time; the simulator arms each step's faults itself.
 *
 *   GET  /api/admin/certify/scenarios   {suiteVersion, scenarios: Scenario[]} (core/certify/catalog.ts)
 *   POST /api/admin/certify             start: {capabilities: Capability[] (≥1), seed?: int,
 *                                       screen?: string, scenarios?: string[]}
 *                                       → 201 RunState; 409 a run is in progress; 422 VALIDATION_FAILED
 *                                       with `errors: [{path, message}]` naming every bad field
 *   GET  /api/admin/certify             → 200 RunState (the run in progress, or the last); 404 none yet
 *   POST /api/admin/certify/advance     the current step is done → 200 RunState (next step current,
 *                                       its faults armed); 409 no run in progress
 *   POST /api/admin/certify/skip        {reason: string (1-500)} → 200 RunState; 409; 422
 *   POST /api/admin/certify/stop        → 200 RunState (state finished; steps not reached SKIPPED)
 *   GET  /api/admin/certify/report      ?format=json (default) | junit | html → the report; 404 none
 *
 * RunState (agent/certify/run.ts runState):
 *   { runId, suiteVersion, seed, capabilities, target: {screen, location, tcp: {host, port}},
 *     state: 'running' | 'finished', startedAt, endedAt: string | null,
 *     verdict: 'PASS' | 'FAIL' | 'WARN' (so far), counts: {PASS, FAIL, WARN, SKIPPED, NOT_APPLICABLE},
 *     current: null | { index, id, title, group, instruction, step: HarnessStep, simulator, checks,
 *                       faults: string[] (fault ids armed), armError: string | null, startedAt,
 *                       live: {verdict, reason, seen: [{ref, at, what}]} (the judge on what was seen so far) },
 *     steps: [{ id, title, group, status: 'pending'|'current'|'done'|'skipped'|'not-applicable',
 *               skipReason: string | null, verdict: Verdict | null, reason: string | null }] }
 *
 * The report (agent/certify/report.ts CertifyReport): { schemaVersion, suiteVersion, runId, seed,
 *   simulator: {name, version}, notVendorCertification, capabilities, target, startedAt, endedAt,
 *   verdict, counts, scenarios: ScenarioVerdict[] (id, version, title, group, verdict, reason,
 *   expected, seen, messageIds, findings), transcript: [{id, at, scenario, interface, command,
 *   orderId, result, ok, fault, findings, payload (redacted)}], sha256 }.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as z from 'zod';
import { CAPABILITIES } from '#core/certify/catalog';
import { formatErrors, parseWith } from '#core/parse';
import { CertifyError, runState, type CertifyRuns } from '../certify/run.ts';
import { buildReport, catalog, junitXml, reportHtml } from '../certify/report.ts';
import { validationError } from './integrators/errors.ts';
import { parseQuery, choiceParam } from './query.ts';

export const CertifyStartSchema = z.object({
	capabilities: z
		.array(z.enum(CAPABILITIES))
		.min(1)
		.describe(
			'What the POS does: tcp and/or http, and courses, itemGroups, notifications, webhooks, scheduled.'
		),
	seed: z
		.int()
		.min(0)
		.max(2 ** 32 - 1)
		.optional()
		.describe('Seed of the faults’ draws: the same seed arms the same faults.'),
	screen: z.string().min(1).optional().describe('The screen to certify on (default: the first).'),
	scenarios: z.array(z.string().min(1)).min(1).optional().describe('Only these scenario ids.')
});

export const CertifySkipSchema = z.object({
	reason: z
		.string()
		.trim()
		.min(1)
		.max(500)
		.describe('Why the step is skipped (shown in the report).')
});

/**
 * A body read by a schema, every wrong field named: the schema's own errors, and each field it
 * does not have (`colour: unknown field; the fields are …`).
 */
function readBody<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
	const input = body ?? {};
	const parsed = parseWith(schema, input);
	const known = Object.keys(schema.shape);
	const unknown =
		typeof input === 'object' && !Array.isArray(input)
			? Object.keys(input as object)
					.filter((key) => !known.includes(key))
					.map((key) => ({
						path: key,
						message: `unknown field; the fields are ${known.join(', ')}`
					}))
			: [];
	const errors = [...(parsed.ok ? [] : parsed.errors), ...unknown];
	if (errors.length > 0 || !parsed.ok) throw validationError(errors, formatErrors(errors));
	return parsed.value;
}

const ReportQuerySchema = z.object({ format: choiceParam(['json', 'junit', 'html']) });

const asJson = () => JSON.stringify;
const raw = { serializerCompiler: asJson };

/** A run's refusal: 422 names the fields; 404 and 409 are `{code, message}`. */
function refusal(reply: FastifyReply, err: unknown) {
	if (!(err instanceof CertifyError)) throw err;
	if (err.status === 422) throw validationError(err.errors, err.message);
	return reply
		.code(err.status)
		.send({ code: err.status === 404 ? 'NOT_FOUND' : 'ACTION_REFUSED', message: err.message });
}

export function registerCertifyApi(app: FastifyInstance, runs: CertifyRuns, version: string): void {
	app.get('/api/admin/certify/scenarios', raw, async () => catalog());

	app.post('/api/admin/certify', raw, async (req, reply) => {
		const body = readBody(CertifyStartSchema, req.body);
		try {
			runs.start(body);
		} catch (err) {
			return refusal(reply, err);
		}
		return reply.code(201).send(runState(runs));
	});

	app.get('/api/admin/certify', raw, async (_req, reply) => {
		const state = runState(runs);
		if (!state)
			return reply.code(404).send({
				code: 'NOT_FOUND',
				message: 'no certification run yet: POST /api/admin/certify starts one'
			});
		return state;
	});

	app.post('/api/admin/certify/advance', raw, async (_req, reply) => {
		try {
			await runs.advance();
		} catch (err) {
			return refusal(reply, err);
		}
		return runState(runs);
	});

	app.post('/api/admin/certify/skip', raw, async (req, reply) => {
		const { reason } = readBody(CertifySkipSchema, req.body);
		try {
			await runs.skip(reason);
		} catch (err) {
			return refusal(reply, err);
		}
		return runState(runs);
	});

	app.post('/api/admin/certify/stop', raw, async (_req, reply) => {
		try {
			await runs.stop();
		} catch (err) {
			return refusal(reply, err);
		}
		return runState(runs);
	});

	app.get('/api/admin/certify/report', raw, async (req, reply) => {
		const { format } = parseQuery(ReportQuerySchema, req.query);
		const report = buildReport(runs, version);
		if (!report)
			return reply.code(404).send({
				code: 'NOT_FOUND',
				message: 'no certification run yet: POST /api/admin/certify starts one'
			});
		if (format === 'junit')
			return reply.type('application/xml; charset=utf-8').send(junitXml(report));
		if (format === 'html') return reply.type('text/html; charset=utf-8').send(reportHtml(report));
		return report;
	});
}
