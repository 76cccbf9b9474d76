/**
 * What the notifications left on one screen, in the browser: the takeout statuses (customer
 * arrived, estimated arrival) by order id, and the open pop-ups. Fed by the relay: each snapshot
 * and each `notifications` message carries the whole state and replaces what was there.
 */
import type { NotificationState, Popup, ServerMessage, TakeoutStatus } from '#core/relay';

export class ScreenNotifications {
	/** Takeout statuses by order id; replaced whole by each state, never changed in place. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	takeout: ReadonlyMap<string, TakeoutStatus> = $state.raw(new Map());
	/** Open pop-ups, oldest first, without those acknowledged here and not yet confirmed. */
	popups: Popup[] = $state.raw([]);
	/** Customers waiting now (arrived, order still on the screen). */
	readonly arrivals: number = $derived.by(() => {
		let count = 0;
		for (const status of this.takeout.values()) if (status.arrivedAt !== undefined) count++;
		return count;
	});

	#all: Popup[] = [];
	// Not reactive on purpose: only `popups` is rendered.
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#acknowledged = new Set<string>();

	/** Take the state out of a snapshot or a notifications message; other messages are ignored. */
	receive(message: ServerMessage): void {
		if (message.type === 'snapshot') {
			// A snapshot is the agent's word after a (re)connect: an OK lost on the way shows again.
			this.#acknowledged.clear();
			if (message.notifications) this.#apply(message.notifications);
		} else if (message.type === 'notifications') {
			this.#apply(message);
		}
	}

	/** OK was sent for a pop-up: hide it here at once; the agent clears it on every browser. */
	hide(popupId: string): void {
		this.#acknowledged.add(popupId);
		this.#showPopups();
	}

	#apply(state: NotificationState): void {
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- assigned whole to $state.raw
		this.takeout = new Map(state.takeout.map((s) => [s.orderId, s]));
		this.#all = state.popups;
		// An acknowledgement the agent has confirmed need not be remembered.
		for (const id of this.#acknowledged) {
			if (!state.popups.some((p) => p.id === id)) this.#acknowledged.delete(id);
		}
		this.#showPopups();
	}

	#showPopups(): void {
		this.popups = this.#all.filter((p) => !this.#acknowledged.has(p.id));
	}
}
