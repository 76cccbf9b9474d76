/**
 * What each screen shows now, as JSON: the cards in display order with their state, the items
 * (deleted / added / changed flags) by course and item group and each order's conformance
 * findings, the holds list, the recall list, the takeout view, open pop-ups and the customer
 * texts the screen triggered.
 * Built with the same layout and formatting functions the browser renders from, so the JSON view
 * and the screen cannot disagree.
 */
import type { ItemView } from '#core/content';
import type { OrderRecord } from '#core/order-machine';
import { holdsOf, queueOf } from '#core/screen';
import { itemLabel, layoutItems, sectionLabel } from '#core/view/card-layout';
import {
	changeMark,
	type ChangeMarks,
	displayName,
	modeLabel,
	cardTiming,
	placedTime,
	timersFor
} from '#core/view/format';
import { allDay } from '#core/view/all-day';
import { takeoutRows } from '#core/view/takeout';
import type { Finding } from '#core/conformance';
import { combinedBecause, partnersOf } from '#core/combine';
import { allReady, expoProgress, type ExpoProgress } from '#core/expo';
import { doneCount, type ItemsDone } from '#core/cook-marks';
import type { Engine, Screen } from '../engine/engine.ts';
import type { SmsOutbox } from '../notify/sms.ts';
import type { MessageLog } from './message-log.ts';

export interface ItemJson {
	lineId: string;
	label: string;
	name: string;
	qty: number;
	mods: Array<{ name: string; qty?: number }>;
	seat?: string;
	specialInstructions?: string;
	courseStatus?: string;
	deleted: boolean;
	/**
	 * Added or changed by an update and still marked on the card, as a browser that has not seen
	 * the card shows it (the agent cannot know what each cook saw: core changeMark).
	 */
	highlighted: 'added' | 'updated' | null;
	/** On an expo: the station whose bump completed this item (core/expo.ts); else null. */
	doneBy: string | null;
	/** When a cook marked the item done on this screen (a tap: core/cook-marks.ts); else null. */
	doneAt: string | null;
}

function itemJson(
	item: ItemView,
	now: number,
	marks?: ChangeMarks,
	progress?: ExpoProgress | null,
	itemsDone?: ItemsDone
): ItemJson {
	const doneAt = itemsDone?.[item.lineId];
	return {
		lineId: item.lineId,
		label: itemLabel(item),
		name: item.name,
		qty: item.qty,
		mods: item.mods,
		seat: item.seat,
		specialInstructions: item.specialInstructions,
		courseStatus: item.courseStatus,
		deleted: item.deleted === true,
		highlighted: changeMark(item, now, marks),
		doneBy: progress?.doneBy.get(item.lineId) ?? null,
		doneAt: doneAt === undefined ? null : new Date(doneAt).toISOString()
	};
}

export function cardJson(record: OrderRecord, screen: Screen, now: number) {
	const { context, state } = record;
	const { fields } = context;
	const elapsed = now - context.queuedAt;
	const marks = screen.config.settings.changeMarks;
	const progress = expoProgress(context);
	const done = context.itemsDone;
	return {
		id: context.id,
		title: displayName(fields),
		state,
		mode: modeLabel(fields),
		priority: fields.priority === true,
		cancelled: state === 'cancelled',
		recalled: context.recalledAt !== undefined,
		elapsedMs: elapsed,
		/** The order's own `time` (when the POS placed it); the timer counts from `receivedAt`. */
		placedAt: fields.time ?? null,
		receivedAt: new Date(context.receivedAt).toISOString(),
		/** Placed BACKDATED_MS or more before the screen received it: the card marks it old. */
		backdated: placedTime(fields.time, context.receivedAt)?.backdated ?? false,
		/** When a cook marked the ticket started (core/cook-marks.ts); null when not. */
		startedAt: context.startedAt === undefined ? null : new Date(context.startedAt).toISOString(),
		/** The cook's ticks: live items marked done, of all live items. */
		itemsDone: doneCount(done, context.items),
		timer: cardTiming(now, context, fields, timersFor(screen.config.settings, fields.mode)).level,
		fields,
		sections: layoutItems(context.items).map((section) => ({
			label: sectionLabel(section),
			course: section.course ?? null,
			status: section.status ?? null,
			entries: section.entries.map((entry) =>
				entry.kind === 'item'
					? { kind: 'item' as const, item: itemJson(entry.item, now, marks, progress, done) }
					: {
							kind: 'group' as const,
							name: entry.group.name,
							note: entry.group.note ?? null,
							items: entry.items.map((i) => itemJson(i, now, marks, progress, done))
						}
			)
		})),
		/** On an expo: each station that holds the order, and whether it bumped it. */
		stations: progress?.stations ?? [],
		/** On an expo: every station with items on the card has bumped them (green, ALL READY). */
		allReady: allReady(progress),
		/** Combine Orders: the orders on this ticket besides its own, and why. */
		combined: partnersOf(screen.state.orders.values(), context.id)
			.filter((p) => p.state === 'active' || p.state === 'cancelled')
			.map((p) => ({
				id: p.context.id,
				title: displayName(p.context.fields),
				state: p.state,
				because: combinedBecause(record, p),
				items: p.context.items.filter((i) => !i.deleted).map(itemLabel)
			}))
	};
}

type CardFinding = Finding & { messageId: number };

/** The findings of the logged messages for one screen, by order id, newest message first. */
function findingsByOrder(
	messages: MessageLog | undefined,
	screenId: string
): Map<string, CardFinding[]> {
	const byOrder = new Map<string, CardFinding[]>();
	for (const entry of messages?.list({ screen: screenId }) ?? []) {
		if (entry.orderId === null || entry.findings.length === 0) continue;
		let list = byOrder.get(entry.orderId);
		if (!list) byOrder.set(entry.orderId, (list = []));
		for (const finding of entry.findings) list.push({ messageId: entry.id, ...finding });
	}
	return byOrder;
}

export interface ScreenJsonSources {
	/** The SMS outbox: its texts for this screen are included (newest first). */
	sms?: SmsOutbox;
	/** The inspector's log: each card's findings come from its messages. */
	messages?: MessageLog;
}

export function screenJson(engine: Engine, screen: Screen, sources: ScreenJsonSources = {}) {
	const now = engine.now();
	const id = screen.config.id;
	const records = [...screen.state.orders.values()];
	const queue = queueOf(records);
	const holds = holdsOf(records);
	const findings = findingsByOrder(sources.messages, id);
	const card = (r: OrderRecord) => ({
		...cardJson(r, screen, now),
		findings: findings.get(r.context.id) ?? []
	});
	const notifications = engine.fanout.snapshot(id).notifications ?? { takeout: [], popups: [] };
	const takeout = new Map(notifications.takeout.map((t) => [t.orderId, t]));
	return {
		id,
		name: screen.config.name,
		locationId: screen.location.id,
		role: screen.config.role,
		bumpsTo: screen.config.communication?.bumpsTo ?? [],
		now,
		cards: queue.map((r, i) => ({ position: i + 1, ...card(r) })),
		holds: holds.map(card),
		/** The All Day view's counts (core/view/all-day.ts): fired items over the cards. */
		allDay: allDay(queue, now, screen.config.settings),
		/** All Day's Outstanding toggle: without what stations completed or cooks marked done. */
		allDayOutstanding: allDay(queue, now, screen.config.settings, { outstanding: true }),
		recall: records
			.filter((r) => r.state === 'bumped')
			.sort((a, b) => (b.context.bumpedAt ?? 0) - (a.context.bumpedAt ?? 0))
			.map((r) => ({
				id: r.context.id,
				title: displayName(r.context.fields),
				bumpedAt: r.context.bumpedAt
			})),
		takeout: takeoutRows([...queue, ...holds], takeout, (r) => ({
			id: r.context.id,
			mode: r.context.fields.mode
		})).map(({ entry, status }) => ({
			id: entry.context.id,
			title: displayName(entry.context.fields),
			mode: modeLabel(entry.context.fields),
			held: entry.state === 'held',
			vehicle:
				[entry.context.fields.vehicleColor, entry.context.fields.vehicleModel]
					.filter(Boolean)
					.join(' ') || null,
			arrived: status?.arrivedAt !== undefined,
			arrivedAt: status?.arrivedAt ?? null,
			etaAt: status?.etaAt ?? null,
			/** ms until the estimated arrival; negative once it is due. */
			etaInMs: status?.etaAt !== undefined ? status.etaAt - now : null
		})),
		popups: notifications.popups,
		sms: sources.sms?.list({ screen: id }) ?? []
	};
}
