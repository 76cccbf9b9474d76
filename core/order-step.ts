/**
 * One order's record moved by its machine (order-machine.ts): `createRecord` takes a new
 * order's input to its first state, `step` applies one event. The reference is XState's own
 * pure functions, `initialTransition` and `transition`; the fast path (order-step-fast.ts) gives
 * the same records, read from the same machine, in a fraction of the time. It is used whenever
 * the machine has nothing it does not reproduce (order-step-fast.spec.ts holds it to XState).
 */
import { initialTransition, transition } from 'xstate';
import { fastPathOf } from './order-step-fast.ts';
import {
	orderMachine,
	type OrderEvent,
	type OrderInput,
	type OrderRecord,
	type OrderSnapshot,
	type OrderStateName
} from './order-machine.ts';

function recordOf(snapshot: OrderSnapshot): OrderRecord {
	return { state: snapshot.value as OrderStateName, context: snapshot.context };
}

/** A stored record as the machine's snapshot (what `transition`, `can` and `hasTag` read). */
export function snapshotOf(record: OrderRecord): OrderSnapshot {
	return orderMachine.resolveState({ value: record.state, context: record.context });
}

/** A new order's record through XState's `initialTransition`. */
export function createRecordViaXState(input: OrderInput): OrderRecord {
	return recordOf(initialTransition(orderMachine, input)[0]);
}

/** One event through XState's `transition`; null when the order's state refuses it. */
export function stepViaXState(record: OrderRecord, event: OrderEvent): OrderRecord | null {
	const snapshot = snapshotOf(record);
	if (!snapshot.can(event)) return null;
	return recordOf(transition(orderMachine, snapshot, event)[0]);
}

/** Null when the machine has something the fast path does not reproduce: XState serves. */
const fast = fastPathOf(orderMachine, { createRecord: createRecordViaXState, step: stepViaXState });

/** Whether the fast path is in use (order-step-fast.spec.ts expects it for this machine). */
export const FAST_PATH = fast !== null;

/** A new order's record: the machine's initial state for this input. */
export const createRecord: (input: OrderInput) => OrderRecord =
	fast?.createRecord ?? createRecordViaXState;

/**
 * Apply one machine event to a record. Returns null when the order's current state does not
 * accept the event (for example a cancel after a bump). The record passed in is left alone.
 */
export const step: (record: OrderRecord, event: OrderEvent) => OrderRecord | null =
	fast?.step ?? stepViaXState;
