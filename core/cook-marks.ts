/**
 * What a cook marks on a ticket before bumping it (issue 47 part 6): an item done (a tap on the
 * item: struck and dimmed, a second tap undoes it) and the ticket started. Both live in the
 * order's context (order-machine.ts: `itemsDone`, `startedAt`) and move by the machine's events
 * `item.marked` and `order.started`, so the agent's store, every browser of the screen and the
 * JSON view read the same marks. Pure helpers the machine's guards and actions call.
 *
 * An update that changes or removes an item drops that item's mark: the cook has to look at it
 * again (a changed item is marked CHANGED on the card). Marks of other items stay.
 */
import type { ItemView } from './content.ts';

/** lineId → when a cook marked the item done (agent clock, ms). */
export type ItemsDone = Readonly<Record<string, number>>;

/** Whether the item `lineId` can carry a mark: on the ticket and not removed by an update. */
export function markable(items: readonly ItemView[], lineId: string): boolean {
	return items.some((item) => item.lineId === lineId && item.deleted !== true);
}

/** Whether `lineId` is marked done. */
export function isDone(done: ItemsDone | undefined, lineId: string): boolean {
	return done !== undefined && Object.hasOwn(done, lineId);
}

/** The marks with `lineId` marked done at `at`, or cleared. Undefined when none is left. */
export function withMark(
	done: ItemsDone | undefined,
	lineId: string,
	mark: boolean,
	at: number
): ItemsDone | undefined {
	const next: Record<string, number> = { ...done };
	if (mark) next[lineId] = at;
	else delete next[lineId];
	return Object.keys(next).length > 0 ? next : undefined;
}

/**
 * The marks an update at `at` leaves: an item it changed, added back or removed (its `changedAt`
 * is `at`) loses its mark; a line no longer on the ticket too. The same object when nothing goes.
 */
export function marksAfterUpdate(
	done: ItemsDone | undefined,
	items: readonly ItemView[],
	at: number
): ItemsDone | undefined {
	if (done === undefined) return undefined;
	const keep = new Set<string>();
	for (const item of items) {
		if (item.deleted !== true && item.changedAt !== at) keep.add(item.lineId);
	}
	const lines = Object.keys(done);
	if (lines.every((lineId) => keep.has(lineId))) return done;
	const next: Record<string, number> = {};
	for (const lineId of lines) if (keep.has(lineId)) next[lineId] = done[lineId];
	return Object.keys(next).length > 0 ? next : undefined;
}

/** How many of the ticket's live items are marked done, of how many. */
export function doneCount(
	done: ItemsDone | undefined,
	items: readonly ItemView[]
): { done: number; of: number } {
	let n = 0;
	let of = 0;
	for (const item of items) {
		if (item.deleted === true) continue;
		of += 1;
		if (isDone(done, item.lineId)) n += 1;
	}
	return { done: n, of };
}
