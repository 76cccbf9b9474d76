/** The TCP message a remote screen is sent for an HTTP order (docs/fleet.md). */
import { describe, expect, it } from 'vitest';
import { toTcpOrder } from './deliver.ts';

describe('toTcpOrder', () => {
	it('an ISO time with its offset goes as int milliseconds, as the TCP interface declares', () => {
		expect(toTcpOrder({ id: 'A', time: '2026-11-24T12:00:00Z' }).time).toBe(
			Date.parse('2026-11-24T12:00:00Z')
		);
		expect(toTcpOrder({ id: 'A', time: '2026-11-24T12:00:00+01:00' }).time).toBe(
			Date.parse('2026-11-24T11:00:00Z')
		);
	});

	it('a time without an offset goes as it came (the remote reads it in its own zone)', () => {
		expect(toTcpOrder({ id: 'A', time: '2026-11-24T12:00:00' }).time).toBe('2026-11-24T12:00:00');
	});
});
