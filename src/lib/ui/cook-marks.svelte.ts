/**
 * A cook's marks on the screen (issue 47 part 6, core/cook-marks.ts): a tap on an item marks it
 * done or not done again, the bump bar moves an item cursor over the selected card and toggles
 * the item under it, and the ticket can be marked started. Like every screen action nothing
 * changes here: the agent decides (core/screen.ts decideAction), stores the event and relays it to
 * every browser of the screen, whose order machines then show it.
 *
 * ScreenView makes one and provides it through the context; the cards read it (OrderCard: the tap,
 * CardItem: the cursor). Without one (a card drawn elsewhere) a tap on an item selects the card.
 */
import { getContext, setContext } from 'svelte';
import { isDone } from '#core/cook-marks';
import type { ActionTarget } from '#core/screen';
import type { OrderEntry } from './orders.svelte.ts';
import type { ScreenActionName } from './screen-session.svelte.ts';

export type SendAction = (
	action: ScreenActionName,
	orderId: string,
	target: ActionTarget
) => boolean;

/** The item a mark would change: on the card, not removed, and the order takes marks now. */
export function canMark(entry: OrderEntry, lineId: string): boolean {
	const done = isDone(entry.context.itemsDone, lineId);
	return entry.can({ type: 'item.marked', lineId, done: !done, at: 0 });
}

/** The card's items a cook can tick, in the card's order (removed ones left out). */
export function markableLines(entry: OrderEntry): string[] {
	const lines: string[] = [];
	for (const item of entry.context.items) if (canMark(entry, item.lineId)) lines.push(item.lineId);
	return lines;
}

/** The next (+1) or previous (−1) line after `current`, wrapping; the first (or last) without one. */
export function stepLine(
	lines: readonly string[],
	current: string | null,
	direction: -1 | 1
): string | null {
	if (lines.length === 0) return null;
	const at = current === null ? -1 : lines.indexOf(current);
	if (at < 0) return direction === 1 ? lines[0] : lines[lines.length - 1];
	return lines[(at + direction + lines.length) % lines.length];
}

export class CookMarks {
	/** The bump bar's item cursor: an item of the selected card. */
	cursor: { orderId: string; lineId: string } | null = $state.raw(null);
	readonly #send: SendAction;

	constructor(send: SendAction) {
		this.#send = send;
	}

	/** Whether the cursor is on this item. */
	isCursor(orderId: string, lineId: string): boolean {
		return this.cursor?.orderId === orderId && this.cursor.lineId === lineId;
	}

	/** Mark the item done, or not done when it is. False when the order takes no mark on it. */
	toggleItem(entry: OrderEntry, lineId: string): boolean {
		if (!canMark(entry, lineId)) return false;
		const done = isDone(entry.context.itemsDone, lineId);
		return this.#send(done ? 'item-undo' : 'item-done', entry.id, { lineId });
	}

	/**
	 * A tap on a card: when it landed on an item the order takes a mark on, that item is ticked
	 * (or unticked) and the tap is used up (true); anywhere else the card handles it (false).
	 */
	tap(entry: OrderEntry, target: EventTarget | null): boolean {
		if (!(target instanceof Element)) return false;
		const line = target.closest<HTMLElement>('[data-line-id]');
		const lineId = line?.dataset.lineId;
		if (
			lineId === undefined ||
			line?.closest('[data-order-id]')?.getAttribute('data-order-id') !== entry.id
		)
			return false;
		return this.toggleItem(entry, lineId);
	}

	/** The bump bar: the cursor to the next or previous item of the selected card. */
	move(entry: OrderEntry | undefined, direction: -1 | 1): void {
		if (!entry) {
			this.cursor = null;
			return;
		}
		const current = this.cursor?.orderId === entry.id ? this.cursor.lineId : null;
		const lineId = stepLine(markableLines(entry), current, direction);
		this.cursor = lineId === null ? null : { orderId: entry.id, lineId };
	}

	/**
	 * The bump bar's toggle: the item under the cursor; without a cursor on this card, the first
	 * item not yet done (so pressing it again and again ticks the ticket off top to bottom).
	 */
	toggleAtCursor(entry: OrderEntry): boolean {
		const lines = markableLines(entry);
		let lineId = this.cursor?.orderId === entry.id ? this.cursor.lineId : null;
		if (lineId === null || !lines.includes(lineId))
			lineId = lines.find((l) => !isDone(entry.context.itemsDone, l)) ?? null;
		if (lineId === null) return false;
		return this.toggleItem(entry, lineId);
	}

	/** Whether the ticket can be marked started, or not started again, now. */
	canStart(entry: OrderEntry): boolean {
		const started = entry.context.startedAt !== undefined;
		return entry.can({ type: 'order.started', started: !started, at: 0 });
	}

	/** Mark the ticket started, or not started when it is. */
	toggleStarted(entry: OrderEntry): boolean {
		if (!this.canStart(entry)) return false;
		const started = entry.context.startedAt !== undefined;
		return this.#send(started ? 'start-undo' : 'start', entry.id, {});
	}
}

const KEY = Symbol('cook-marks');

export function provideCookMarks(marks: CookMarks): void {
	setContext(KEY, marks);
}

/** The screen's CookMarks, or undefined when the card is drawn outside a screen. */
export function cookMarks(): CookMarks | undefined {
	return getContext<CookMarks | undefined>(KEY);
}
