/**
 * The one path every command takes: decide (shared core), apply in memory, commit (store), then
 * publish to browsers (browser-fanout.ts), tell the committed-change listeners (hold releases,
 * SMS, notifications) and acknowledge. TCP, HTTP and the browsers' actions all come through here,
 * so an order created on one interface is updated, cancelled and bumped on any other.
 *
 * Beside it, one module per concern: screens.ts (the configured screens and their state),
 * browser-fanout.ts (what browsers are sent, and how many show each screen), after-replies.ts
 * (inspector work that waits until the replies are written).
 */
import { holdStart } from '#core/holds';
import type { Order, OrderCommand } from '#core/order-schema';
import {
	applyChanges,
	createScreenState,
	decide,
	decideAction,
	lastBumped,
	queueLength,
	queueOf,
	type ActionTarget,
	type Decision,
	type ScreenAction,
	type ScreenChange
} from '#core/screen';
import type { ScreenRole } from '#core/expo';
import type { BrandConfig, LocationConfig, ScreenConfig, SimConfig } from '../config.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { ScreenBatch, Store } from '../store/store.ts';
import { AfterReplies } from './after-replies.ts';
import { BrowserFanout } from './browser-fanout.ts';
import { anyRule, communicate, reconfigurationProblem } from './communication.ts';
import { createScreens, type Screen } from './screens.ts';

export type { Screen };
export type { Listener } from './browser-fanout.ts';
/** Sees the changes of one screen once they are committed. */
export type CommittedListener = (screenId: string, changes: readonly ScreenChange[]) => void;

export interface EngineOptions {
	config: SimConfig;
	store: Store;
	logger: Logger;
	/** The clock every rule and timer reads; tests use a ManualClock. */
	clock?: Clock;
}

/**
 * Work submitted for the next commit, and who is told of it: `done` with whether it was
 * committed, or (runCommand's, with no closure per command) `decided` with `decision`, or null
 * when it was not committed. Every entry has all four keys (one shape).
 */
interface Pending {
	batches: readonly ScreenBatch[];
	done: ((committed: boolean) => void) | undefined;
	decision: Decision | undefined;
	decided: ((decision: Decision | null) => void) | undefined;
}

/** Tells a pending entry's caller whether it was committed. */
function settle(work: Pending, committed: boolean): void {
	if (work.decided !== undefined) work.decided(committed ? work.decision! : null);
	else work.done!(committed);
}

/** A batch with something to commit. */
function hasChanges(batch: ScreenBatch): boolean {
	return batch.changes.length > 0;
}

export class Engine {
	readonly screens: Map<string, Screen>;
	/** Where each screen's TCP listener actually listens (set once listening). */
	readonly endpoints = new Map<string, { host: string; port: number }>();
	readonly now: () => number;
	readonly clock: Clock;
	readonly logger: Logger;
	/** What the browsers showing each screen are sent. */
	readonly fanout: BrowserFanout;
	/** Inspector work (findings, log entries): it waits until the replies of the turn are written. */
	readonly afterReplies = new AfterReplies();
	private store: Store;
	private pending: Pending[] = [];
	private commitScheduled = false;
	private committedListeners = new Set<CommittedListener>();
	private commitEndListeners = new Set<() => void>();
	private committingListeners = new Set<(batches: readonly ScreenBatch[]) => void>();
	/** Runs the committing listeners inside the store's transaction (none: no call at all). */
	private readonly committing = (batches: readonly ScreenBatch[]) => {
		for (const listener of this.committingListeners) {
			try {
				listener(batches);
			} catch (err) {
				// A side effect failing must not cost the orders their commit.
				this.logger.error({ err }, 'a committing listener failed');
			}
		}
	};
	/** Whether any screen has a communication rule (stations and expo): else no lookups at all. */
	private communicating = false;
	/** Screens re-establishing their connection after their rules changed: until when (agent clock). */
	private readonly reconnects = new Map<string, number>();
	private reconfiguredListeners = new Set<(screen: Screen) => void>();
	private screenAddedListeners = new Set<(screen: Screen) => void>();
	private screenRemovedListeners = new Set<(screen: Screen) => void>();
	private resetListeners = new Set<(screenId?: string) => void>();

	constructor(options: EngineOptions) {
		this.store = options.store;
		this.logger = options.logger;
		this.clock = options.clock ?? systemClock;
		this.now = () => this.clock.now();
		this.screens = createScreens(options.config, this.store.load());
		this.fanout = new BrowserFanout(this.screens, this.now);
		this.communicating = anyRule(this.screens);
	}

	/**
	 * Give a screen a role and (a station) its communication rule at run time (the admin API).
	 * As the vendor's screen does, it drops and re-establishes its connection: its browsers are let
	 * go (onReconfigured) and kept out for `reconnectMs`. The problem with the rules, named as
	 * core/expo.ts words it, when they are refused; null when applied.
	 */
	reconfigureScreen(
		id: string,
		role: ScreenRole,
		bumpsTo: readonly string[],
		reconnectMs: number
	): { index: number | null; message: string } | null {
		const screen = this.mustGet(id);
		const problem = reconfigurationProblem(screen, role, bumpsTo);
		if (problem) return problem;
		screen.config.role = role;
		screen.config.communication = { bumpsTo: [...bumpsTo] };
		this.communicating = anyRule(this.screens);
		if (reconnectMs > 0) this.reconnects.set(id, this.now() + reconnectMs);
		for (const listener of this.reconfiguredListeners) listener(screen);
		return null;
	}

	/** Until when a screen is re-establishing its connection (agent clock); null when it is not. */
	reconnectingUntil(id: string): number | null {
		const until = this.reconnects.get(id);
		if (until === undefined) return null;
		if (until > this.now()) return until;
		this.reconnects.delete(id);
		return null;
	}

	onReconfigured(listener: (screen: Screen) => void): () => void {
		this.reconfiguredListeners.add(listener);
		return () => this.reconfiguredListeners.delete(listener);
	}

	/**
	 * Register a screen after start (a remote screen adopted from discovery, agent/fleet); its
	 * location's config lists it too. Listeners of onScreenAdded (the integrator API) learn of it.
	 */
	addScreen(brand: BrandConfig, location: LocationConfig, config: ScreenConfig): Screen {
		if (this.screens.has(config.id)) throw new Error(`Screen ${config.id} exists`);
		location.screens.push(config);
		const screen: Screen = { config, location, brand, state: createScreenState() };
		this.screens.set(config.id, screen);
		this.fanout.addChannel(config.id);
		for (const listener of this.screenAddedListeners) listener(screen);
		return screen;
	}

	onScreenAdded(listener: (screen: Screen) => void): () => void {
		this.screenAddedListeners.add(listener);
		return () => this.screenAddedListeners.delete(listener);
	}

	/**
	 * Remove a screen at run time (the admin API): it becomes deleted, as `deleted: true` in the
	 * config makes it, and is gone from every API; its orders stay in the store. Listeners of
	 * onScreenRemoved (the integrator API, the webhooks' Device Deleted, its TCP listener and
	 * browsers) learn of it. Undefined when there is no such live screen.
	 */
	removeScreen(id: string): Screen | undefined {
		const screen = this.liveScreen(id);
		if (!screen) return undefined;
		screen.config.deleted = true;
		for (const listener of this.screenRemovedListeners) listener(screen);
		return screen;
	}

	onScreenRemoved(listener: (screen: Screen) => void): () => void {
		this.screenRemovedListeners.add(listener);
		return () => this.screenRemovedListeners.delete(listener);
	}

	screen(id: string): Screen | undefined {
		return this.screens.get(id);
	}

	/** A registered screen that is not deleted: deleted screens are gone from every API. */
	liveScreen(id: string): Screen | undefined {
		const screen = this.screens.get(id);
		return screen && !screen.config.deleted ? screen : undefined;
	}

	tcpEndpoint(screenId: string): { host: string; port: number } {
		const screen = this.mustGet(screenId);
		return (
			this.endpoints.get(screenId) ?? { host: screen.config.tcp.host, port: screen.config.tcp.port }
		);
	}

	/** Cards on the screen now (active and cancelled), in display order. */
	queue(screenId: string) {
		return queueOf(this.mustGet(screenId).state.orders.values());
	}

	/** How many cards are on the screen now (the home page's counts: no sort). */
	queueLength(screenId: string): number {
		return queueLength(this.mustGet(screenId).state.orders.values());
	}

	/*
	 * The entry points, by what differs:
	 * - decide: judge a command on one screen; nothing changes (the HTTP fan-out decides on every
	 *   screen first, then commits);
	 * - commit: apply changes decided elsewhere and commit them, as one unit (a promise);
	 * - runCommand: decide and commit one command on one screen (the TCP path; a callback, no
	 *   promise per message);
	 * - runAction: a screen action (bump, recall, fire, fire-course), from a browser, the
	 *   simulator API or the hold release timer.
	 * settled / afterCommits wait for what was submitted before; onCommitted / onCommitEnd see
	 * every commit.
	 */

	/**
	 * Decide a command on one screen without changing anything; with `explain`, also what it
	 * refused or ignored (the findings' outcomes, core/screen.ts).
	 */
	decide(screenId: string, command: OrderCommand, at = this.now(), explain = false): Decision {
		const screen = this.mustGet(screenId);
		// Auto hold future orders: one whose start (pickupTime − prepTimeDuration) is still ahead.
		const hold = screen.config.settings.autoHoldFutureOrders
			? (create: { order: Order }) => holdStart(create.order, at) !== null
			: undefined;
		const combine = screen.config.settings.combineOrders === true;
		return decide(screen.state, command, at, { hold, explain, combine });
	}

	/**
	 * Apply changes to one or more screens as one unit, and call `done` once they are committed.
	 *
	 * Changes take effect in memory at once, so the next command sees them; they are committed
	 * in one SQLite transaction together with every other change submitted in the same turn of
	 * the event loop (group commit), and only then relayed to browsers and acknowledged through
	 * `done(true)`. If the commit fails, memory is reloaded from the store, browsers resync, and
	 * `done(false)` tells the caller that nothing was acknowledged.
	 */
	private enqueue(
		batches: readonly ScreenBatch[],
		done: (committed: boolean) => void = () => {}
	): void {
		this.submit(batches, done, undefined, undefined);
	}

	/** enqueue, with either `done` or runCommand's `decided` and its decision (see Pending). */
	private submit(
		batches: readonly ScreenBatch[],
		done: Pending['done'],
		decision: Pending['decision'],
		decided: Pending['decided']
	): void {
		// The batches as given when none is empty (a TCP command's one batch): no copy.
		const nonEmpty = batches.every(hasChanges) ? batches : batches.filter(hasChanges);
		for (let i = 0; i < nonEmpty.length; i++)
			applyChanges(this.mustGet(nonEmpty[i].screenId).state, nonEmpty[i].changes);
		// Stations and expo: what these changes do on the screens the rules join (same commit).
		const all = this.communicating
			? communicate(this.screens, nonEmpty, this.now(), (id, changes) =>
					applyChanges(this.mustGet(id).state, changes)
				)
			: nonEmpty;
		this.pending.push({ batches: all, done, decision, decided });
		if (!this.commitScheduled) {
			this.commitScheduled = true;
			setImmediate(() => this.commitPending());
		}
	}

	/** Apply changes decided elsewhere and commit them (see enqueue); rejects when the store could not commit. */
	commit(batches: readonly ScreenBatch[]): Promise<void> {
		return new Promise((resolve, reject) =>
			this.enqueue(batches, (ok) =>
				ok ? resolve() : reject(new Error('The store could not commit'))
			)
		);
	}

	/**
	 * Resolves once everything submitted so far is committed: a refusal or a read that depends
	 * on the current state must not be answered before the acknowledgement of what made it so.
	 */
	settled(): Promise<void> {
		return new Promise((resolve) => this.afterCommits(resolve));
	}

	/** Commit everything submitted so far, then relay and acknowledge it. */
	private commitPending(): void {
		this.commitScheduled = false;
		const work = this.pending;
		if (work.length === 0) return;
		this.pending = [];
		// Indexed loops in this per-commit path (tens of commands each): a for-of's iterator and
		// its results are allocated whenever the code runs below the optimising tier.
		const batches: ScreenBatch[] = [];
		for (let i = 0; i < work.length; i++) {
			const some = work[i].batches;
			for (let j = 0; j < some.length; j++) batches.push(some[j]);
		}
		try {
			this.store.commit(batches, this.committingListeners.size > 0 ? this.committing : undefined);
		} catch (err) {
			this.logger.error({ err }, 'store commit failed; reloading the screens from the store');
			this.reload();
			for (const w of work) settle(w, false);
			return;
		}
		for (let i = 0; i < batches.length; i++)
			this.fanout.publish(batches[i].screenId, batches[i].changes);
		for (let i = 0; i < batches.length; i++)
			this.notifyCommitted(batches[i].screenId, batches[i].changes);
		this.notifyCommitEnd();
		this.afterReplies.due();
		try {
			for (let i = 0; i < work.length; i++) settle(work[i], true);
		} finally {
			// The replies are written: the inspector's work for them runs now, while the clients read
			// their replies, rather than before the next commit.
			this.afterReplies.run();
		}
	}

	/**
	 * Call `listener` with every change once it is committed (hold release timers, customer SMS),
	 * before the command is acknowledged. Returns a function that unsubscribes.
	 */
	onCommitted(listener: CommittedListener): () => void {
		this.committedListeners.add(listener);
		return () => this.committedListeners.delete(listener);
	}

	/**
	 * Call `listener` inside the store's transaction of every commit, after the orders' rows and
	 * before the COMMIT, with every screen's changes: for rows of other tables that the changes
	 * decide (the SMS outbox's texts), so that one WAL commit holds the orders and them. A throw is
	 * logged, the orders are committed all the same. Nothing may be sent from here (the commit can
	 * still fail): send from onCommitEnd. ./commit-outbox.ts holds the two together for rows that
	 * are sent once committed. Returns a function that unsubscribes.
	 */
	onCommitting(listener: (batches: readonly ScreenBatch[]) => void): () => void {
		this.committingListeners.add(listener);
		return () => this.committingListeners.delete(listener);
	}

	/**
	 * Call `listener` once per commit, after every onCommitted listener and before any command of
	 * the commit is acknowledged: for side effects that batch what the listeners decided (the
	 * outbox of ./commit-outbox.ts sends the texts and deliveries written in the commit here).
	 */
	onCommitEnd(listener: () => void): () => void {
		this.commitEndListeners.add(listener);
		return () => this.commitEndListeners.delete(listener);
	}

	private notifyCommitEnd(): void {
		for (const listener of this.commitEndListeners) {
			try {
				listener();
			} catch (err) {
				this.logger.error({ err }, 'a commit-end listener failed');
			}
		}
	}

	private notifyCommitted(screenId: string, changes: readonly ScreenChange[]): void {
		for (const listener of this.committedListeners) {
			try {
				listener(screenId, changes);
			} catch (err) {
				// A side effect failing must not un-acknowledge a committed order.
				this.logger.error({ err, screen: screenId }, 'a committed-change listener failed');
			}
		}
	}

	/**
	 * Run one command on one screen: the TCP path. `done` gets the decision once committed; with
	 * `explain`, decided at `at` with the outcomes too (the inspector's findings take it).
	 */
	runCommand(
		screenId: string,
		command: OrderCommand,
		done: (decision: Decision | null) => void,
		at = this.now(),
		explain = false
	): void {
		const decision = this.decide(screenId, command, at, explain);
		if (!decision.ok || decision.changes.length === 0) {
			this.afterCommits(() => done(decision));
			return;
		}
		this.submit([{ screenId, changes: decision.changes }], undefined, decision, done);
	}

	/**
	 * Run `fn` after everything submitted so far is committed: an answer that depends on the
	 * current state (a rejection) must not overtake the acknowledgement of what made it so.
	 */
	afterCommits(fn: () => void): void {
		if (this.pending.length === 0) fn();
		else
			this.pending.push({ batches: [], done: () => fn(), decision: undefined, decided: undefined });
	}

	private reload(): void {
		const stored = this.store.load();
		for (const screen of this.screens.values()) {
			screen.state = createScreenState(stored.get(screen.config.id) ?? []);
			this.fanout.resync(screen.config.id);
		}
	}

	/**
	 * A screen action from a browser: bump, recall (no id: the last bumped order), fire (from the
	 * holds list; also the hold release timer), fire-course (`target.course` of the order), or a
	 * cook's mark (item-done / item-undo of `target.lineId`, start / start-undo).
	 * Returns false when the order is unknown or its state refuses the action.
	 */
	runAction(
		screenId: string,
		action: ScreenAction,
		orderId?: string,
		target: ActionTarget = {}
	): boolean {
		const screen = this.mustGet(screenId);
		// A remote screen acts itself; its relay then tells what changed (agent/fleet).
		if (screen.remote) return screen.remote.act(action, orderId, target);
		const id = orderId ?? (action === 'recall' ? lastBumped(screen.state) : undefined);
		if (id === undefined) return false;
		const changes = decideAction(screen.state, action, id, this.now(), target);
		if (!changes) return false;
		this.enqueue([{ screenId, changes }]);
		return true;
	}

	/**
	 * Forget a screen's orders (or every screen's), for tests and the reset control; then what
	 * each room keeps of them (onReset: the SMS outbox, the notifications) forgets it too.
	 */
	reset(screenId?: string): void {
		this.commitPending();
		this.store.clear(screenId);
		for (const screen of this.screens.values()) {
			if (screenId && screen.config.id !== screenId) continue;
			if (screen.remote) continue; // its orders are the remote simulator's to forget
			screen.state = createScreenState();
			this.fanout.resync(screen.config.id);
		}
		for (const listener of this.resetListeners) listener(screenId);
	}

	/** Call `listener` after each reset, with the screen reset (undefined: every screen). */
	onReset(listener: (screenId?: string) => void): () => void {
		this.resetListeners.add(listener);
		return () => this.resetListeners.delete(listener);
	}

	private mustGet(screenId: string): Screen {
		const screen = this.screens.get(screenId);
		if (!screen) throw new Error(`Unknown screen ${screenId}`);
		return screen;
	}
}
