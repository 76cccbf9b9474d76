/**
 * Remote screens of this simulator: screens of its config marked `remote` (or adopted from
 * discovery) that live in another simulator. Each gets a RemoteLink (relay reader + TCP writer)
 * and a ScreenMirror that keeps the engine's copy of the screen (Screen.state) equal to what the
 * remote relay says; the central's own browsers of that screen get the same changes through the
 * engine's listeners. Nothing of a remote screen is ever written to this simulator's store.
 */
import type { ServerMessage } from '#core/relay';
import type { ActionTarget, ScreenAction } from '#core/screen';
import type { Engine, Screen } from '../engine/engine.ts';
import type { RemoteScreen } from '../engine/screens.ts';
import type { Logger } from '../log.ts';
import { Acknowledged } from './acknowledged.ts';
import { ScreenMirror } from './mirror.ts';
import {
	RemoteLink,
	type LinkState,
	type RemoteLinkOptions,
	type RemoteOutcome
} from './remote-link.ts';

/** How long a write's outcome waits for the relay to show the change (ms): reads follow writes. */
const FOLLOW_MS = 1000;

/** A remote screen as the fleet links it: what the engine needs of it (RemoteScreen), and more. */
export interface RemoteHandle extends RemoteScreen {
	readonly link: RemoteLink;
	readonly mirror: ScreenMirror;
	readonly state: LinkState;
	/** Write one contract message over TCP; then wait (briefly) for the relay to show it. */
	deliver(message: object, orderId: string): Promise<RemoteOutcome>;
}

export interface RemoteScreensOptions {
	engine: Engine;
	logger: Logger;
	/** A remote screen stopped being current: the central's browsers of it should reconnect. */
	onUnreachable?: (screenId: string) => void;
	/** Test knobs for the links (timeouts, backoff). */
	link?: Partial<
		Pick<
			RemoteLinkOptions,
			'retryMs' | 'maxRetryMs' | 'pingMs' | 'connectTimeoutMs' | 'replyTimeoutMs'
		>
	>;
}

export class RemoteScreens {
	private readonly handles = new Map<string, RemoteHandle & { stop(): void }>();

	constructor(private readonly options: RemoteScreensOptions) {}

	/** Link every screen of the engine whose config says `remote`. */
	attachConfigured(): void {
		for (const screen of this.options.engine.screens.values()) {
			if (screen.config.remote && !screen.config.deleted) this.attach(screen);
		}
	}

	/** Start linking one remote screen (its config has `remote`). */
	attach(screen: Screen): RemoteHandle {
		const remote = screen.config.remote;
		if (!remote) throw new Error(`screen ${screen.config.id} is not remote`);
		const { engine, logger } = this.options;
		const id = screen.config.id;
		const mirror = new ScreenMirror(screen);
		const acknowledged = new Acknowledged(screen, () => engine.now());
		const waiters = new Map<string, Set<() => void>>();
		const publish = (message: ServerMessage) => {
			// The remote's own word replaces what its acknowledgement let the copy assume.
			const again = acknowledged.relayed(message);
			const result = mirror.apply(message);
			acknowledged.reapply(again);
			if (result.kind === 'resync') {
				link.resync();
				return;
			}
			if (result.kind === 'ignored') {
				// Pop-ups and takeout statuses of the remote screen: shown as they are.
				if (message.type === 'notifications') engine.fanout.send(id, message);
				return;
			}
			if (result.change === null) engine.fanout.resync(id);
			else engine.fanout.publishRelayed(id, result.change);
			for (const orderId of result.ids) {
				const set = waiters.get(orderId);
				if (set) for (const wake of set) wake();
			}
		};
		const link = new RemoteLink({
			url: remote.url,
			screen: remote.screen ?? id,
			tcp: { host: screen.config.tcp.host, port: screen.config.tcp.port },
			adminToken: remote.adminToken,
			logger,
			...this.options.link,
			onMessage: publish,
			onState: (state) => {
				logger.info({ screen: id, remote: link.where, state }, `remote screen ${id} is ${state}`);
				if (state !== 'live') {
					mirror.reset();
					acknowledged.forget();
					this.options.onUnreachable?.(id);
				}
			}
		});
		/** Resolves when the relay next shows a change of `orderId`, or after FOLLOW_MS. */
		const follow = (orderId: string) => {
			let wake = () => {};
			const shown = new Promise<void>((resolve) => {
				const timer = setTimeout(done, FOLLOW_MS);
				function done() {
					clearTimeout(timer);
					waiters.get(orderId)?.delete(wake);
					if (waiters.get(orderId)?.size === 0) waiters.delete(orderId);
					resolve();
				}
				wake = done;
			});
			let set = waiters.get(orderId);
			if (!set) waiters.set(orderId, (set = new Set()));
			set.add(wake);
			return { shown, cancel: wake };
		};
		const handle = {
			link,
			mirror,
			get state() {
				return link.state;
			},
			get where() {
				return link.where;
			},
			async deliver(message: object, orderId: string) {
				const { shown, cancel } = follow(orderId);
				const outcome = await link.send(message, orderId);
				if (outcome.status === 'SUCCESS' && link.state === 'live') {
					// Reads see the write at once: the copy takes what the remote acknowledged (unless
					// its relay showed it already); the relay then has the last word.
					acknowledged.apply(message);
					await shown;
				} else cancel();
				return outcome;
			},
			act: (action: ScreenAction, orderId?: string, target?: ActionTarget) =>
				link.act(action, orderId, target),
			stop: () => link.stop()
		};
		screen.remote = handle;
		this.handles.set(id, handle);
		link.start();
		return handle;
	}

	get(screenId: string): RemoteHandle | undefined {
		return this.handles.get(screenId);
	}

	/**
	 * Write one contract message to a remote screen over TCP (then wait briefly for its relay to
	 * show it): its outcome, or UNREACHABLE when its link is not started.
	 */
	deliver(screenId: string, message: object, orderId: string): Promise<RemoteOutcome> {
		const handle = this.handles.get(screenId);
		if (handle) return handle.deliver(message, orderId);
		return Promise.resolve({
			status: 'UNREACHABLE',
			message: 'the link to this remote screen is not started'
		});
	}

	close(): void {
		for (const handle of this.handles.values()) handle.stop();
		this.handles.clear();
	}
}
