import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FaultTouch } from '../fault-findings.ts';
import type { MessageEntry } from '../message-entry.ts';
import type { WebhookDelivery } from '../webhooks.ts';
import { CAPABILITIES, SCENARIOS, scenarioById, SUITE_VERSION } from './catalog.ts';
import type { StepEvidence } from './evidence.ts';
import { judgeScenario, overallVerdict } from './judge.ts';

let nextId = 1;
function entry(over: Partial<MessageEntry> & { payload?: unknown }): MessageEntry {
	const { payload, ...rest } = over;
	return {
		id: nextId++,
		at: 1000 + nextId * 10,
		interface: 'tcp',
		source: '127.0.0.1:50000',
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId: 'A-1',
		result: 'A-1',
		ok: true,
		raw: JSON.stringify(payload ?? {}),
		findings: [],
		...rest
	};
}
const order = (id: string, extra: Record<string, unknown> = {}) => ({
	command: 'create-order',
	order: {
		id,
		name: 'Zoë',
		time: '2026-05-01T12:00:00Z',
		mode: 'ToGo',
		items: [{ lineId: '1', name: '寿司', qty: 2, mods: [{ name: 'No wasabi' }] }],
		...extra
	}
});
const done = (messages: MessageEntry[], more: Partial<StepEvidence> = {}): StepEvidence => ({
	status: 'done',
	messages,
	touches: [],
	deliveries: [],
	...more
});
const all = [...CAPABILITIES];
const judge = (id: string, evidence: StepEvidence, caps = all) =>
	judgeScenario(scenarioById(id)!, evidence, caps);

describe('the catalog', () => {
	it('has stable, unique ids, a suite version, and a sentence and a step for each', () => {
		const ids = SCENARIOS.map((s) => s.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(SUITE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
		for (const s of SCENARIOS) {
			expect(s.id).toMatch(/^KDS-CERT-(TCP|HTTP|HOOK|BAD)-\d{3}$/);
			expect(s.instruction.length).toBeGreaterThan(10);
			expect(s.step.actions.length).toBeGreaterThan(0);
			expect(s.needs).toContain(s.step.interface);
		}
		expect(ids).toContain('KDS-CERT-TCP-001');
		expect(ids).toContain('KDS-CERT-HOOK-002');
	});

	it('is documented: docs/certify.md names every scenario id, and no other', () => {
		const doc = readFileSync(new URL('../../docs/certify.md', import.meta.url), 'utf8');
		const named = new Set(doc.match(/KDS-CERT-[A-Z]+-\d{3}/g));
		expect([...named].sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
	});
});

describe('the good day', () => {
	it('passes a create with line ids and modifiers, accepted without warnings', () => {
		const v = judge('KDS-CERT-TCP-001', done([entry({ payload: order('A-1') })]));
		expect(v.verdict).toBe('PASS');
	});

	it('fails a create without modifiers, naming it', () => {
		const o = order('A-1');
		o.order.items = [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }];
		const v = judge('KDS-CERT-TCP-001', done([entry({ payload: o })]));
		expect(v.verdict).toBe('FAIL');
		expect(v.reason).toMatch(/no item carried modifiers/);
	});

	it('warns on a create accepted with a warning the core found (time without offset)', () => {
		const v = judge(
			'KDS-CERT-TCP-010',
			done([
				entry({
					payload: order('A-1'),
					findings: [
						{ severity: 'warning', code: 'KDS-TIME-NO-OFFSET', path: 'order.time', message: 'x' }
					]
				})
			])
		);
		expect(v.verdict).toBe('FAIL');
		expect(v.reason).toMatch(/KDS-TIME-NO-OFFSET/);
		const w = judge(
			'KDS-CERT-TCP-004',
			done([
				entry({
					payload: order('A-1', { priority: true }),
					findings: [
						{ severity: 'warning', code: 'KDS-TIME-NO-OFFSET', path: 'order.time', message: 'x' }
					]
				})
			])
		);
		expect(w.verdict).toBe('WARN');
	});

	it('fails a refused create with the screen’s own reason, and nothing sent', () => {
		const v = judge(
			'KDS-CERT-TCP-001',
			done([
				entry({
					payload: order('A-1'),
					ok: false,
					result: 'Unable to parse data',
					why: 'mode: expected one of …'
				})
			])
		);
		expect(v.verdict).toBe('FAIL');
		expect(v.reason).toBe('the create was refused: mode: expected one of …');
		expect(judge('KDS-CERT-HTTP-001', done([])).reason).toBe(
			'nothing was sent over HTTP during the step'
		);
	});

	it('is not applicable without the capability, and skipped with the reason given', () => {
		expect(judge('KDS-CERT-TCP-003', done([]), ['tcp']).verdict).toBe('NOT_APPLICABLE');
		const s = judge('KDS-CERT-TCP-001', { ...done([]), status: 'skipped', skipReason: 'no mods' });
		expect([s.verdict, s.reason]).toEqual(['SKIPPED', 'no mods']);
	});
});

const touch = (over: Partial<FaultTouch>): FaultTouch => ({
	id: 1,
	at: 2000,
	faultId: 'f1',
	kind: 'lost-reply',
	interface: 'tcp',
	screenId: 'kds-1',
	source: '127.0.0.1:50000',
	command: 'create-order',
	orderId: 'L-1',
	fingerprint: 'Zoë|2x寿司',
	committed: true,
	...over
});

describe('the bad day', () => {
	it('a correct retry after a lost reply passes: DUPLICATE_ORDER_ID is expected, not an error', () => {
		const first = entry({
			at: 2000,
			orderId: 'L-1',
			payload: order('L-1'),
			fault: 'lost-reply (f1)'
		});
		const retry = entry({
			at: 2500,
			source: '127.0.0.1:50001',
			orderId: 'L-1',
			payload: order('L-1'),
			ok: false,
			result: 'DUPLICATE_ORDER_ID'
		});
		const v = judge(
			'KDS-CERT-BAD-001',
			done([first, retry], { touches: [touch({ messageId: first.id })] })
		);
		expect(v.verdict).toBe('PASS');
		expect(v.reason).toMatch(/same id sent again .*DUPLICATE_ORDER_ID: expected/);
	});

	it('a retry under a new id after a lost reply fails: two tickets', () => {
		const first = entry({ at: 2000, orderId: 'L-1', payload: order('L-1') });
		const twin = entry({ at: 2500, orderId: 'L-2', result: 'L-2', payload: order('L-2') });
		const v = judge(
			'KDS-CERT-BAD-001',
			done([first, twin], { touches: [touch({ messageId: first.id })] })
		);
		expect(v.verdict).toBe('FAIL');
		expect(v.findings).toContain('KDS-FAULT-RESENT-NEW-ID');
	});

	it('an order never re-sent after a reset before commit is lost for good: FAIL, KDS-FAULT-ORDER-LOST', () => {
		const v = judge(
			'KDS-CERT-BAD-002',
			done([], { touches: [touch({ kind: 'reset-before-commit', committed: false })] })
		);
		expect(v.verdict).toBe('FAIL');
		expect(v.reason).toMatch(/^KDS-FAULT-ORDER-LOST: order L-1 was not kept/);
		expect(v.findings).toContain('KDS-FAULT-ORDER-LOST');
		const again = entry({ at: 2300, orderId: 'L-1', payload: order('L-1') });
		expect(
			judge(
				'KDS-CERT-BAD-002',
				done([again], { touches: [touch({ kind: 'reset-before-commit', committed: false })] })
			).verdict
		).toBe('PASS');
	});

	it('a retry before Retry-After fails; one after it passes', () => {
		const t = touch({
			kind: 'http-status',
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			committed: false,
			at: 2000
		});
		const at = (ms: number) =>
			entry({
				at: 2000 + ms,
				interface: 'http',
				command: 'POST /integrators/kds-orders',
				orderId: 'L-1',
				result: '201',
				payload: order('L-1').order
			});
		expect(judge('KDS-CERT-BAD-101', done([at(300)], { touches: [t] })).verdict).toBe('FAIL');
		expect(judge('KDS-CERT-BAD-101', done([at(2100)], { touches: [t] })).verdict).toBe('PASS');
	});

	it('a slow answer the POS gave up on, re-sent under a new id, is two tickets, logged or not', () => {
		// The first request was kept (http-delay commits) but its client left before the late
		// answer: only the fault's touch tells of it.
		const kept = touch({
			kind: 'http-delay',
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			orderId: 'S-1',
			fingerprint: 'Zoë|2x寿司'
		});
		const again = entry({
			at: 2100,
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			orderId: 'S-1-R',
			result: '201',
			payload: order('S-1-R').order
		});
		const v = judge('KDS-CERT-BAD-106', done([again], { touches: [kept] }));
		expect([v.verdict, v.reason]).toEqual([
			'FAIL',
			'two tickets for one order: S-1 (fault f1) and S-1-R (#' +
				again.id +
				'): re-sent under a new id'
		]);
		const waited = entry({
			at: 5000,
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			orderId: 'S-1',
			result: '201',
			payload: order('S-1').order
		});
		expect(judge('KDS-CERT-BAD-106', done([waited], { touches: [kept] })).verdict).toBe('PASS');
	});

	it('a storm against a screen that is down fails; an order that never arrives is lost', () => {
		const downs = [0, 100, 200, 300, 400].map((ms, i) =>
			touch({
				id: i + 1,
				kind: 'down',
				at: 2000 + ms,
				command: null,
				orderId: null,
				committed: false
			})
		);
		const v = judge('KDS-CERT-BAD-003', done([], { touches: downs }));
		expect(v.verdict).toBe('FAIL');
		expect(v.reason).toMatch(/^KDS-FAULT-RETRY-STORM/);
		const slow = downs.slice(0, 2);
		expect(judge('KDS-CERT-BAD-003', done([], { touches: slow })).reason).toMatch(
			/^KDS-FAULT-ORDER-LOST/
		);
		const landed = entry({ at: 6000, payload: order('A-1') });
		expect(judge('KDS-CERT-BAD-003', done([landed], { touches: slow })).verdict).toBe('PASS');
	});
});

describe('the kitchen talks back', () => {
	const delivery = (id: string, ok: boolean, status: number | null): WebhookDelivery => ({
		id,
		endpoint: 'e1',
		event: 'KDS Order Created',
		order: 'A-1',
		device: 'kds-1',
		status: ok ? 'delivered' : 'pending',
		attempts: 1,
		maxAttempts: 3,
		nextAt: null,
		createdAt: '2026-05-01T12:00:00Z',
		resendOf: null,
		log: [{ attempt: 1, at: '2026-05-01T12:00:00Z', status, answer: ok ? '' : 'timed out', ok }],
		body: {} as WebhookDelivery['body']
	});
	it('passes 2xx answers, fails a time-out, and wants both deliveries answered', () => {
		expect(
			judge('KDS-CERT-HOOK-001', done([], { deliveries: [delivery('d1', true, 200)] })).verdict
		).toBe('PASS');
		const late = judge(
			'KDS-CERT-HOOK-001',
			done([], { deliveries: [delivery('d1', false, null)] })
		);
		expect([late.verdict, late.reason]).toEqual([
			'FAIL',
			'delivery d1: no answer in time (timed out)'
		]);
		expect(
			judge('KDS-CERT-HOOK-002', done([], { deliveries: [delivery('d1', true, 200)] })).verdict
		).toBe('FAIL');
		expect(
			judge(
				'KDS-CERT-HOOK-002',
				done([], { deliveries: [delivery('d1', true, 200), delivery('d2', true, 204)] })
			).verdict
		).toBe('PASS');
	});
	it('the run is FAIL when any scenario failed, WARN when any warned', () => {
		expect(overallVerdict([{ verdict: 'PASS' }, { verdict: 'NOT_APPLICABLE' }])).toBe('PASS');
		expect(overallVerdict([{ verdict: 'WARN' }, { verdict: 'PASS' }])).toBe('WARN');
		expect(overallVerdict([{ verdict: 'WARN' }, { verdict: 'FAIL' }])).toBe('FAIL');
	});
});
