/**
 * A certification run's view of the simulator (./run.ts CertifyDeps), made from what the HTTP
 * stack already holds: the engine's clock and screens, the inspector's log, the faults, the
 * webhooks.
 */
import type { Engine } from '../engine/engine.ts';
import type { Faults } from '../faults/registry.ts';
import type { MessageLog } from '../inspector/message-log.ts';
import type { Webhooks } from '../notify/webhooks.ts';
import pkg from '../../package.json' with { type: 'json' };
import { CertifyRuns } from './run.ts';

export function certifyRuns(options: {
	engine: Engine;
	messages: MessageLog;
	faults: Faults;
	webhooks: Webhooks;
}): CertifyRuns {
	const { engine, messages, faults, webhooks } = options;
	return new CertifyRuns({
		now: () => engine.now(),
		messages,
		faults,
		webhooks,
		version: pkg.version,
		target: (id) => {
			const local = [...engine.screens.values()].filter(
				(s) => !s.config.deleted && !s.config.remote && engine.liveScreen(s.config.id)
			);
			const screen = id === undefined ? local[0] : local.find((s) => s.config.id === id);
			if (!screen)
				return id === undefined
					? 'no local screen to certify on'
					: `expected one of ${local.map((s) => s.config.id).join(', ')}, got ${JSON.stringify(id)}`;
			return {
				screen: screen.config.id,
				location: screen.location.id,
				tcp: engine.tcpEndpoint(screen.config.id)
			};
		}
	});
}
