/**
 * One browser showing one screen: the order board fed by the agent's WebSocket, the screen
 * actions sent back, and the new-order sound. Actions change nothing locally: the card changes
 * when the agent relays the result, so every browser on the screen shows the same.
 */
import type { ClientMessage } from '#core/relay';
import type { ActionTarget } from '#core/screen';
import { displayName } from '#core/view/format';
import { ScreenConnection, type ConnectionOptions } from './connection.svelte';
import { earlySockets } from './early-socket';
import { ScreenNotifications } from './screen-notifications.svelte';
import { OrderBoard } from './orders.svelte';
import { beep, cancelTone } from './sound';

export type ScreenActionName = Extract<ClientMessage, { type: 'action' }>['action'];

export interface Notice {
	text: string;
	at: number;
}

export class ScreenSession {
	readonly board: OrderBoard;
	readonly connection: ScreenConnection;
	/** Takeout statuses and pop-ups. */
	readonly notifications = new ScreenNotifications();
	sound = $state(false);
	/**
	 * Orders the POS cancelled while this screen was open, the latest last (at most three): the
	 * toasts that name them (ScreenView), until dismissed or timed out.
	 */
	cancels: { id: string; title: string; at: number }[] = $state.raw([]);
	/** A short message for the cook (a refused action, no connection). */
	notice: Notice | null = $state.raw(null);
	/**
	 * A message from the agent that this browser failed to apply (a bug, or data no version
	 * foresaw): the screen may be out of date. Shown as a banner with Reconnect (a fresh
	 * snapshot) and Reload; cleared by the next snapshot applied without error.
	 */
	failure: Notice | null = $state.raw(null);
	#lastAction: ScreenActionName | 'ready' | null = null;

	constructor(
		screenId: string,
		options: { url?: string } & Partial<Omit<ConnectionOptions, 'url' | 'onMessage'>> = {}
	) {
		this.board = new OrderBoard({
			onCreated: () => this.sound && beep(),
			onCancelled: (entry) => {
				if (this.sound) cancelTone();
				const cancel = { id: entry.id, title: displayName(entry.context.fields), at: Date.now() };
				this.cancels = [...this.cancels.filter((c) => c.id !== entry.id), cancel].slice(-3);
			}
		});
		this.connection = new ScreenConnection({
			url: options.url ?? screenSocketUrl(screenId),
			...options,
			onOpen: () => this.board.expectSnapshot(),
			onInvalid: (error) => {
				this.failure = { text: `a message that could not be drawn: ${error}`, at: Date.now() };
			},
			onMessage: (message) => {
				try {
					// Before the board: notification state is not an order change (no seq, no gap).
					this.notifications.receive(message);
					if (message.type === 'notifications') return;
					const result = this.board.receive(message);
					if (message.type === 'error') this.notify(this.#explain(message.code, message.message));
					if (message.type === 'snapshot' && this.failure) this.failure = null;
					return result;
				} catch (error) {
					// Never a silent screen: say so, and wait for the cook (no resync loop).
					console.error('Message from the agent not applied:', error, message);
					const text = error instanceof Error ? error.message : String(error);
					this.failure = { text, at: Date.now() };
					return 'error';
				}
			}
		});
	}

	start(): void {
		this.connection.start();
	}

	/** Connect again now: the agent sends a fresh snapshot. */
	reconnect(): void {
		this.connection.retry();
	}

	/** The cancel toast for `orderId` goes. */
	dismissCancel(orderId: string): void {
		this.cancels = this.cancels.filter((c) => c.id !== orderId);
	}

	stop(): void {
		this.connection.stop();
		this.board.dispose();
	}

	/**
	 * Send a screen action; recall without an id recalls the last bumped order. `target` names the
	 * course to fire or the item to mark.
	 */
	act(action: ScreenActionName, orderId?: string, target: ActionTarget = {}): boolean {
		this.#lastAction = action;
		const sent = this.connection.send({
			type: 'action',
			action,
			...(orderId ? { orderId } : {}),
			...(target.course !== undefined ? { course: target.course } : {}),
			...(target.lineId !== undefined ? { lineId: target.lineId } : {})
		});
		if (!sent) this.notify(`Not connected: ${action} not sent`);
		return sent;
	}

	/** OK on a pop-up: the agent clears it on every browser of the screen. */
	acknowledge(popupId: string): boolean {
		const sent = this.connection.send({ type: 'popup.ack', id: popupId });
		if (sent) this.notifications.hide(popupId);
		else this.notify('Not connected: the message stays until it can be acknowledged');
		return sent;
	}

	/**
	 * "Ready for pickup" on the Take Out view: the agent marks the order ready on every screen of
	 * the location showing it and sends the "ready" text when that trigger is on.
	 */
	ready(orderId: string): boolean {
		this.#lastAction = 'ready';
		const sent = this.connection.send({ type: 'takeout.ready', orderId });
		if (!sent) this.notify('Not connected: not marked ready');
		return sent;
	}

	/** A refused action in the cook's words; anything else as the agent put it. */
	#explain(code: string, message: string): string {
		if (code !== 'ACTION_REFUSED') return message;
		if (this.#lastAction === 'recall') return 'Nothing to recall';
		if (this.#lastAction === 'ready') return 'That order is no longer on this screen';
		if (this.#lastAction === 'bump') return 'Already bumped';
		if (this.#lastAction === 'fire-course') return 'That course cannot be fired';
		if (this.#lastAction === 'item-done' || this.#lastAction === 'item-undo')
			return 'That item cannot be marked now';
		if (this.#lastAction === 'start' || this.#lastAction === 'start-undo')
			return 'That ticket cannot be marked started now';
		return 'That order cannot be fired';
	}

	/** Say something on the screen for a few seconds (ScreenView shows it): one notice at a time. */
	notify(text: string): void {
		this.notice = { text, at: Date.now() };
	}
}

/** ws://host/ws?screen=<id> on the page's own origin (the agent serves both). */
export function screenSocketUrl(screenId: string, location: Location = window.location): string {
	const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
	return `${protocol}//${location.host}/ws?screen=${encodeURIComponent(screenId)}`;
}

/**
 * Open the screen's socket ahead of its page (the route's load function): the page's session
 * takes it, with the snapshot it got meanwhile (./early-socket.ts).
 */
export function preconnectScreen(screenId: string): void {
	earlySockets.open(screenSocketUrl(screenId));
}
