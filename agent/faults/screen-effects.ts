/**
 * What the faults that act on a screen as a whole do (docs/faults.md), next to the registry that
 * says when: a screen offline from the cloud (its Device Updated webhook, and the API orders
 * queued for it applied when it is back) and a reboot (its connections and browsers let go, its
 * port resetting every connection while it is away, counted for a storm). app.ts hands in what
 * only it holds: the TCP listener and the browsers' relay.
 */
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import type { Webhooks } from '../notify/webhooks.ts';
import type { Faults } from './registry.ts';

export interface ScreenEffectsOptions {
	engine: Engine;
	webhooks: Webhooks;
	logger: Logger;
	/** Drop every connection of a screen's TCP port; it listens again at once (app.ts). */
	dropConnections(screenId: string): void;
	/** Let a screen's browsers go (they show it away until it is back). */
	letBrowsersGo(screenId: string): void;
}

/**
 * Wire the screen-wide effects into the registry's actions. Returns the screens away for a
 * reboot (the WebSocket endpoint tells their browsers so).
 */
export function wireScreenEffects(faults: Faults, options: ScreenEffectsOptions): Set<string> {
	const { engine, webhooks, logger } = options;
	const rebooting = new Set<string>();
	// Offline from the cloud: Device Updated says offline (and online when it is back), and the
	// API orders that waited for it (queue mode) are applied then, in the order they came.
	faults.actions.offline = (id, offline) => {
		webhooks.setCloudOffline(id, offline);
		if (offline) return;
		for (const command of faults.takeQueued(id)) {
			engine.runCommand(id, command, (decision) => {
				if (decision && !decision.ok)
					logger.info(
						{ screen: id, id: command.order.id, code: decision.code },
						'queued API order refused when back online'
					);
			});
		}
	};
	// A reboot: its connections and browsers are let go; while it is away its port resets every
	// connection (the registry's `away`, counted, so a retry storm is named); then it is back with
	// every order.
	faults.actions.reboot = (id, seconds) => {
		rebooting.add(id);
		options.letBrowsersGo(id);
		options.dropConnections(id);
		faults.later(seconds * 1000, () => rebooting.delete(id));
	};
	return rebooting;
}
