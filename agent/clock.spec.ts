import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';

describe('ManualClock', () => {
	it('fires due timers in time order as time moves, and not before', () => {
		const clock = new ManualClock(1000);
		const fired: string[] = [];
		clock.at(3000, () => fired.push('b'));
		clock.at(2000, () => fired.push('a'));
		const c = clock.at(2500, () => fired.push('cancelled'));
		c.cancel();
		clock.advance(999);
		expect(fired).toEqual([]);
		clock.advance(1);
		expect(fired).toEqual(['a']);
		expect(clock.now()).toBe(2000);
		clock.advance(5000);
		expect(fired).toEqual(['a', 'b']);
		expect(clock.now()).toBe(7000);
	});

	it('a timer set by a timer fires in the same advance when due', () => {
		const clock = new ManualClock(0);
		const fired: number[] = [];
		clock.at(10, () => {
			fired.push(clock.now());
			clock.at(20, () => fired.push(clock.now()));
		});
		clock.advance(30);
		expect(fired).toEqual([10, 20]);
	});
});
