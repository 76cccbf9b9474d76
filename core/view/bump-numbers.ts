/**
 * The number on each card a page shows, which is also the bump bar's digit key that bumps it.
 * The parts drawn on a page (a whole card, or one part of a continued card) are numbered 1…n in
 * reading order (down a column, then the next column); two parts of one ticket on the same page
 * share its number; a part carried over from the page before is numbered on this page like any
 * other card (never with the number its first part has on the page before). So on every page the
 * numbers are 1, 2, 3, … with no gap and no repeat across tickets, and `3` bumps the card that
 * shows 3 (issue 47: a carried-over part showed the number of another ticket, and `2` bumped it).
 *
 * Pure: the board (src/routes/screens/[id]/CardBoard.svelte) measures where each part is drawn;
 * this decides the numbers, and the keys use the same result.
 */

/** One drawn part (or whole card) as the board measured it. */
export interface DrawnPart {
	/** The order id. */
	id: string;
	/** The page the part is drawn on (0 = the first). */
	page: number;
	/** Its left edge and top (px, any common origin): columns are read left to right, each top to bottom. */
	left: number;
	top: number;
}

/** Per page, the order ids in number order: `pages.get(2)?.[0]` shows 1 on the third page. */
export type BumpNumbers = ReadonlyMap<number, readonly string[]>;

/** Lefts closer than this (px) are one column (sub-pixel rounding). */
const SAME_COLUMN_PX = 2;

export function bumpNumbers(parts: readonly DrawnPart[]): BumpNumbers {
	const sorted = [...parts].sort(
		(a, b) =>
			a.page - b.page ||
			(Math.abs(a.left - b.left) < SAME_COLUMN_PX ? 0 : a.left - b.left) ||
			a.top - b.top
	);
	const pages = new Map<number, string[]>();
	for (const part of sorted) {
		const list = pages.get(part.page);
		if (!list) pages.set(part.page, [part.id]);
		else if (!list.includes(part.id)) list.push(part.id);
	}
	return pages;
}

/** The number `id` shows on `page` (1-based), or null when nothing of it is drawn there. */
export function numberOn(numbers: BumpNumbers, id: string, page: number): number | null {
	const index = numbers.get(page)?.indexOf(id) ?? -1;
	return index < 0 ? null : index + 1;
}

/** The ticket the digit key `n` bumps on `page`, or null when no card there shows `n`. */
export function ticketNumbered(numbers: BumpNumbers, page: number, n: number): string | null {
	return numbers.get(page)?.[n - 1] ?? null;
}
