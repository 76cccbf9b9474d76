/**
 * The discovery announcer (opt-in: --discovery): every screen a POS could reach from what it
 * hears sends the 102-byte datagram of core/discovery.ts every few seconds. The datagram
 * names an address and no port, and a POS sends to that address on TCP 9104: so only a screen
 * listening on 9104 is announced, with the address its listener is bound to (or, bound to every
 * address, that of the interface the datagram leaves by). Where the datagrams go is a setting:
 * each interface's broadcast address (`broadcast`, for a LAN), or a list of `host:port` targets
 * (tests use loopback ones only).
 */
import { createSocket, type Socket } from 'node:dgram';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { DISCOVERED_TCP_PORT, DISCOVERY_PORT, encodeAnnouncement, isIpv4 } from '#core/discovery';
import type { Logger } from '../log.ts';

export interface DiscoveryTarget {
	host: string;
	port: number;
}
/** `broadcast`: each IPv4 interface's broadcast address on port 28000. */
export type DiscoveryTargets = 'broadcast' | DiscoveryTarget[];

export const DEFAULT_DISCOVERY_INTERVAL_S = 2;

/** A screen's TCP listener as it is bound. */
export interface ListeningScreen {
	id: string;
	name: string;
	version: string;
	/** The address the listener is bound to (`0.0.0.0` or `::`: every address). */
	host: string;
	port: number;
}

/** One datagram to send every interval. */
export interface Announce {
	screenId: string;
	address: string;
	target: DiscoveryTarget;
	datagram: Uint8Array;
}

export interface DiscoveryPlan {
	announce: Announce[];
	/** One sentence per screen that is not announced, saying why and what would fix it. */
	notAnnounced: string[];
}

/** `broadcast`, or `host[:port]` items separated by commas (port default 28000); null if bad. */
export function parseTargets(text: string): DiscoveryTargets | null {
	if (text.trim() === 'broadcast') return 'broadcast';
	const targets: DiscoveryTarget[] = [];
	for (const item of text.split(',')) {
		const m = /^\s*([\d.]+)(?::(\d{1,5}))?\s*$/.exec(item);
		if (!m || !isIpv4(m[1]) || (m[2] !== undefined && Number(m[2]) > 65535)) return null;
		targets.push({ host: m[1], port: m[2] === undefined ? DISCOVERY_PORT : Number(m[2]) });
	}
	return targets;
}

const toInt = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const toIp = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
const isLoopback = (ip: string) => ip.startsWith('127.');
const sameSubnet = (a: string, b: string, mask: string) =>
	(toInt(a) & toInt(mask)) >>> 0 === (toInt(b) & toInt(mask)) >>> 0;
const broadcastOf = (i: NetworkInterfaceInfo) =>
	toIp(((toInt(i.address) & toInt(i.netmask)) | (~toInt(i.netmask) >>> 0)) >>> 0);

/** Every IPv4 address of this host, as os.networkInterfaces() lists them. */
export function ipv4Interfaces(): NetworkInterfaceInfo[] {
	return Object.values(networkInterfaces())
		.flat()
		.filter((i): i is NetworkInterfaceInfo => i !== undefined && i.family === 'IPv4');
}

/**
 * Which datagrams to send for these screens and targets. `interfaces`: this host's IPv4 addresses
 * (injected so that tests can describe any host).
 */
export function planDiscovery(
	screens: ListeningScreen[],
	targets: DiscoveryTargets,
	interfaces: NetworkInterfaceInfo[]
): DiscoveryPlan {
	const plan: DiscoveryPlan = { announce: [], notAnnounced: [] };
	const lan = interfaces.filter((i) => !i.internal && !isLoopback(i.address));
	for (const screen of screens) {
		const who = `screen ${screen.id} (${screen.name})`;
		const add = (address: string, target: DiscoveryTarget) =>
			plan.announce.push({
				screenId: screen.id,
				address,
				target,
				datagram: encodeAnnouncement({
					version: screen.version,
					address,
					identifier: screen.id,
					name: screen.name
				})
			});
		if (screen.port !== DISCOVERED_TCP_PORT) {
			plan.notAnnounced.push(
				`${who} is not announced: it listens on TCP port ${screen.port}, and a POS that discovers a screen sends to port ${DISCOVERED_TCP_PORT}; give it an address of its own on port ${DISCOVERED_TCP_PORT} to announce it.`
			);
			continue;
		}
		const everyAddress = screen.host === '0.0.0.0' || screen.host === '::';
		if (!everyAddress && !isIpv4(screen.host)) {
			plan.notAnnounced.push(
				`${who} is not announced: it listens on ${screen.host}, and the datagram carries only an IPv4 address.`
			);
			continue;
		}
		if (targets === 'broadcast') {
			const on = everyAddress ? lan : lan.filter((i) => i.address === screen.host);
			if (on.length === 0) {
				plan.notAnnounced.push(
					everyAddress
						? `${who} is not announced yet: this host has no network but loopback; it is announced once one comes up.`
						: `${who} is not announced: it listens on ${screen.host}, which no other host on the LAN can reach (listen on a LAN address or 0.0.0.0).`
				);
			}
			for (const i of on) add(i.address, { host: broadcastOf(i), port: DISCOVERY_PORT });
			continue;
		}
		for (const target of targets) {
			if (!everyAddress) {
				add(screen.host, target);
				continue;
			}
			// Bound to every address: announce the one on the target's side.
			const near = isLoopback(target.host)
				? '127.0.0.1'
				: lan.find((i) => sameSubnet(i.address, target.host, i.netmask))?.address;
			if (near) add(near, target);
			else
				plan.notAnnounced.push(
					`${who} is not announced to ${target.host}: no interface of this host is on its network.`
				);
		}
	}
	return plan;
}

export interface Announcer {
	/** What was announced at start. */
	plan: DiscoveryPlan;
	close(): Promise<void>;
}

const describePlan = (plan: DiscoveryPlan) =>
	plan.announce.map((a) => `${a.screenId} as ${a.address} to ${a.target.host}:${a.target.port}`);

/**
 * Send the datagrams of `plan()` now and then every `intervalMs`, from one UDP socket. The plan is
 * made again each time, so an address the host gets after start-up (DHCP, Wi-Fi) is announced
 * too; a change is logged.
 */
export async function startAnnouncer(
	plan: () => DiscoveryPlan,
	intervalMs: number,
	logger: Logger
): Promise<Announcer> {
	const socket: Socket = createSocket({ type: 'udp4' });
	socket.on('error', (err) => logger.warn({ err }, 'discovery socket error'));
	await new Promise<void>((resolve) => socket.bind(0, resolve));
	const failing = new Set<string>();
	const send = (now: DiscoveryPlan) => {
		if (now.announce.some((a) => !isLoopback(a.target.host))) socket.setBroadcast(true);
		for (const a of now.announce) {
			const key = `${a.screenId} to ${a.target.host}:${a.target.port}`;
			socket.send(a.datagram, a.target.port, a.target.host, (err) => {
				// Log a failing target once, and again once it works.
				if (err && !failing.has(key)) {
					failing.add(key);
					logger.warn({ err: err.message }, `discovery: cannot announce ${key}`);
				} else if (!err && failing.delete(key)) logger.info(`discovery: announcing ${key} again`);
			});
		}
	};
	const first = plan();
	let announced = describePlan(first).join('\n');
	send(first);
	const timer = setInterval(() => {
		try {
			const now = plan();
			const described = describePlan(now);
			if (described.join('\n') !== announced) {
				announced = described.join('\n');
				logger.info({ announce: described }, 'discovery: the addresses changed');
			}
			send(now);
		} catch (err) {
			logger.warn({ err }, 'discovery: cannot announce');
		}
	}, intervalMs);
	return {
		plan: first,
		close: () =>
			new Promise<void>((resolve) => {
				clearInterval(timer);
				socket.close(() => resolve());
			})
	};
}
