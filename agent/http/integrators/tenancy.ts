/**
 * Who is asking and what they may touch: the brand from x-integration-token, one of its active
 * locations from x-location-id, and that location's active screens from x-device-ids. Anything
 * outside the brand's active locations and screens does not exist for the request (404), so no
 * token can read or change another brand's data, or even learn that it exists.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { BrandConfig, LocationConfig, SimConfig } from '../../config.ts';
import type { Engine, Screen } from '../../engine/engine.ts';
import { ApiError } from './errors.ts';

export interface TenantLocation {
	config: LocationConfig;
	/** Active screens (registered, not deleted), in config order. */
	screens: Screen[];
	screenById: Map<string, Screen>;
}

export interface Tenant {
	brand: BrandConfig;
	/** Active locations (active subscription), in config order. */
	locations: TenantLocation[];
	locationById: Map<string, TenantLocation>;
}

/** The screens an order request is aimed at. */
export interface Target {
	tenant: Tenant;
	location: TenantLocation;
	screens: Screen[];
}

const LOCATIONS_HINT = 'see GET /integrators/kds-information/locations';

function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
	const value = headers[name];
	const text = Array.isArray(value) ? value.join(',') : value;
	const trimmed = text?.trim();
	return trimmed ? trimmed : undefined;
}

/**
 * Whether `token` is one of the config's brands' integration tokens (GET /health's check): every
 * brand compared on fixed-length digests, as Tenancy.tenant does.
 */
export function isIntegrationToken(config: SimConfig, token: string): boolean {
	const given = digest(token);
	let found = false;
	for (const brand of config.brands) {
		if (timingSafeEqual(given, digest(brand.token))) found = true;
	}
	return found;
}

export class Tenancy {
	private readonly tenants: Array<{ digest: Buffer; tenant: Tenant }> = [];
	/** The digests of the known tokens, by token: a valid token is not hashed on every request. */
	private readonly knownDigests = new Map<string, Buffer>();

	constructor(config: SimConfig, engine: Engine) {
		for (const brand of config.brands) {
			const locations: TenantLocation[] = [];
			for (const location of brand.locations) {
				if (!location.activeSubscription) continue;
				const screens: Screen[] = [];
				for (const { id, deleted } of location.screens) {
					const screen = engine.screen(id);
					if (screen && !deleted) screens.push(screen);
				}
				locations.push({
					config: location,
					screens,
					screenById: new Map(screens.map((s) => [s.config.id, s]))
				});
			}
			this.knownDigests.set(brand.token, digest(brand.token));
			// Screens added while running (adopted from discovery, agent/fleet/adopt.ts).
			engine.onScreenAdded((screen) => {
				const location = locations.find((l) => l.config === screen.location);
				if (!location || screen.config.deleted) return;
				location.screens.push(screen);
				location.screenById.set(screen.config.id, screen);
			});
			// Screens removed while running (the admin API): gone from every route.
			engine.onScreenRemoved((screen) => {
				const location = locations.find((l) => l.config === screen.location);
				if (!location) return;
				location.screens = location.screens.filter((s) => s !== screen);
				location.screenById.delete(screen.config.id);
			});
			this.tenants.push({
				digest: digest(brand.token),
				tenant: { brand, locations, locationById: new Map(locations.map((l) => [l.config.id, l])) }
			});
		}
	}

	/** The brand the request's token belongs to; 401 otherwise. */
	tenant(headers: IncomingHttpHeaders): Tenant {
		const token = header(headers, 'x-integration-token');
		if (token === undefined) {
			throw new ApiError(
				401,
				'UNAUTHORIZED',
				"x-integration-token: required (your brand's integration token)"
			);
		}
		// Fixed-length digests, every brand compared: the time taken says nothing about how close
		// a token came. (Only a whole valid token skips the hash: it tells only its holder that.)
		const given = this.knownDigests.get(token) ?? digest(token);
		let found: Tenant | undefined;
		for (const { digest: known, tenant } of this.tenants) {
			if (timingSafeEqual(given, known)) found = tenant;
		}
		if (!found)
			throw new ApiError(401, 'UNAUTHORIZED', 'x-integration-token: not a valid integration token');
		return found;
	}

	/** One of the brand's active locations; `where` names the header or path parameter. */
	location(tenant: Tenant, id: string, where: string): TenantLocation {
		const location = tenant.locationById.get(id);
		if (!location) {
			throw new ApiError(
				404,
				'LOCATION_NOT_FOUND',
				`${where}: ${JSON.stringify(id)} is not an active location of this brand (${LOCATIONS_HINT})`
			);
		}
		return location;
	}

	/** Brand, location and screens from the three headers of the order routes. */
	target(headers: IncomingHttpHeaders): Target {
		const tenant = this.tenant(headers);
		const locationId = header(headers, 'x-location-id');
		if (locationId === undefined) {
			throw new ApiError(
				400,
				'MISSING_HEADER',
				`x-location-id: required (the id of one of your brand's active locations; ${LOCATIONS_HINT})`
			);
		}
		const location = this.location(tenant, locationId, 'x-location-id');
		return { tenant, location, screens: this.devices(location, header(headers, 'x-device-ids')) };
	}

	/** x-device-ids: one screen id, a comma-separated list, or `all`. */
	private devices(location: TenantLocation, value: string | undefined): Screen[] {
		// Built only for a refusal: not on every request.
		const hint = () =>
			`see GET /integrators/kds-information/locations/${location.config.id}/devices`;
		if (value?.toLowerCase() === 'all') {
			if (location.screens.length === 0) {
				throw new ApiError(
					404,
					'DEVICE_NOT_FOUND',
					`x-device-ids: location ${JSON.stringify(location.config.id)} has no active screens`
				);
			}
			return location.screens;
		}
		// One screen, named as it is (the usual header): no list, no set.
		const one =
			value !== undefined && !value.includes(',') ? location.screenById.get(value) : undefined;
		if (one !== undefined) return [one];
		const ids = new Set<string>();
		for (const part of value?.split(',') ?? []) {
			const id = part.trim();
			if (id) ids.add(id);
		}
		if (ids.size === 0) {
			throw new ApiError(
				400,
				'MISSING_HEADER',
				`x-device-ids: required (a screen id, several separated by commas, or all; ${hint()})`
			);
		}
		const screens: Screen[] = [];
		const unknown: string[] = [];
		for (const id of ids) {
			const screen = location.screenById.get(id);
			if (screen) screens.push(screen);
			else unknown.push(JSON.stringify(id));
		}
		if (unknown.length > 0) {
			const which =
				unknown.length === 1
					? `${unknown[0]} is not an active screen`
					: `${unknown.join(', ')} are not active screens`;
			throw new ApiError(
				404,
				'DEVICE_NOT_FOUND',
				`x-device-ids: ${which} of location ${JSON.stringify(location.config.id)} (${hint()})`
			);
		}
		return screens;
	}
}
