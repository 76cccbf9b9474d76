import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
	MemorySettle,
	memoryReducingCollection,
	youngGenerationBytes,
	type MemorySettleOptions
} from './memory-settle.ts';

const MiB = 1024 * 1024;

/** A settle whose collection is counted and whose young generation is whatever the test says. */
function counted(options: MemorySettleOptions & { young?: number } = {}) {
	const state = { young: options.young ?? 64 * MiB, collections: 0 };
	const settle = new MemorySettle({
		quietMs: 100,
		minYoungBytes: 16 * MiB,
		collect: () => {
			state.collections++;
			state.young = 1 * MiB;
		},
		youngBytes: () => state.young,
		...options
	});
	return { settle, state };
}

describe('settling the young generation after a burst', () => {
	it('collects once when the commits stop, not while they go on', async () => {
		const { settle, state } = counted();
		// A burst: a commit every 10 ms for 150 ms, never quiet for 100 ms.
		for (let i = 0; i < 15; i++) {
			settle.touch();
			await sleep(10);
		}
		expect(state.collections).toBe(0);
		await sleep(250);
		expect(state.collections).toBe(1);
		// Quiet from then on: no second collection, and none without a commit.
		await sleep(250);
		expect(state.collections).toBe(1);
		settle.close();
	});

	it('leaves a young generation below the threshold alone', async () => {
		const { settle, state } = counted({ young: 12 * MiB });
		settle.touch();
		await sleep(250);
		expect(state.collections).toBe(0);
		settle.close();
	});

	it('collects again after the next burst grows it again', async () => {
		const { settle, state } = counted();
		settle.touch();
		await sleep(250);
		state.young = 40 * MiB;
		settle.touch();
		await sleep(250);
		expect(state.collections).toBe(2);
		settle.close();
	});

	it('does nothing once closed, or when this Node gives no collection', async () => {
		const closed = counted();
		closed.settle.touch();
		closed.settle.close();
		const none = new MemorySettle({ quietMs: 10, collect: null, youngBytes: () => 64 * MiB });
		none.touch();
		await sleep(250);
		expect(closed.state.collections).toBe(0);
		expect(none.settled).toBe(0);
	});

	it("V8's memory-reducing collection gives the grown young generation back", () => {
		const collect = memoryReducingCollection();
		expect(collect).not.toBeNull();
		// Grow the young generation as a burst of kept orders does: much of what is allocated survives.
		const kept: object[] = [];
		for (let i = 0; i < 400_000; i++) kept.push({ id: `o-${i}`, items: [{ name: 'x', qty: i }] });
		// (V8 sizes its semi-spaces from the machine's memory: at least 4 MiB grown on any CI host.)
		const before = youngGenerationBytes();
		expect(before).toBeGreaterThan(4 * MiB);
		collect!();
		expect(youngGenerationBytes()).toBeLessThan(Math.min(2 * MiB, before / 2));
		expect(kept).toHaveLength(400_000);
		// No `gc` left behind on the global object.
		expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
	});
});
