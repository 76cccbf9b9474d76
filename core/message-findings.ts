/**
 * Message findings: the rules of the contract a valid message can still bend that are about the
 * message itself (phone numbers, URLs, prep time, handoff, modifiers, lineIds named twice, item
 * groups), read with the order the core leaves on the screen where they need it.
 *
 * Pure: no Node, no DOM.
 */
import { generatedLineIds, ItemGroupSchema, ORDER_MODES } from './order-schema.ts';
import { showValue, formatPath } from './parse.ts';
import { isObject, type Json, type Key, type Path, type Subject } from './conformance-subject.ts';
import { isHttpUrl } from './url.ts';

const E164 = /^\+[1-9]\d{1,14}$/;

interface ItemAt {
	item: Json;
	/** Path relative to the order, e.g. ['items', 2]. */
	rel: Path;
}

function itemsOf(order: Json, list: string): ItemAt[] {
	const items = order[list];
	if (!Array.isArray(items)) return [];
	const out: ItemAt[] = [];
	items.forEach((item, i) => {
		if (isObject(item)) out.push({ item, rel: [list, i] });
	});
	return out;
}

function str(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

export function orderRules(s: Subject): void {
	const { ctx, order } = s;
	if (ctx.command === 'cancel-order') return;

	const at = (...rel: Key[]): Path => [...s.prefix, ...rel];
	const partial = ctx.command === 'partial-update-order';
	const lists = partial ? ['itemsToAdd', 'itemsToUpdate'] : ['items'];

	if (!partial) {
		if (ctx.command === 'create-order' && Array.isArray(order.items) && order.items.length === 0) {
			s.report.add('KDS-ITEMS-EMPTY', at('items'), 'no items: the screen shows an empty card');
		}
		if (ctx.interface === 'tcp' && typeof order.time === 'string' && !hasError(s, at('time'))) {
			s.report.add(
				'KDS-TCP-TIME-STRING',
				at('time'),
				'time is an ISO 8601 string where TCP declares int milliseconds; accepted'
			);
		}
		const url = str(order.customerArrivedUrl);
		if (url !== undefined && !isHttpUrl(url)) {
			s.report.add(
				'KDS-URL-INVALID',
				at('customerArrivedUrl'),
				`expected an http(s) URL, got ${showValue(url)}; it would be sent to the customer as is`
			);
		}
	}

	phoneRules(s);
	prepTimeRules(s);
	handoffRule(s);
	// Item by item without a path per item (built only for a finding): the usual order has none.
	for (const list of lists) {
		const items = order[list];
		if (!Array.isArray(items)) continue;
		for (let i = 0; i < items.length; i++) {
			const item: unknown = items[i];
			if (isObject(item)) modifierRules(s, item, list, i);
		}
	}
	if (!partial) missingLineIds(s);
	lineIdRules(s);
	groupRules(s, lists);
}

/** Items of a full order sent without a lineId: each named with the line id the screen gave it. */
function missingLineIds(s: Subject): void {
	const items = s.order.items;
	if (!Array.isArray(items)) return;
	// The usual order: every item has its lineId, and there is nothing to generate.
	if (items.every((item) => isObject(item) && typeof item.lineId === 'string')) return;
	for (const [i, id] of generatedLineIds(items)) {
		s.report.add(
			'KDS-LINEID-MISSING',
			[...s.prefix, 'items', i, 'lineId'],
			`no lineId: the screen shows the item as line ${JSON.stringify(id)}, but a later update cannot address it (send a lineId unique within the order to update or remove it)`
		);
	}
}

function hasError(s: Subject, path: Path): boolean {
	const at = formatPath(path);
	return s.report.findings.some((f) => f.severity === 'error' && f.path === at);
}

function phoneRules(s: Subject): void {
	const check = (value: unknown, rel: Path) => {
		const phone = str(value);
		if (phone !== undefined && !E164.test(phone)) {
			s.report.add(
				'KDS-PHONE-NOT-E164',
				[...s.prefix, ...rel],
				`expected an E.164 number such as +14155550123, got ${showValue(phone)}`
			);
		}
	};
	check(s.order.phoneNumber, ['phoneNumber']);
	const service = s.order.deliveryService;
	if (isObject(service)) check(service.driverPhone, ['deliveryService', 'driverPhone']);
}

/** A field of the order after this message: the message's value, else the order on screen's. */
function effective(s: Subject, key: string): unknown {
	const sent = s.order[key];
	if (sent !== undefined && sent !== null) return sent;
	if (s.ctx.command !== 'partial-update-order') return undefined;
	return (s.live?.context.fields as Json | undefined)?.[key];
}

function prepTimeRules(s: Subject): void {
	const path = [...s.prefix, 'prepTimeDuration'];
	if (typeof s.order.prepTimeDuration !== 'string' || hasError(s, path)) return;
	if (s.ctx.autoHold === false) {
		s.report.add(
			'KDS-PREP-TIME-IGNORED',
			path,
			"the screen's auto hold future orders is off, so prepTimeDuration is ignored"
		);
		return;
	}
	// A partial update of an order we cannot see may rely on the pickupTime it already has.
	if (s.ctx.command === 'partial-update-order' && !s.live) return;
	if (effective(s, 'pickupTime') === undefined) {
		s.report.add(
			'KDS-PREP-TIME-NO-PICKUP',
			path,
			'prepTimeDuration without pickupTime: there is no time to count the preparation back from'
		);
	}
}

function handoffRule(s: Subject): void {
	if (s.order.deliveryHandoff !== true) return;
	const mode = effective(s, 'mode');
	if (!(ORDER_MODES as readonly unknown[]).includes(mode) || mode === 'Delivery') return;
	s.report.add(
		'KDS-HANDOFF-IGNORED',
		[...s.prefix, 'deliveryHandoff'],
		`deliveryHandoff applies only to mode Delivery, and the mode is ${showValue(mode)}; ignored`
	);
}

function modifierRules(s: Subject, item: Json, list: string, index: number): void {
	const mods = item.mods;
	if (!Array.isArray(mods)) return;
	let plain = false;
	for (let i = 0; i < mods.length && !plain; i++) plain = typeof mods[i] === 'string';
	if (plain) {
		s.report.add(
			'KDS-MODS-PLAIN-STRING',
			[...s.prefix, list, index, 'mods'],
			'plain-string mods are deprecated but accepted; send {name, qty?} objects'
		);
	}
	for (let i = 0; i < mods.length; i++) {
		const mod: unknown = mods[i];
		if (isObject(mod) && mod.qty === 0) {
			s.report.add(
				'KDS-MODIFIER-QTY-ZERO',
				[...s.prefix, list, index, 'mods', i, 'qty'],
				'modifier qty 0 is not shown, the modifier still is (qty shows only when > 1)'
			);
		}
	}
}

const hasEntries = (list: unknown): boolean => Array.isArray(list) && list.length > 0;

function lineIdRules(s: Subject): void {
	const at = (rel: Path) => [...s.prefix, ...rel];
	// A full order's lineIds are the schema's (KDS-LINEID-NOT-UNIQUE): such an order is refused.
	if (s.ctx.command !== 'partial-update-order') return;
	// A partial update of fields only (the usual one) has no lineIds to compare: nothing below
	// would find anything, so nothing is built for it.
	const { itemsToAdd, itemsToUpdate, itemsToRemove } = s.order;
	if (!hasEntries(itemsToAdd) && !hasEntries(itemsToUpdate) && !hasEntries(itemsToRemove)) return;
	for (const list of ['itemsToAdd', 'itemsToUpdate']) {
		const first = new Map<string, Path>();
		for (const { item, rel } of itemsOf(s.order, list)) {
			const lineId = str(item.lineId);
			if (lineId === undefined) continue;
			const earlier = first.get(lineId);
			if (earlier) {
				s.report.add(
					'KDS-LINEID-DUPLICATE',
					at([...rel, 'lineId']),
					`lineId ${showValue(lineId)} is also used by ${formatPath(earlier)}; lineIds must be unique`
				);
			} else first.set(lineId, rel);
		}
	}
	// Where one lineId sits in two lists, the order of add, update and remove is not specified.
	const named = new Map<string, string>();
	const removals = Array.isArray(s.order.itemsToRemove) ? s.order.itemsToRemove : [];
	const entries: Array<{ list: string; lineId: unknown; rel: Path }> = [
		...itemsOf(s.order, 'itemsToAdd').map(({ item, rel }) => ({
			list: 'itemsToAdd',
			lineId: item.lineId,
			rel: [...rel, 'lineId']
		})),
		...itemsOf(s.order, 'itemsToUpdate').map(({ item, rel }) => ({
			list: 'itemsToUpdate',
			lineId: item.lineId,
			rel: [...rel, 'lineId']
		})),
		...removals.map((lineId, i) => ({ list: 'itemsToRemove', lineId, rel: ['itemsToRemove', i] }))
	];
	for (const { list, lineId, rel } of entries) {
		if (typeof lineId !== 'string') continue;
		const other = named.get(lineId);
		if (other === undefined) named.set(lineId, list);
		else if (other !== list) {
			s.report.add(
				'KDS-LINEID-CONFLICT',
				at(rel),
				`lineId ${showValue(lineId)} is also in ${other}; the result is unpredictable`
			);
		}
	}
}

/** A group member: an item of this message (with its path) or one already on the order. */
interface Member {
	item: Json;
	rel?: Path;
}

const SAME_IN_GROUP = ['course', 'seat', 'courseStatus'] as const;
/** The itemGroup properties the screen reads (unknown ones are ignored, and named as such). */
const GROUP_KEYS = Object.keys(ItemGroupSchema.shape);

/** ItemGroup rules 1-3 (section 2.6), over the items the order will have after this message. */
/** Whether an item of the message's lists names an item group. */
function sendsGroups(order: Json, lists: readonly string[]): boolean {
	for (const list of lists) {
		const items = order[list];
		if (!Array.isArray(items)) continue;
		for (const item of items as unknown[])
			if (isObject(item) && item.itemGroup != null) return true;
	}
	return false;
}

function groupRules(s: Subject, lists: readonly string[]): void {
	// The usual order has no item groups at all: nothing to compare (and nothing to allocate).
	if (
		!sendsGroups(s.order, lists) &&
		!s.after?.context.items.some((item) => !item.deleted && item.itemGroup != null)
	)
		return;
	const messageItems = lists.flatMap((list) => itemsOf(s.order, list));
	const members: Member[] = [];
	if (s.after) {
		// The items the card shows after this message, as the core left them; those this message
		// put there are read as sent, with their path.
		const sent = new Map<string, ItemAt[]>();
		for (const at of messageItems) {
			const lineId = str(at.item.lineId);
			if (lineId !== undefined) sent.set(lineId, [...(sent.get(lineId) ?? []), at]);
		}
		const fromMessage = s.ctx.command !== 'partial-update-order';
		for (const item of s.after.context.items) {
			if (item.deleted) continue;
			const candidates = fromMessage || item.changedAt === s.at ? sent.get(item.lineId) : undefined;
			// The last: itemsToUpdate is applied after itemsToAdd.
			const mine = candidates?.[candidates.length - 1];
			members.push(mine ?? { item: { ...item } });
		}
	} else {
		members.push(...messageItems);
	}

	const groups = new Map<string, Member[]>();
	for (const member of members) {
		const group = member.item.itemGroup;
		if (!isObject(group) || typeof group.id !== 'string') continue;
		const list = groups.get(group.id) ?? [];
		list.push(member);
		groups.set(group.id, list);
	}
	for (const [id, list] of groups) {
		const [first, ...rest] = list;
		const firstGroup = first.item.itemGroup as Json;
		const where = first.rel ? formatPath([...s.prefix, ...first.rel]) : 'the order on the screen';
		for (const member of rest) {
			// Both on the screen already: nothing this message can fix.
			if (!member.rel) continue;
			const group = member.item.itemGroup as Json;
			for (const key of GROUP_KEYS) {
				if (!sameValue(group[key], firstGroup[key])) {
					s.report.add(
						'KDS-GROUP-MISMATCH',
						[...s.prefix, ...member.rel, 'itemGroup', key],
						`group ${showValue(id)} has ${key} ${showValue(firstGroup[key])} in ${where} but ${showValue(group[key])} here; every property must be identical`
					);
				}
			}
			for (const key of SAME_IN_GROUP) {
				if (!sameValue(member.item[key], first.item[key])) {
					s.report.add(
						'KDS-GROUP-SPLIT',
						[...s.prefix, ...member.rel, key],
						`group ${showValue(id)} has ${key} ${showValue(first.item[key])} in ${where} but ${showValue(member.item[key])} here; a group cannot be split`
					);
				}
			}
		}
	}
}

/** Equal as JSON, with null and absent the same (the schema reads null as absent). */
function sameValue(a: unknown, b: unknown): boolean {
	return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
