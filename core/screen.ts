/**
 * The rules that apply a command to one screen: every row of the state table in contract
 * section 3, plus the screen actions (bump, recall, fire a held order, fire a held course, mark
 * an item done or not, mark the ticket started or not: SCREEN_ACTIONS). `decide` computes the reply and the
 * changes without touching the screen, so the agent can commit them durably before it applies
 * them and answers; `applyChanges` then updates the screen. Both sides (agent and UI) read the
 * queue through `queueOf`. Each order's record moves by its machine through order-step.ts.
 */
import { combineReason, combineTarget, partnersOf } from './combine.ts';
import { fullUpdateOutcomes, partialUpdateOutcomes } from './content.ts';
import { quoted, type Outcome } from './outcome.ts';
import type { OrderCommand, PartialOrder } from './order-schema.ts';
import type { OrderEvent, OrderInput, OrderRecord } from './order-machine.ts';
import { createRecord, step } from './order-step.ts';
import { isDone } from './cook-marks.ts';

/** How an order's record moves (order-step.ts), re-exported for the screen's callers. */
export { createRecord, step };

/** How many bumped orders a screen keeps for recall. */
export const RECALL_LIMIT = 50;

export interface ScreenState {
	orders: Map<string, OrderRecord>;
	/** Next queue position. */
	nextSeq: number;
}

export function createScreenState(records: Iterable<OrderRecord> = []): ScreenState {
	const orders = new Map<string, OrderRecord>();
	let nextSeq = 1;
	for (const record of records) {
		orders.set(record.context.id, record);
		nextSeq = Math.max(nextSeq, record.context.seq + 1);
	}
	return { orders, nextSeq };
}

/** The reply codes of contract sections 4.5 and 7. */
export const REJECT_CODES = ['DUPLICATE_ORDER_ID', 'ORDER_DOES_NOT_EXIST'] as const;
export type RejectCode = (typeof REJECT_CODES)[number];

/** A change to one screen: the UI replays exactly these. */
export type ScreenChange =
	| { type: 'order.created'; input: OrderInput; record: OrderRecord }
	| {
			type: 'order.event';
			id: string;
			event: OrderEvent;
			record: OrderRecord;
			/** The event left the items as they were (the same array): the store keeps its copy. */
			itemsKept: boolean;
	  }
	| { type: 'order.removed'; id: string };

export type Decision = (
	{ ok: true; id: string; changes: ScreenChange[] } | { ok: false; id: string; code: RejectCode }
) & {
	/**
	 * With `explain`: what was refused or ignored and why, each part of the command by its path
	 * in the order (outcome.ts). Read from the decision itself (the reply code, the content
	 * before and after), so it cannot disagree with what the screen does.
	 */
	outcomes?: Outcome[];
};

export interface DecideOptions {
	/** Put a new order in the holds list instead of the queue (auto hold future orders). */
	hold?: (command: Extract<OrderCommand, { command: 'create-order' }>) => boolean;
	/**
	 * Also return the outcomes (Decision.outcomes). Off on the per-order path: the findings,
	 * computed after the reply, ask for them.
	 */
	explain?: boolean;
	/** Combine Orders (combine.ts): a new order may join the ticket of a recent one of its name. */
	combine?: boolean;
}

/** On the screen or on hold: what counts for duplicates and for updates. */
export function isLive(record: OrderRecord): boolean {
	return record.state !== 'bumped';
}

function reject(id: string, code: RejectCode): Decision {
	return { ok: false, id, code };
}

function eventChange(record: OrderRecord, event: OrderEvent): ScreenChange[] | null {
	const next = step(record, event);
	if (!next) return null;
	const itemsKept = next.context.items === record.context.items;
	return [{ type: 'order.event', id: record.context.id, event, record: next, itemsKept }];
}

/** Decide what a command does to a screen, at time `at` (ms since epoch). Does not mutate. */
export function decide(
	screen: ScreenState,
	command: OrderCommand,
	at: number,
	options: DecideOptions = {}
): Decision {
	const decision = decideOnly(screen, command, at, options);
	if (options.explain) decision.outcomes = outcomesOf(screen, command, decision, at);
	return decision;
}

/** The record a decision leaves for the command's order, if it changes it. */
export function recordAfter(decision: Decision): OrderRecord | undefined {
	if (!decision.ok) return undefined;
	let record: OrderRecord | undefined;
	for (const change of decision.changes) {
		if (change.type !== 'order.removed' && change.record.context.id === decision.id) {
			record = change.record;
		}
	}
	return record;
}

/** What a decision refused or ignored, read from the decision and the order before it. */
function outcomesOf(
	screen: ScreenState,
	command: OrderCommand,
	decision: Decision,
	at: number
): Outcome[] {
	const id = command.order.id;
	const existing = screen.orders.get(id);
	const path = ['id'];
	if (!decision.ok && decision.code === 'DUPLICATE_ORDER_ID') {
		const message = `order ${quoted(id)} is already on the screen or on hold; the create is refused`;
		return [{ code: 'KDS-ORDER-DUPLICATE', path, message }];
	}
	if (!decision.ok) {
		const why = existing ? 'was bumped' : 'is not on the screen';
		const message = `order ${quoted(id)} ${why}; the ${command.command} is ignored (404, ORDER_DOES_NOT_EXIST)`;
		return [{ code: 'KDS-ORDER-UNKNOWN', path, message }];
	}
	const after = recordAfter(decision);
	if (command.command === 'create-order') return combinedOutcomes(screen, command, after, at);
	if (!existing) return [];
	switch (command.command) {
		case 'update-order':
			return after ? fullUpdateOutcomes(existing.context, after.context) : [];
		case 'partial-update-order':
			return after ? partialOutcomes(existing, command.order, after, at) : [];
		case 'cancel-order': {
			if (after) return [];
			// Nothing changed: the screen answers with the id (field notes), so this is no refusal.
			const was = existing.state === 'bumped' ? 'was already bumped' : 'is already cancelled';
			const message = `order ${quoted(id)} ${was}; the cancel is ignored`;
			return [{ code: 'KDS-CANCEL-IGNORED', path, message }];
		}
		default:
			return [];
	}
}

/**
 * Combine Orders: the ticket the decision put a new order on (its record's `combinedWith`, set
 * by combineTarget), and why, in combine.ts's words. None when the order has a ticket of its own.
 */
function combinedOutcomes(
	screen: ScreenState,
	command: Extract<OrderCommand, { command: 'create-order' }>,
	after: OrderRecord | undefined,
	at: number
): Outcome[] {
	const joined = after?.context.combinedWith;
	const target = joined === undefined ? undefined : screen.orders.get(joined);
	const why = target && combineReason(target, command.order, at);
	if (!target || !why) return [];
	const message = `order ${quoted(command.order.id)} joins the ticket of order ${quoted(target.context.id)}: ${why}`;
	return [{ code: 'KDS-ORDER-COMBINED', path: ['id'], message }];
}

/**
 * A partial update's outcomes: the order machine runs the patch's lists in stages (adds, then
 * adds and updates) beside the whole patch, so each list's effect can be read off its result.
 */
function partialOutcomes(
	existing: OrderRecord,
	patch: PartialOrder,
	after: OrderRecord,
	at: number
): Outcome[] {
	const run = (part: PartialOrder) =>
		step(existing, { type: 'order.patched', patch: part, at })?.context ?? existing.context;
	const { itemsToAdd, itemsToUpdate, itemsToRemove } = patch;
	if (!itemsToAdd && !itemsToUpdate && !itemsToRemove) return [];
	const id = patch.id;
	const added = itemsToAdd ? run({ id, itemsToAdd }) : existing.context;
	const updated = itemsToUpdate ? run({ id, itemsToAdd, itemsToUpdate }) : added;
	return partialUpdateOutcomes(
		existing.context,
		patch,
		{ added, updated, done: after.context },
		at
	);
}

function decideOnly(
	screen: ScreenState,
	command: OrderCommand,
	at: number,
	options: DecideOptions
): Decision {
	const id = command.order.id;
	const existing = screen.orders.get(id);
	const live = existing !== undefined && isLive(existing);

	switch (command.command) {
		case 'create-order': {
			if (live) return reject(id, 'DUPLICATE_ORDER_ID');
			const input: OrderInput = {
				order: command.order,
				at,
				seq: screen.nextSeq,
				held: options.hold?.(command) ?? false
			};
			if (options.combine && !input.held) {
				const target = combineTarget(screen.orders.values(), command.order, at);
				if (target) input.combinedWith = target.context.id;
			}
			// A bumped order with the same id is done; the new order replaces it in the recall list.
			const changes: ScreenChange[] = existing ? [{ type: 'order.removed', id }] : [];
			changes.push({ type: 'order.created', input, record: createRecord(input) });
			return { ok: true, id, changes };
		}
		case 'update-order': {
			if (!live) return reject(id, 'ORDER_DOES_NOT_EXIST');
			const changes = eventChange(existing, { type: 'order.updated', order: command.order, at });
			return changes ? { ok: true, id, changes } : reject(id, 'ORDER_DOES_NOT_EXIST');
		}
		case 'partial-update-order': {
			if (!live) return reject(id, 'ORDER_DOES_NOT_EXIST');
			const changes = eventChange(existing, { type: 'order.patched', patch: command.order, at });
			return changes ? { ok: true, id, changes } : reject(id, 'ORDER_DOES_NOT_EXIST');
		}
		case 'cancel-order': {
			if (!existing) return reject(id, 'ORDER_DOES_NOT_EXIST');
			// Cancelling a bumped or already cancelled order is ignored, and still answered with the id.
			return {
				ok: true,
				id,
				changes: eventChange(existing, { type: 'order.cancelled', at }) ?? []
			};
		}
	}
}

export const SCREEN_ACTIONS = [
	'bump',
	'recall',
	'fire',
	'fire-course',
	'item-done',
	'item-undo',
	'start',
	'start-undo'
] as const;
export type ScreenAction = (typeof SCREEN_ACTIONS)[number];

/** The actions that name an item of the order (`lineId`). */
export const ITEM_ACTIONS: readonly ScreenAction[] = ['item-done', 'item-undo'];

/** What an action names besides the order: the course to fire, the item to mark. */
export interface ActionTarget {
	/** fire-course: the course ('' = the items without a course). */
	course?: string;
	/** item-done, item-undo: the item's lineId. */
	lineId?: string;
}

function actionEvent(
	screen: ScreenState,
	action: ScreenAction,
	at: number,
	target: ActionTarget
): OrderEvent | null {
	switch (action) {
		case 'bump':
			return { type: 'order.bumped', at };
		case 'recall':
			return { type: 'order.recalled', at };
		case 'fire':
			return { type: 'order.fired', at, seq: screen.nextSeq };
		case 'fire-course':
			return target.course === undefined
				? null
				: { type: 'course.fired', course: target.course, at };
		case 'item-done':
		case 'item-undo':
			return target.lineId === undefined
				? null
				: { type: 'item.marked', lineId: target.lineId, done: action === 'item-done', at };
		case 'start':
		case 'start-undo':
			return { type: 'order.started', started: action === 'start', at };
	}
}

/**
 * A cook's mark that is already as asked (two browsers tapped the same item, a bump bar's key
 * pressed twice): accepted with nothing to change, not refused. Only on a card that takes marks.
 */
function alreadyMarked(record: OrderRecord, event: OrderEvent): boolean {
	if (record.state !== 'active') return false;
	const { context } = record;
	if (event.type === 'order.started') return (context.startedAt !== undefined) === event.started;
	if (event.type !== 'item.marked') return false;
	const onTicket = context.items.some((i) => i.lineId === event.lineId && i.deleted !== true);
	return onTicket && isDone(context.itemsDone, event.lineId) === event.done;
}

/**
 * A screen action on one order (bump = done, recall = bring back a bumped order, fire = release
 * from the holds list, fire-course = fire the course `course` that is on hold, item-done /
 * item-undo = a cook's mark on the item `lineId`, start / start-undo = the ticket marked started).
 * Returns null when the order is unknown or its state refuses the action; no changes when a
 * cook's mark already is as asked.
 */
export function decideAction(
	screen: ScreenState,
	action: ScreenAction,
	id: string,
	at: number,
	target: ActionTarget = {}
): ScreenChange[] | null {
	const record = screen.orders.get(id);
	if (!record) return null;
	const event = actionEvent(screen, action, at, target);
	if (!event) return null;
	const changes = eventChange(record, event);
	if (!changes) return alreadyMarked(record, event) ? [] : null;
	if (action === 'bump') {
		// A combined ticket is bumped whole: every order on it (each its own bump, combine.ts).
		for (const partner of partnersOf(screen.orders.values(), id)) {
			if (isOnScreen(partner)) changes.push(...(eventChange(partner, event) ?? []));
		}
		changes.push(...evictions(screen, id));
	}
	return changes;
}

/** The id of the most recently bumped order, for the recall key. */
export function lastBumped(screen: ScreenState): string | undefined {
	let best: OrderRecord | undefined;
	for (const record of screen.orders.values()) {
		if (record.state !== 'bumped') continue;
		if (!best || (record.context.bumpedAt ?? 0) >= (best.context.bumpedAt ?? 0)) best = record;
	}
	return best?.context.id;
}

/** Bumped orders beyond RECALL_LIMIT leave the screen for good, oldest first. */
function evictions(screen: ScreenState, bumping: string): ScreenChange[] {
	const bumped = [...screen.orders.values()]
		.filter((r) => r.state === 'bumped' && r.context.id !== bumping)
		.sort((a, b) => (a.context.bumpedAt ?? 0) - (b.context.bumpedAt ?? 0));
	const excess = bumped.length + 1 - RECALL_LIMIT;
	return bumped
		.slice(0, Math.max(0, excess))
		.map((r) => ({ type: 'order.removed', id: r.context.id }));
}

/** Apply decided changes to the screen. */
export function applyChanges(screen: ScreenState, changes: readonly ScreenChange[]): void {
	for (const change of changes) {
		if (change.type === 'order.removed') {
			screen.orders.delete(change.id);
		} else {
			screen.orders.set(change.record.context.id, change.record);
			screen.nextSeq = Math.max(screen.nextSeq, change.record.context.seq + 1);
		}
	}
}

/** Queue order: priority orders first, then by arrival. */
export function compareQueue(a: OrderRecord, b: OrderRecord): number {
	const pa = a.context.fields.priority ? 1 : 0;
	const pb = b.context.fields.priority ? 1 : 0;
	return pb - pa || a.context.seq - b.context.seq;
}

/** A card on the screen: an active or cancelled order (held and bumped ones are not). */
export const isOnScreen = (r: OrderRecord): boolean =>
	r.state === 'active' || r.state === 'cancelled';

/**
 * The cards on the screen, in display order. An order combined into another's ticket
 * (combine.ts) is drawn on that ticket while it is on the screen, not as a card of its own.
 */
export function queueOf(records: Iterable<OrderRecord>): OrderRecord[] {
	const visible: OrderRecord[] = [];
	let combined = false;
	for (const r of records) {
		if (!isOnScreen(r)) continue;
		visible.push(r);
		if (r.context.combinedWith !== undefined) combined = true;
	}
	if (combined) {
		const shown = new Set(visible.map((r) => r.context.id));
		const own = visible.filter((r) => !shown.has(r.context.combinedWith ?? ''));
		return own.sort(compareQueue);
	}
	return visible.sort(compareQueue);
}

/** How many cards are on the screen (queueOf's length, without sorting them). */
export function queueLength(records: Iterable<OrderRecord>): number {
	let n = 0;
	const onScreen = new Set<string>();
	const joined: string[] = [];
	for (const r of records) {
		if (!isOnScreen(r)) continue;
		n += 1;
		onScreen.add(r.context.id);
		if (r.context.combinedWith !== undefined) joined.push(r.context.combinedWith);
	}
	for (const target of joined) if (onScreen.has(target)) n -= 1;
	return n;
}

/** The holds list, oldest first. */
export function holdsOf(records: Iterable<OrderRecord>): OrderRecord[] {
	const held: OrderRecord[] = [];
	for (const r of records) if (r.state === 'held') held.push(r);
	return held.sort((a, b) => a.context.seq - b.context.seq);
}
