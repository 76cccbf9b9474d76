/**
 * The order tracker (docs/screens.md#order-tracker): the customer-facing board of a location,
 * "Preparing" and "Ready", by order name and number. The vendor has one (its settings are in the
 * device record's `deviceSettings.orderTracker`) but does not document its layout, so this is
 * what kds-sim decided, the rules in one place:
 *
 * - an order shows once a screen of the location has it on screen (an order only held, its
 *   start still ahead, does not show yet);
 * - it is Ready when a Take Out view marked it "Ready for pickup", or when the expo screens that
 *   hold it bumped it, or (no expo holds it) when every screen that holds it bumped it; a recall
 *   brings it back to Preparing (a "Ready for pickup" stays: the customer was told);
 * - a cancelled order leaves the board; a Ready one leaves it READY_SHOWN_MS after it was ready;
 * - it shows the name as sent and a number (the check number, else the order id): no other
 *   customer data.
 */
import * as z from 'zod';
import type { ScreenRole } from '../expo.ts';
import type { OrderRecord } from '../order-machine.ts';

/** How long an order stays under Ready (then it is taken to be picked up). */
export const READY_SHOWN_MS = 15 * 60_000;

export interface TrackerScreen {
	role: ScreenRole;
	records: Iterable<OrderRecord>;
	/** "Ready for pickup" on this screen's Take Out view: order id → when (agent clock). */
	readyAt: ReadonlyMap<string, number>;
}

/** One order on the tracker's boards: the one shape of the agent's answer and the page's. */
export const TrackerEntrySchema = z.strictObject({
	orderId: z.string(),
	name: z.string().describe('The order name as sent.'),
	number: z.string().describe('The check number, else the order id.'),
	/** Preparing: when it reached the kitchen; Ready: when it became ready (agent clock). */
	since: z.number().describe('Preparing: when it reached the kitchen; Ready: when it was ready.')
});
export type TrackerEntry = z.infer<typeof TrackerEntrySchema>;

export interface TrackerBoard {
	/** Oldest first. */
	preparing: TrackerEntry[];
	/** Newest first: the order just called is at the top. */
	ready: TrackerEntry[];
}

/** GET /api/tracker/:location: a location's boards, as the agent answers and the page reads. */
export const TrackerViewSchema = z.strictObject({
	location: z.strictObject({ id: z.string(), name: z.string(), timezone: z.string() }),
	now: z.number(),
	preparing: z.array(TrackerEntrySchema).describe('Oldest first.'),
	ready: z.array(TrackerEntrySchema).describe('Newest first; each for 15 minutes.')
});
export type TrackerView = z.infer<typeof TrackerViewSchema>;

interface Seen {
	records: Array<{ record: OrderRecord; role: ScreenRole }>;
	readyAt: number | null;
}

/** When the order became ready, or null while it is being prepared. */
function readyTime(seen: Seen): number | null {
	if (seen.readyAt !== null) return seen.readyAt;
	const expo = seen.records.filter((r) => r.role === 'expo');
	const deciding = expo.length > 0 ? expo : seen.records;
	let last = 0;
	for (const { record } of deciding) {
		if (record.state !== 'bumped') return null;
		last = Math.max(last, record.context.bumpedAt ?? 0);
	}
	return last;
}

export function trackerBoard(screens: readonly TrackerScreen[], now: number): TrackerBoard {
	const orders = new Map<string, Seen>();
	for (const screen of screens) {
		for (const record of screen.records) {
			const id = record.context.id;
			let seen = orders.get(id);
			if (!seen) orders.set(id, (seen = { records: [], readyAt: null }));
			seen.records.push({ record, role: screen.role });
		}
		for (const [id, at] of screen.readyAt) {
			const seen = orders.get(id);
			if (seen) seen.readyAt = Math.min(seen.readyAt ?? at, at);
		}
	}
	const board: TrackerBoard = { preparing: [], ready: [] };
	for (const [orderId, seen] of orders) {
		const records = seen.records.map((r) => r.record);
		if (records.some((r) => r.context.cancelledAt !== undefined)) continue;
		if (records.every((r) => r.state === 'held')) continue;
		const first = records.reduce((a, b) => (b.context.receivedAt < a.context.receivedAt ? b : a));
		const { fields } = first.context;
		const entry = {
			orderId,
			name: fields.name.trim() || 'Order',
			number: fields.checkNumber || orderId
		};
		const ready = readyTime(seen);
		if (ready === null) board.preparing.push({ ...entry, since: first.context.receivedAt });
		else if (now - ready < READY_SHOWN_MS) board.ready.push({ ...entry, since: ready });
	}
	board.preparing.sort((a, b) => a.since - b.since || a.orderId.localeCompare(b.orderId));
	board.ready.sort((a, b) => b.since - a.since || a.orderId.localeCompare(b.orderId));
	return board;
}

/**
 * How wide a name's widest unbreakable piece is, in the width of one Latin letter (about 0.6 em
 * of the board's bold type): the words between spaces, a hyphen ending its piece (a line may
 * break after it); a CJK character or emoji counts two. The board shrinks a name's type until
 * that piece fits its column (CSS: `--longest`), so no name is broken inside a word.
 */
export function widestPiece(name: string): number {
	let widest = 0;
	for (const piece of name.split(/\s+|(?<=-)/u)) {
		let width = 0;
		for (const char of piece)
			width += /[\u1100-\uffff]|\p{Extended_Pictographic}/u.test(char) ? 2 : 1;
		widest = Math.max(widest, width);
	}
	return widest;
}
