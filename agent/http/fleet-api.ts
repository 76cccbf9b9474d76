/**
 * The simulator's own API for the fleet (docs/fleet.md): the screens heard on the network,
 * adopted or not, with the config entry that adds each one as a remote screen.
 */
import type { FastifyInstance } from 'fastify';
import type { HeardScreen } from '../fleet/adopt.ts';
import { declared } from './responses.ts';

export interface FleetApiOptions {
	/** What discovery heard (null: this simulator does not listen for discovery). */
	heard: () => HeardScreen[] | null;
	/** Whether heard screens are adopted (and into which location). */
	adoptingInto: string | null;
}

export function registerFleetApi(app: FastifyInstance, options: FleetApiOptions): void {
	app.get('/api/discovered', { ...declared('GET /api/discovered') }, async () => ({
		listening: options.heard() !== null,
		adoptingInto: options.adoptingInto,
		screens: options.heard() ?? []
	}));
}
