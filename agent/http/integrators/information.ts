/**
 * Locations and screens (contract 4.3): only the token's brand, only active locations (active
 * subscription) and active screens (registered, not deleted).
 */
import type { FastifyInstance } from 'fastify';
import type { Engine, Screen } from '../../engine/engine.ts';
import { PATHS } from './paths.ts';
import type { Tenancy, TenantLocation } from './tenancy.ts';

export interface DeviceView {
	id: string;
	name: string;
	type: string;
	version: string;
	ipAddress: string;
	/** Simulator extension: the screen's TCP order port (a real screen always uses 9104). */
	tcpPort: number;
}

function device(engine: Engine, screen: Screen): DeviceView {
	const { host, port } = engine.tcpEndpoint(screen.config.id);
	return {
		id: screen.config.id,
		name: screen.config.name,
		type: screen.config.type,
		version: screen.config.version,
		ipAddress: host,
		tcpPort: port
	};
}

function location({ config }: TenantLocation) {
	const { line1, line2, city, state, zip } = config.address;
	return {
		id: config.id,
		number: config.number,
		name: config.name,
		address: { zip, city, line1, line2, state },
		timezone: config.timezone
	};
}

export function registerInformationRoutes(
	app: FastifyInstance,
	engine: Engine,
	tenancy: Tenancy
): void {
	app.get(PATHS.information, async (req) =>
		tenancy.tenant(req.headers).locations.map((l) => ({
			...location(l),
			devices: l.screens.map((s) => device(engine, s))
		}))
	);

	app.get(PATHS.locations, async (req) => tenancy.tenant(req.headers).locations.map(location));

	app.get<{ Params: { locationId: string } }>(PATHS.devices, async (req) => {
		const tenant = tenancy.tenant(req.headers);
		const found = tenancy.location(tenant, req.params.locationId, 'locationId');
		return found.screens.map((s) => device(engine, s));
	});
}
