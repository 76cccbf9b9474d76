/**
 * Gives back the memory V8's young generation grew to during a burst of orders, once the burst is
 * over (docs/performance.md, "Memory: settling after a burst").
 *
 * V8 sizes the young generation (new space) by what survives its scavenges: a burst of orders
 * that are all kept (10,000 TCP creates) grows it from 1 to 32 MiB per semi-space on a machine
 * with a few GB of memory, and V8 shrinks it again only in a garbage collection that runs while
 * allocation is slow. An agent that goes quiet after a rush allocates nothing, so no collection
 * runs and the grown semi-spaces stay resident for as long as the agent stays quiet (52 of its
 * 190 MiB after the burst above, measured 25 s later). V8's own memory reducer would do it, but
 * only 8 s after a mark-compact, which such a burst never triggers.
 *
 * So: every commit touches this; once no commit has come for `quietMs` (5 s) and the young
 * generation holds at least `minYoungBytes`, one memory-reducing collection runs (V8's "last
 * resort" full collection, as `Isolate::LowMemoryNotification`: new space back to its minimum,
 * freed pages returned to the system at once; the bytecode kept). It pauses the main thread for
 * two full collections of the heap (0.1-0.35 s with 10,000 orders on the loaded 2-CPU build
 * machine) at a moment nothing was arriving; an order that arrives during it waits for it.
 *
 * The collection function is the one `--expose-gc` gives: Node has no other way to ask V8 for a
 * memory-reducing collection. The flag is turned on only to make one new context's `gc` function
 * and turned off again; no global changes (a `gc` the user exposed with --expose-gc is used as is).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './log.ts';

/**
 * No commit for this long ends a burst. Not shorter: the collection leaves the young generation at
 * its smallest and V8's old-generation limit low, so the next burst pays to grow them again (the
 * 4,000 TCP creates after each settle cost 45-58% more CPU per create, bench/ab.bench.ts at load
 * 8); bursts a few seconds apart (a load test's rounds, a POS retrying a batch) keep their heap, as
 * V8's own memory reducer waits 8 s after a mark-compact for the same reason.
 */
export const DEFAULT_QUIET_MS = 5000;
/** Below this, the young generation is left as it is (9-12 MiB after start-up: settled too). */
export const DEFAULT_MIN_YOUNG_BYTES = 8 * 1024 * 1024;

type GcFunction = (options?: { type?: string; flavor?: string; execution?: string }) => unknown;

/**
 * A function running one memory-reducing full collection, or null when this Node cannot give one
 * (then nothing settles: the young generation stays as V8 left it).
 */
export function memoryReducingCollection(): (() => void) | null {
	let gc = (globalThis as { gc?: GcFunction }).gc;
	if (typeof gc !== 'function') {
		try {
			setFlagsFromString('--expose-gc');
			gc = runInNewContext('gc') as GcFunction | undefined;
		} catch {
			gc = undefined;
		} finally {
			setFlagsFromString('--no-expose-gc');
		}
	}
	if (typeof gc !== 'function') return null;
	const collect = gc;
	return () => {
		// A last-resort collection also throws away every function's bytecode (V8 flushes it
		// however recently it ran), and the next burst would run cold; keep it this once.
		setFlagsFromString('--no-flush-bytecode');
		try {
			collect({ type: 'major', flavor: 'last-resort' });
		} finally {
			setFlagsFromString('--flush-bytecode');
		}
	};
}

/** Bytes the young generation holds in memory now (its semi-spaces and large objects). */
export function youngGenerationBytes(): number {
	let bytes = 0;
	for (const space of getHeapSpaceStatistics()) {
		if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
			bytes += space.physical_space_size;
	}
	return bytes;
}

export interface MemorySettleOptions {
	quietMs?: number;
	minYoungBytes?: number;
	logger?: Logger;
	/** The collection (default: memoryReducingCollection()); tests pass their own. */
	collect?: (() => void) | null;
	/** What the young generation holds (default: youngGenerationBytes). */
	youngBytes?: () => number;
}

const MiB = (bytes: number) => (bytes / 1048576).toFixed(1);

export class MemorySettle {
	private readonly quietMs: number;
	private readonly minYoungBytes: number;
	/** Undefined until first needed: making it creates a V8 context, which start-up need not pay. */
	private collect: (() => void) | null | undefined;
	private readonly youngBytes: () => number;
	private readonly logger: Logger | undefined;
	/** When the last commit touched this (performance.now()). */
	private lastTouch = 0;
	private timer: NodeJS.Timeout | null = null;
	private closed = false;
	/** Collections run so far (for tests and the log). */
	settled = 0;

	constructor(options: MemorySettleOptions = {}) {
		this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
		this.minYoungBytes = options.minYoungBytes ?? DEFAULT_MIN_YOUNG_BYTES;
		this.collect = options.collect;
		this.youngBytes = options.youngBytes ?? youngGenerationBytes;
		this.logger = options.logger;
	}

	/** Something was done (a commit): a check follows once nothing more is done for quietMs. */
	touch(): void {
		this.lastTouch = performance.now();
		if (this.timer === null && !this.closed && this.collect !== null) this.arm(this.quietMs);
	}

	private arm(ms: number): void {
		this.timer = setTimeout(() => this.check(), ms);
		this.timer.unref();
	}

	private check(): void {
		this.timer = null;
		if (this.closed) return;
		// Still busy: look again once it has been quiet for a whole period since the last commit.
		const quietFor = performance.now() - this.lastTouch;
		if (quietFor < this.quietMs) return this.arm(this.quietMs - quietFor);
		const before = this.youngBytes();
		if (before < this.minYoungBytes) return;
		this.collect ??= memoryReducingCollection();
		if (!this.collect) return;
		const started = performance.now();
		this.collect();
		this.settled++;
		this.logger?.debug(
			`young generation ${MiB(before)} -> ${MiB(this.youngBytes())} MiB after a burst (one memory-reducing collection, ${(performance.now() - started).toFixed(0)} ms)`
		);
	}

	close(): void {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
	}
}
