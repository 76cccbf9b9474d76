/**
 * The findings of one screen's orders, for the markers on its cards and the refusal strip. The
 * screen's view creates one (`provideScreenFindings`) and its cards read it from the component
 * context (`screenFindingsInContext`): no module-wide registry outlives the screen.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- the Maps and Sets here are deliberately not
   reactive: each card reads only its own OrderFindings, assigned whole to $state.raw. */
import { createContext } from 'svelte';
import { countBySeverity, type Finding } from '#core/rules';
import { LogFollower, type FeedStatus, type FollowerOptions } from './log-follower';
import type { InspectorEntry } from './messages-api';
import { isRefusal } from '#core/message-entry';

export interface Marker {
	/** Errors plus warnings. */
	count: number;
	/** The worst of them. */
	severity: 'error' | 'warning';
}

/** The card marker for a set of findings; none when there are only infos (or nothing). */
export function markerOf(findings: readonly Finding[]): Marker | null {
	const { error, warning } = countBySeverity(findings);
	if (error + warning === 0) return null;
	return { count: error + warning, severity: error > 0 ? 'error' : 'warning' };
}

/** One order's findings; its own reactive values, so a change redraws only that card's marker. */
export class OrderFindings {
	findings: Finding[] = $state.raw([]);
	marker: Marker | null = $state.raw(null);
	/** Cards showing it now. */
	watchers = 0;
}

/** A refused message: its log id and when it came (agent time). */
export interface RefusedAt {
	id: number;
	at: number;
}

/** Refused messages remembered per screen for the strip (it counts the last few minutes). */
const MAX_REFUSALS = 1000;

/** How far back the refusal strip counts. */
export const REFUSAL_WINDOW_MS = 10 * 60_000;

/** Refused messages that came within the window before `now`. */
export function recentRefusals(refusals: readonly RefusedAt[], now: number): number {
	let count = 0;
	for (const refused of refusals) if (refused.at >= now - REFUSAL_WINDOW_MS) count += 1;
	return count;
}

/** Orders with findings remembered per screen, beyond those on the cards; oldest forgotten first. */
const MAX_ORDERS = 1000;
/** How long the stream stays open after the last card using it went away. */
const IDLE_STOP_MS = 5000;

/**
 * The findings of a screen's orders, from the message log. Per order it keeps the union of the
 * warnings and errors of all its accepted messages (one per severity, code and path), not only those of
 * the latest message: a clean cancel or partial update does not make an order's bad create-order
 * go away, and the marker leads to the inspector filtered by that order, which lists them all.
 * A union is also idempotent, so an entry seen twice (GET and stream) changes nothing. Infos do
 * not count: no marker for them. Refused messages changed nothing on the screen: their findings
 * stay off the cards, and they are counted for the refusal strip instead (`refusals`).
 */
export class ScreenFindings {
	status: FeedStatus = 'loading';
	/** When each refused message of this screen came (agent time), oldest first, each once. */
	refusals: RefusedAt[] = $state.raw([]);
	#refusedIds = new Set<number>();
	// Deliberately not reactive: each card reads only its own OrderFindings.
	#orders = new Map<string, OrderFindings>();
	#keys = new Map<string, Set<string>>();
	#follower: LogFollower;
	#users = 0;
	#stopTimer: ReturnType<typeof setTimeout> | undefined;
	#running = false;

	constructor(
		readonly screenId: string,
		options: FollowerOptions = {}
	) {
		this.#follower = new LogFollower(
			{
				entries: (entries) => {
					// A GET answers newest first; apply oldest first so recent orders are kept longest.
					for (let i = entries.length - 1; i >= 0; i--) this.add(entries[i]);
				},
				status: (status) => (this.status = status)
			},
			options
		);
	}

	/** The findings of one order (empty until a message with a warning or error arrives). */
	order(orderId: string): OrderFindings {
		let found = this.#orders.get(orderId);
		if (!found) {
			found = new OrderFindings();
			this.#orders.set(orderId, found);
		}
		return found;
	}

	/**
	 * Take in one logged message. A refused one changed nothing on the screen: its findings stay
	 * with it (in the inspector), never on the live card that has the same order id; it counts
	 * among the refusals instead.
	 */
	add(entry: InspectorEntry): void {
		if (!entry.screenIds.includes(this.screenId)) return;
		if (!entry.ok) {
			// The expected answer to a correct retry after a fault is no refusal (isRefusal).
			if (isRefusal(entry)) this.#refused(entry);
			return;
		}
		if (entry.orderId === null) return;
		const serious = entry.findings.filter((f) => f.severity !== 'info');
		if (serious.length === 0) return;
		const id = entry.orderId;
		const keys = this.#keys.get(id) ?? new Set<string>();
		const added = serious.filter((f) => {
			const key = `${f.severity} ${f.code} ${f.path}`;
			if (keys.has(key)) return false;
			keys.add(key);
			return true;
		});
		if (added.length === 0) return;
		const order = this.order(id);
		// Most recently changed last: the first in the map are the first forgotten.
		this.#orders.delete(id);
		this.#orders.set(id, order);
		this.#keys.set(id, keys);
		order.findings = [...order.findings, ...added];
		order.marker = markerOf(order.findings);
		this.#forgetOldest();
	}

	#refused(entry: InspectorEntry): void {
		if (this.#refusedIds.has(entry.id)) return;
		this.#refusedIds.add(entry.id);
		const next = [...this.refusals, { id: entry.id, at: entry.at }].sort((a, b) => a.id - b.id);
		// Only the recent ones are ever shown; keep a bounded tail.
		if (next.length > MAX_REFUSALS) {
			for (const gone of next.splice(0, next.length - MAX_REFUSALS))
				this.#refusedIds.delete(gone.id);
		}
		this.refusals = next;
	}

	/** Orders no card shows, oldest first, until the bound holds. */
	#forgetOldest(): void {
		if (this.#orders.size <= MAX_ORDERS) return;
		for (const [id, order] of this.#orders) {
			if (order.watchers > 0) continue;
			this.#orders.delete(id);
			this.#keys.delete(id);
			if (this.#orders.size <= MAX_ORDERS) return;
		}
	}

	/**
	 * A card shows an order: keep its findings and follow the log while any card does. Returns
	 * the release.
	 */
	watch(orderId: string): () => void {
		const order = this.order(orderId);
		order.watchers += 1;
		const release = this.follow();
		let released = false;
		return () => {
			if (released) return;
			released = true;
			order.watchers -= 1;
			// A bumped order without findings need not be remembered.
			if (order.watchers === 0 && order.findings.length === 0) {
				if (this.#orders.get(orderId) === order) this.#orders.delete(orderId);
			}
			release();
		};
	}

	/** Follow the screen's log while anyone (a card, the refusal strip) uses it. Returns the release. */
	follow(): () => void {
		this.#users += 1;
		clearTimeout(this.#stopTimer);
		if (!this.#running) {
			this.#running = true;
			this.#follower.start({ screen: this.screenId, order: '', severity: '' });
		}
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#users -= 1;
			if (this.#users > 0) return;
			// Cards come and go as orders are bumped: do not reload the log for each.
			this.#stopTimer = setTimeout(() => {
				this.#running = false;
				this.#follower.stop();
			}, IDLE_STOP_MS);
		};
	}
}

const [getScreenFindings, setScreenFindings, hasScreenFindings] = createContext<ScreenFindings>();

/** For the screen's view: its findings, for the components below it. */
export function provideScreenFindings(findings: ScreenFindings): ScreenFindings {
	return setScreenFindings(findings);
}

/** The findings of the screen this component is on; none outside a screen's view. */
export function screenFindingsInContext(): ScreenFindings | null {
	return hasScreenFindings() ? getScreenFindings() : null;
}
