/**
 * The webhooks' endpoint registry (docs/webhooks.md): the config file's endpoints (written to the
 * store again at each start: the file wins) and those added at run time (kept: they outlive a
 * restart); which endpoints want an event of a screen; their public shape, URLs redacted.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookEndpointInfo, WebhookEvent } from '#core/webhooks';
import { WebhookEndpointSchema, type BrandConfig, type WebhookEndpointConfig } from '../config.ts';
import type { Engine, Screen } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import type { DeliveryRow, EndpointRow, WebhookStatements } from '../store/webhook-store.ts';
import { redact } from './webhook.ts';

export interface Endpoint extends WebhookEndpointConfig {
	id: string;
	brand: string;
	origin: 'config' | 'runtime';
}

/** Why an endpoint cannot be added: field paths and messages (the admin API answers 422). */
export class EndpointError extends Error {
	constructor(
		message: string,
		readonly errors: Array<{ path: string; message: string }>
	) {
		super(message);
	}
}

export class WebhookEndpoints {
	/** Live endpoints by brand id; a brand without any is not in the map. */
	private byBrand = new Map<string, Endpoint[]>();
	private byId = new Map<string, Endpoint>();

	constructor(
		private readonly st: WebhookStatements,
		private readonly engine: Pick<Engine, 'screens'>,
		private readonly logger: Logger
	) {
		this.storeConfigEndpoints();
		this.load();
	}

	/** The endpoints of every brand (or one), in the order they were added; URLs redacted. */
	list(brand?: string): WebhookEndpointInfo[] {
		return [...this.byId.values()]
			.filter((e) => brand === undefined || e.brand === brand)
			.map(info);
	}

	/** A live endpoint. */
	get(id: string): Endpoint | undefined {
		return this.byId.get(id);
	}

	/** Whether any brand, or the given one, has a live endpoint (one Map lookup a commit). */
	any(brand?: string): boolean {
		return brand === undefined ? this.byBrand.size > 0 : this.byBrand.has(brand);
	}

	/** The endpoints that want `event` of this screen (its brand, its location). */
	wants(screen: Screen, event: WebhookEvent): Endpoint[] {
		const endpoints = this.byBrand.get(screen.brand.id);
		if (!endpoints) return [];
		return endpoints.filter(
			(e) =>
				e.triggers.includes(event) &&
				(e.locations.length === 0 || e.locations.includes(screen.location.id))
		);
	}

	/**
	 * Add an endpoint at run time (kept in the store: it outlives a restart). `input` is the config
	 * file's shape, plus `brand` (default: the first brand).
	 */
	add(input: unknown): WebhookEndpointInfo {
		const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<
			string,
			unknown
		>;
		const { brand: brandInput, ...rest } = raw;
		const errors: Array<{ path: string; message: string }> = [];
		if (typeof input !== 'object' || input === null || Array.isArray(input)) {
			throw new EndpointError('body: expected an object {url, triggers?, ...}', [
				{ path: '', message: 'expected an object {url, triggers?, ...}' }
			]);
		}
		const brands = this.brands();
		const brand =
			brandInput === undefined ? brands[0] : (brands.find((b) => b.id === brandInput) ?? null);
		if (!brand)
			errors.push({
				path: 'brand',
				message: `expected a brand id (${brands.map((b) => b.id).join(', ')}), got ${JSON.stringify(brandInput)}`
			});
		const parsed = WebhookEndpointSchema.safeParse(rest);
		if (!parsed.success) {
			for (const issue of parsed.error.issues)
				errors.push({ path: issue.path.join('.'), message: issue.message });
		}
		if (parsed.success && brand) {
			const id = parsed.data.id;
			if (id !== undefined && this.byId.has(id))
				errors.push({ path: 'id', message: `webhook id "${id}" is used already` });
			const known = new Set(brand.locations.map((l) => l.id));
			parsed.data.locations.forEach((l, i) => {
				if (!known.has(l))
					errors.push({
						path: `locations.${i}`,
						message: `"${l}" is not a location of brand ${brand.id}`
					});
			});
		}
		if (errors.length > 0 || !parsed.success || !brand) {
			throw new EndpointError(
				errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '),
				errors
			);
		}
		const endpoint: Endpoint = {
			...parsed.data,
			id: parsed.data.id ?? `wh-${randomUUID().slice(0, 8)}`,
			brand: brand.id,
			origin: 'runtime'
		};
		this.store(endpoint);
		this.load();
		this.logger.info({ webhook: endpoint.id, url: redact(endpoint.url) }, 'webhook endpoint added');
		return info(endpoint);
	}

	/** Remove an endpoint: it gets no new event. False when there is no such live endpoint. */
	remove(id: string): boolean {
		if (!this.byId.has(id)) return false;
		this.st.removeEndpoint.run(id);
		this.load();
		return true;
	}

	/** The endpoint a delivery is owed to: live, or removed (it still gets what it was owed). */
	ofDelivery(row: DeliveryRow): Endpoint {
		const live = this.byId.get(row.endpoint);
		if (live) return live;
		const stored = (this.st.endpoints.all() as unknown as EndpointRow[]).find(
			(e) => e.id === row.endpoint
		);
		const config = stored ? (JSON.parse(stored.config) as WebhookEndpointConfig) : null;
		return {
			...(config ?? {
				url: '',
				triggers: [],
				locations: [],
				attempts: row.max_attempts,
				secondsBetweenAttempts: 1800
			}),
			id: row.endpoint,
			brand: stored?.brand ?? '',
			origin: stored?.origin ?? 'runtime'
		};
	}

	private brands(): BrandConfig[] {
		const brands = new Map<string, BrandConfig>();
		for (const screen of this.engine.screens.values()) brands.set(screen.brand.id, screen.brand);
		return [...brands.values()];
	}

	private store(endpoint: Endpoint): void {
		const { id, brand, origin, ...config } = endpoint;
		const { seq } = this.st.maxEndpointSeq.get() as unknown as { seq: number };
		this.st.putEndpoint.run({ id, brand, config: JSON.stringify(config), origin, seq: seq + 1 });
	}

	/** The config file's endpoints, written again at each start (the file wins). */
	private storeConfigEndpoints(): void {
		for (const brand of this.brands()) {
			for (const endpoint of brand.webhooks) {
				// checkAcross (config.ts) gave every endpoint of the file an id.
				this.store({ ...endpoint, id: endpoint.id ?? '', brand: brand.id, origin: 'config' });
			}
		}
	}

	/** The live endpoints, from the store. */
	private load(): void {
		this.byId = new Map();
		this.byBrand = new Map();
		for (const row of this.st.endpoints.all() as unknown as EndpointRow[]) {
			if (row.removed) continue;
			const endpoint: Endpoint = {
				...(JSON.parse(row.config) as WebhookEndpointConfig),
				id: row.id,
				brand: row.brand,
				origin: row.origin
			};
			this.byId.set(row.id, endpoint);
			const list = this.byBrand.get(row.brand) ?? [];
			list.push(endpoint);
			this.byBrand.set(row.brand, list);
		}
	}
}

/** An endpoint as the admin API shows it: the URL redacted, the secret only as `signed`. */
export function info(endpoint: Endpoint): WebhookEndpointInfo {
	return {
		id: endpoint.id,
		brand: endpoint.brand,
		url: redact(endpoint.url),
		triggers: endpoint.triggers,
		locations: endpoint.locations,
		attempts: endpoint.attempts,
		secondsBetweenAttempts: endpoint.secondsBetweenAttempts,
		email: endpoint.email ?? null,
		signed: endpoint.secret !== undefined,
		origin: endpoint.origin
	};
}
