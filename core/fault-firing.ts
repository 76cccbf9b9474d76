/**
 * When a fault fires (docs/faults.md): a live fault and the pure rule of its firing, for the next
 * N messages or connections (`count`), for a while (`durationMs`), with a probability drawn from a
 * seeded PRNG (`probability`, `seed`), or until removed; its delay drawn the same way. The kinds
 * and their specs are ./fault-kinds.ts; the agent (agent/faults/registry.ts) keeps the live faults.
 */
import type { FaultSpec } from './fault-kinds.ts';
import { seededRandom } from './random.ts';

/** A fault as the admin API lists it. */
export type Fault = FaultSpec & {
	id: string;
	/** When it was added (agent time, ms). */
	addedAt: number;
	/** How many times it fired. */
	fired: number;
	/** The seed its draws use (the one given, or the one chosen: pass it again to replay). */
	seed: number;
	/** Whether it still applies (its count not spent, its duration not over). */
	active: boolean;
};

/** A live fault: its spec and the state of its firing. */
export class LiveFault {
	fired = 0;
	readonly random: () => number;
	readonly seed: number;

	constructor(
		readonly id: string,
		readonly spec: FaultSpec,
		readonly addedAt: number,
		/** Used only when the spec has no seed of its own. */
		fallbackSeed: number
	) {
		const own = (spec as { seed?: number }).seed;
		this.seed = own ?? fallbackSeed >>> 0;
		this.random = seededRandom(this.seed);
	}

	/** Still applies at `now`: its count not spent, its duration not over. */
	active(now: number): boolean {
		const { count, durationMs } = this.spec as { count?: number; durationMs?: number };
		if (count !== undefined && this.fired >= count) return false;
		if (durationMs !== undefined && now >= this.addedAt + durationMs) return false;
		return true;
	}

	/**
	 * Whether it fires on one matching message or connection at `now`; counts it when it does. A
	 * probability draws one number per matching event, fired or not, so the same seed fires on
	 * the same events whatever else happens.
	 */
	fires(now: number): boolean {
		if (!this.active(now)) return false;
		const p = (this.spec as { probability?: number }).probability;
		if (p !== undefined && !(this.random() < p)) return false;
		this.fired++;
		return true;
	}

	/** A delay for this firing: fixed, or drawn from [delayMs, maxDelayMs]. */
	delay(): number {
		const { delayMs = 0, maxDelayMs } = this.spec as { delayMs?: number; maxDelayMs?: number };
		if (maxDelayMs === undefined || maxDelayMs <= delayMs) return delayMs;
		return delayMs + Math.floor(this.random() * (maxDelayMs - delayMs + 1));
	}

	toJSON(now: number): Fault {
		return {
			...this.spec,
			id: this.id,
			addedAt: this.addedAt,
			fired: this.fired,
			seed: this.seed,
			active: this.active(now)
		};
	}
}
