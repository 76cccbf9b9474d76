/**
 * A fleet on loopback, for tests: "Pi" simulators each on a loopback address of its own
 * (127.0.0.x, OS-chosen ports), and a central simulator whose location has local screens and
 * remote screens that live in those Pis (docs/fleet.md).
 */
import { createSocket } from 'node:dgram';
import { DEFAULT_CONFIG, type SimConfigInput } from '../../agent/config.ts';
import { discoverableConfig } from './discovery.ts';
import { startAgent, type AgentOptions, type RunningAgent } from '../../agent/app.ts';

export interface PiEndpoint {
	/** HTTP base URL of the Pi's simulator. */
	httpUrl: string;
	/** The screen's id in the Pi's simulator. */
	screen: string;
	tcp: { host: string; port: number };
}

/** Start an in-memory "Pi": the demo config with one screen (kds-1), all on `host`. */
export function startPi(host: string, options: AgentOptions = {}): Promise<RunningAgent> {
	const config: SimConfigInput = structuredClone(DEFAULT_CONFIG);
	config.brands[0].locations[0].screens = [
		{ id: 'kds-1', name: `Pi ${host}`, tcp: { host, port: 0 } }
	];
	return startAgent({
		memory: true,
		httpHost: host,
		httpPort: 0,
		logLevel: 'silent',
		...options,
		config
	});
}

export function piEndpoint(pi: RunningAgent, screen = 'kds-1'): PiEndpoint {
	return { httpUrl: pi.httpUrl, screen, tcp: pi.engine.tcpEndpoint(screen) };
}

/** The demo brand and location with the local screen kds-1 and one remote screen per Pi. */
export function centralConfig(
	pis: Array<PiEndpoint & { id: string; name: string }>
): SimConfigInput {
	const config: SimConfigInput = structuredClone(DEFAULT_CONFIG);
	config.brands[0].locations[0].screens = [
		{ id: 'kds-1', name: 'Grill', tcp: { host: '127.0.0.1', port: 0 } },
		...pis.map((pi) => ({
			id: pi.id,
			name: pi.name,
			tcp: pi.tcp,
			remote: { url: pi.httpUrl, screen: pi.screen }
		}))
	];
	return config;
}

/** Short timeouts so that a lost Pi is noticed within a second in tests. */
export const FAST_LINKS: AgentOptions['remoteLink'] = {
	retryMs: 100,
	maxRetryMs: 300,
	pingMs: 300,
	connectTimeoutMs: 1000,
	replyTimeoutMs: 2000
};

export function startCentral(
	pis: Array<PiEndpoint & { id: string; name: string }>,
	options: AgentOptions = {}
): Promise<RunningAgent> {
	return startAgent({
		memory: true,
		httpPort: 0,
		logLevel: 'silent',
		remoteLink: FAST_LINKS,
		...options,
		config: centralConfig(pis)
	});
}

/** Poll `check` every 50 ms until it returns true (or throw after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
	const end = Date.now() + ms;
	for (;;) {
		if (await check()) return;
		if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** A UDP port the OS says is free now (bound, read, released). */
export async function freeUdpPort(): Promise<number> {
	const socket = createSocket('udp4');
	await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
	const { port } = socket.address();
	await new Promise<void>((r) => socket.close(() => r()));
	return port;
}

/**
 * A Pi announcing its one screen (Fryer, kds-1) to 127.0.0.1:`udpPort` every 100 ms: its HTTP and
 * its screen's TCP 9104 on one loopback address of its own (127.a.b.c, as a Pi has one LAN
 * address), drawn at random and retried when taken.
 */
export async function startAnnouncingPi(udpPort: number): Promise<RunningAgent> {
	for (let attempt = 1; ; attempt++) {
		const octet = () => 1 + Math.floor(Math.random() * 254);
		const host = `127.${octet()}.${octet()}.${octet()}`;
		try {
			return await startAgent({
				memory: true,
				httpHost: host,
				httpPort: 0,
				logLevel: 'silent',
				config: discoverableConfig([host], ['Fryer']),
				discovery: { targets: [{ host: '127.0.0.1', port: udpPort }], intervalMs: 100 }
			});
		} catch (err) {
			if (attempt >= 5 || !/EADDRINUSE/.test((err as Error).message)) throw err;
		}
	}
}
