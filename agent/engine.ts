/**
 * The screens of the simulator and the one path every command takes: decide (shared core),
 * commit (store), apply, publish (relay). TCP, HTTP and the browsers' actions all come through
 * here, so an order created on one interface is updated, cancelled and bumped on any other.
 */
import { toRelayChange, type ScreenInfo, type ServerMessage } from '../src/lib/core/relay.ts';
import {
	formatErrors,
	parseTcpMessage,
	UNABLE_TO_PARSE,
	type OrderCommand
} from '../src/lib/core/schema.ts';
import {
	applyChanges,
	createScreenState,
	decide,
	decideAction,
	lastBumped,
	queueOf,
	type Decision,
	type ScreenAction,
	type ScreenChange,
	type ScreenState
} from '../src/lib/core/screen.ts';
import { allScreens, type BrandConfig, type LocationConfig, type ScreenConfig, type SimConfig } from './config.ts';
import type { Logger } from './log.ts';
import type { ScreenBatch, Store } from './store.ts';

export type Listener = (message: ServerMessage, encoded: string) => void;

export interface Screen {
	config: ScreenConfig;
	location: LocationConfig;
	brand: BrandConfig;
	state: ScreenState;
	/** Sequence number of the last change relayed to browsers. */
	seq: number;
	listeners: Set<Listener>;
}

export interface EngineOptions {
	config: SimConfig;
	store: Store;
	logger: Logger;
	/** The clock every rule reads; tests can replace it. */
	now?: () => number;
}

export class Engine {
	readonly screens = new Map<string, Screen>();
	/** Where each screen's TCP listener actually listens (set once listening). */
	readonly endpoints = new Map<string, { host: string; port: number }>();
	readonly now: () => number;
	private store: Store;
	private logger: Logger;

	constructor(options: EngineOptions) {
		this.store = options.store;
		this.logger = options.logger;
		this.now = options.now ?? Date.now;
		const stored = this.store.load();
		for (const { brand, location, screen } of allScreens(options.config)) {
			this.screens.set(screen.id, {
				config: screen,
				location,
				brand,
				state: createScreenState(stored.get(screen.id) ?? []),
				seq: 0,
				listeners: new Set()
			});
		}
	}

	screen(id: string): Screen | undefined {
		return this.screens.get(id);
	}

	/** Decide a command on one screen without changing anything. */
	decide(screenId: string, command: OrderCommand, at = this.now()): Decision {
		return decide(this.mustGet(screenId).state, command, at);
	}

	/**
	 * Commit changes to one or more screens in one transaction, then apply and relay them.
	 * Throws (and changes nothing) when the store cannot commit.
	 */
	apply(batches: readonly ScreenBatch[]): void {
		const nonEmpty = batches.filter((b) => b.changes.length > 0);
		if (nonEmpty.length === 0) return;
		this.store.commit(nonEmpty);
		for (const { screenId, changes } of nonEmpty) {
			const screen = this.mustGet(screenId);
			applyChanges(screen.state, changes);
			this.publish(screen, changes);
		}
	}

	/** Run one command on one screen: the TCP path. */
	execute(screenId: string, command: OrderCommand): Decision {
		const decision = this.decide(screenId, command);
		if (decision.ok) this.apply([{ screenId, changes: decision.changes }]);
		return decision;
	}

	/**
	 * Handle one framed TCP message and return the contract's reply string: the order id,
	 * `Unable to parse data`, `DUPLICATE_ORDER_ID` or `ORDER_DOES_NOT_EXIST`.
	 */
	handleTcpMessage(screenId: string, text: string, source = ''): string {
		const parsed = parseTcpMessage(text);
		if (!parsed.ok) {
			this.logger.info(
				{ screen: screenId, source, errors: parsed.errors },
				`TCP message refused: ${formatErrors(parsed.errors)}`
			);
			return UNABLE_TO_PARSE;
		}
		const decision = this.execute(screenId, parsed.value);
		this.logger.debug(
			{ screen: screenId, source, command: parsed.value.command, id: decision.id },
			decision.ok ? 'accepted' : decision.code
		);
		return decision.ok ? decision.id : decision.code;
	}

	/**
	 * A screen action from a browser: bump, recall (no id: the last bumped order) or fire.
	 * Returns false when the order is unknown or its state refuses the action.
	 */
	act(screenId: string, action: ScreenAction, orderId?: string): boolean {
		const screen = this.mustGet(screenId);
		const id = orderId ?? (action === 'recall' ? lastBumped(screen.state) : undefined);
		if (id === undefined) return false;
		const changes = decideAction(screen.state, action, id, this.now());
		if (!changes) return false;
		this.apply([{ screenId, changes }]);
		return true;
	}

	tcpEndpoint(screenId: string): { host: string; port: number } {
		const screen = this.mustGet(screenId);
		return this.endpoints.get(screenId) ?? { host: screen.config.tcp.host, port: screen.config.tcp.port };
	}

	info(screen: Screen): ScreenInfo {
		return {
			id: screen.config.id,
			name: screen.config.name,
			locationId: screen.location.id,
			locationName: screen.location.name,
			settings: screen.config.settings
		};
	}

	snapshot(screenId: string): ServerMessage {
		const screen = this.mustGet(screenId);
		return {
			type: 'snapshot',
			seq: screen.seq,
			screen: this.info(screen),
			records: [...screen.state.orders.values()],
			now: this.now()
		};
	}

	/** Cards on the screen now (active and cancelled), in display order. */
	queue(screenId: string) {
		return queueOf(this.mustGet(screenId).state.orders.values());
	}

	subscribe(screenId: string, listener: Listener): () => void {
		const screen = this.mustGet(screenId);
		screen.listeners.add(listener);
		return () => screen.listeners.delete(listener);
	}

	/** Forget a screen's orders (or every screen's), for tests and the reset control. */
	reset(screenId?: string): void {
		this.store.clear(screenId);
		for (const screen of this.screens.values()) {
			if (screenId && screen.config.id !== screenId) continue;
			screen.state = createScreenState();
			screen.seq += 1;
			const snapshot = this.snapshot(screen.config.id);
			const encoded = JSON.stringify(snapshot);
			for (const listener of screen.listeners) listener(snapshot, encoded);
		}
	}

	private publish(screen: Screen, changes: readonly ScreenChange[]): void {
		for (const change of changes) {
			screen.seq += 1;
			if (screen.listeners.size === 0) continue;
			const message: ServerMessage = {
				type: 'change',
				seq: screen.seq,
				change: toRelayChange(change),
				now: this.now()
			};
			const encoded = JSON.stringify(message);
			for (const listener of screen.listeners) listener(message, encoded);
		}
	}

	private mustGet(screenId: string): Screen {
		const screen = this.screens.get(screenId);
		if (!screen) throw new Error(`Unknown screen ${screenId}`);
		return screen;
	}
}
