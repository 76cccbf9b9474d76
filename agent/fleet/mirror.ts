/**
 * The central simulator's copy of a remote screen: what the remote agent's browser relay says the
 * screen holds (its snapshot, then each change), applied with the shared core's own rules
 * (createRecord, step) exactly as a browser applies them. Nothing here decides anything: the
 * remote screen did, and this only follows. A change that does not follow on from the last one
 * (a lost message) asks for a fresh snapshot instead of guessing.
 */
import type { RelayChange, ServerMessage } from '#core/relay';
import type { OrderRecord } from '#core/order-machine';
import { createRecord, createScreenState, step, type ScreenState } from '#core/screen';

export type MirrorResult =
	/** Applied: `change` is what the central's browsers get (null after a snapshot: send one). */
	| { kind: 'applied'; change: RelayChange | null; ids: string[] }
	/** The message does not follow on from the last one: ask the remote for a snapshot. */
	| { kind: 'resync' }
	/** Not about the orders (pong, error, notifications): nothing changed. */
	| { kind: 'ignored' };

export class ScreenMirror {
	/** The remote relay's sequence number of the last message applied (null: no snapshot yet). */
	private remoteSeq: number | null = null;

	constructor(private readonly target: { state: ScreenState }) {}

	/** True once a snapshot arrived since the last reset (the copy says something). */
	get synced(): boolean {
		return this.remoteSeq !== null;
	}

	/** Forget the sequence: the next message must be a snapshot (a new connection). */
	reset(): void {
		this.remoteSeq = null;
	}

	apply(message: ServerMessage): MirrorResult {
		if (message.type === 'snapshot') {
			const records = message.records as OrderRecord[];
			this.target.state = createScreenState(records);
			this.remoteSeq = message.seq;
			return { kind: 'applied', change: null, ids: records.map((r) => r.context.id) };
		}
		if (message.type !== 'change') return { kind: 'ignored' };
		if (this.remoteSeq === null || message.seq !== this.remoteSeq + 1) return { kind: 'resync' };
		if (!applyChange(this.target.state, message.change)) return { kind: 'resync' };
		this.remoteSeq = message.seq;
		return { kind: 'applied', change: message.change, ids: [message.change.id] };
	}
}

/** Apply one relayed change to a screen state; false when it does not fit what is there. */
export function applyChange(state: ScreenState, change: RelayChange): boolean {
	switch (change.type) {
		case 'order.created': {
			const record = createRecord(change.input);
			state.orders.set(change.id, record);
			state.nextSeq = Math.max(state.nextSeq, record.context.seq + 1);
			return true;
		}
		case 'order.event': {
			const record = state.orders.get(change.id);
			if (!record) return false;
			// The remote applied this event: a null step here would mean the copies differ.
			const next = step(record, change.event);
			if (!next) return false;
			state.orders.set(change.id, next);
			return true;
		}
		case 'order.removed':
			return state.orders.delete(change.id);
	}
}
