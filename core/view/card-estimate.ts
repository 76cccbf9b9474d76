/**
 * A card's height before the browser has laid it out (rem): the board counts an off-screen card at
 * this height until it is laid out for real (a few cards a frame, CardBoard.svelte), so a first
 * layout need not lay out 500 cards. It counts the lines the card draws as the card's CSS wraps
 * them (OrderCard, CardItem): every text wraps at its spaces, and a word longer than the line
 * (an id, an email, a URL: `overflow-wrap: anywhere`) is broken at the line's width, so an order
 * of long unbroken strings is estimated at the lines it really takes, not one line an item (nor
 * a letter a line). tests/e2e/messy-rush.e2e.ts compares it with the drawn height.
 *
 * Pure: the sizes below are the card's CSS sizes in rem.
 */

export interface EstimatedOrder {
	items: readonly {
		name?: string;
		mods?: readonly { name?: string; qty?: number }[];
		specialInstructions?: string;
		seat?: string;
		course?: string;
		itemGroup?: { id: string };
	}[];
	fields?: {
		specialInstructions?: string;
		deliveryService?: { name?: string; orderId?: string };
		server?: string;
		terminal?: string;
		vehicleColor?: string;
		vehicleModel?: string;
	};
}

/** Average advance of a character, in em, of the card's bold sans (Latin); wide ones count 2. */
const CHAR_EM = 0.58;
/** The card's header, frame and padding without lines (name, timer and one chip row). */
const CHROME_REM = 5.6;
/** An item line: name 1.3rem on 1.5rem; modifiers and instructions 1.15rem on 1.4rem. */
const NAME = { font: 1.3, line: 1.5 };
const SMALL = { font: 1.15, line: 1.4 };
const INFO = { font: 1.05, line: 1.35 };
/** Space an item's text does not get: the qty column, the gap, paddings and the frame (rem). */
const ITEM_INSET_REM = 3.6;
const MOD_INSET_REM = 0.6;
const INFO_INSET_REM = 1.6;
/** A course's heading (its Fire button is a 44 px target) and an item group's frame and name. */
const COURSE_REM = 2.9;
const GROUP_REM = 2.0;
/** Between items, and the items block's own padding. */
const ITEM_GAP_REM = 0.15;

/** East Asian wide characters and emoji take about twice a Latin letter's width. */
function width(text: string): number {
	let n = 0;
	for (const ch of text)
		n +=
			/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(
				ch
			)
				? 1.75
				: 1;
	return n;
}

/** The lines `text` takes in a box `widthRem` wide at `fontRem`: words wrap, long ones break. */
export function textLines(text: string, fontRem: number, widthRem: number): number {
	const perLine = Math.max(1, Math.floor(widthRem / (CHAR_EM * fontRem)));
	let lines = 1;
	let used = 0;
	for (const word of text.split(/\s+/).filter(Boolean)) {
		let w = width(word);
		const need = used === 0 ? w : used + 1 + w;
		if (need <= perLine) {
			used = need;
			continue;
		}
		if (used > 0) lines++;
		// A word longer than the line breaks at the line's width.
		while (w > perLine) {
			lines++;
			w -= perLine;
		}
		used = w;
	}
	return lines;
}

/** The estimated height (rem) of an order's card in a column `columnRem` wide. */
export function estimateCardRem(order: EstimatedOrder, columnRem: number): number {
	const itemWidth = Math.max(4, columnRem - ITEM_INSET_REM);
	let rem = CHROME_REM;
	const f = order.fields ?? {};
	const info = [
		[f.server, f.terminal].filter(Boolean).join(' · '),
		[f.vehicleColor, f.vehicleModel].filter(Boolean).join(' '),
		f.deliveryService ? `${f.deliveryService.name ?? ''} #${f.deliveryService.orderId ?? ''}` : '',
		f.specialInstructions ?? ''
	].filter(Boolean);
	if (info.length > 0) {
		rem += 0.6;
		for (const text of info)
			rem += INFO.line * textLines(text, INFO.font, columnRem - INFO_INSET_REM);
	}
	const courses = new Set(order.items.map((i) => i.course?.trim()).filter(Boolean));
	const groups = new Set(order.items.map((i) => i.itemGroup?.id).filter(Boolean));
	rem += COURSE_REM * courses.size + GROUP_REM * groups.size;
	for (const item of order.items) {
		rem +=
			ITEM_GAP_REM +
			NAME.line * textLines(item.name ?? '', NAME.font, itemWidth - (item.seat ? 2.5 : 0));
		for (const mod of item.mods ?? [])
			rem +=
				SMALL.line *
				textLines(
					`– ${mod.qty && mod.qty > 1 ? `${mod.qty} × ` : ''}${mod.name ?? ''}`,
					SMALL.font,
					itemWidth - MOD_INSET_REM
				);
		if (item.specialInstructions)
			rem += 0.1 + SMALL.line * textLines(`» ${item.specialInstructions}`, SMALL.font, itemWidth);
	}
	return rem;
}
