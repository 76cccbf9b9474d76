import { createSocket, type Socket } from 'node:dgram';
import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAnnouncement } from '#core/discovery';
import { startAgent } from '../app.ts';
import { parseTargets, planDiscovery, startAnnouncer, type ListeningScreen } from './discovery.ts';
import { createLogger } from '../log.ts';
import { readSettings } from '../cli/settings.ts';

const iface = (address: string, netmask: string, internal = false) =>
	({ address, netmask, family: 'IPv4', internal, mac: '', cidr: null }) as NetworkInterfaceInfo;
/** A Pi on two networks, as os.networkInterfaces() would list it. */
const PI = [
	iface('127.0.0.1', '255.0.0.0', true),
	iface('192.168.1.50', '255.255.255.0'),
	iface('10.20.30.40', '255.255.0.0')
];
const screen = (id: string, host: string, port = 9104): ListeningScreen => ({
	id,
	name: id === 'kds-1' ? 'Grill' : 'Expo',
	version: '2.21.30',
	host,
	port
});
const summary = (plan: ReturnType<typeof planDiscovery>) =>
	plan.announce.map((a) => `${a.screenId} ${a.address} -> ${a.target.host}:${a.target.port}`);

describe('what discovery announces', () => {
	it('bound to every address: each LAN interface announces its own address to its broadcast address', () => {
		const plan = planDiscovery([screen('kds-1', '0.0.0.0')], 'broadcast', PI);
		expect(summary(plan)).toEqual([
			'kds-1 192.168.1.50 -> 192.168.1.255:28000',
			'kds-1 10.20.30.40 -> 10.20.255.255:28000'
		]);
		expect(plan.notAnnounced).toEqual([]);
		const bytes = plan.announce[0].datagram;
		expect(decodeAnnouncement(bytes)).toEqual({
			ok: true,
			value: { version: '2.21.30', address: '192.168.1.50', identifier: 'kds-1', name: 'Grill' }
		});
	});

	it('bound to one address: that address, on its own network only', () => {
		const plan = planDiscovery([screen('kds-1', '10.20.30.40')], 'broadcast', PI);
		expect(summary(plan)).toEqual(['kds-1 10.20.30.40 -> 10.20.255.255:28000']);
	});

	it('a screen a POS could not reach at <address>:9104 is not announced, and the reason says why', () => {
		const plan = planDiscovery(
			[screen('kds-1', '0.0.0.0'), screen('kds-2', '0.0.0.0', 9105)],
			'broadcast',
			PI
		);
		expect(plan.announce.every((a) => a.screenId === 'kds-1')).toBe(true);
		expect(plan.notAnnounced).toEqual([
			'screen kds-2 (Expo) is not announced: it listens on TCP port 9105, and a POS that discovers a screen sends to port 9104; give it an address of its own on port 9104 to announce it.'
		]);
		expect(planDiscovery([screen('kds-1', '127.0.0.1')], 'broadcast', PI)).toEqual({
			announce: [],
			notAnnounced: [
				'screen kds-1 (Grill) is not announced: it listens on 127.0.0.1, which no other host on the LAN can reach (listen on a LAN address or 0.0.0.0).'
			]
		});
		// Bound to every address on a host whose network is not up yet (the plan is made again each time).
		expect(planDiscovery([screen('kds-1', '0.0.0.0')], 'broadcast', [PI[0]])).toEqual({
			announce: [],
			notAnnounced: [
				'screen kds-1 (Grill) is not announced yet: this host has no network but loopback; it is announced once one comes up.'
			]
		});
		expect(planDiscovery([screen('kds-1', '::1')], 'broadcast', PI).notAnnounced).toEqual([
			'screen kds-1 (Grill) is not announced: it listens on ::1, and the datagram carries only an IPv4 address.'
		]);
	});

	it('to listed targets: a screen bound to every address announces the address on the target’s side', () => {
		const targets = parseTargets('127.0.0.1:28001, 192.168.1.9')!;
		expect(targets).toEqual([
			{ host: '127.0.0.1', port: 28001 },
			{ host: '192.168.1.9', port: 28000 }
		]);
		expect(summary(planDiscovery([screen('kds-1', '0.0.0.0')], targets, PI))).toEqual([
			'kds-1 127.0.0.1 -> 127.0.0.1:28001',
			'kds-1 192.168.1.50 -> 192.168.1.9:28000'
		]);
		expect(summary(planDiscovery([screen('kds-1', '127.9.9.9')], targets, PI))).toEqual([
			'kds-1 127.9.9.9 -> 127.0.0.1:28001',
			'kds-1 127.9.9.9 -> 192.168.1.9:28000'
		]);
		for (const bad of ['', 'localhost:28000', '1.2.3.4:70000', '1.2.3.4,']) {
			expect(parseTargets(bad)).toBeNull();
		}
	});
});

describe('the announcer (loopback only)', () => {
	const sockets: Socket[] = [];
	afterEach(() => {
		for (const s of sockets.splice(0)) s.close();
	});

	async function listener() {
		const socket = createSocket('udp4');
		sockets.push(socket);
		const heard: Buffer[] = [];
		socket.on('message', (m) => heard.push(m));
		await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
		return { port: socket.address().port, heard };
	}

	it('sends every screen’s datagram at once and then every interval, and stops when closed', async () => {
		const pos = await listener();
		const plan = planDiscovery(
			[screen('kds-1', '127.1.2.3'), screen('kds-2', '127.1.2.4')],
			[{ host: '127.0.0.1', port: pos.port }],
			[]
		);
		const announcer = await startAnnouncer(() => plan, 50, createLogger('silent'));
		await expect.poll(() => pos.heard.length, { timeout: 5000 }).toBeGreaterThanOrEqual(6);
		await announcer.close();
		// Let what was already on its way arrive, then nothing more comes.
		await new Promise((r) => setTimeout(r, 100));
		const count = pos.heard.length;
		const names = new Set(
			pos.heard.map((m) => decodeAnnouncement(m)).map((d) => d.ok && d.value.name)
		);
		expect(names).toEqual(new Set(['Grill', 'Expo']));
		expect(pos.heard.every((m) => m.length === 102)).toBe(true);
		await new Promise((r) => setTimeout(r, 200));
		expect(pos.heard.length).toBe(count);
	});
});

describe('the announcer follows the host’s addresses', () => {
	it('a network that comes up after start-up (DHCP, Wi-Fi) is announced from then on', async () => {
		const pos = createSocket('udp4');
		const heard: string[] = [];
		pos.on('message', (m) => {
			const d = decodeAnnouncement(m);
			if (d.ok) heard.push(d.value.address);
		});
		await new Promise<void>((resolve) => pos.bind(0, '127.0.0.1', resolve));
		const target = [{ host: '127.0.0.1', port: pos.address().port }];
		// Bound to every address; the "LAN" here is a loopback alias, so the datagrams stay local.
		let interfaces: NetworkInterfaceInfo[] = [];
		const lateLan = iface('127.0.0.1', '255.0.0.0');
		const announcer = await startAnnouncer(
			() =>
				planDiscovery([screen('kds-1', '0.0.0.0')], interfaces.length ? target : [], interfaces),
			50,
			createLogger('silent')
		);
		try {
			expect(announcer.plan.announce).toEqual([]);
			await new Promise((r) => setTimeout(r, 150));
			expect(heard).toEqual([]);
			interfaces = [lateLan];
			await expect.poll(() => heard.length, { timeout: 5000 }).toBeGreaterThan(0);
			expect(new Set(heard)).toEqual(new Set(['127.0.0.1']));
		} finally {
			await announcer.close();
			pos.close();
		}
	});
});

describe('settings', () => {
	it('discovery is off unless asked; targets default to broadcast, every 2 s', () => {
		expect(readSettings([], {}).discovery).toBeNull();
		expect(readSettings([], { KDS_DISCOVERY: '0' }).discovery).toBeNull();
		expect(readSettings(['--discovery-to', '127.0.0.1'], {}).discovery).toBeNull();
		expect(readSettings(['--discovery'], {}).discovery).toEqual({
			targets: 'broadcast',
			intervalMs: 2000
		});
		expect(
			readSettings([], {
				KDS_DISCOVERY: '1',
				KDS_DISCOVERY_TO: '127.0.0.1:28001',
				KDS_DISCOVERY_INTERVAL: '0.5'
			}).discovery
		).toEqual({ targets: [{ host: '127.0.0.1', port: 28001 }], intervalMs: 500 });
	});

	it('refuses bad values with one sentence', () => {
		expect(() => readSettings([], { KDS_DISCOVERY: 'yes' })).toThrow(
			'Invalid value for --discovery (KDS_DISCOVERY): "yes" (expected 1 or 0)'
		);
		expect(() => readSettings(['--discovery-to', 'lan'], {})).toThrow(
			'Invalid value for --discovery-to (KDS_DISCOVERY_TO): "lan" (expected broadcast, or IPv4 host:port targets separated by commas)'
		);
		expect(() => readSettings(['--discovery-interval', '0'], {})).toThrow(
			'Invalid value for --discovery-interval (KDS_DISCOVERY_INTERVAL): "0" (expected a number of seconds, 0.05-3600)'
		);
		expect(() => readSettings(['--token', 'short'], {})).toThrow(
			'Invalid value for --token (KDS_TOKEN): "short" (expected a token of at least 8 characters)'
		);
	});
});

describe('the demo token off loopback', () => {
	const base = { memory: true, httpPort: 0, tcpPort: 0, uiDir: null, logLevel: 'silent' as const };

	it('start-up stops with one sentence saying how to set a token', async () => {
		// 198.51.100.7 (TEST-NET-2) is on no interface here: were the check missing, listening would fail otherwise.
		await expect(startAgent({ ...base, httpHost: '198.51.100.7' })).rejects.toThrow(
			'Refusing to serve the demo integration token kds-demo-token on 198.51.100.7, where other hosts can use it: set a token of your own with --token <at least 8 characters> (KDS_TOKEN) or in the config file (brands[].token).'
		);
	});

	it('--token replaces the first brand’s token; loopback keeps the demo token', async () => {
		const agent = await startAgent({ ...base, token: 'pi-3f9a0c7e' });
		try {
			expect(agent.token).toBe('pi-3f9a0c7e');
			const res = await fetch(`${agent.httpUrl}/integrators/kds-information/locations`, {
				headers: { 'x-integration-token': 'kds-demo-token' }
			});
			expect(res.status).toBe(401);
			const own = await fetch(`${agent.httpUrl}/integrators/kds-information/locations`, {
				headers: { 'x-integration-token': 'pi-3f9a0c7e' }
			});
			expect(own.status).toBe(200);
		} finally {
			await agent.close();
		}
		const demo = await startAgent(base);
		expect(demo.token).toBe('kds-demo-token');
		await demo.close();
	});
});
