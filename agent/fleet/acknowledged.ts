/**
 * Reads see writes on a remote screen (docs/fleet.md): once the remote acknowledged a message
 * (its TCP reply said so), the central's copy of the screen (Screen.state, which the active
 * orders, the screen's JSON and the tracker read) shows what that message does, decided on the
 * copy by the core's own rules, before the remote's relay has told it. What was assumed is kept
 * aside per order: when the relay speaks of that order (or sends a snapshot, or the link drops),
 * the assumed record is taken back and the remote's own word applied instead, so the copy is
 * corrected whenever the remote says otherwise.
 */
import type { OrderRecord } from '#core/order-machine';
import { applyChanges, decide, recordAfter, type ScreenState } from '#core/screen';
import { parseTcpValue } from '#core/tcp-message';
import type { ServerMessage } from '#core/relay';

export class Acknowledged {
	/** Orders changed on the copy by an acknowledgement: the record each had before (or none). */
	private readonly before = new Map<string, OrderRecord | undefined>();
	/** The messages acknowledged for each order whose change the relay has not shown yet. */
	private readonly pending = new Map<string, object[]>();

	constructor(
		private readonly screen: { state: ScreenState; location: { timezone?: string } },
		private readonly now: () => number
	) {}

	/** How many orders of the copy are assumed, not yet confirmed by the relay. */
	get size(): number {
		return this.before.size;
	}

	/**
	 * The remote acknowledged `message` (a contract TCP message): apply it to the copy. A message
	 * the copy would refuse changes nothing (the copy is behind: the relay will tell), nor one the
	 * copy shows already (the relay was quicker than the reply).
	 */
	apply(message: object): void {
		const parsed = parseTcpValue(message, { timeZone: this.screen.location.timezone });
		if (!parsed.ok) return;
		const { state } = this.screen;
		const decision = decide(state, parsed.value, this.now());
		if (!decision.ok) return;
		const orderId = parsed.value.order.id;
		const after = recordAfter(decision);
		const current = state.orders.get(orderId);
		if (after && current && sameContent(after, current)) return;
		for (const change of decision.changes) {
			const id = change.type === 'order.removed' ? change.id : change.record.context.id;
			if (!this.before.has(id)) this.before.set(id, state.orders.get(id));
		}
		const list = this.pending.get(orderId);
		if (list) list.push(message);
		else this.pending.set(orderId, [message]);
		applyChanges(state, decision.changes);
	}

	/**
	 * The relay speaks: take back what was assumed of the order it is about, before the relay's
	 * word is applied. The relay's change stands for the oldest message acknowledged for that
	 * order; the others are returned, to be applied again on top (`reapply`) once it is.
	 */
	relayed(message: ServerMessage): object[] {
		if (this.before.size === 0) return NONE;
		if (message.type === 'snapshot') {
			this.forget();
			return NONE;
		}
		if (message.type !== 'change') return NONE;
		const orderId = message.change.id;
		if (!this.before.has(orderId)) return NONE;
		const record = this.before.get(orderId);
		if (record === undefined) this.screen.state.orders.delete(orderId);
		else this.screen.state.orders.set(orderId, record);
		this.before.delete(orderId);
		const rest = this.pending.get(orderId)?.slice(1) ?? NONE;
		this.pending.delete(orderId);
		return rest;
	}

	/** Apply again what `relayed` returned, after the relay's change was applied. */
	reapply(messages: readonly object[]): void {
		for (const message of messages) this.apply(message);
	}

	/** The link dropped, or a snapshot came: nothing assumed is kept. */
	forget(): void {
		this.before.clear();
		this.pending.clear();
	}
}

const NONE: object[] = [];

/** The same state, fields and items (when an item changed aside). */
function sameContent(a: OrderRecord, b: OrderRecord): boolean {
	const items = (r: OrderRecord) =>
		JSON.stringify(r.context.items.map(({ changedAt: _at, ...item }) => item));
	return (
		a.state === b.state &&
		JSON.stringify(a.context.fields) === JSON.stringify(b.context.fields) &&
		items(a) === items(b)
	);
}
