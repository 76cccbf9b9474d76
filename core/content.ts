/**
 * How a command changes what an order card shows: contract section 3 and the full and partial
 * update rules of 4.2. Pure functions over plain data; the order machine's actions call them.
 */
import { quoted, type Outcome } from './outcome.ts';
import type { KdsItem, Order, PartialOrder } from './order-schema.ts';

/** An item as the screen shows it. */
export interface ItemView extends KdsItem {
	/** Removed by an update: stays on the card, struck through. */
	deleted?: true;
	/** Added or changed by an update (not by the create), and when: the card highlights it. */
	change?: 'added' | 'updated';
	changedAt?: number;
}

/** Everything on the card except the items: the latest order fields. */
export type OrderFields = Omit<Order, 'items'>;

export interface OrderContent {
	fields: OrderFields;
	items: ItemView[];
}

export function contentFromOrder(order: Order): OrderContent {
	const { items, ...fields } = order;
	return { fields, items: items.map((item) => ({ ...item })) };
}

function sameItem(a: KdsItem, b: KdsItem): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

function liveItem(item: ItemView): KdsItem {
	const { deleted: _d, change: _c, changedAt: _t, ...rest } = item;
	return rest;
}

/**
 * Full update (4.2 full-update rules, 4.5 rule 1): every field is replaced; items are matched by
 * lineId. A lineId absent from the request is flagged deleted (kept, struck through); a new lineId
 * adds an item; a known lineId takes the new content. A deleted line that comes back is restored.
 */
export function applyFullUpdate(prev: OrderContent, order: Order, at: number): OrderContent {
	const { items: nextItems, ...fields } = order;
	const incoming = new Map(nextItems.map((item) => [item.lineId, item]));
	const items: ItemView[] = [];
	const seen = new Set<string>();
	for (const old of prev.items) {
		const next = incoming.get(old.lineId);
		seen.add(old.lineId);
		if (!next) {
			items.push(old.deleted ? old : { ...old, deleted: true, changedAt: at });
		} else if (old.deleted) {
			items.push({ ...next, change: 'added', changedAt: at });
		} else if (sameItem(liveItem(old), next)) {
			items.push(old);
		} else {
			items.push({ ...next, change: 'updated', changedAt: at });
		}
	}
	for (const item of nextItems) {
		if (!seen.has(item.lineId)) {
			seen.add(item.lineId);
			items.push({ ...item, change: 'added', changedAt: at });
		}
	}
	return { fields: { ...fields, id: prev.fields.id }, items };
}

const PATCH_ITEM_KEYS = new Set(['id', 'itemsToAdd', 'itemsToUpdate', 'itemsToRemove']);

/**
 * Partial update (4.2 partial-update rules): a field that is present overwrites, a field that is
 * null or absent leaves the value unchanged (the schema turns null into absent). itemsToAdd with a
 * lineId that already exists is ignored; itemsToUpdate and itemsToRemove with an unknown lineId are
 * ignored. A removed line no longer exists, so it can be added again. The lists are applied
 * in the order add, update, remove, each judged against the order before the patch (a line only
 * this patch adds is unknown to its itemsToUpdate and itemsToRemove).
 */
export function applyPartialUpdate(
	prev: OrderContent,
	patch: PartialOrder,
	at: number
): OrderContent {
	const fields: Record<string, unknown> = { ...prev.fields };
	for (const key in patch) {
		if (!Object.hasOwn(patch, key)) continue;
		const value = patch[key as keyof PartialOrder];
		if (value !== undefined && !PATCH_ITEM_KEYS.has(key)) fields[key] = value;
	}
	// A patch of fields only (the usual one): the items stay the very array, as below when no
	// list changes anything, without the copy and the set of live lines built for nothing.
	if (!patch.itemsToAdd?.length && !patch.itemsToUpdate?.length && !patch.itemsToRemove?.length) {
		return { fields: fields as OrderFields, items: prev.items };
	}
	const items = prev.items.slice();
	let itemsChanged = false;
	const indexOfLive = (lineId: string) =>
		items.findIndex((item) => item.lineId === lineId && !item.deleted);
	// Every list is judged against the order as it was before this patch (contract rules 4-6:
	// "exists" is on the screen when the request arrives), so an itemsToUpdate or itemsToRemove
	// naming a lineId that only this patch's itemsToAdd brings is ignored, like any unknown lineId.
	const liveBefore = new Set<string>();
	for (const item of prev.items) if (!item.deleted) liveBefore.add(item.lineId);
	const indexOfLiveBefore = (lineId: string) => (liveBefore.has(lineId) ? indexOfLive(lineId) : -1);

	for (const next of patch.itemsToAdd ?? []) {
		if (indexOfLive(next.lineId) >= 0) continue;
		const gone = items.findIndex((item) => item.lineId === next.lineId);
		const added: ItemView = { ...next, change: 'added', changedAt: at };
		if (gone >= 0) items[gone] = added;
		else items.push(added);
		itemsChanged = true;
	}
	for (const next of patch.itemsToUpdate ?? []) {
		const i = indexOfLiveBefore(next.lineId);
		if (i >= 0 && !sameItem(liveItem(items[i]), next)) {
			items[i] = { ...next, change: 'updated', changedAt: at };
			itemsChanged = true;
		}
	}
	for (const lineId of patch.itemsToRemove ?? []) {
		const i = indexOfLiveBefore(lineId);
		if (i >= 0) {
			items[i] = { ...items[i], deleted: true, changedAt: at };
			itemsChanged = true;
		}
	}
	// Unchanged items stay the same array: the store and the card skip what did not change.
	return { fields: fields as OrderFields, items: itemsChanged ? items : prev.items };
}

// ---------------------------------------------------------------------------------------------
// What an update did, read from its result: the outcomes follow whatever the rules above decide.

/** The content after each stage of one partial update, as the order machine computed them. */
export interface PartialStages {
	/** After the patch's itemsToAdd alone. */
	added: OrderContent;
	/** After its itemsToAdd and itemsToUpdate. */
	updated: OrderContent;
	/** After the whole patch. */
	done: OrderContent;
}

/**
 * What a partial update did with each list entry that took no effect, read off the content
 * the update produced (`at` is its time, stamped on every item it touched), stage by stage so a
 * later list does not hide what an earlier one did: an itemsToAdd entry whose lineId was on the
 * order and whose item the card does not show after the adds; an itemsToUpdate entry the card
 * does not show after the updates; an itemsToRemove entry that struck nothing through.
 */
export function partialUpdateOutcomes(
	before: OrderContent,
	patch: PartialOrder,
	stages: PartialStages,
	at: number
): Outcome[] {
	const outcomes: Outcome[] = [];
	const wasLive = new Set<string>();
	for (const item of before.items) if (!item.deleted) wasLive.add(item.lineId);
	const shows = (content: OrderContent, item: KdsItem, touched: boolean) => {
		const shown = content.items.find((i) => i.lineId === item.lineId && !i.deleted);
		return (
			shown !== undefined && sameItem(liveItem(shown), item) && (!touched || shown.changedAt === at)
		);
	};
	(patch.itemsToAdd ?? []).forEach((item, i) => {
		if (wasLive.has(item.lineId) && !shows(stages.added, item, true)) {
			outcomes.push({
				code: 'KDS-LINEID-EXISTS',
				path: ['itemsToAdd', i, 'lineId'],
				message: `lineId ${quoted(item.lineId)} is already on the order; this item is ignored (use itemsToUpdate)`
			});
		}
	});
	(patch.itemsToUpdate ?? []).forEach((item, i) => {
		if (!shows(stages.updated, item, false)) {
			outcomes.push({
				code: 'KDS-LINEID-UNKNOWN',
				path: ['itemsToUpdate', i, 'lineId'],
				message: `lineId ${quoted(item.lineId)} is not on the order; this itemsToUpdate entry is ignored`
			});
		}
	});
	(patch.itemsToRemove ?? []).forEach((lineId, i) => {
		const shown = stages.done.items.find((item) => item.lineId === lineId);
		if (!(shown?.deleted && shown.changedAt === at)) {
			outcomes.push({
				code: 'KDS-LINEID-UNKNOWN',
				path: ['itemsToRemove', i],
				message: `lineId ${quoted(lineId)} is not on the order; this itemsToRemove entry is ignored`
			});
		}
	});
	return outcomes;
}

/** What a full update cleared: every field the order had before and has no more. */
export function fullUpdateOutcomes(before: OrderContent, after: OrderContent): Outcome[] {
	const outcomes: Outcome[] = [];
	const fields = before.fields as Record<string, unknown>;
	const next = after.fields as Record<string, unknown>;
	for (const key of Object.keys(fields)) {
		if (fields[key] === undefined || key === 'id' || next[key] !== undefined) continue;
		outcomes.push({
			code: 'KDS-UPDATE-FIELD-CLEARED',
			path: [key],
			message: `${key} is on the order but not in this full update; the screen clears it`
		});
	}
	return outcomes;
}
