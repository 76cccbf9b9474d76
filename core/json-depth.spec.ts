import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

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
	it('any text, valid JSON or not, reads as one pass over every character would (seeded)', () => {
		// The plain loop, without the count of brackets that answers most texts before it.
		const byLoop = (text: string, max: number): boolean => {
			let depth = 0;
			let inString = false;
			for (let i = 0; i < text.length; i++) {
				const c = text[i];
				if (inString) {
					if (c === '\\') i++;
					else if (c === '"') inString = false;
				} else if (c === '"') inString = true;
				else if (c === '{' || c === '[') {
					if (++depth > max) return true;
				} else if ((c === '}' || c === ']') && depth > 0) depth--;
			}
			return false;
		};
		const text = fc
			.array(fc.constantFrom('{', '[', '}', ']', '"', '\\', 'a', ',', ':'), { maxLength: 40 })
			.map((chars) => chars.join(''));
		fc.assert(
			fc.property(text, fc.integer({ min: 0, max: 10 }), (t, max) => {
				expect(nestsDeeperThan(t, max)).toBe(byLoop(t, max));
			}),
			{ seed: 28, numRuns: 5000 }
		);
	});
});
