/**
 * What the bump bar's keys mean on the board as drawn (issue 47 part 8, the first piece of the
 * screen's controller): which ticket a digit, Enter or an arrow acts on, and which page shows.
 * Pure decisions over the board's layout (CardBoard's BoardLayout: the numbers on the page shown,
 * the page each ticket starts on), so they are tested under Vitest; the BoardController of
 * board-controller.svelte.ts applies them (sends the bump, moves the selection, turns the page).
 * Likewise the selection as tickets come and go, Undo of a bump, and the switch between the
 * cards and the takeout view.
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

// ---- The selection as the cards come and go, and Undo ----

/** What is selected, and an undone bump's card waiting to come back (BoardController's state). */
export interface Selection {
	selectedId: string | null;
	/** Where the selected ticket was in the queue: its place goes to the next one if it leaves. */
	selectedIndex: number;
	/** A bump of the selected ticket undone: selected again once it is back in the queue. */
	reselect: string | null;
}

/**
 * The selection after the queue changed (`ids`, in queue order): an undone ticket back in the
 * queue is selected again; a selected ticket that left (bumped, cancelled away) hands the
 * selection to the ticket that took its place (the last one if it was last), or to none.
 * `follow`: the selection moved, so the page showing it comes into view once laid out.
 */
export function settledSelection(
	ids: readonly string[],
	selection: Selection
): Selection & { follow: boolean } {
	let { selectedId, selectedIndex, reselect } = selection;
	let follow = false;
	if (reselect !== null && ids.includes(reselect)) {
		selectedId = reselect;
		reselect = null;
		follow = true;
	}
	if (selectedId === null) return { selectedId, selectedIndex, reselect, follow };
	const index = ids.indexOf(selectedId);
	if (index >= 0) selectedIndex = index;
	else {
		selectedId = ids[Math.min(selectedIndex, ids.length - 1)] ?? null;
		follow = true;
	}
	return { selectedId, selectedIndex, reselect, follow };
}

/** How long a bump is offered for Undo (ms). */
export const UNDO_MS = 6000;

/** The last bump, offered for Undo: the ticket, its name, whether it was the selected one. */
export interface UndoOffer {
	id: string;
	title: string;
	selected: boolean;
}

/** Undo pressed: the ticket to recall, and the one to select once it is back (if it was). */
export function undoneBump(offer: UndoOffer): { recall: string; reselect: string | null } {
	return { recall: offer.id, reselect: offer.selected ? offer.id : null };
}

// ---- Orders or takeout ----

/** The screen's two views: the cards, or the takeout board. */
export type BoardView = 'orders' | 'takeout';

/** The view a screen's URL asks for: ?view=takeout, else the cards. */
export function viewOf(url: {
	readonly searchParams: { get(name: string): string | null };
}): BoardView {
	return url.searchParams.get('view') === 'takeout' ? 'takeout' : 'orders';
}

/**
 * The other view, and the URL that keeps it (so a reload or a kiosk URL shows it): only the
 * query's `view` changes, every other parameter (?kiosk, ?cols, …) stays. (SvelteKit's page URL
 * is read-only: a copy is made.)
 */
export function toggledView(
	view: BoardView,
	url: { readonly href: string }
): { view: BoardView; url: URL } {
	const next: BoardView = view === 'takeout' ? 'orders' : 'takeout';
	const kept = new URL(url.href);
	if (next === 'takeout') kept.searchParams.set('view', 'takeout');
	else kept.searchParams.delete('view');
	return { view: next, url: kept };
}
