/**
 * Which cards the cook has seen on this browser, and when (agent clock): a change up to then no
 * longer shows its NEW / CHANGED mark (core changeMark). Kept in localStorage per screen, so a
 * kiosk that reloads (a power cut, a Pi that reboots) does not mark every old change again.
 * The latest MAX_SEEN orders are kept; the oldest are forgotten.
 */
import { SvelteMap } from 'svelte/reactivity';

export const MAX_SEEN = 500;

export class SeenCards {
	readonly #key: string;
	readonly #seen = new SvelteMap<string, number>();

	constructor(screenId: string) {
		this.#key = `kds-seen:${screenId}`;
	}

	/** Reads what this browser saw before (nothing when storage is off or holds something else). */
	load(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): void {
		let stored: unknown;
		try {
			stored = JSON.parse(storage?.getItem(this.#key) ?? 'null');
		} catch {
			return;
		}
		if (!Array.isArray(stored)) return;
		for (const pair of stored.slice(-MAX_SEEN)) {
			if (Array.isArray(pair) && typeof pair[0] === 'string' && Number.isFinite(pair[1])) {
				this.#seen.set(pair[0], pair[1] as number);
			}
		}
	}

	/** When the cook last saw the order's card (agent clock), if ever on this browser. */
	at(orderId: string): number | undefined {
		return this.#seen.get(orderId);
	}

	/** The cook has seen the card at `at`: its marks so far go. */
	see(
		orderId: string,
		at: number,
		storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage
	): void {
		this.#seen.delete(orderId);
		this.#seen.set(orderId, at);
		for (const oldest of this.#seen.keys()) {
			if (this.#seen.size <= MAX_SEEN) break;
			this.#seen.delete(oldest);
		}
		try {
			storage?.setItem(this.#key, JSON.stringify([...this.#seen]));
		} catch {
			// Storage full or off: the marks still go on this page until it reloads.
		}
	}
}
