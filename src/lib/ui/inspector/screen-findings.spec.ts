import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
	entry,
	error,
	fakeAgent,
	info,
	json,
	warning
} from '../../../../tests/doubles/inspector-agent.ts';
import {
	markerOf,
	recentRefusals,
	REFUSAL_WINDOW_MS,
	ScreenFindings
} from './screen-findings.svelte';

describe('markerOf', () => {
	it('counts warnings and errors, red when any is an error, none for infos', () => {
		expect(markerOf([info('KDS-MODS-PLAIN-STRING', 'a')])).toBeNull();
		expect(markerOf([warning('A', 'a'), info('B', 'b')])).toEqual({
			count: 1,
			severity: 'warning'
		});
		expect(markerOf([warning('A', 'a'), error('B', 'b')])).toEqual({ count: 2, severity: 'error' });
	});
});

describe('ScreenFindings', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('keeps per order the union of the warnings and errors of its messages', async () => {
		const agent = fakeAgent(() =>
			json([
				entry(2, { orderId: 'A', findings: [warning('KDS-FIELD-UNKNOWN', 'order.x')] }),
				entry(1, {
					orderId: 'A',
					findings: [warning('KDS-FIELD-UNKNOWN', 'order.x'), info('KDS-MODS-PLAIN-STRING', 'm')]
				})
			])
		);
		const store = new ScreenFindings('kds-1', agent.options);
		const a = store.order('A');
		const release = store.watch('A');
		agent.sources[0].open();
		await vi.waitFor(() => expect(a.marker).toEqual({ count: 1, severity: 'warning' }));
		expect(agent.urls).toEqual(['/api/admin/messages?screen=kds-1&limit=500']);

		agent.sources[0].deliver(
			entry(3, { orderId: 'A', findings: [error('KDS-ORDER-DUPLICATE', 'order.id')] })
		);
		expect(a.marker).toEqual({ count: 2, severity: 'error' });
		expect(a.findings.map((f) => f.code)).toEqual(['KDS-FIELD-UNKNOWN', 'KDS-ORDER-DUPLICATE']);

		const before = a.findings;
		agent.sources[0].deliver(entry(4, { orderId: 'A' }));
		agent.sources[0].deliver(
			entry(3, { orderId: 'A', findings: [error('KDS-ORDER-DUPLICATE', 'order.id')] })
		);
		expect(a.findings).toBe(before);
		release();
	});

	it('leaves other orders, infos and other screens alone', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('B');
		agent.sources[0].open();
		await vi.waitFor(() => expect(store.status).toBe('live'));
		agent.sources[0].deliver(entry(1, { orderId: 'A', findings: [warning('W', 'x')] }));
		agent.sources[0].deliver(entry(2, { orderId: 'B', findings: [info('I', 'x')] }));
		agent.sources[0].deliver(
			entry(3, { orderId: 'B', screenIds: ['kds-2'], findings: [warning('W', 'x')] })
		);
		expect(store.order('B').marker).toBeNull();
		expect(store.order('A').marker).toEqual({ count: 1, severity: 'warning' });
		release();
	});

	it('keeps the findings of a refused message off the live card and counts the refusal', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('A');
		agent.sources[0].open();
		await vi.waitFor(() => expect(store.status).toBe('live'));
		agent.sources[0].deliver(entry(1, { orderId: 'A' }));
		// A duplicate create with the live card's id: refused, with an error finding.
		const duplicate = entry(2, {
			orderId: 'A',
			ok: false,
			result: 'DUPLICATE_ORDER_ID',
			findings: [error('KDS-ORDER-DUPLICATE', 'order.id')]
		});
		agent.sources[0].deliver(duplicate);
		agent.sources[0].deliver(duplicate);
		agent.sources[0].deliver(entry(3, { orderId: null, ok: false, screenIds: ['kds-2'] }));
		agent.sources[0].deliver(
			entry(4, { orderId: null, ok: false, result: 'Unable to parse data' })
		);
		expect(store.order('A').marker).toBeNull();
		expect(store.refusals.map((r) => r.id)).toEqual([2, 4]);
		release();
	});

	it('does not count a correct retry after a fault (expected) as refused', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('A');
		agent.sources[0].open();
		await vi.waitFor(() => expect(store.status).toBe('live'));
		agent.sources[0].deliver(entry(1, { orderId: 'A', fault: 'lost-reply (f1)' }));
		agent.sources[0].deliver(
			entry(2, {
				orderId: 'A',
				ok: false,
				result: 'DUPLICATE_ORDER_ID',
				expected: 'lost-reply (f1)',
				findings: [info('KDS-FAULT-RETRY-EXPECTED', 'order.id')]
			})
		);
		expect(store.refusals).toEqual([]);
		expect(store.order('A').marker).toBeNull();
		release();
	});

	it('counts the refusals of the last ten minutes', () => {
		const now = 1_700_000_000_000;
		const refusals = [
			{ id: 1, at: now - REFUSAL_WINDOW_MS - 1 },
			{ id: 2, at: now - REFUSAL_WINDOW_MS },
			{ id: 3, at: now - 1000 }
		];
		expect(recentRefusals(refusals, now)).toBe(2);
		expect(recentRefusals(refusals, now + REFUSAL_WINDOW_MS - 1000)).toBe(1);
		expect(recentRefusals([], now)).toBe(0);
	});

	it('follows the log while a card watches, and a while after', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const one = store.watch('A');
		const two = store.watch('B');
		expect(agent.sources).toHaveLength(1);
		one();
		two();
		two();
		await vi.advanceTimersByTimeAsync(1000);
		const three = store.watch('C');
		expect(agent.sources[0].closed).toBe(false);
		three();
		await vi.advanceTimersByTimeAsync(5000);
		expect(agent.sources[0].closed).toBe(true);
	});

	it('shows no markers when the admin API answers 403', async () => {
		const agent = fakeAgent(() => json({ code: 'ADMIN_ONLY' }, 403));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('A');
		agent.sources[0].fail();
		await vi.waitFor(() => expect(store.status).toBe('forbidden'));
		expect(store.order('A').marker).toBeNull();
		release();
	});
});
