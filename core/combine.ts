/**
 * Combine Orders (docs/screens.md#combine-orders), a screen setting off by default: as the
 * vendor's screen does, a new order with the same name (and the same phone number when either
 * has one) as an order that reached the screen within the last 5 minutes joins that order's
 * ticket. Each order keeps its own record, id and life (its replies, updates, cancel and webhooks
 * are its own, as the contract says for each id); the later one only carries `combinedWith` and is
 * drawn on the first one's ticket while that one is on the screen. A bump of the ticket bumps
 * every order on it (screen.ts). Pure: screen.ts and the views read it.
 */
import type { OrderRecord } from './order-machine.ts';
import type { Order } from './order-schema.ts';

/** Orders this close together (ms) with the same name are combined. */
export const COMBINE_WINDOW_MS = 5 * 60_000;

const sameName = (a: string, b: string) =>
	a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
const digits = (phone: string | undefined) => phone?.replace(/\D/g, '') ?? '';

/** Why `order` joins `record`'s ticket, for the inspector; null when it does not. */
export function combineReason(record: OrderRecord, order: Order, at: number): string | null {
	const { context } = record;
	if (record.state !== 'active' || context.combinedWith !== undefined) return null;
	if (at - context.receivedAt > COMBINE_WINDOW_MS || !order.name.trim()) return null;
	if (!sameName(context.fields.name, order.name)) return null;
	const mine = digits(order.phoneNumber);
	const theirs = digits(context.fields.phoneNumber);
	if (mine !== theirs) return null;
	const phone = mine ? ` and phone number` : '';
	const minutes = Math.max(0, Math.round((at - context.receivedAt) / 1000));
	return `same name "${order.name.trim()}"${phone} as order "${context.id}", ${minutes} s after it (combineOrders: within 5 minutes)`;
}

/** The order whose ticket `order` joins on this screen (the oldest that matches), or undefined. */
export function combineTarget(
	records: Iterable<OrderRecord>,
	order: Order,
	at: number
): OrderRecord | undefined {
	let best: OrderRecord | undefined;
	for (const record of records) {
		if (record.context.id === order.id || combineReason(record, order, at) === null) continue;
		if (!best || record.context.seq < best.context.seq) best = record;
	}
	return best;
}

/** The orders drawn on `id`'s ticket (its partners), oldest first. */
export function partnersOf(records: Iterable<OrderRecord>, id: string): OrderRecord[] {
	const out: OrderRecord[] = [];
	for (const record of records) if (record.context.combinedWith === id) out.push(record);
	return out.sort((a, b) => a.context.seq - b.context.seq);
}

/** Why `partner` is on `primary`'s ticket, as the card and the JSON view say it. */
export function combinedBecause(primary: OrderRecord, partner: OrderRecord): string {
	const seconds = Math.max(
		0,
		Math.round((partner.context.receivedAt - primary.context.receivedAt) / 1000)
	);
	const phone = primary.context.fields.phoneNumber ? ' and phone number' : '';
	return `same name${phone} as order "${primary.context.id}", ${seconds} s after it (Combine Orders: within 5 minutes)`;
}
