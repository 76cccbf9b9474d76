import fc from 'fast-check';
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

	it('keeps the bytes, the holders and the eviction order of a Map in insertion order (seeded)', () => {
		// The reference: the budget as a Map (its implementation until 2026-11-26).
		class MapBudget {
			total = 0;
			held = new Map<number, number>();
			constructor(readonly limit: number) {}
			set(holder: number, bytes: number, evicted: number[]): boolean {
				const before = this.held.get(holder);
				if (bytes <= 0) {
					if (before !== undefined) {
						this.total -= before;
						this.held.delete(holder);
					}
					return true;
				}
				this.total += bytes - (before ?? 0);
				this.held.set(holder, bytes);
				let self = false;
				for (const victim of [...this.held.keys()].reverse()) {
					if (this.total <= this.limit) break;
					this.total -= this.held.get(victim)!;
					this.held.delete(victim);
					if (victim === holder) self = true;
					evicted.push(victim);
				}
				return !self;
			}
		}
		const step = fc.record({ holder: fc.nat(7), bytes: fc.oneof(fc.constant(0), fc.nat(60)) });
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 150 }),
				fc.array(step, { maxLength: 60 }),
				(limit, steps) => {
					const model = new MapBudget(limit);
					const budget = new ByteBudget(limit);
					const modelEvicted: number[] = [];
					const evicted: number[] = [];
					const list = holders(8, evicted);
					for (const { holder, bytes } of steps) {
						expect(budget.set(list[holder], bytes)).toBe(model.set(holder, bytes, modelEvicted));
						expect(evicted).toEqual(modelEvicted);
						expect([budget.bytes, budget.holders]).toEqual([model.total, model.held.size]);
					}
				}
			),
			{ seed: 28, numRuns: 500 }
		);
	});

	it('an eviction that releases another holder leaves the total right', () => {
		const budget = new ByteBudget(100);
		const other: Holder = { evict: () => {} };
		const chained: Holder = { evict: () => budget.release(other) };
		budget.set(other, 40);
		budget.set(chained, 50);
		// chained is evicted first (newest) and releases other on its way out.
		expect(budget.set(chained, 70)).toBe(false);
		expect([budget.bytes, budget.holders]).toEqual([0, 0]);
	});

	it('refuses a budget that is not a positive whole number', () => {
		expect(() => new ByteBudget(0)).toThrow(RangeError);
	});
});
