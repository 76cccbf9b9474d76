/**
 * What the SMS outbox and the webhooks both read of a commit: which orders it created and which it
 * bumped on a screen, and the same order id on the other screens of the screen's location (one
 * customer order, one visit: it starts when the id is created while no screen of the location
 * shows it). Written once here; sms.ts and webhook-events.ts decide their own texts and events.
 */
import type { OrderRecord } from '#core/order-machine';
import { isLive, type ScreenChange } from '#core/screen';
import type { Engine, Screen } from '../engine/engine.ts';

type Screens = Pick<Engine, 'screen' | 'screens'>;

/** What a reader of created and bumped orders does with each. */
export interface OrderLifeHandlers {
	created(screen: Screen, record: OrderRecord): void;
	bumped(screen: Screen, record: OrderRecord): void;
}

/** Hand each order a commit created or bumped on `screenId` to the handlers, in commit order. */
export function createdAndBumped(
	engine: Screens,
	screenId: string,
	changes: readonly ScreenChange[],
	on: OrderLifeHandlers
): void {
	const screen = engine.screen(screenId);
	if (!screen) return;
	for (const change of changes) {
		if (change.type === 'order.created') on.created(screen, change.record);
		else if (change.type === 'order.event' && change.event.type === 'order.bumped')
			on.bumped(screen, change.record);
	}
}

/** The records of an order id on the other screens of the screen's location. */
export function elsewhere(engine: Screens, screen: Screen, orderId: string): OrderRecord[] {
	const records: OrderRecord[] = [];
	for (const other of engine.screens.values()) {
		if (other === screen || other.location !== screen.location) continue;
		const record = other.state.orders.get(orderId);
		if (record) records.push(record);
	}
	return records;
}

/**
 * When the order's visit at the location began: the earliest receipt of the id among the screens
 * of the location still showing it, this record's own included.
 */
export function visitStart(engine: Screens, screen: Screen, record: OrderRecord): number {
	let visit = record.context.receivedAt;
	for (const other of elsewhere(engine, screen, record.context.id)) {
		if (isLive(other)) visit = Math.min(visit, other.context.receivedAt);
	}
	return visit;
}
