/**
 * The order machine's events for the core's specs, at minute `m` of a test's clock, for the
 * order `order()` builds (a full update takes that order with `over` applied).
 */
import type { OrderEvent } from '#core/order-machine';
import type { Order, PartialOrder } from '#core/order-schema';

export function orderEvents(order: (over?: Partial<Order>) => Order, at: (m: number) => number) {
	return {
		updated: (m: number, over: Partial<Order> = {}): OrderEvent => ({
			type: 'order.updated',
			order: order(over),
			at: at(m)
		}),
		patched: (m: number, patch: Omit<PartialOrder, 'id'>): OrderEvent => ({
			type: 'order.patched',
			patch: { id: order().id, ...patch },
			at: at(m)
		}),
		cancelled: (m: number): OrderEvent => ({ type: 'order.cancelled', at: at(m) }),
		fired: (m: number, seq: number): OrderEvent => ({ type: 'order.fired', at: at(m), seq }),
		bumped: (m: number): OrderEvent => ({ type: 'order.bumped', at: at(m) }),
		recalled: (m: number): OrderEvent => ({ type: 'order.recalled', at: at(m) }),
		courseFired: (m: number, course: string): OrderEvent => ({
			type: 'course.fired',
			course,
			at: at(m)
		}),
		itemMarked: (m: number, lineId: string, done = true): OrderEvent => ({
			type: 'item.marked',
			lineId,
			done,
			at: at(m)
		}),
		started: (m: number, started = true): OrderEvent => ({
			type: 'order.started',
			started,
			at: at(m)
		})
	};
}
