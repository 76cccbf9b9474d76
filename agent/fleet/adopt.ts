/**
 * Screens heard on the network (UDP 28000, the discovery datagram real screens send): listed for
 * the home page, and, where a location asks for it (`adoptDiscovered` in the config, or
 * `--adopt-discovered`), added to that location as remote screens. A screen whose announcements
 * stop is marked unreachable (its link is stopped) until it is heard again. Only listens.
 */
import { createSocket, type Socket } from 'node:dgram';
import { DISCOVERED_TCP_PORT, decodeAnnouncement, type Announcement } from '#core/discovery';
import {
	parseConfig,
	type BrandConfig,
	type LocationConfig,
	type ScreenConfig
} from '../config.ts';
import type { Engine } from '../engine/engine.ts';
import type { Logger } from '../log.ts';
import type { RemoteScreens } from './remote-screens.ts';

export const DEFAULT_STALE_MS = 10_000;

export interface DiscoveryListenOptions {
	/** Address and UDP port to listen on (default 0.0.0.0:28000, which hears broadcasts). */
	bind: string;
	port: number;
	/** Adopt into this location (null: only list what is heard). */
	adoptInto: { brand: BrandConfig; location: LocationConfig } | null;
	/** The HTTP port of the simulators heard (the datagram carries none): default 8104. */
	httpPort: number;
	/** TCP port of the screens heard: 9104, what the datagram stands for (tests change it). */
	tcpPort?: number;
	/** A screen not heard for this long is unreachable (ms). */
	staleMs: number;
}

export interface HeardScreen extends Announcement {
	/** Where the last datagram came from (`host:port`). */
	from: string;
	/** Epoch ms of the last announcement. */
	lastHeard: number;
	/** Still announcing (heard within the stale time). */
	announcing: boolean;
	/** The id of the screen it was adopted as, or null. */
	screenId: string | null;
	/** The config entry that adds it as a remote screen (for the "add" hint). */
	snippet: ScreenSnippet;
}

export interface ScreenSnippet {
	id: string;
	name: string;
	version: string;
	tcp: { host: string; port: number };
	remote: { url: string; screen: string };
}

/** The config entry (a location's `screens[]`) for a screen heard at `address`. */
export function snippetFor(
	a: Announcement,
	httpPort: number,
	id = a.identifier,
	tcpPort = DISCOVERED_TCP_PORT
): ScreenSnippet {
	return {
		id,
		name: a.name,
		version: a.version,
		tcp: { host: a.address, port: tcpPort },
		remote: { url: `http://${a.address}:${httpPort}`, screen: a.identifier }
	};
}

/** A full screen config (defaults filled in) from a snippet, validated as a config file is. */
function screenConfig(snippet: ScreenSnippet): ScreenConfig {
	const parsed = parseConfig({
		brands: [
			{
				id: 'adopted',
				name: 'adopted',
				token: 'adopted-token',
				locations: [{ id: 'adopted', name: 'adopted', screens: [snippet] }]
			}
		]
	});
	return parsed.brands[0].locations[0].screens[0];
}

export class DiscoveryListener {
	private socket: Socket | null = null;
	private readonly heard = new Map<string, Omit<HeardScreen, 'announcing' | 'snippet'>>();
	private sweep: NodeJS.Timeout | null = null;

	constructor(
		private readonly options: DiscoveryListenOptions,
		private readonly deps: {
			engine: Engine;
			remotes: RemoteScreens;
			logger: Logger;
			now?: () => number;
		}
	) {}

	private now(): number {
		return this.deps.now?.() ?? Date.now();
	}

	/** Bind the UDP socket; resolves with the port listened on. */
	start(): Promise<number> {
		const socket = createSocket({ type: 'udp4', reuseAddr: true });
		this.socket = socket;
		socket.on('message', (bytes, from) => {
			const decoded = decodeAnnouncement(bytes);
			if (decoded.ok) this.hear(decoded.value, `${from.address}:${from.port}`);
		});
		this.sweep = setInterval(() => this.markStale(), Math.max(50, this.options.staleMs / 4));
		this.sweep.unref();
		return new Promise((resolve, reject) => {
			socket.once('error', (err: NodeJS.ErrnoException) => {
				reject(
					new Error(
						`Cannot listen for discovery on UDP ${this.options.bind}:${this.options.port}: ${err.code ?? err.message}`
					)
				);
			});
			socket.bind(this.options.port, this.options.bind, () => resolve(socket.address().port));
		});
	}

	/** The location heard screens are adopted into (null: only listed). */
	get adoptingInto(): string | null {
		return this.options.adoptInto?.location.id ?? null;
	}

	/** Every screen heard, in the order first heard. */
	list(): HeardScreen[] {
		const now = this.now();
		return [...this.heard.values()].map((h) => ({
			...h,
			announcing: now - h.lastHeard <= this.options.staleMs,
			snippet: snippetFor(h, this.options.httpPort, h.screenId ?? h.identifier, this.tcpPort)
		}));
	}

	private get tcpPort(): number {
		return this.options.tcpPort ?? DISCOVERED_TCP_PORT;
	}

	/** One announcement: note it; adopt the screen, or bring its link back, if asked to. */
	hear(a: Announcement, from: string): void {
		const key = `${a.identifier}@${a.address}`;
		const { engine } = this.deps;
		// This simulator's own screens (when it announces them too) are not remote.
		for (const [id, endpoint] of engine.endpoints) {
			if (id === a.identifier && endpoint.host === a.address) return;
		}
		const known = this.heard.get(key);
		const entry = known ?? { ...a, from, lastHeard: 0, screenId: null };
		const wasStale = known !== undefined && this.now() - known.lastHeard > this.options.staleMs;
		Object.assign(entry, { name: a.name, version: a.version, from, lastHeard: this.now() });
		this.heard.set(key, entry);
		const into = this.options.adoptInto;
		if (!into) return;
		if (entry.screenId === null) {
			entry.screenId = this.adopt(a, into);
			return;
		}
		if (wasStale) {
			this.deps.logger.info({ screen: entry.screenId }, 'adopted screen heard again');
			this.deps.remotes.get(entry.screenId)?.link.start();
		}
	}

	private adopt(a: Announcement, into: { brand: BrandConfig; location: LocationConfig }): string {
		const { engine, remotes, logger } = this.deps;
		// The screen's own id when free here, else id@address (two Pis may both be kds-1).
		let id = a.identifier || a.address;
		if (engine.screen(id)) id = `${a.identifier}@${a.address}`;
		for (let n = 2; engine.screen(id); n++) id = `${a.identifier}@${a.address}#${n}`;
		const config = screenConfig(snippetFor(a, this.options.httpPort, id, this.tcpPort));
		const screen = engine.addScreen(into.brand, into.location, config);
		remotes.attach(screen);
		logger.info(
			{ screen: id, address: a.address, location: into.location.id },
			`adopted screen ${a.name} (${a.identifier} at ${a.address}) as remote screen ${id}`
		);
		return id;
	}

	/** Screens not heard within the stale time: their links stop (unreachable). */
	markStale(): void {
		const now = this.now();
		for (const h of this.heard.values()) {
			if (h.screenId === null || now - h.lastHeard <= this.options.staleMs) continue;
			const remote = this.deps.remotes.get(h.screenId);
			if (remote && remote.link.running) {
				this.deps.logger.warn({ screen: h.screenId }, 'adopted screen stopped announcing');
				remote.link.stop();
			}
		}
	}

	close(): void {
		if (this.sweep) clearInterval(this.sweep);
		this.socket?.close();
		this.socket = null;
	}
}

/** Where discovered screens go: the location flagged `adoptDiscovered`, or with the flag, the first. */
export function adoptionTarget(
	brands: BrandConfig[],
	adoptFlag: boolean
): { brand: BrandConfig; location: LocationConfig } | null {
	for (const brand of brands) {
		const location = brand.locations.find((l) => l.adoptDiscovered && l.activeSubscription);
		if (location) return { brand, location };
	}
	if (!adoptFlag) return null;
	const brand = brands[0];
	const location = brand.locations.find((l) => l.activeSubscription);
	return location ? { brand, location } : null;
}
