/**
 * Where a long ticket continues: the board's columns are filled in queue order, and a card that
 * does not fit the space left in its column is carried on into the next column (and page) rather
 * than moved whole, when it is long enough to split well: at least MIN_PART_UNITS lines fit in
 * the space left and as many follow; a card taller than a whole column always continues. Each
 * part is drawn as a card of its own (its name, number and timer, "cont." after the first),
 * showing a window of the card's lines, cut between lines (an item, a group, a course heading).
 *
 * Pure: the board (src/routes/screens/[id]/CardBoard.svelte) measures and draws; this decides,
 * exactly as the browser's flex columns place what it draws (a card goes on in its column when
 * its height and the gap fit, else it starts the next column).
 */

/** A card as the board measured it. */
export interface PlannedCard {
	id: string;
	/** The card's whole height (px), as one card. */
	height: number;
	/**
	 * Its lines, read only when it may continue: `chrome` is the first part's height without
	 * lines (the header, the cancel banner, the frame), `contChrome` a later part's (its header
	 * is shorter), `footer` the "cont. →" line under every part but the last, `body` the height of
	 * all its lines, `tops` where each line starts (ascending, from 0) and `items` which of them
	 * are items (or item groups), not headings (a course's, the order's info). Null when it cannot
	 * be read (not laid out yet).
	 */
	lines: () => CardLines | null;
}

export interface CardLines {
	chrome: number;
	contChrome: number;
	footer: number;
	body: number;
	tops: number[];
	items: boolean[];
	/**
	 * Per line, the height of the heading a part starting at that line repeats on top (a course's
	 * heading with its state and Fire, when the line is inside the course and not its heading),
	 * 0 for none; `contChrome` leaves it out. Missing: no line repeats anything.
	 */
	repeat?: number[];
	/**
	 * Per line, whether it must stay with the line after it (a course's heading goes on with its
	 * first item). Missing: every line that is not an item (the order's info block too).
	 */
	keep?: boolean[];
	/**
	 * Where each line of text inside the lines starts (ascending): where a part is cut when no
	 * whole item fits a column (an item taller than a column), so no line of text is sliced.
	 */
	fine?: number[];
}

/** At least this many lines in a part cut off a card that would fit a column whole. */
export const MIN_PART_UNITS = 2;

/** A little room kept under each cut, so rounding never pushes a part into the next column. */
const SLACK_PX = 2;

/**
 * Each continued card's parts as the offsets (px, into its lines) where they start: `[0, 412]`
 * is a card in two parts, the second from 412 px down. Cards drawn whole are not in the map.
 */
export function planParts(
	cards: readonly PlannedCard[],
	columnHeight: number,
	gap: number
): Map<string, number[]> {
	const plan = new Map<string, number[]>();
	let used = 0;
	const spaceLeft = () => (used > 0 ? columnHeight - used - gap : columnHeight);
	const place = (height: number) => {
		used = used > 0 && used + gap + height <= columnHeight ? used + gap + height : height;
	};
	for (const card of cards) {
		const space = spaceLeft();
		if (card.height <= space) {
			place(card.height);
			continue;
		}
		const tall = card.height > columnHeight;
		const lines = tall || card.height > space ? card.lines() : null;
		if (!lines || lines.tops.length === 0 || lines.items.length !== lines.tops.length) {
			place(card.height);
			continue;
		}
		const { chrome, contChrome, footer, body, tops, items } = lines;
		// The lowest cut that leaves a part from `from` no taller than `room`: before a line, never
		// right under a heading (a course's heading stays with its first item).
		const keep = lines.keep ?? items.map((item) => !item);
		const cutIn = (from: number, room: number): number | null => {
			let cut: number | null = null;
			for (const [i, top] of tops.entries()) {
				if (top > from && top - from <= room - SLACK_PX && !keep[i - 1]) cut = top;
			}
			return cut;
		};
		// No whole item fits: the lowest start of a line of text that does.
		const fineCut = (from: number, room: number): number | null => {
			let cut: number | null = null;
			for (const top of lines.fine ?? [])
				if (top > from && top - from <= room - SLACK_PX) cut = top;
			return cut;
		};
		// How many items (not headings) start in [a, b).
		const itemsIn = (a: number, b: number) =>
			tops.filter((t, i) => items[i] && t >= a && t < b).length;
		let from = 0;
		const starts = [0];
		// The first part: in the space left, at the lowest cut that leaves enough of the card there
		// and enough to follow (the lowest cut that fits may leave one item alone after it).
		let first: number | null = null;
		if (used > 0) {
			for (let room = space - chrome - footer; ;) {
				const cut = cutIn(0, room);
				if (cut === null || itemsIn(0, cut) < MIN_PART_UNITS) break;
				if (itemsIn(cut, Infinity) >= MIN_PART_UNITS) {
					first = cut;
					break;
				}
				room = cut + SLACK_PX - 1; // try the cut above this one
			}
		}
		if (first !== null) {
			from = first;
			starts.push(first);
			used = 0;
		} else if (!tall) {
			place(card.height);
			continue;
		} else {
			used = 0;
		}
		// The rest: a column each, until what is left fits.
		const head = (at: number) => (at === 0 ? chrome : contChrome + repeatAt(lines, at));
		while (head(from) + (body - from) > columnHeight) {
			const room = columnHeight - head(from) - footer;
			const cut = cutIn(from, room) ?? fineCut(from, room) ?? Math.floor(from + room - SLACK_PX);
			if (cut <= from) break;
			from = cut;
			starts.push(cut);
		}
		// The last part starts a column (every part before it filled one).
		used = 0;
		place(head(from) + (body - from));
		if (starts.length > 1) plan.set(card.id, starts);
	}
	return plan;
}

/** The heading a part starting at `at` repeats: that of the last line starting at or above it. */
function repeatAt(lines: CardLines, at: number): number {
	if (!lines.repeat) return 0;
	let height = 0;
	for (const [i, top] of lines.tops.entries()) if (top <= at) height = lines.repeat[i] ?? 0;
	return height;
}

/**
 * The height (px) each part of a continued card is drawn at, as planParts counts it: its header
 * (the first part's, or a later part's and the course heading it repeats), its window of the
 * lines from its start to the next part's (the last: to the end), and "cont." under all but the
 * last. The board gives an off-screen part this height without laying it out.
 */
export function partHeights(lines: CardLines, starts: readonly number[]): number[] {
	return starts.map((from, i) => {
		const to = starts[i + 1] ?? lines.body;
		const head = from === 0 ? lines.chrome : lines.contChrome + repeatAt(lines, from);
		return head + (to - from) + (i < starts.length - 1 ? lines.footer : 0);
	});
}
