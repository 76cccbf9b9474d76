/**
 * The life of one order on one screen. The agent moves stored records by it (order-step.ts:
 * XState's pure `initialTransition`/`transition`, or the fast path held equal to them); the UI
 * runs one actor per order from the same definition, fed the same events, so no lifecycle rule
 * is written twice. The UI asks an order's snapshot what it needs (`hasTag('cancelled')`,
 * `can(event)`) rather than comparing state names.
 *
 * States and their tags:
 *   held      'held'                 waiting in the screen's holds list
 *   active    'visible'              on the screen, in the queue
 *   cancelled 'visible', 'cancelled' still on the screen, red banner, still bumpable
 *   bumped    'done'                 done and off the screen; kept for recall
 *
 * A course on hold (items with courseStatus 'hold') is fired from the screen with 'course.fired'
 * while the order is on the screen. On an expo screen, 'station.marked' keeps a station's part of
 * the order (expo.ts) in any state, the order's own state and timers untouched.
 *
 * A cook's marks (cook-marks.ts) while the order is on the screen and not cancelled:
 * 'item.marked' marks one item done or not done, 'order.started' marks the ticket started or not.
 * Each is refused when it would change nothing (the item unknown, removed, or already so), so
 * `can` answers whether the card offers it. The timers are left alone.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import type { Order, PartialOrder } from './order-schema.ts';
import {
	applyFullUpdate,
	applyPartialUpdate,
	contentFromOrder,
	type OrderContent
} from './content.ts';
import { fireCourse, hasHeldCourse } from './holds.ts';
import { isDone, markable, marksAfterUpdate, withMark, type ItemsDone } from './cook-marks.ts';

export interface OrderContext extends OrderContent {
	id: string;
	/**
	 * The name given at create: the active-orders query answers it as orderName (contract 2.9),
	 * whatever updates did to the name since. Absent on orders stored by earlier versions.
	 */
	createdName?: string;
	/** Position in arrival order; the queue shows priority orders first, then by seq. */
	seq: number;
	/** When the order reached the screen (ms since epoch). */
	receivedAt: number;
	/** When it entered the queue: receivedAt, or when it was fired from the holds list. */
	queuedAt: number;
	updatedAt: number;
	cancelledAt?: number;
	bumpedAt?: number;
	/** Set when the order was brought back by a recall; the card is marked. */
	recalledAt?: number;
	/**
	 * On an expo screen: each station that holds the same order, its items and whether it bumped
	 * them (screen communication, expo.ts). Absent on a station and on orders no station has.
	 */
	stations?: StationMark[];
	/**
	 * Combine Orders (combine.ts): the id of the order whose ticket this order joined; it is drawn
	 * on that ticket while that order is on the screen.
	 */
	combinedWith?: string;
	/**
	 * Items a cook marked done on this screen (a tap on the item): lineId → when (cook-marks.ts).
	 * Absent when none is.
	 */
	itemsDone?: ItemsDone;
	/** When a cook marked the ticket started; absent when not (or undone). */
	startedAt?: number;
}

/** One item as a station shows it: what the expo matches its own items with (expo.ts). */
export interface MarkItem {
	lineId: string;
	name: string;
	qty: number;
}

/** One station's part of an order, as the expo keeps it (expo.ts). */
export interface StationMark {
	/** The station's screen id, and its name as the expo shows it. */
	station: string;
	name: string;
	/** The station's items (removed ones left out). */
	items: MarkItem[];
	/** When the station bumped the order; absent while it works on it (or after a recall). */
	doneAt?: number;
}

export interface OrderInput {
	order: Order;
	at: number;
	seq: number;
	/** Start in the holds list rather than the queue. */
	held?: boolean;
	/** Combine Orders: join the ticket of this order (combine.ts). */
	combinedWith?: string;
}

export type OrderEvent =
	| { type: 'order.updated'; order: Order; at: number }
	| { type: 'order.patched'; patch: PartialOrder; at: number }
	| { type: 'order.cancelled'; at: number }
	| { type: 'order.fired'; at: number; seq: number }
	| { type: 'order.bumped'; at: number }
	| { type: 'order.recalled'; at: number }
	/** A course on hold fired from the screen; '' is the items without a course. */
	| { type: 'course.fired'; course: string; at: number }
	/** On an expo: a station's part of the order changed (created, updated, bumped, recalled). */
	| { type: 'station.marked'; mark: StationMark; at: number }
	/** A cook marked an item done (a tap), or not done again (a second tap). */
	| { type: 'item.marked'; lineId: string; done: boolean; at: number }
	/** A cook marked the ticket started, or not started again. */
	| { type: 'order.started'; started: boolean; at: number };

/** The machine's tags (see the table above). */
export type OrderTag = 'held' | 'visible' | 'cancelled' | 'done';

export const orderMachine = setup({
	types: {
		context: {} as OrderContext,
		events: {} as OrderEvent,
		input: {} as OrderInput,
		tags: {} as OrderTag
	},
	actions: {
		replaceContent: assign(({ context, event }) => {
			if (event.type !== 'order.updated') return {};
			const content = applyFullUpdate(context, event.order, event.at);
			return { ...content, updatedAt: event.at, ...keptMarks(context, content.items, event.at) };
		}),
		patchContent: assign(({ context, event }) => {
			if (event.type !== 'order.patched') return {};
			const content = applyPartialUpdate(context, event.patch, event.at);
			return { ...content, updatedAt: event.at, ...keptMarks(context, content.items, event.at) };
		}),
		markItem: assign(({ context, event }) => {
			if (event.type !== 'item.marked') return {};
			return { itemsDone: withMark(context.itemsDone, event.lineId, event.done, event.at) };
		}),
		markStarted: assign(({ event }) => {
			if (event.type !== 'order.started') return {};
			return { startedAt: event.started ? event.at : undefined };
		}),
		markCancelled: assign({
			cancelledAt: ({ event }) => event.at,
			updatedAt: ({ event }) => event.at
		}),
		markQueued: assign(({ context, event }) => ({
			queuedAt: event.at,
			updatedAt: event.at,
			// Released from hold: to the end of the queue, timer starting now.
			seq: event.type === 'order.fired' ? event.seq : context.seq
		})),
		markBumped: assign({
			bumpedAt: ({ event }) => event.at,
			recalledAt: () => undefined,
			updatedAt: ({ event }) => event.at
		}),
		fireCourse: assign(({ context, event }) => {
			if (event.type !== 'course.fired') return {};
			return { items: fireCourse(context.items, event.course, event.at), updatedAt: event.at };
		}),
		// The station's mark replaces its last one, in its place; the order's timers are left alone.
		markStation: assign(({ context, event }) => {
			if (event.type !== 'station.marked') return {};
			const marks = context.stations ?? [];
			const known = marks.some((m) => m.station === event.mark.station);
			const stations = known
				? marks.map((m) => (m.station === event.mark.station ? event.mark : m))
				: [...marks, event.mark];
			return { stations };
		}),
		markRecalled: assign({
			recalledAt: ({ event }) => event.at,
			bumpedAt: () => undefined,
			updatedAt: ({ event }) => event.at
		})
	},
	guards: {
		startsHeld: ({ context }) => context.queuedAt < 0,
		wasCancelled: ({ context }) => context.cancelledAt !== undefined,
		hasHeldCourse: ({ context, event }) =>
			event.type === 'course.fired' && hasHeldCourse(context.items, event.course),
		changesItemMark: ({ context, event }) =>
			event.type === 'item.marked' &&
			markable(context.items, event.lineId) &&
			isDone(context.itemsDone, event.lineId) !== event.done,
		changesStarted: ({ context, event }) =>
			event.type === 'order.started' && (context.startedAt !== undefined) !== event.started
	}
}).createMachine({
	id: 'order',
	// One literal with every key, in the order the row's JSON has them: V8 keeps all eight in the
	// object (with a spread of the content in the literal, every order's context had a property
	// array of its own besides: 40 bytes more for each order a screen holds, and for the scavenger
	// to copy twice).
	context: ({ input }) => {
		const { fields, items } = contentFromOrder(input.order);
		const context: OrderContext = {
			id: input.order.id,
			createdName: input.order.name,
			fields,
			items,
			seq: input.seq,
			receivedAt: input.at,
			queuedAt: input.held ? -1 : input.at,
			updatedAt: input.at
		};
		if (input.combinedWith !== undefined) context.combinedWith = input.combinedWith;
		return context;
	},
	initial: 'arriving',
	states: {
		arriving: {
			always: [{ guard: 'startsHeld', target: 'held' }, { target: 'active' }]
		},
		held: {
			tags: ['held'],
			on: {
				'order.updated': { actions: 'replaceContent' },
				'order.patched': { actions: 'patchContent' },
				'order.fired': { target: 'active', actions: 'markQueued' },
				'station.marked': { actions: 'markStation' },
				'order.cancelled': { target: 'cancelled', actions: ['markCancelled', 'markQueued'] }
			}
		},
		active: {
			tags: ['visible'],
			on: {
				'order.updated': { actions: 'replaceContent' },
				'order.patched': { actions: 'patchContent' },
				'order.cancelled': { target: 'cancelled', actions: 'markCancelled' },
				'order.bumped': { target: 'bumped', actions: 'markBumped' },
				'course.fired': { guard: 'hasHeldCourse', actions: 'fireCourse' },
				'station.marked': { actions: 'markStation' },
				'item.marked': { guard: 'changesItemMark', actions: 'markItem' },
				'order.started': { guard: 'changesStarted', actions: 'markStarted' }
			}
		},
		cancelled: {
			tags: ['visible', 'cancelled'],
			on: {
				'order.updated': { actions: 'replaceContent' },
				'order.patched': { actions: 'patchContent' },
				'order.bumped': { target: 'bumped', actions: 'markBumped' },
				'station.marked': { actions: 'markStation' }
			}
		},
		bumped: {
			tags: ['done'],
			on: {
				// Kept for a recall of the expo's card: it comes back with what the stations did since.
				'station.marked': { actions: 'markStation' },
				'order.recalled': [
					{ guard: 'wasCancelled', target: 'cancelled', actions: 'markRecalled' },
					{ target: 'active', actions: 'markRecalled' }
				]
			}
		}
	}
});

/**
 * An update's effect on the cook's marks: an item it changed or removed loses its mark
 * (cook-marks.ts). Nothing when the order has none, so an order without marks keeps its shape.
 */
function keptMarks(
	context: OrderContext,
	items: OrderContent['items'],
	at: number
): { itemsDone?: ItemsDone } {
	if (context.itemsDone === undefined) return {};
	return { itemsDone: marksAfterUpdate(context.itemsDone, items, at) };
}

export type OrderMachine = typeof orderMachine;
export type OrderSnapshot = SnapshotFrom<OrderMachine>;
export type OrderStateName = 'held' | 'active' | 'cancelled' | 'bumped';

/** The stored and transmitted form of one order on one screen. */
export interface OrderRecord {
	state: OrderStateName;
	context: OrderContext;
}
