/**
 * Adding remote screens by discovery, over loopback (docs/fleet.md): a "Pi" simulator announces
 * its screen (as --discovery does) to the central's UDP port on 127.0.0.1; the central, with
 * adoption on, adds it as a remote screen of its location and takes orders for it; without
 * adoption it only lists it, with the config entry that would add it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/app.ts';
import { FAST_LINKS, freeUdpPort, startAnnouncingPi, until } from '../helpers/fleet.ts';

const running: RunningAgent[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map((a) => a.close()));
});

async function announcingPi(udpPort: number): Promise<RunningAgent> {
	const pi = await startAnnouncingPi(udpPort);
	running.push(pi);
	return pi;
}

async function central(udpPort: number, pi: RunningAgent, adopt: boolean) {
	const agent = await startAgent({
		memory: true,
		httpPort: 0,
		tcpPort: 0,
		logLevel: 'silent',
		remoteLink: FAST_LINKS,
		discoveryListen: {
			bind: '127.0.0.1',
			port: udpPort,
			adopt,
			httpPort: Number(new URL(pi.httpUrl).port),
			staleMs: 600
		}
	});
	running.push(agent);
	return agent;
}

async function discovered(agent: RunningAgent) {
	return (await (await fetch(`${agent.httpUrl}/api/discovered`)).json()) as {
		listening: boolean;
		adoptingInto: string | null;
		screens: Array<{
			name: string;
			address: string;
			identifier: string;
			announcing: boolean;
			screenId: string | null;
			snippet: unknown;
		}>;
	};
}

describe('adopting screens heard on the network', () => {
	it('with --adopt-discovered: the screen heard becomes a remote screen that takes orders', async () => {
		const udpPort = await freeUdpPort();
		const pi = await announcingPi(udpPort);
		const piScreen = pi.screens[0];
		const agent = await central(udpPort, pi, true);
		// The Pi's screen is kds-1, as is the central's own first screen: adopted as kds-1@address.
		const id = `kds-1@${piScreen.tcp.host}`;
		await until(() => agent.remotes.get(id)?.state === 'live');

		const list = await discovered(agent);
		expect(list).toMatchObject({ listening: true, adoptingInto: 'loc-1' });
		expect(list.screens).toEqual([
			expect.objectContaining({
				name: 'Fryer',
				address: piScreen.tcp.host,
				identifier: 'kds-1',
				announcing: true,
				screenId: id
			})
		]);
		const devices = await fetch(
			`${agent.httpUrl}/integrators/kds-information/locations/loc-1/devices`,
			{ headers: { 'x-integration-token': agent.token } }
		);
		expect((await devices.json()).map((d: { id: string }) => d.id)).toEqual(['kds-1', 'kds-2', id]);

		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': agent.token,
				'x-location-id': 'loc-1',
				'x-device-ids': id
			},
			body: JSON.stringify({
				id: 'D-1',
				name: 'Dana',
				time: '2026-11-24T12:00:00Z',
				mode: 'Pickup',
				items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
			})
		});
		expect(res.status).toBe(201);
		expect((await res.json()).deliveryStatuses).toEqual([
			{ device: id, status: 'SUCCESS', type: 'android' }
		]);
		expect(pi.engine.queue('kds-1').map((r) => r.context.id)).toEqual(['D-1']);

		// Announcements stop (the Pi is gone): marked unreachable, and not retried until heard again.
		await pi.close();
		running.splice(running.indexOf(pi), 1);
		await until(() => agent.remotes.get(id)?.link.running === false);
		expect(agent.remotes.get(id)?.state).toBe('unreachable');
		expect((await discovered(agent)).screens[0].announcing).toBe(false);
	});

	it('without it: listed, with the config entry that adds it, and not a screen of any location', async () => {
		const udpPort = await freeUdpPort();
		const pi = await announcingPi(udpPort);
		const agent = await central(udpPort, pi, false);
		await until(async () => (await discovered(agent)).screens.length === 1);
		const [heard] = (await discovered(agent)).screens;
		const host = pi.screens[0].tcp.host;
		expect(heard).toMatchObject({ identifier: 'kds-1', screenId: null, announcing: true });
		expect(heard.snippet).toEqual({
			id: 'kds-1',
			name: 'Fryer',
			version: '2.21.30',
			tcp: { host, port: 9104 },
			remote: { url: `http://${host}:${new URL(pi.httpUrl).port}`, screen: 'kds-1' }
		});
		expect([...agent.engine.screens.keys()]).toEqual(['kds-1', 'kds-2']);
	});
});
