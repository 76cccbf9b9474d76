import { describe, expect, it } from 'vitest';
import { ByteBudget, type Holder } from './byte-budget.ts';

const holders = (n: number, evicted: number[]) =>
	Array.from({ length: n }, (_, i): Holder => ({ evict: () => evicted.push(i) }));

describe('ByteBudget', () => {
	it('keeps the total and forgets finished holders', () => {
		const budget = new ByteBudget(100);
		const [a, b] = holders(2, []);
		expect(budget.set(a, 40)).toBe(true);
		expect(budget.set(b, 50)).toBe(true);
		expect(budget.set(a, 45)).toBe(true);
		expect(budget.bytes).toBe(95);
		budget.set(a, 0);
		budget.release(b);
		expect([budget.bytes, budget.holders]).toEqual([0, 0]);
	});

	it('past the limit, evicts the holders whose message started last until back under it', () => {
		const evicted: number[] = [];
		const budget = new ByteBudget(100);
		const [a, b, c, d] = holders(4, evicted);
		budget.set(a, 30);
		budget.set(b, 30);
		budget.set(c, 10);
		budget.set(d, 5);
		// a, the oldest, grows past the limit: d then c go (newest first), b and a stay.
		expect(budget.set(a, 70)).toBe(true);
		expect(evicted).toEqual([3, 2]);
		expect(budget.bytes).toBe(100);
		// A holder whose message finished and a new one started counts as the newest again.
		budget.set(b, 0);
		budget.set(b, 1);
		expect(budget.set(a, 100)).toBe(true);
		expect(evicted).toEqual([3, 2, 1]);
	});

	it('tells the holder that pushed it over when it is the one evicted', () => {
		const evicted: number[] = [];
		const budget = new ByteBudget(100);
		const [a, b] = holders(2, evicted);
		budget.set(a, 60);
		expect(budget.set(b, 50)).toBe(false);
		expect(evicted).toEqual([1]);
		expect(budget.bytes).toBe(60);
	});

	it('refuses a budget that is not a positive whole number', () => {
		expect(() => new ByteBudget(0)).toThrow(RangeError);
	});
});
