import { describe, expect, it } from 'vitest';
import { MAX_SEEN, SeenCards } from './seen-cards.svelte.ts';

/** A Storage stand-in: a Map behind getItem/setItem. */
function memoryStorage(initial: Record<string, string> = {}) {
	const data = new Map(Object.entries(initial));
	return {
		data,
		getItem: (key: string) => data.get(key) ?? null,
		setItem: (key: string, value: string) => void data.set(key, value)
	};
}

describe('SeenCards: what the cook saw on this browser, kept across reloads', () => {
	it('remembers when each card was seen, per screen, and reads it back after a reload', () => {
		const storage = memoryStorage();
		const seen = new SeenCards('kds-1');
		seen.see('A', 1_000, storage);
		seen.see('B', 2_000, storage);
		seen.see('A', 3_000, storage);
		expect(seen.at('A')).toBe(3_000);
		expect(seen.at('C')).toBeUndefined();

		const reloaded = new SeenCards('kds-1');
		reloaded.load(storage);
		expect([reloaded.at('A'), reloaded.at('B')]).toEqual([3_000, 2_000]);
		const other = new SeenCards('kds-2');
		other.load(storage);
		expect(other.at('A')).toBeUndefined();
	});

	it('keeps the latest MAX_SEEN cards', () => {
		const storage = memoryStorage();
		const seen = new SeenCards('kds-1');
		for (let i = 0; i <= MAX_SEEN; i += 1) seen.see(`o${i}`, i, storage);
		expect(seen.at('o0')).toBeUndefined();
		expect(seen.at('o1')).toBe(1);
		expect(seen.at(`o${MAX_SEEN}`)).toBe(MAX_SEEN);
		expect(JSON.parse(storage.data.get('kds-seen:kds-1')!)).toHaveLength(MAX_SEEN);
	});

	it('ignores storage it cannot read, or that throws, and keeps working', () => {
		for (const stored of ['not json', '{"a":1}', '[["A","x"],[1,2],["B",5]]', 'null']) {
			const seen = new SeenCards('kds-1');
			seen.load(memoryStorage({ 'kds-seen:kds-1': stored }));
			expect(seen.at('A')).toBeUndefined();
			if (stored.startsWith('[[')) expect(seen.at('B')).toBe(5);
		}
		const seen = new SeenCards('kds-1');
		const full = {
			setItem: () => {
				throw new Error('QuotaExceededError');
			}
		};
		seen.see('A', 1, full);
		expect(seen.at('A')).toBe(1);
		seen.load(undefined);
	});
});
