/**
 * Stations and expo (screen communication, docs/screens.md): a station shows its own items, the
 * expo the whole order; a station's rule names the expo screens its bumps complete items on.
 * The expo's record of an order keeps one mark per station that holds the same order (which
 * items it has, and when it bumped them); the card's progress is read from the marks and the
 * expo's own items, so an update on either side needs no re-marking.
 *
 * Pure: the engine hands in the station's new records and the expo's state, and commits the
 * `station.marked` events returned here like any other change; the browser replays them.
 */
import type { ItemView } from './content.ts';
import type { MarkItem, OrderRecord, StationMark } from './order-machine.ts';

export type { MarkItem, StationMark };
import { step, type ScreenChange, type ScreenState } from './screen.ts';

/**
 * How long a screen whose rules changed at run time re-establishes its connection (the vendor's
 * screen drops its cloud connection for 10-20 s).
 */
export const DEFAULT_RECONNECT_SECONDS = 15;

/** What a screen is in the kitchen: a station (its own items) or an expo (the whole order). */
export const SCREEN_ROLES = ['station', 'expo'] as const;
export type ScreenRole = (typeof SCREEN_ROLES)[number];

/** A screen of a location as the rules read it: id, role and (a station's) rule. */
export interface CommunicatingScreen {
	id: string;
	role: ScreenRole;
	/** The expo screens this station's bumps complete items on. */
	bumpsTo: readonly string[];
}

/**
 * What is wrong with a location's communication rules, by screen and rule index: a rule on an
 * expo, or one naming a screen that is not an expo of the same location (or the station itself).
 * The config (at start) and the admin API (at run time) both refuse with these.
 */
export function communicationProblems(
	screens: readonly CommunicatingScreen[]
): Array<{ screen: string; index: number | null; message: string }> {
	const roles = new Map(screens.map((s) => [s.id, s.role]));
	const problems: Array<{ screen: string; index: number | null; message: string }> = [];
	for (const screen of screens) {
		if (screen.role === 'expo' && screen.bumpsTo.length > 0) {
			problems.push({
				screen: screen.id,
				index: null,
				message: 'an expo screen has no communication rules (only a station sends its bumps)'
			});
			continue;
		}
		screen.bumpsTo.forEach((target, index) => {
			const role = roles.get(target);
			if (role === 'expo') return;
			const why =
				role === undefined
					? 'is not a screen of this location'
					: target === screen.id
						? 'is this station itself'
						: 'is a station, not an expo';
			problems.push({
				screen: screen.id,
				index,
				message: `"${target}" ${why}; expected the id of an expo screen of the same location`
			});
		});
	}
	return problems;
}

/** A station's mark for its record of an order: its live items, done when it is bumped. */
export function markOf(station: { id: string; name: string }, record: OrderRecord): StationMark {
	const items: MarkItem[] = [];
	for (const item of record.context.items)
		if (!item.deleted) items.push({ lineId: item.lineId, name: item.name, qty: item.qty });
	const mark: StationMark = { station: station.id, name: station.name, items };
	if (record.state === 'bumped' && record.context.bumpedAt !== undefined)
		mark.doneAt = record.context.bumpedAt;
	return mark;
}

function sameMark(a: StationMark | undefined, b: StationMark): boolean {
	return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** The `station.marked` change that puts `mark` on the expo's record; none when nothing changes. */
function markChange(record: OrderRecord, mark: StationMark, at: number): ScreenChange | null {
	if (
		sameMark(
			record.context.stations?.find((m) => m.station === mark.station),
			mark
		)
	)
		return null;
	const event = { type: 'station.marked' as const, mark, at };
	const next = step(record, event);
	if (!next) return null;
	return { type: 'order.event', id: record.context.id, event, record: next, itemsKept: true };
}

/**
 * What a station's changes do on one expo screen: each order the expo also holds gets the
 * station's mark as the change left its record (created or updated: its items; bumped: done;
 * recalled: not done again). A removal (the recall list's end, a reset, an auto clear) leaves
 * the mark as it was.
 */
export function stationChanges(
	station: { id: string; name: string },
	changes: readonly ScreenChange[],
	expo: ScreenState,
	at: number
): ScreenChange[] {
	const out: ScreenChange[] = [];
	const latest = new Map<string, OrderRecord>();
	for (const change of changes) {
		if (change.type === 'order.removed') continue;
		const id = change.record.context.id;
		const record = latest.get(id) ?? expo.orders.get(id);
		if (!record) continue;
		const marked = markChange(record, markOf(station, change.record), at);
		if (!marked || marked.type === 'order.removed') continue;
		latest.set(id, marked.record);
		out.push(marked);
	}
	return out;
}

/**
 * An order created on the expo after stations already had it: the marks of every station that
 * holds it (in `stations`' order), so an order sent to the stations first shows their progress.
 */
export function expoCreatedChanges(
	changes: readonly ScreenChange[],
	stations: ReadonlyArray<{ id: string; name: string; state: ScreenState }>,
	at: number
): ScreenChange[] {
	const out: ScreenChange[] = [];
	for (const change of changes) {
		if (change.type !== 'order.created') continue;
		let record = change.record;
		for (const station of stations) {
			const held = station.state.orders.get(record.context.id);
			if (!held) continue;
			const marked = markChange(record, markOf(station, held), at);
			if (!marked || marked.type === 'order.removed') continue;
			record = marked.record;
			out.push(marked);
		}
	}
	return out;
}

/** One station's progress on an expo card. */
export interface StationProgress {
	station: string;
	name: string;
	/** Items of the expo card this station's items matched. */
	items: number;
	done: boolean;
}

/** What the expo card shows of its stations: each one's progress, and who completed each item. */
export interface ExpoProgress {
	stations: StationProgress[];
	/** The expo item's lineId → the name of the station that completed it. */
	doneBy: Map<string, string>;
}

/**
 * Match each station's items to the expo card's items: by lineId when both give the same line
 * of the same name, else by name (the first expo item of that name not yet matched). Items the
 * expo no longer shows (removed by an update) match nothing. Null when no station has the order.
 */
export function expoProgress(context: {
	items: readonly ItemView[];
	stations?: readonly StationMark[];
}): ExpoProgress | null {
	const marks = context.stations;
	if (!marks || marks.length === 0) return null;
	const live = context.items.filter((item) => !item.deleted);
	const claimed = new Set<string>();
	const doneBy = new Map<string, string>();
	const stations: StationProgress[] = [];
	for (const mark of marks) {
		let count = 0;
		for (const item of mark.items) {
			const match =
				live.find(
					(e) => !claimed.has(e.lineId) && e.lineId === item.lineId && e.name === item.name
				) ?? live.find((e) => !claimed.has(e.lineId) && e.name === item.name);
			if (!match) continue;
			claimed.add(match.lineId);
			count += 1;
			if (mark.doneAt !== undefined) doneBy.set(match.lineId, mark.name);
		}
		stations.push({
			station: mark.station,
			name: mark.name,
			items: count,
			done: mark.doneAt !== undefined
		});
	}
	return { stations, doneBy };
}

/**
 * The stations an expo card shows: those holding at least one of its items. A station whose
 * items all left the card (an update on the expo) or matched none of them is noise on the card.
 */
export function shownStations(progress: ExpoProgress | null): StationProgress[] {
	return progress?.stations.filter((s) => s.items > 0) ?? [];
}

/**
 * ALL READY on an expo card: every station with items on the card has bumped them (and there is
 * at least one). What the expeditor waits for before calling the order; the card turns green.
 */
export function allReady(progress: ExpoProgress | null): boolean {
	const shown = shownStations(progress);
	return shown.length > 0 && shown.every((s) => s.done);
}
