/**
 * What the bump bar's keys mean on the board as drawn (issue 47 part 8, the first piece of the
 * screen's controller): which ticket a digit, Enter or an arrow acts on, and which page shows.
 * Pure decisions over the board's layout (CardBoard's BoardLayout: the numbers on the page shown,
 * the page each ticket starts on), so they are tested under Vitest; ScreenView applies them
 * (sends the bump, moves the selection, turns the page).
 */

/** The part of the board's layout the keys read. */
export interface KeyLayout {
	pageCount: number;
	/** Ids of the tickets that start on the page shown, in queue order. */
	onPage: readonly string[];
	/** The tickets the page shows by the number on their cards (a carried-over part included). */
	numbered: readonly string[];
	/** The page a ticket starts on. */
	pageOf: (id: string) => number | undefined;
}

/**
 * A ticket is in view when a part of it is drawn on the page shown: where it starts, or a part
 * carried over from the page before (which a tap selects and Enter bumps).
 */
export function inView(
	layout: KeyLayout | undefined,
	page: number,
	id: string | null
): id is string {
	if (id === null || !layout) return false;
	return layout.pageOf(id) === page || layout.numbered.includes(id);
}

/** The ticket the digit key `n` bumps: the one whose card shows `n` on the page shown. */
export function numberedTarget(layout: KeyLayout | undefined, n: number): string | null {
	return layout?.numbered[n - 1] ?? null;
}

/**
 * The ticket an arrow selects, in queue order (`ids`): the next or previous one; with nothing
 * selected, the first ticket of the page shown (→) or its last (←), else the first of all.
 * Returns its index in `ids`, or null when there are no tickets.
 */
export function arrowSelection(
	ids: readonly string[],
	selected: string | null,
	layout: KeyLayout | undefined,
	direction: -1 | 1
): number | null {
	if (ids.length === 0) return null;
	const current = selected === null ? -1 : ids.indexOf(selected);
	if (current >= 0) return Math.min(ids.length - 1, Math.max(0, current + direction));
	const onPage = layout?.onPage ?? [];
	const anchor = direction > 0 ? onPage[0] : onPage.at(-1);
	const index = anchor ? ids.indexOf(anchor) : -1;
	return index >= 0 ? index : 0;
}

/** The page Page Up / Page Down turns to: one on, never before the first or past the last. */
export function turnedPage(page: number, direction: number, pageCount: number): number {
	return Math.min(Math.max(0, pageCount - 1), Math.max(0, page + direction));
}
