/**
 * Remote screens (docs/fleet.md): a central simulator on 127.0.0.1 whose location has a local
 * screen and screens hosted by "Pi" simulators on 127.0.0.2 and 127.0.0.3. The POS talks to the
 * central's HTTP API only; each Pi is reached over its screen's own TCP endpoint (writes) and its
 * browser relay (reads). Everything is judged from what a client sees: HTTP bodies, TCP replies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { sendTcp } from '../../agent/tcp/client.ts';
import { startAgent } from '../../agent/app.ts';
import {
	centralConfig,
	FAST_LINKS,
	piEndpoint,
	startCentral,
	startPi,
	until
} from '../helpers/fleet.ts';
import { spawnAgent, waitForExit, type AgentProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const running: RunningAgent[] = [];
const processes: AgentProcess[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map((a) => a.close()));
	for (const p of processes.splice(0)) {
		p.child.kill('SIGKILL');
		await waitForExit(p.child);
	}
});

async function started<T extends RunningAgent>(agent: Promise<T>): Promise<T> {
	const a = await agent;
	running.push(a);
	return a;
}

const order = (id: string, name = `Guest ${id}`) => ({
	id,
	name,
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }]
});

function http(
	central: RunningAgent,
	method: string,
	path: string,
	body?: unknown,
	devices = 'all'
) {
	return fetch(`${central.httpUrl}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-integration-token': central.token,
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: body === undefined ? undefined : JSON.stringify(body)
	});
}

async function active(central: RunningAgent): Promise<Record<string, string[]>> {
	const res = await http(central, 'GET', '/integrators/kds-orders/active');
	expect(res.status).toBe(200);
	const list = (await res.json()) as Array<{
		deviceId: string;
		orders: Array<{ orderId: string }>;
	}>;
	return Object.fromEntries(list.map((d) => [d.deviceId, d.orders.map((o) => o.orderId)]));
}

const queueIds = (agent: RunningAgent, screen = 'kds-1') =>
	agent.engine.queue(screen).map((r) => r.context.id);

describe('remote screens', () => {
	it('an HTTP create to all lands on the local screen and on each Pi, each with its real status', async () => {
		const pi2 = await started(startPi('127.0.0.2'));
		const pi3 = await started(startPi('127.0.0.3'));
		const central = await started(
			startCentral([
				{ ...piEndpoint(pi2), id: 'pi-2', name: 'Fryer' },
				{ ...piEndpoint(pi3), id: 'pi-3', name: 'Expo' }
			])
		);
		await until(
			() =>
				central.remotes.get('pi-2')?.state === 'live' &&
				central.remotes.get('pi-3')?.state === 'live'
		);

		const res = await http(central, 'POST', '/integrators/kds-orders', order('F-1'));
		expect(res.status).toBe(201);
		expect(await res.json()).toEqual({
			orderId: 'F-1',
			deliveryStatuses: [
				{ device: 'kds-1', status: 'SUCCESS', type: 'android' },
				{ device: 'pi-2', status: 'SUCCESS', type: 'android' },
				{ device: 'pi-3', status: 'SUCCESS', type: 'android' }
			]
		});
		// On each Pi itself, as its own screen, and nothing of the Pis' orders stored centrally.
		expect(queueIds(pi2)).toEqual(['F-1']);
		expect(queueIds(pi3)).toEqual(['F-1']);
		expect(await active(central)).toEqual({ 'kds-1': ['F-1'], 'pi-2': ['F-1'], 'pi-3': ['F-1'] });

		// The Pi refuses a second create of the same id over its own TCP: reported per screen.
		await sendTcp(pi3.engine.tcpEndpoint('kds-1').host, pi3.engine.tcpEndpoint('kds-1').port, {
			command: 'create-order',
			order: { ...order('F-2'), time: Date.now() }
		});
		await until(async () => (await active(central))['pi-3'].includes('F-2'));
		const dup = await http(central, 'POST', '/integrators/kds-orders', order('F-2'), 'pi-3');
		// The central's copy of pi-3 already shows F-2: refused before anything is sent, as locally.
		expect(dup.status).toBe(409);

		// An update reaches the Pi over TCP and its copy follows.
		const upd = await http(central, 'PUT', '/integrators/kds-orders', order('F-1', 'Renamed'));
		expect(upd.status).toBe(200);
		expect((await upd.json()).deliveryStatuses.map((s: { status: string }) => s.status)).toEqual([
			'SUCCESS',
			'SUCCESS',
			'SUCCESS'
		]);
		expect(pi2.engine.screen('kds-1')!.state.orders.get('F-1')!.context.fields.name).toBe(
			'Renamed'
		);
	});

	it('a bump on the Pi leaves the central active orders; a bump on the central copy bumps on the Pi', async () => {
		const pi = await started(startPi('127.0.0.2'));
		const central = await started(startCentral([{ ...piEndpoint(pi), id: 'pi-2', name: 'Fryer' }]));
		await until(() => central.remotes.get('pi-2')?.state === 'live');
		for (const id of ['B-1', 'B-2']) {
			expect(
				(await http(central, 'POST', '/integrators/kds-orders', order(id), 'pi-2')).status
			).toBe(201);
		}
		expect((await active(central))['pi-2']).toEqual(['B-1', 'B-2']);

		expect(pi.engine.runAction('kds-1', 'bump', 'B-1')).toBe(true);
		await until(async () => (await active(central))['pi-2'].length === 1);
		expect((await active(central))['pi-2']).toEqual(['B-2']);

		// From the central's screen actions (what its browser sends): done by the Pi.
		const bump = await fetch(`${central.httpUrl}/api/screens/pi-2/actions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'bump', orderId: 'B-2' })
		});
		expect(bump.status).toBe(200);
		await until(() => queueIds(pi).length === 0);
		await until(async () => (await active(central))['pi-2'].length === 0);
	});

	it('a Pi that cannot be reached: UNREACHABLE, nothing stored; 502 when no screen took it', async () => {
		const pi = await started(startPi('127.0.0.2'));
		const endpoint = piEndpoint(pi);
		const central = await started(startCentral([{ ...endpoint, id: 'pi-2', name: 'Fryer' }]));
		await until(() => central.remotes.get('pi-2')?.state === 'live');
		await pi.close();
		running.splice(running.indexOf(pi), 1);
		await until(() => central.remotes.get('pi-2')?.state === 'unreachable');

		const res = await http(central, 'POST', '/integrators/kds-orders', order('U-1'));
		expect(res.status).toBe(201); // kds-1 took it
		const body = await res.json();
		expect(body.deliveryStatuses).toEqual([
			{ device: 'kds-1', status: 'SUCCESS', type: 'android' },
			{
				device: 'pi-2',
				status: 'UNREACHABLE',
				type: 'android',
				message: expect.stringMatching(
					new RegExp(
						`cannot connect to ${endpoint.tcp.host}:${endpoint.tcp.port} \\(ECONNREFUSED\\); nothing was sent`
					)
				)
			}
		]);
		expect((await active(central))['pi-2']).toEqual([]);

		const only = await http(central, 'POST', '/integrators/kds-orders', order('U-2'), 'pi-2');
		expect(only.status).toBe(502);
		const refused = await only.json();
		expect(refused.code).toBe('NOT_DELIVERED');
		expect(refused.message).toMatch(/^No screen took the request: pi-2: UNREACHABLE/);
		expect(refused.deliveryStatuses[0].status).toBe('UNREACHABLE');
		// Nothing retried behind the POS's back, nothing kept: the id is free to send again.
		expect(await active(central)).toEqual({ 'kds-1': ['U-1'], 'pi-2': [] });
	});

	it("a Pi's relay that wants its admin token: read only with remote.adminToken", async () => {
		const options = { adminToken: 'pi-admin-token', trustLoopback: false };
		const pi = await started(startPi('127.0.0.2', options));
		const without = await started(startCentral([{ ...piEndpoint(pi), id: 'pi-2', name: 'Fryer' }]));
		await new Promise((r) => setTimeout(r, 800));
		expect(without.remotes.get('pi-2')?.state).not.toBe('live');
		const config = centralConfig([{ ...piEndpoint(pi), id: 'pi-2', name: 'Fryer' }]);
		const remote = config.brands[0].locations[0].screens[1].remote!;
		remote.adminToken = 'pi-admin-token';
		const withToken = await started(
			startAgent({ memory: true, httpPort: 0, logLevel: 'silent', remoteLink: FAST_LINKS, config })
		);
		await until(() => withToken.remotes.get('pi-2')?.state === 'live');
	});

	it('a Pi killed with kill -9: UNREACHABLE while down; back with its orders, no duplicates', async () => {
		const dataDir = tempDir('kds-fleet-pi-');
		const piArgs = (http: number, tcp: number) => [
			'--data-dir',
			dataDir,
			'--host',
			'127.0.0.4',
			'--tcp-host',
			'127.0.0.4',
			'--http-port',
			String(http),
			'--tcp-port',
			String(tcp),
			'--log-level',
			'silent'
		];
		// The production bundle (npm run build): it starts faster than from source.
		const first = await spawnAgent(piArgs(0, 0), {}, { bundle: true });
		processes.push(first);
		const httpPort = Number(new URL(first.httpUrl).port);
		const tcp = first.tcp.get('kds-1')!;
		const central = await started(
			startCentral([{ httpUrl: first.httpUrl, screen: 'kds-1', tcp, id: 'pi-4', name: 'Fryer' }])
		);
		await until(() => central.remotes.get('pi-4')?.state === 'live');
		expect(
			(await http(central, 'POST', '/integrators/kds-orders', order('K-1'), 'pi-4')).status
		).toBe(201);

		first.child.kill('SIGKILL');
		await waitForExit(first.child);
		processes.splice(processes.indexOf(first), 1);
		await until(() => central.remotes.get('pi-4')?.state === 'unreachable');
		const down = await http(central, 'POST', '/integrators/kds-orders', order('K-2'));
		expect(down.status).toBe(201);
		expect((await down.json()).deliveryStatuses[1]).toMatchObject({
			device: 'pi-4',
			status: 'UNREACHABLE'
		});

		const second = await spawnAgent(piArgs(httpPort, tcp.port), {}, { bundle: true });
		processes.push(second);
		await until(() => central.remotes.get('pi-4')?.state === 'live', 10_000);
		// K-1 survived on the Pi (acknowledged = stored), shown once; K-2 never reached it.
		expect(await active(central)).toEqual({ 'kds-1': ['K-2'], 'pi-4': ['K-1'] });
		// The POS sends K-2 again, to the Pi alone: now it lands, once.
		const again = await http(central, 'POST', '/integrators/kds-orders', order('K-2'), 'pi-4');
		expect(again.status).toBe(409); // K-2 is live at the location (on kds-1): the contract's rule
		const k3 = await http(central, 'POST', '/integrators/kds-orders', order('K-3'), 'pi-4');
		expect(k3.status).toBe(201);
		expect(await active(central)).toEqual({ 'kds-1': ['K-2'], 'pi-4': ['K-1', 'K-3'] });
	}, 60_000);
});
