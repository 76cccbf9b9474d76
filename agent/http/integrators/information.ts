/**
 * Locations and screens (contract 4.3): only the token's brand, only active locations (active
 * subscription) and active screens (registered, not deleted).
 */
import type { FastifyInstance } from 'fastify';
import type { Engine, Screen } from '../../engine/engine.ts';
import { declared } from '../responses.ts';
import { PATHS } from './paths.ts';
import type { Device, Location } from './responses.ts';
import type { Tenancy, TenantLocation } from './tenancy.ts';

function device(engine: Engine, screen: Screen): Device {
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

function location({ config }: TenantLocation): Location {
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
	app.get(PATHS.information, declared(`GET ${PATHS.information}`), async (req) =>
		tenancy.tenant(req.headers).locations.map((l) => ({
			...location(l),
			devices: l.screens.map((s) => device(engine, s))
		}))
	);

	app.get(PATHS.locations, declared(`GET ${PATHS.locations}`), async (req) =>
		tenancy.tenant(req.headers).locations.map(location)
	);

	app.get<{ Params: { locationId: string } }>(
		PATHS.devices,
		declared(`GET ${PATHS.devices}`),
		async (req) => {
			const tenant = tenancy.tenant(req.headers);
			const found = tenancy.location(tenant, req.params.locationId, 'locationId');
			return found.screens.map((s) => device(engine, s));
		}
	);
}
