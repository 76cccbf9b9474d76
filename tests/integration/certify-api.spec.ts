/**
 * The certification run over the admin API (docs/certify.md), as a POS team's harness drives
 * it: start with declared capabilities, read the step, do it over TCP, advance; the simulator
 * arms the bad day's fault itself; the report in JSON, JUnit and HTML. A bad start names every
 * field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent?.close());

async function call(method: string, path: string, body?: unknown) {
	const res = await fetch(`${agent.httpUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	const text = await res.text();
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' shapes are what is tested
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: res.status, json, text, type: res.headers.get('content-type') ?? '' };
}

const order = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: 'Zoë Ødegård',
		phoneNumber: '+15551234567',
		time: '2026-05-01T12:00:00Z',
		mode: 'ToGo',
		items: [{ lineId: '1', name: '寿司 Sushi 🍣', qty: 2, mods: [{ name: 'No wasabi' }] }]
	}
});

describe('POST /api/admin/certify', () => {
	it('answers 404 before any run, and 422 naming every bad field of a start', async () => {
		expect((await call('GET', '/api/admin/certify')).status).toBe(404);
		const bad = await call('POST', '/api/admin/certify', {
			capabilities: ['tcp', 'fax'],
			seed: -1,
			colour: 'red'
		});
		expect(bad.status).toBe(422);
		expect(bad.json.code).toBe('VALIDATION_FAILED');
		const paths = bad.json.errors.map((e: { path: string }) => e.path).sort();
		expect(paths).toEqual(['capabilities[1]', 'colour', 'seed']);
		expect(bad.json.errors.find((e: { path: string }) => e.path === 'colour').message).toMatch(
			/^unknown field; the fields are capabilities, seed, screen, scenarios$/
		);
		expect(bad.json.message).toBe(
			'capabilities[1]: expected one of "tcp", "http", "courses", "itemGroups", "notifications", "webhooks", "scheduled", got "fax"; seed: expected at least 0; colour: unknown field; the fields are capabilities, seed, screen, scenarios'
		);
		const unknown = await call('POST', '/api/admin/certify', {
			capabilities: ['tcp'],
			scenarios: ['KDS-CERT-TCP-001', 'KDS-CERT-NOPE']
		});
		expect(unknown.status).toBe(422);
		expect(unknown.json.errors).toEqual([
			{ path: 'scenarios[1]', message: expect.stringMatching(/^no scenario "KDS-CERT-NOPE"/) }
		]);
	});

	it('walks a TCP POS through a good-day step and a lost reply it retries well: PASS, with the report', async () => {
		const started = await call('POST', '/api/admin/certify', {
			capabilities: ['tcp'],
			seed: 44,
			scenarios: ['KDS-CERT-TCP-001', 'KDS-CERT-TCP-003', 'KDS-CERT-BAD-001']
		});
		expect(started.status).toBe(201);
		const state = started.json;
		expect(state).toMatchObject({ seed: 44, state: 'running', capabilities: ['tcp'] });
		expect(state.steps.map((s: { status: string }) => s.status)).toEqual([
			'current',
			'not-applicable',
			'pending'
		]);
		expect(state.current).toMatchObject({
			id: 'KDS-CERT-TCP-001',
			step: { interface: 'tcp', actions: ['create'], needs: ['lineIds', 'modifiers'] },
			live: { verdict: 'FAIL', reason: 'nothing was sent over TCP during the step' }
		});
		expect((await call('POST', '/api/admin/certify', { capabilities: ['tcp'] })).status).toBe(409);
		const { host, port } = state.target.tcp;

		expect(await sendTcp(host, port, JSON.stringify(order('C-1')))).toBe('C-1');
		const live = (await call('GET', '/api/admin/certify')).json.current.live;
		expect(live.verdict).toBe('PASS');

		const second = (await call('POST', '/api/admin/certify/advance')).json;
		expect(second.current.id).toBe('KDS-CERT-BAD-001');
		expect(second.steps[0]).toMatchObject({ status: 'done', verdict: 'PASS' });
		const faults = (await call('GET', '/api/admin/faults')).json.faults;
		expect(faults).toEqual([
			expect.objectContaining({ kind: 'lost-reply', screen: state.target.screen, count: 1 })
		]);

		// The reply is lost; the careful POS sends the same id again and reads DUPLICATE_ORDER_ID.
		expect(await sendTcp(host, port, JSON.stringify(order('L-1')))).toBe('');
		expect(await sendTcp(host, port, JSON.stringify(order('L-1')))).toBe('DUPLICATE_ORDER_ID');
		const finished = (await call('POST', '/api/admin/certify/advance')).json;
		expect(finished.state).toBe('finished');
		expect(finished.current).toBeNull();
		expect(finished.verdict).toBe('PASS');
		expect(finished.steps.map((s: { verdict: string }) => s.verdict)).toEqual([
			'PASS',
			'NOT_APPLICABLE',
			'PASS'
		]);
		expect((await call('GET', '/api/admin/faults')).json.faults).toEqual([]);
		expect((await call('POST', '/api/admin/certify/advance')).status).toBe(409);

		const report = (await call('GET', '/api/admin/certify/report')).json;
		expect(report).toMatchObject({
			schemaVersion: 1,
			suiteVersion: expect.any(String),
			seed: 44,
			simulator: { name: 'kds-sim', version: expect.any(String) },
			capabilities: ['tcp'],
			verdict: 'PASS',
			sha256: expect.stringMatching(/^[0-9a-f]{64}$/)
		});
		expect(report.notVendorCertification).toMatch(/not the kitchen display vendor’s certification/);
		expect(report.scenarios[2].reason).toMatch(/DUPLICATE_ORDER_ID: expected/);
		const payloads = report.transcript.map((t: { payload: string }) => t.payload).join('\n');
		expect(payloads).toContain('寿司 Sushi 🍣');
		expect(payloads).not.toContain('Zoë');
		expect(payloads).not.toContain('+1555');

		const junit = await call('GET', '/api/admin/certify/report?format=junit');
		expect(junit.type).toMatch(/application\/xml/);
		expect(junit.text).toMatch(
			/<testcase classname="kds-sim.certify.good-day" name="KDS-CERT-TCP-001 /
		);
		expect(junit.text).toMatch(/<skipped message="NOT_APPLICABLE: needs courses, not declared"\/>/);
		const html = await call('GET', '/api/admin/certify/report?format=html');
		expect(html.type).toMatch(/text\/html/);
		expect(html.text).toContain('Not the vendor’s certification.');
		expect(html.text).not.toContain('Zoë');
		expect((await call('GET', '/api/admin/certify/report?format=pdf')).status).toBe(422);
	});

	it('skips with a reason (422 without one), stops, and the steps not reached are SKIPPED', async () => {
		await call('POST', '/api/admin/certify', {
			capabilities: ['http'],
			scenarios: ['KDS-CERT-HTTP-001', 'KDS-CERT-HTTP-004', 'KDS-CERT-BAD-103']
		});
		const noReason = await call('POST', '/api/admin/certify/skip', { reason: ' ' });
		expect(noReason.status).toBe(422);
		expect(noReason.json.errors[0].path).toBe('reason');
		const skipped = (
			await call('POST', '/api/admin/certify/skip', { reason: 'no modifiers on our menu' })
		).json;
		expect(skipped.steps[0]).toMatchObject({
			status: 'skipped',
			verdict: 'SKIPPED',
			reason: 'no modifiers on our menu'
		});
		const stopped = (await call('POST', '/api/admin/certify/stop')).json;
		expect(stopped.state).toBe('finished');
		expect(stopped.steps.map((s: { verdict: string }) => s.verdict)).toEqual([
			'SKIPPED',
			'SKIPPED',
			'SKIPPED'
		]);
		expect(stopped.steps[1].reason).toBe('the run was stopped during this step');
		expect(stopped.steps[2].reason).toBe('not reached: the run was stopped first');
		expect((await call('POST', '/api/admin/certify/stop')).status).toBe(409);
	});
});
