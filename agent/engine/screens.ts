/**
 * The simulator's screens as configured, each with its brand, location and the orders it has now
 * (its ScreenState, which only the engine's commit path changes).
 */
import type { OrderRecord } from '#core/order-machine';
import type { ScreenInfo } from '#core/relay';
import {
	createScreenState,
	type ActionTarget,
	type ScreenAction,
	type ScreenState
} from '#core/screen';
import {
	allScreens,
	type BrandConfig,
	type LocationConfig,
	type ScreenConfig,
	type SimConfig
} from '../config.ts';

/**
 * What the engine needs of a screen another simulator hosts; agent/fleet provides it (the engine
 * knows nothing of how: a relay read and a TCP endpoint written, in fleet/remote-screens.ts).
 */
export interface RemoteScreen {
	/** live: the copy (Screen.state) is current; connecting/unreachable: what was last seen. */
	readonly state: 'connecting' | 'live' | 'unreachable';
	/** Where it lives, for a person: the other simulator's address and screen. */
	readonly where: string;
	/** A cook's action, done there; its relay then tells what changed. */
	act(action: ScreenAction, orderId?: string, target?: ActionTarget): boolean;
}

export interface Screen {
	config: ScreenConfig;
	location: LocationConfig;
	brand: BrandConfig;
	state: ScreenState;
	/** Set for a screen another simulator hosts: its state is a copy of it (agent/fleet). */
	remote?: RemoteScreen;
}

/** Every configured screen (deleted ones too), with the orders the store kept for it. */
export function createScreens(
	config: SimConfig,
	stored: ReadonlyMap<string, OrderRecord[]>
): Map<string, Screen> {
	const screens = new Map<string, Screen>();
	for (const { brand, location, screen } of allScreens(config)) {
		screens.set(screen.id, {
			config: screen,
			location,
			brand,
			state: createScreenState(stored.get(screen.id) ?? [])
		});
	}
	return screens;
}

/** What a browser is told about the screen it shows. */
export function screenInfo(screen: Screen): ScreenInfo {
	return {
		id: screen.config.id,
		name: screen.config.name,
		locationId: screen.location.id,
		locationName: screen.location.name,
		timezone: screen.location.timezone,
		settings: screen.config.settings
	};
}
