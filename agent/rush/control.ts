/**
 * The admin API's rush (POST/DELETE /api/admin/rush, the home page's Rush button): `kds-sim rush`
 * run by the simulator against its own HTTP address and TCP ports, one at a time, stoppable.
 */
import { randomSeed, RUSH_NUMBERS } from '../rush-options.ts';
import { rush, type RushOptions, type RushSummary } from './rush.ts';

export type RushStart = Partial<
	Pick<
		RushOptions,
		'rate' | 'duration' | 'orders' | 'seed' | 'screens' | 'tcp' | 'updates' | 'cancels'
	>
>;

export class RushControl {
	#running: { stop: AbortController; done: Promise<RushSummary | null>; seed: number } | null =
		null;
	#last: RushSummary | null = null;

	constructor(private readonly url: () => string) {}

	/** Start a rush; the seed it uses, or null when one is running already. */
	start(options: RushStart): { seed: number } | null {
		if (this.#running) return null;
		const seed = options.seed ?? randomSeed();
		const stop = new AbortController();
		const done = rush(
			{
				url: this.url(),
				rate: options.rate ?? RUSH_NUMBERS.rate.fallback,
				duration: options.duration ?? RUSH_NUMBERS.duration.fallback,
				orders: options.orders ?? null,
				seed,
				screens: options.screens ?? null,
				tcp: options.tcp ?? RUSH_NUMBERS.tcp.fallback,
				updates: options.updates ?? RUSH_NUMBERS.updates.fallback,
				cancels: options.cancels ?? RUSH_NUMBERS.cancels.fallback
			},
			stop.signal
		)
			.then((summary) => (this.#last = summary))
			.catch(() => null)
			.finally(() => {
				if (this.#running?.stop === stop) this.#running = null;
			});
		this.#running = { stop, done, seed };
		return { seed };
	}

	/** Stop the running rush (if any) and give what it sent. */
	async stop(): Promise<{ stopped: boolean; summary: RushSummary | null }> {
		const running = this.#running;
		if (!running) return { stopped: false, summary: this.#last };
		running.stop.abort();
		return { stopped: true, summary: await running.done };
	}

	get running(): boolean {
		return this.#running !== null;
	}

	close(): void {
		this.#running?.stop.abort();
	}
}
