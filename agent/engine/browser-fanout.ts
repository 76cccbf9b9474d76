/**
 * What the browsers showing each screen are sent, and how many of them there are: a snapshot when
 * one opens the screen or has to start over, then every committed change in order (numbered per
 * screen, so a browser that misses one sees the gap and asks for a snapshot), and the messages
 * that are not order changes (pop-ups, takeout statuses). The WebSocket relay
 * (agent/ws/browser-relay.ts) is its listener for real browsers; tests listen directly.
 *
 * Other modules add to a snapshot (addSnapshotPart) and learn when a browser opens a screen
 * (onJoin) without the fan-out knowing them: notifications do both.
 */
import { toRelayChange, type RelayChange, type ServerMessage } from '#core/relay';
import type { ScreenChange } from '#core/screen';
import { screenInfo, type Screen } from './screens.ts';

export type Listener = (message: ServerMessage, encoded: string) => void;
export type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;
/** Fields another module adds to every snapshot of a screen. */
export type SnapshotPart = (screenId: string) => Partial<Omit<Snapshot, 'type' | 'seq'>>;

interface Channel {
	/** Sequence number of the last change sent. */
	seq: number;
	listeners: Set<Listener>;
	/** Browsers showing the screen now. */
	viewers: number;
}

export class BrowserFanout {
	private readonly channels = new Map<string, Channel>();
	private readonly parts: SnapshotPart[] = [];
	private readonly joinListeners = new Set<(screenId: string) => void>();
	private readonly viewersListeners = new Set<(screenId: string) => void>();

	constructor(
		private readonly screens: ReadonlyMap<string, Screen>,
		private readonly now: () => number
	) {
		for (const id of screens.keys())
			this.channels.set(id, { seq: 0, listeners: new Set(), viewers: 0 });
	}

	/** Call `listener` with every message for the screen. Returns a function that unsubscribes. */
	subscribe(screenId: string, listener: Listener): () => void {
		const { listeners } = this.channel(screenId);
		listeners.add(listener);
		return () => listeners.delete(listener);
	}

	/** The screen as a browser starts from: its orders, its info and every part added. */
	snapshot(screenId: string): Snapshot {
		const screen = this.screens.get(screenId);
		if (!screen) throw new Error(`Unknown screen ${screenId}`);
		let snapshot: Snapshot = {
			type: 'snapshot',
			seq: this.channel(screenId).seq,
			screen: screenInfo(screen),
			records: [...screen.state.orders.values()],
			now: this.now()
		};
		for (const part of this.parts) snapshot = { ...snapshot, ...part(screenId) };
		return snapshot;
	}

	addSnapshotPart(part: SnapshotPart): void {
		this.parts.push(part);
	}

	/** One committed change after another, each numbered. */
	publish(screenId: string, changes: readonly ScreenChange[]): void {
		const channel = this.channel(screenId);
		for (const change of changes) {
			channel.seq += 1;
			if (channel.listeners.size === 0) continue;
			this.sendTo(channel, {
				type: 'change',
				seq: channel.seq,
				change: toRelayChange(change),
				now: this.now()
			});
		}
	}

	/**
	 * A change another simulator's relay sent for a remote screen (agent/fleet), numbered here as
	 * the screen's own changes are: the central's browsers follow the remote screen.
	 */
	publishRelayed(screenId: string, change: RelayChange): void {
		const channel = this.channel(screenId);
		channel.seq += 1;
		this.sendTo(channel, { type: 'change', seq: channel.seq, change, now: this.now() });
	}

	/** A screen registered after start (adopted from discovery) gets its channel. */
	addChannel(screenId: string): void {
		if (!this.channels.has(screenId))
			this.channels.set(screenId, { seq: 0, listeners: new Set(), viewers: 0 });
	}

	/** A message that is not an order change (a pop-up, a takeout status) to the screen's browsers. */
	send(screenId: string, message: ServerMessage): void {
		this.sendTo(this.channel(screenId), message);
	}

	/** The screen's orders were replaced (reset, reload): every browser starts over from a snapshot. */
	resync(screenId: string): void {
		const channel = this.channel(screenId);
		channel.seq += 1;
		this.sendTo(channel, this.snapshot(screenId));
	}

	/**
	 * A browser opens the screen: counted until the returned function is called, and every
	 * onJoin listener runs first (before the browser's snapshot is taken).
	 */
	join(screenId: string): () => void {
		const channel = this.channel(screenId);
		channel.viewers += 1;
		for (const listener of this.joinListeners) listener(screenId);
		this.viewersChanged(screenId);
		let left = false;
		return () => {
			if (left) return;
			left = true;
			channel.viewers -= 1;
			this.viewersChanged(screenId);
		};
	}

	/** Browsers showing the screen now. */
	viewers(screenId: string): number {
		return this.channels.get(screenId)?.viewers ?? 0;
	}

	/** Call `listener` after a browser opened or closed a screen (webhooks: Device Updated). */
	onViewers(listener: (screenId: string) => void): () => void {
		this.viewersListeners.add(listener);
		return () => this.viewersListeners.delete(listener);
	}

	private viewersChanged(screenId: string): void {
		for (const listener of this.viewersListeners) {
			try {
				listener(screenId);
			} catch {
				// a listener's failure is its own (it logs); the browser's join goes on
			}
		}
	}

	onJoin(listener: (screenId: string) => void): () => void {
		this.joinListeners.add(listener);
		return () => this.joinListeners.delete(listener);
	}

	private sendTo(channel: Channel, message: ServerMessage): void {
		if (channel.listeners.size === 0) return;
		const encoded = JSON.stringify(message);
		for (const listener of channel.listeners) listener(message, encoded);
	}

	private channel(screenId: string): Channel {
		const channel = this.channels.get(screenId);
		if (!channel) throw new Error(`Unknown screen ${screenId}`);
		return channel;
	}
}
