import { describe, expect, it } from 'vitest';
import {
	FAULT_KIND_TABLE,
	FAULT_KINDS,
	FaultSpecSchema,
	faultRouteOf,
	kindsWhere,
	losesOrder,
	parseFaultSpec
} from './fault-kinds.ts';
import { LiveFault } from './fault-firing.ts';
import { BUILT_IN_PROFILES } from './fault-profiles.ts';
import { seededRandom } from './random.ts';
import { expectedRetry, judgeFaults, orderFingerprint, type FaultTouch } from './fault-findings.ts';
import type { MessageEntry } from './message-entry.ts';

const spec = (input: unknown) => {
	const parsed = parseFaultSpec(input);
	if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
	return parsed.value;
};

describe('a fault as a tester writes it', () => {
	it('names every wrong field at once, an unknown one by its own name', () => {
		const parsed = parseFaultSpec({
			kind: 'lost-reply',
			screen: 'kds-1',
			count: -1,
			probability: 1.5,
			colour: 'red'
		});
		expect(parsed.ok).toBe(false);
		const paths = !parsed.ok ? parsed.errors.map((e) => e.path).sort() : [];
		expect(paths).toEqual(['colour', 'count', 'probability']);
	});

	it('an unknown kind lists the kinds', () => {
		const parsed = parseFaultSpec({ kind: 'wifi-gremlins' });
		expect(parsed).toEqual({
			ok: false,
			errors: [
				{
					path: 'kind',
					message: expect.stringMatching(
						/^expected one of down, lost-reply, .* got "wifi-gremlins"$/
					)
				}
			]
		});
	});

	it('a status outside the list, a negative delay and a missing screen are each named', () => {
		const status = parseFaultSpec({ kind: 'http-status', status: 418 });
		expect(!status.ok && status.errors.map((e) => e.path)).toEqual(['status']);
		const slow = parseFaultSpec({ kind: 'slow-reply', delayMs: -5 });
		expect(!slow.ok && slow.errors.map((e) => e.path).sort()).toEqual(['delayMs', 'screen']);
	});

	it('fills the defaults in (pieces, offline mode)', () => {
		expect(spec({ kind: 'reply-in-pieces', screen: 'kds-1' })).toMatchObject({
			pieces: 3,
			pauseMs: 200
		});
		expect(spec({ kind: 'cloud-offline', screen: 'kds-1' })).toMatchObject({ mode: 'fail' });
	});

	it('every built-in profile is valid', () => {
		for (const [name, make] of Object.entries(BUILT_IN_PROFILES)) {
			for (const input of make('kds-1'))
				expect([name, parseFaultSpec(input).ok]).toEqual([name, true]);
		}
	});
});

describe('when a fault fires', () => {
	it('for the next N only', () => {
		const fault = new LiveFault('f1', spec({ kind: 'lost-reply', screen: 'k', count: 2 }), 0, 1);
		expect([fault.fires(1), fault.fires(2), fault.fires(3)]).toEqual([true, true, false]);
		expect(fault.fired).toBe(2);
		expect(fault.active(4)).toBe(false);
	});

	it('for a while', () => {
		const fault = new LiveFault(
			'f1',
			spec({ kind: 'down', screen: 'k', durationMs: 100 }),
			1000,
			1
		);
		expect([fault.fires(1050), fault.fires(1099), fault.fires(1100)]).toEqual([true, true, false]);
	});

	it('with a probability: the same seed fires on the same messages', () => {
		const draws = (seed: number) => {
			const fault = new LiveFault(
				'f',
				spec({ kind: 'no-answer', screen: 'k', probability: 0.3, seed }),
				0,
				0
			);
			return Array.from({ length: 200 }, (_, i) => fault.fires(i));
		};
		expect(draws(42)).toEqual(draws(42));
		expect(draws(42)).not.toEqual(draws(43));
		const fired = draws(42).filter(Boolean).length;
		expect(fired).toBeGreaterThan(30);
		expect(fired).toBeLessThan(90);
	});

	it('a fault given no seed reports the one it drew, which replays it', () => {
		const a = new LiveFault(
			'f',
			spec({ kind: 'no-answer', screen: 'k', probability: 0.5 }),
			0,
			777
		);
		const b = new LiveFault(
			'f',
			spec({ kind: 'no-answer', screen: 'k', probability: 0.5, seed: a.seed }),
			0,
			1
		);
		const run = (f: LiveFault) => Array.from({ length: 50 }, (_, i) => f.fires(i));
		expect(run(a)).toEqual(run(b));
	});

	it('a delay range stays inside its bounds', () => {
		const fault = new LiveFault(
			'f',
			spec({ kind: 'slow-reply', screen: 'k', delayMs: 100, maxDelayMs: 200, seed: 5 }),
			0,
			0
		);
		const delays = Array.from({ length: 100 }, () => fault.delay());
		expect(Math.min(...delays)).toBeGreaterThanOrEqual(100);
		expect(Math.max(...delays)).toBeLessThanOrEqual(200);
		expect(new Set(delays).size).toBeGreaterThan(10);
	});

	it('the PRNG is uniform enough and deterministic', () => {
		const r = seededRandom(9);
		const xs = Array.from({ length: 10_000 }, r);
		const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
		expect(mean).toBeGreaterThan(0.48);
		expect(mean).toBeLessThan(0.52);
		expect(seededRandom(9)()).toBe(xs[0]);
	});

	it('routes by method and path, with or without the trailing slash', () => {
		expect(faultRouteOf('POST', '/integrators/kds-orders/')).toBe('create');
		expect(faultRouteOf('PUT', '/integrators/kds-orders')).toBe('update');
		expect(faultRouteOf('PUT', '/integrators/kds-orders/cancel')).toBe('cancel');
		expect(faultRouteOf('GET', '/integrators/kds-information/locations')).toBe('information');
		expect(faultRouteOf('POST', '/integrators/kds-notifications/customer-arrived')).toBe(
			'notifications'
		);
		expect(faultRouteOf('GET', '/api/locations')).toBeUndefined();
	});
});

const order = (id: string, name = 'Maria 🍔', items = [{ lineId: '1', name: '牛肉麺', qty: 2 }]) =>
	JSON.stringify({ command: 'create-order', order: { id, name, time: 0, mode: 'ToGo', items } });

function entry(
	id: number,
	at: number,
	source: string,
	orderId: string,
	raw: string,
	result = orderId
): MessageEntry {
	return {
		id,
		at,
		interface: 'tcp',
		source,
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId,
		result,
		ok: result === orderId,
		raw,
		findings: []
	};
}

function lostReplyTouch(source: string, orderId: string, messageId: number, at = 0): FaultTouch {
	return {
		id: messageId,
		at,
		faultId: 'f1',
		kind: 'lost-reply',
		interface: 'tcp',
		screenId: 'kds-1',
		source,
		command: 'create-order',
		orderId,
		fingerprint: orderFingerprint(JSON.parse(order(orderId)).order),
		committed: true,
		messageId
	};
}

describe("the POS's answer, judged", () => {
	it('re-sent the same id: fine, and the duplicate answer is explained', () => {
		const report = judgeFaults(
			[lostReplyTouch('10.0.0.7:5000', '1001', 1)],
			[
				entry(1, 0, '10.0.0.7:5000', '1001', order('1001')),
				entry(2, 10, '10.0.0.7:5001', '1001', order('1001'), 'DUPLICATE_ORDER_ID')
			]
		);
		expect(report.clients).toEqual([
			expect.objectContaining({
				client: 'tcp 10.0.0.7',
				verdict: 'ok',
				touched: { 'lost-reply': 1 }
			})
		]);
		expect(report.clients[0].findings.map((f) => f.rule)).toEqual(['KDS-FAULT-RESENT-SAME-ID']);
		expect(report.clients[0].findings[0].message).toContain('DUPLICATE_ORDER_ID');
	});

	it('re-sent under a new id: an error naming both ids (two tickets for one order)', () => {
		const report = judgeFaults(
			[lostReplyTouch('10.0.0.8:5000', '1001', 1)],
			[
				entry(1, 0, '10.0.0.8:5000', '1001', order('1001')),
				entry(2, 10, '10.0.0.8:5001', '1001-r', order('1001-r'))
			]
		);
		expect(report.clients[0].verdict).toBe('error');
		expect(report.clients[0].findings).toEqual([
			expect.objectContaining({
				rule: 'KDS-FAULT-RESENT-NEW-ID',
				severity: 'error',
				messageId: 2,
				message: expect.stringContaining('re-sent order 1001 as 1001-r')
			})
		]);
	});

	it('never re-sent nor asked: a warning; another client’s messages do not count', () => {
		const report = judgeFaults(
			[lostReplyTouch('10.0.0.9:5000', '1001', 1)],
			[
				entry(1, 0, '10.0.0.9:5000', '1001', order('1001')),
				entry(2, 10, '10.0.0.1:5001', '1001', order('1001'), 'DUPLICATE_ORDER_ID')
			]
		);
		const mine = report.clients.find((c) => c.client === 'tcp 10.0.0.9')!;
		expect(mine.findings.map((f) => f.rule)).toEqual(['KDS-FAULT-NEVER-RESENT']);
		expect(mine.verdict).toBe('warning');
	});

	it('a retry storm on a down screen', () => {
		const down = (i: number, at: number): FaultTouch => ({
			...lostReplyTouch('10.0.0.7:' + (6000 + i), '', i, at),
			kind: 'down',
			command: null,
			orderId: null,
			committed: false
		});
		const calm = judgeFaults(
			[0, 500, 1000, 2000, 4000].map((at, i) => down(i, at)),
			[]
		);
		expect(calm.clients[0].findings).toEqual([]);
		const storm = judgeFaults(
			[0, 50, 100, 150, 200, 250].map((at, i) => down(i, at)),
			[]
		);
		expect(storm.clients[0].findings.map((f) => f.rule)).toEqual(['KDS-FAULT-RETRY-STORM']);
	});

	it('asking for the active orders counts as asking; a new id after a fault that kept nothing is no error', () => {
		const asked = judgeFaults(
			[lostReplyTouch('10.0.0.7:5000', '1001', 1)],
			[
				entry(1, 0, '10.0.0.7:5000', '1001', order('1001')),
				{ ...entry(2, 10, '10.0.0.7:5001', '', ''), command: 'GET /integrators/kds-orders/active' }
			]
		);
		expect(asked.clients[0].findings).toEqual([]);
		const reset = judgeFaults(
			[
				{
					...lostReplyTouch('10.0.0.8:5000', '1001', 1),
					kind: 'reset-before-commit',
					committed: false
				}
			],
			[
				entry(1, 0, '10.0.0.8:5000', '1001', order('1001'), 'connection reset (fault)'),
				entry(2, 10, '10.0.0.8:5001', '1001-r', order('1001-r'))
			]
		);
		expect(reset.clients[0].verdict).toBe('ok');
	});

	it('a 429 retried before its Retry-After', () => {
		const touch: FaultTouch = {
			...lostReplyTouch('10.0.0.7:5000', '1001', 1),
			kind: 'http-status',
			interface: 'http',
			command: 'POST /integrators/kds-orders',
			committed: false,
			retryAfterMs: 2000
		};
		const http = (id: number, at: number) => ({
			...entry(id, at, '10.0.0.7:5001', '1001', order('1001')),
			interface: 'http' as const
		});
		expect(judgeFaults([touch], [http(2, 500)]).clients[0].findings.map((f) => f.rule)).toContain(
			'KDS-FAULT-RETRY-TOO-SOON'
		);
		expect(judgeFaults([touch], [http(2, 2500)]).clients[0].findings.map((f) => f.rule)).toEqual([
			'KDS-FAULT-RESENT-SAME-ID'
		]);
	});
});

describe('the one table of fault kinds', () => {
	it('the schema has one variant per kind of the table, and every kind is read', () => {
		const variants = FaultSpecSchema.options.map((v) => v.shape.kind.value as string);
		expect([...variants].sort()).toEqual([...FAULT_KINDS].sort());
		// Every kind acts somewhere: on a connection, a message, a reply, or the screen.
		for (const kind of FAULT_KINDS)
			expect(['connection', 'before-commit', 'reply', 'screen']).toContain(
				FAULT_KIND_TABLE[kind].stage
			);
		expect(kindsWhere({ transport: 'tcp', stage: 'connection' })).toEqual(['down']);
	});

	it('the kinds that lose an order unless re-sent: nothing kept, the client not told', () => {
		expect(FAULT_KINDS.filter(losesOrder)).toEqual([
			'reset-before-commit',
			'http-status',
			'http-drop'
		]);
		// The kinds a correct client re-sends after, and the screen then answers as a duplicate.
		expect(kindsWhere({ commits: true, outcomeUnknown: true })).toEqual([
			'lost-reply',
			'no-answer',
			'http-response-lost'
		]);
		expect(kindsWhere({ delay: true })).toEqual(['slow-reply', 'http-delay']);
	});
});

describe('an order lost for good, and storms against a rebooting screen', () => {
	const touch = (kind: FaultTouch['kind'], iface: 'tcp' | 'http' = 'tcp'): FaultTouch => ({
		...lostReplyTouch('10.0.0.5:5000', 'L-1', 1),
		kind,
		interface: iface,
		command: iface === 'tcp' ? 'create-order' : 'POST /integrators/kds-orders',
		committed: false
	});
	const sent = (id: number, at: number, orderId: string, iface: 'tcp' | 'http' = 'tcp') => ({
		...entry(id, at, '10.0.0.5:5001', orderId, order(orderId)),
		interface: iface
	});

	it.each([
		['reset-before-commit', 'tcp'],
		['http-drop', 'http'],
		['http-status', 'http']
	] as const)(
		'after %s, never re-sent: an error, KDS-FAULT-ORDER-LOST; a re-send of the id clears it',
		(kind, iface) => {
			const lost = judgeFaults([touch(kind, iface)], [{ ...sent(1, 0, 'L-1', iface), ok: false }]);
			expect(lost.clients[0].verdict).toBe('error');
			expect(lost.clients[0].findings).toEqual([
				expect.objectContaining({
					rule: 'KDS-FAULT-ORDER-LOST',
					severity: 'error',
					orderId: 'L-1',
					message: expect.stringContaining('never sent it again')
				})
			]);
			const resent = judgeFaults(
				[touch(kind, iface)],
				[{ ...sent(1, 0, 'L-1', iface), ok: false }, sent(2, 3000, 'L-1', iface)]
			);
			expect(resent.clients[0].verdict).toBe('ok');
			expect(resent.clients[0].findings.map((f) => f.rule)).toEqual(['KDS-FAULT-RESENT-SAME-ID']);
		}
	);

	it('a storm of connections to a rebooting screen is named as one to a down screen', () => {
		const away = (i: number, at: number): FaultTouch => ({
			...touch('reboot'),
			id: i,
			at,
			source: `10.0.0.5:${6000 + i}`,
			command: null,
			orderId: null,
			messageId: undefined
		});
		const storm = judgeFaults(
			[0, 40, 80, 120, 160].map((at, i) => away(i, at)),
			[]
		);
		expect(storm.clients[0].findings).toEqual([
			expect.objectContaining({
				rule: 'KDS-FAULT-RETRY-STORM',
				message: expect.stringContaining('while it was rebooting')
			})
		]);
		const calm = judgeFaults(
			[0, 300, 700, 1500, 2500, 5000].map((at, i) => away(i, at)),
			[]
		);
		expect(calm.clients[0].findings).toEqual([]);
	});
});

describe('a correct retry after a fault is expected, not refused', () => {
	const duplicate = {
		interface: 'tcp' as const,
		source: '10.0.0.7:5002',
		orderId: '1001',
		findings: [
			{ severity: 'error' as const, code: 'KDS-ORDER-DUPLICATE', path: 'order.id', message: 'dup' }
		]
	};

	it('the same id answered DUPLICATE_ORDER_ID after a lost reply: info, naming the fault', () => {
		const found = expectedRetry(duplicate, [lostReplyTouch('10.0.0.7:5000', '1001', 1)]);
		expect(found).toEqual({
			fault: 'lost-reply (f1)',
			finding: expect.objectContaining({
				severity: 'info',
				code: 'KDS-FAULT-RETRY-EXPECTED',
				message: expect.stringContaining('after the lost-reply (f1) kept the order')
			})
		});
	});

	it('no fault, another client, a fault that kept nothing, or no duplicate decision: not expected', () => {
		expect(expectedRetry(duplicate, [])).toBeNull();
		expect(expectedRetry(duplicate, [lostReplyTouch('10.0.0.8:5000', '1001', 1)])).toBeNull();
		expect(
			expectedRetry(duplicate, [
				{
					...lostReplyTouch('10.0.0.7:5000', '1001', 1),
					kind: 'reset-before-commit',
					committed: false
				}
			])
		).toBeNull();
		// The touch of this very message (not yet logged) does not explain it.
		expect(
			expectedRetry(duplicate, [
				{ ...lostReplyTouch('10.0.0.7:5000', '1001', 1), messageId: undefined }
			])
		).toBeNull();
		expect(
			expectedRetry({ ...duplicate, findings: [] }, [lostReplyTouch('10.0.0.7:5000', '1001', 1)])
		).toBeNull();
	});
});
