/**
 * The orders of one screen in the browser: one XState actor per order (the shared order machine),
 * fed the relay's snapshot and changes. Each order's snapshot is copied into its own `$state`
 * object, so a change to one order re-renders only that order's card; the queue and holds list
 * are derived with the core's queueOf/holdsOf.
 */
import { createActor, type ActorOptions, type ActorRefFrom, type Subscription } from 'xstate';
import { SvelteMap } from 'svelte/reactivity';
import {
	orderMachine,
	type OrderContext,
	type OrderEvent,
	type OrderInput,
	type OrderRecord,
	type OrderSnapshot,
	type OrderStateName,
	type OrderTag
} from '#core/order-machine';
import type { RelayChange, ScreenInfo, ServerMessage } from '#core/relay';
import { holdsOf, queueOf } from '#core/screen';

export type OrderActor = ActorRefFrom<typeof orderMachine>;

/** An actor that resumes from a snapshot (XState reads no input when a snapshot is given). */
function restoreActor(id: string, snapshot: OrderSnapshot): OrderActor {
	const options: ActorOptions<typeof orderMachine> = { id: `order-${id}`, snapshot };
	return createActor(orderMachine, options as typeof options & { input: OrderInput });
}

/** One order as the UI renders it: a runes copy of its actor's latest snapshot. */
export class OrderEntry {
	readonly id: string;
	state: OrderStateName;
	context: OrderContext;
	#snapshot: OrderSnapshot;

	constructor(id: string, snapshot: OrderSnapshot) {
		this.id = id;
		this.state = $state.raw(snapshot.value as OrderStateName);
		this.context = $state.raw(snapshot.context);
		this.#snapshot = $state.raw(snapshot);
	}

	/** Take an actor snapshot; unchanged values are not reassigned, so nothing re-renders. */
	copy(snapshot: OrderSnapshot): void {
		const state = snapshot.value as OrderStateName;
		if (state !== this.state) this.state = state;
		if (snapshot.context !== this.context) this.context = snapshot.context;
		if (snapshot !== this.#snapshot) this.#snapshot = snapshot;
	}

	/** Whether the order's state carries `tag` (the machine's tags: held, visible, cancelled, done). */
	hasTag(tag: OrderTag): boolean {
		return this.#snapshot.hasTag(tag);
	}

	/** Whether the machine would take `event` now: the state and its guards, as the actor decides. */
	can(event: OrderEvent): boolean {
		return this.#snapshot.can(event);
	}

	get record(): OrderRecord {
		return { state: this.state, context: this.context };
	}

	#placement: OrderRecord | null = null;

	/**
	 * The part of the record that decides where the order goes (queue or holds, and in what order):
	 * its state, id, seq, priority and combinedWith, the fields the core's queueOf/compareQueue and
	 * holdsOf read.
	 * The same object until one of them changes, so editing an order's items or name does not
	 * re-sort the board. If the core's rules come to read another field, add it here (the spec
	 * checks the board against the core on full records).
	 */
	readonly placement: OrderRecord = $derived.by(() => {
		const state = this.state;
		const { id, seq, fields, combinedWith } = this.context;
		const priority = fields.priority;
		const last = this.#placement;
		if (
			last &&
			last.state === state &&
			last.context.id === id &&
			last.context.seq === seq &&
			last.context.fields.priority === priority &&
			last.context.combinedWith === combinedWith
		) {
			return last;
		}
		// combinedWith: an order on another's ticket is no card of its own (core combine.ts).
		const context = { id, seq, fields: { priority }, combinedWith } as unknown as OrderContext;
		return (this.#placement = { state, context });
	});
}

const NONE: readonly OrderEntry[] = Object.freeze([]);

/** `next`, or `previous` when it holds the same entries in the same order (nothing re-renders). */
function same<T>(previous: T[] | undefined, next: T[]): T[] {
	if (previous && previous.length === next.length && previous.every((e, i) => e === next[i])) {
		return previous;
	}
	return next;
}

/**
 * What `receive` did with a message:
 * - applied: the screen changed (or a snapshot replaced it);
 * - stale: a change already covered by the current state (seq not newer); ignored;
 * - gap: a change was missed; nothing applied until a new snapshot: send {type:'resync'};
 * - waiting: a change arrived while a snapshot is awaited; ignored;
 * - error: the agent sent an error message (see `lastError`).
 */
export type ReceiveResult = 'applied' | 'stale' | 'gap' | 'waiting' | 'error';

export interface OrderBoardOptions {
	/** Called for each order created by a change (not by a snapshot): the new-order sound. */
	onCreated?: (entry: OrderEntry) => void;
	/**
	 * Called for each order a change cancelled (not a snapshot, nor the recall of a bumped
	 * cancelled ticket): the cancel sound and toast.
	 */
	onCancelled?: (entry: OrderEntry) => void;
	/** The browser clock; tests replace it. */
	now?: () => number;
}

/** How long a clock offset sample counts (ms, browser time): see `OrderBoard.clockOffset`. */
const OFFSET_WINDOW_MS = 30_000;
/**
 * How far the best sample must be from the clock offset to move it (ms): timers show whole
 * seconds, and a move re-renders every card's timer, so jitter of a few ms is not followed.
 */
const OFFSET_SLACK_MS = 100;

export class OrderBoard {
	readonly entries = new SvelteMap<string, OrderEntry>();
	screen: ScreenInfo | null = $state.raw(null);
	/**
	 * Agent clock minus browser clock (ms): timers read agent time. Every message carries the
	 * agent's `now` when it was sent, so `now - browser now` is the true offset minus the time the
	 * message spent on the way and queued in the browser: never above the true offset, and seconds
	 * below it when a burst queues messages up. Taking it from every message made timers run
	 * backwards in bursts and re-rendered every card's timer per message. So a snapshot or a pong
	 * (the answer to a probe on a quiet socket) sets it; any other message is a sample, and the
	 * offset follows the largest sample of the last OFFSET_WINDOW_MS (the least delayed one, as NTP
	 * does), moving only when that differs by more than OFFSET_SLACK_MS.
	 * An agent clock that steps back is followed within the window, or at the next pong/snapshot.
	 */
	clockOffset = $state(0);
	lastError: { code: string; message: string; at: number } | null = $state.raw(null);
	/** The seq of the last message applied; -1 before the first snapshot. */
	seq = -1;

	/**
	 * The cards, priority first then arrival (core's queueOf). Built from each order's `placement`,
	 * so a change that moves no card (an item's qty) does not rebuild it, and the same array while
	 * the cards and their order are the same: the board re-measures only when this changes.
	 */
	readonly queue: OrderEntry[] = $derived.by(
		() => (this.#queue = same(this.#queue, this.#pick(queueOf(this.#placements()))))
	);
	/**
	 * Orders drawn on another's ticket (core combine.ts: `combinedWith`), by that ticket's id,
	 * visible ones, oldest first. Built once for the board from each order's `placement` (and the
	 * state of the few combined ones), so a change to one order costs one pass here, not one per
	 * card (each card read every order to find its parts: 500 cards, 250,000 reads a message).
	 * The same map, and the same arrays, while nothing combined changes.
	 */
	readonly combined: ReadonlyMap<string, OrderEntry[]> = $derived.by(() => {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a derived value, replaced whole
		const next = new Map<string, OrderEntry[]>();
		for (const entry of this.entries.values()) {
			const host = entry.placement.context.combinedWith;
			if (!host || !entry.hasTag('visible')) continue;
			const list = next.get(host);
			if (list) list.push(entry);
			else next.set(host, [entry]);
		}
		const previous = this.#combined;
		let unchanged = previous !== undefined && previous.size === next.size;
		for (const [host, list] of next) {
			list.sort((a, b) => a.placement.context.seq - b.placement.context.seq);
			const kept = same(previous?.get(host), list);
			next.set(host, kept);
			if (kept !== previous?.get(host)) unchanged = false;
		}
		return (this.#combined = unchanged && previous ? previous : next);
	});

	/** The orders drawn on ticket `id` besides its own (see `combined`); none: the same empty list. */
	combinedOn(id: string): readonly OrderEntry[] {
		return this.combined.get(id) ?? NONE;
	}

	/** Held orders, oldest first (core's holdsOf); likewise stable. */
	readonly holds: OrderEntry[] = $derived.by(
		() => (this.#holds = same(this.#holds, this.#pick(holdsOf(this.#placements()))))
	);

	// Not reactive on purpose: the UI reads the entries, never the actors.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#actors = new Map<string, { actor: OrderActor; subscription: Subscription }>();
	/** State, so the screen's "No orders" shows once an empty snapshot is in. */
	#awaitingSnapshot = $state(true);
	#options: OrderBoardOptions;
	#queue: OrderEntry[] | undefined;
	#holds: OrderEntry[] | undefined;
	#combined: Map<string, OrderEntry[]> | undefined;
	/** Clock offset samples: the largest of the current and of the previous half window. */
	#sampleMax = -Infinity;
	#previousMax = -Infinity;
	#samplesSince = -Infinity;

	constructor(options: OrderBoardOptions = {}) {
		this.#options = options;
	}

	/** True until the first snapshot, and again after a gap or a reconnect. */
	get awaitingSnapshot(): boolean {
		return this.#awaitingSnapshot;
	}

	/** The connection was (re)opened: the agent sends a snapshot first; ignore changes till then. */
	expectSnapshot(): void {
		this.#awaitingSnapshot = true;
	}

	/** Apply one message from the agent. */
	receive(message: ServerMessage): ReceiveResult {
		const now = this.#options.now?.() ?? Date.now();
		if (message.type === 'error') {
			this.lastError = { code: message.code, message: message.message, at: now };
			return 'error';
		}
		this.#clock(message.now - now, now, message.type === 'snapshot' || message.type === 'pong');
		// Notifications are not order state: ScreenSession hands them to their own store.
		if (message.type === 'pong' || message.type === 'notifications') return 'applied';
		if (message.type === 'snapshot') {
			this.#applySnapshot(message.screen, message.records);
			this.seq = message.seq;
			this.#awaitingSnapshot = false;
			return 'applied';
		}
		if (this.#awaitingSnapshot) return 'waiting';
		if (message.seq <= this.seq) return 'stale';
		if (message.seq !== this.seq + 1 || !this.#applyChange(message.change)) {
			this.#awaitingSnapshot = true;
			return 'gap';
		}
		this.seq = message.seq;
		return 'applied';
	}

	get(id: string): OrderEntry | undefined {
		return this.entries.get(id);
	}

	/** The actor of an order, for inspection (tests, devtools). */
	actor(id: string): OrderActor | undefined {
		return this.#actors.get(id)?.actor;
	}

	/** Stop every actor and forget every order. */
	dispose(): void {
		for (const id of [...this.#actors.keys()]) this.#drop(id);
		this.entries.clear();
		this.seq = -1;
		this.#awaitingSnapshot = true;
	}

	#placements(): OrderRecord[] {
		const records: OrderRecord[] = [];
		for (const entry of this.entries.values()) records.push(entry.placement);
		return records;
	}

	/** Take one clock offset sample (see `clockOffset`); `reset` sets the offset to it. */
	#clock(sample: number, now: number, reset: boolean): void {
		if (reset || now - this.#samplesSince >= OFFSET_WINDOW_MS) {
			this.#previousMax = -Infinity;
			this.#sampleMax = -Infinity;
			this.#samplesSince = now;
		} else if (now - this.#samplesSince >= OFFSET_WINDOW_MS / 2) {
			this.#previousMax = this.#sampleMax;
			this.#sampleMax = -Infinity;
			this.#samplesSince = now;
		}
		this.#sampleMax = Math.max(this.#sampleMax, sample);
		const best = Math.max(this.#sampleMax, this.#previousMax);
		if (reset || Math.abs(best - this.clockOffset) > OFFSET_SLACK_MS) this.clockOffset = best;
	}

	#pick(records: OrderRecord[]): OrderEntry[] {
		const out: OrderEntry[] = [];
		for (const record of records) {
			const entry = this.entries.get(record.context.id);
			if (entry) out.push(entry);
		}
		return out;
	}

	/**
	 * A snapshot replaces everything: every actor is stopped and one is created per record. An
	 * order that is unchanged keeps its entry and its context object, so its card does not redraw.
	 */
	#applySnapshot(screen: ScreenInfo, records: readonly OrderRecord[]): void {
		if (JSON.stringify(screen) !== JSON.stringify(this.screen)) this.screen = screen;
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, never rendered
		const keep = new Set<string>();
		for (const record of records) {
			const id = record.context.id;
			keep.add(id);
			const entry = this.entries.get(id);
			const unchanged =
				entry !== undefined &&
				entry.state === record.state &&
				JSON.stringify(entry.context) === JSON.stringify(record.context);
			const context = unchanged ? entry.context : record.context;
			const snapshot = orderMachine.resolveState({ value: record.state, context });
			this.#spawn(id, restoreActor(id, snapshot));
		}
		for (const id of [...this.entries.keys()]) if (!keep.has(id)) this.#remove(id);
	}

	/** Returns false when the change does not fit what we have (a lost message). */
	#applyChange(change: RelayChange): boolean {
		switch (change.type) {
			case 'order.created': {
				const entry = this.#spawn(
					change.id,
					createActor(orderMachine, { id: `order-${change.id}`, input: change.input })
				);
				this.#options.onCreated?.(entry);
				return true;
			}
			case 'order.event': {
				const actor = this.#actors.get(change.id)?.actor;
				if (!actor) return false;
				const before = actor.getSnapshot().hasTag('cancelled');
				actor.send(change.event);
				// A recall brings a bumped cancelled ticket back cancelled: nothing new was cancelled.
				if (
					!before &&
					change.event.type !== 'order.recalled' &&
					actor.getSnapshot().hasTag('cancelled')
				) {
					const entry = this.entries.get(change.id);
					if (entry) this.#options.onCancelled?.(entry);
				}
				return true;
			}
			case 'order.removed': {
				if (!this.entries.has(change.id)) return false;
				this.#remove(change.id);
				return true;
			}
		}
	}

	/** Start an actor for an order (replacing any previous one) and mirror it into its entry. */
	#spawn(id: string, actor: OrderActor): OrderEntry {
		this.#drop(id);
		actor.start();
		let entry = this.entries.get(id);
		if (entry) entry.copy(actor.getSnapshot());
		else {
			entry = new OrderEntry(id, actor.getSnapshot());
			this.entries.set(id, entry);
		}
		const target = entry;
		const subscription = actor.subscribe((snapshot) => target.copy(snapshot));
		this.#actors.set(id, { actor, subscription });
		return entry;
	}

	#drop(id: string): void {
		const running = this.#actors.get(id);
		if (!running) return;
		running.subscription.unsubscribe();
		running.actor.stop();
		this.#actors.delete(id);
	}

	#remove(id: string): void {
		this.#drop(id);
		this.entries.delete(id);
	}
}
