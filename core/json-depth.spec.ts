import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const nest = (depth: number, open = '{"a":', close = '}') =>
	`${open.repeat(depth)}1${close.repeat(depth)}`;

describe('nestsDeeperThan', () => {
	it('allows exactly MAX_JSON_DEPTH levels, refuses one more, objects or arrays', () => {
		expect(nestsDeeperThan(nest(MAX_JSON_DEPTH))).toBe(false);
		expect(nestsDeeperThan(nest(MAX_JSON_DEPTH + 1))).toBe(true);
		expect(nestsDeeperThan(nest(MAX_JSON_DEPTH, '[', ']'))).toBe(false);
		expect(nestsDeeperThan(nest(MAX_JSON_DEPTH + 1, '[', ']'))).toBe(true);
		expect(nestsDeeperThan(nest(20_000))).toBe(true);
	});

	it('does not count brackets inside strings, escaped quotes included', () => {
		const inString = `{"note":"${'{['.repeat(100)}\\"${'[{'.repeat(100)}"}`;
		expect(JSON.parse(inString)).toHaveProperty('note');
		expect(nestsDeeperThan(inString)).toBe(false);
	});

	it('counts depth, not the number of brackets: many siblings are fine', () => {
		expect(nestsDeeperThan(`[${'[],'.repeat(10_000)}[]]`)).toBe(false);
	});

	it('agrees with the depth of what JSON.parse builds, for any JSON value (seeded)', () => {
		const depthOf = (v: unknown): number =>
			typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (v, max) => {
				const text = JSON.stringify(v);
				expect(nestsDeeperThan(text, max)).toBe(depthOf(JSON.parse(text)) > max);
			}),
			{ seed: 15, numRuns: 2000 }
		);
	});
});
