/**
 * The All Day count (docs/screens.md#all-day): every fired item over the tickets on a screen,
 * summed by item name, with its modifier combinations grouped under it — what a cook reads to
 * know "6 burgers, 4 of them no onion" at a glance. As Toast's does, it counts fired items only:
 * held tickets (the holds list), scheduled tickets (start time still ahead), items of a course on
 * hold and cancelled tickets are left out; removed items too. The browser and the agent's JSON
 * view both read it from here.
 *
 * `outstanding` counts only what is still to make: items a station already completed (an expo's
 * tick, core/expo.ts) or a cook marked done (core/cook-marks.ts) are left out too.
 */
import type { ScreenSettings } from '../relay.ts';
import type { OrderContext, OrderStateName } from '../order-machine.ts';
import { cardTiming, timersFor } from './format.ts';
import { expoProgress } from '../expo.ts';
import { isDone } from '../cook-marks.ts';

/** One modifier combination of an item and how many of the item have it ('' = no modifiers). */
export interface AllDayVariant {
	mods: string;
	qty: number;
}

/** One item name and its count over the screen, its variants most first. */
export interface AllDayLine {
	name: string;
	qty: number;
	variants: AllDayVariant[];
	/** How many tickets have it. */
	tickets: number;
}

/** One modifier list as a cook reads it: "No onion, 2 × Bacon". */
export function modsText(mods: ReadonlyArray<{ name: string; qty?: number }>): string {
	return mods
		.map((m) => (m.qty !== undefined && m.qty > 1 ? `${m.qty} × ${m.name}` : m.name))
		.join(', ');
}

/** Whether a ticket counts: on the screen, not cancelled, not waiting for its start time. */
export function countsAllDay(
	record: { state: OrderStateName; context: OrderContext },
	now: number,
	settings: ScreenSettings | undefined
): boolean {
	if (record.state !== 'active') return false;
	const { context } = record;
	return (
		cardTiming(now, context, context.fields, timersFor(settings, context.fields.mode)).level !==
		'scheduled'
	);
}

/** The All Day lines of these tickets, most first, then by name; `outstanding`: what is still to make. */
export function allDay(
	records: Iterable<{ state: OrderStateName; context: OrderContext }>,
	now: number,
	settings?: ScreenSettings,
	options: { outstanding?: boolean } = {}
): AllDayLine[] {
	const lines = new Map<
		string,
		{ qty: number; variants: Map<string, number>; tickets: Set<string> }
	>();
	for (const record of records) {
		if (!countsAllDay(record, now, settings)) continue;
		const doneBy = options.outstanding ? expoProgress(record.context)?.doneBy : undefined;
		for (const item of record.context.items) {
			if (item.deleted || item.courseStatus === 'hold' || item.qty <= 0) continue;
			if (
				options.outstanding &&
				(doneBy?.has(item.lineId) || isDone(record.context.itemsDone, item.lineId))
			)
				continue;
			let line = lines.get(item.name);
			if (!line) lines.set(item.name, (line = { qty: 0, variants: new Map(), tickets: new Set() }));
			line.qty += item.qty;
			line.tickets.add(record.context.id);
			const mods = modsText(item.mods);
			line.variants.set(mods, (line.variants.get(mods) ?? 0) + item.qty);
		}
	}
	const byCount =
		<T extends { qty: number }>(key: (x: T) => string) =>
		(a: T, b: T) =>
			b.qty - a.qty || key(a).localeCompare(key(b));
	return [...lines]
		.map(([name, line]) => ({
			name,
			qty: line.qty,
			tickets: line.tickets.size,
			variants: [...line.variants]
				.map(([mods, qty]) => ({ mods, qty }))
				.sort(byCount<AllDayVariant>((v) => v.mods))
		}))
		.sort(byCount<AllDayLine>((l) => l.name));
}
