/**
 * Which orders the takeout view lists, and in what order: the orders that leave the restaurant
 * (every mode but For Here, and any order a notification was sent for). Customers waiting come
 * first (longest wait first), then those expected soonest, then the rest in queue order. Shared
 * by the takeout view in the browser and the agent's JSON view, so the two cannot disagree.
 */
import type { TakeoutStatus } from '../relay.ts';

export interface TakeoutRow<E> {
	entry: E;
	status: TakeoutStatus | undefined;
	/** Position in the queue order the entries came in. */
	index: number;
}

function rank({ status }: TakeoutRow<unknown>): number {
	if (status?.arrivedAt !== undefined) return 0;
	if (status?.etaAt !== undefined) return 1;
	return 2;
}

function compare(a: TakeoutRow<unknown>, b: TakeoutRow<unknown>): number {
	const byRank = rank(a) - rank(b);
	if (byRank !== 0) return byRank;
	const key = (r: TakeoutRow<unknown>) => r.status?.arrivedAt ?? r.status?.etaAt ?? 0;
	return key(a) - key(b) || a.index - b.index;
}

/**
 * `entries` in queue order (held ones included); `view` gives each one's order id and mode.
 */
export function takeoutRows<E>(
	entries: readonly E[],
	takeout: ReadonlyMap<string, TakeoutStatus>,
	view: (entry: E) => { id: string; mode?: string }
): TakeoutRow<E>[] {
	return entries
		.filter((e) => {
			const { id, mode } = view(e);
			return mode !== 'For Here' || takeout.has(id);
		})
		.map((entry, index) => ({ entry, status: takeout.get(view(entry).id), index }))
		.sort(compare);
}
