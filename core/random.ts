/**
 * mulberry32: a small seeded pseudo-random generator (uniform in [0, 1)). The same seed gives the
 * same sequence on every run and machine, so faults fire on the same messages, a rush sends the
 * same orders, and a failing property or a soak's traffic can be replayed. Not for anything that
 * needs unpredictability.
 */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
