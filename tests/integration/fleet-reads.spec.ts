/**
 * Reads see writes (docs/fleet.md): once the central simulator answered SUCCESS for a remote
 * screen, its own reads list the order there at once (the acknowledged state), even when the
 * remote's relay is slow, and follow the remote's relay when it says otherwise.
 *
 * The Pi's relay is reached through a loopback proxy that holds every byte the Pi sends for
 * RELAY_DELAY_MS (a slow Wi-Fi link): longer than the central waits for the relay after a write,
 * so without the acknowledged state a read right after the create finds nothing on the Pi.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { FAST_LINKS, piEndpoint, startCentral, startPi, until } from '../helpers/fleet.ts';

const RELAY_DELAY_MS = 1500;

const running: RunningAgent[] = [];
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
	for (const s of sockets) s.destroy();
	sockets.clear();
	await Promise.all(running.splice(0).map((a) => a.close()));
	await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A TCP proxy on 127.0.0.1 to `target` whose answers (target → client) come `delayMs` late. */
async function slowProxy(target: URL, delayMs: number): Promise<string> {
	const server = createServer((client) => {
		const upstream = connect(Number(target.port), target.hostname);
		sockets.add(client).add(upstream);
		client.on('data', (chunk) => upstream.write(chunk));
		upstream.on('data', (chunk) => {
			const t = setTimeout(() => client.writable && client.write(chunk), delayMs);
			t.unref();
		});
		const end = () => {
			setTimeout(() => client.destroy(), delayMs).unref();
			upstream.destroy();
		};
		upstream.on('close', end).on('error', end);
		client.on('close', () => upstream.destroy()).on('error', () => upstream.destroy());
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

function http(central: RunningAgent, method: string, path: string, body?: unknown) {
	return fetch(`${central.httpUrl}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-integration-token': central.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'all'
		},
		body: body === undefined ? undefined : JSON.stringify(body)
	});
}

async function activeOn(central: RunningAgent, device: string): Promise<string[]> {
	const res = await http(central, 'GET', '/integrators/kds-orders/active');
	expect(res.status).toBe(200);
	const list = (await res.json()) as Array<{
		deviceId: string;
		orders: Array<{ orderId: string }>;
	}>;
	return list.find((d) => d.deviceId === device)!.orders.map((o) => o.orderId);
}

async function cardsOn(central: RunningAgent, screen: string): Promise<string[]> {
	const res = await fetch(`${central.httpUrl}/api/admin/screens/${screen}`);
	expect(res.status).toBe(200);
	return ((await res.json()) as { cards: Array<{ id: string }> }).cards.map((c) => c.id);
}

async function preparing(central: RunningAgent): Promise<string[]> {
	const res = await fetch(`${central.httpUrl}/api/tracker/loc-1`);
	expect(res.status).toBe(200);
	return ((await res.json()) as { preparing: Array<{ orderId: string }> }).preparing.map(
		(e) => e.orderId
	);
}

const order = (id: string, name: string) => ({
	id,
	name,
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	items: [
		{ lineId: '1', name: 'Ramen 🍜', qty: 1, mods: ['No egg', 'Extra chili'] },
		{ lineId: '2', name: '餃子', qty: 2, mods: [] }
	]
});

describe('a remote screen behind a slow relay', () => {
	it('is listed by the central at once after SUCCESS, then follows the relay', async () => {
		const pi = await startPi('127.0.0.2');
		running.push(pi);
		const endpoint = piEndpoint(pi);
		const relayUrl = await slowProxy(new URL(endpoint.httpUrl), RELAY_DELAY_MS);
		// Pings answered late are not a lost Pi: a slow link, not a dead one.
		const central = await startCentral(
			[{ ...endpoint, httpUrl: relayUrl, id: 'pi-2', name: 'Fryer' }],
			{
				remoteLink: {
					...FAST_LINKS,
					pingMs: 4 * RELAY_DELAY_MS,
					connectTimeoutMs: 4 * RELAY_DELAY_MS
				}
			}
		);
		running.push(central);
		await until(() => central.remotes.get('pi-2')?.state === 'live', 10_000);

		const res = await http(central, 'POST', '/integrators/kds-orders', order('S-1', 'Ana'));
		expect(res.status).toBe(201);
		expect((await res.json()).deliveryStatuses).toEqual([
			{ device: 'kds-1', status: 'SUCCESS', type: 'android' },
			{ device: 'pi-2', status: 'SUCCESS', type: 'android' }
		]);
		// Read at once, as a POS reconciling after a create: the Pi's screen lists it everywhere.
		expect(await activeOn(central, 'pi-2')).toEqual(['S-1']);
		expect(await cardsOn(central, 'pi-2')).toEqual(['S-1']);
		expect(await preparing(central)).toEqual(['S-1']);

		// An update acknowledged: its new name is read at once too.
		const upd = await http(central, 'PUT', '/integrators/kds-orders', order('S-1', 'Ana M.'));
		expect(upd.status).toBe(200);
		const fields = () => central.engine.screen('pi-2')!.state.orders.get('S-1')?.context.fields;
		expect(fields()?.name).toBe('Ana M.');

		// The relay catches up: one card, the remote's own record (its sequence), the same name.
		const remoteSeq = () => pi.engine.screen('kds-1')!.state.orders.get('S-1')!.context.seq;
		await until(
			() =>
				central.engine.screen('pi-2')!.state.orders.get('S-1')?.context.seq === remoteSeq() &&
				fields()?.name === 'Ana M.',
			10_000
		);
		expect(await activeOn(central, 'pi-2')).toEqual(['S-1']);

		// The remote says otherwise (bumped there, by its cook): the central follows its relay.
		expect(pi.engine.runAction('kds-1', 'bump', 'S-1')).toBe(true);
		await until(async () => (await activeOn(central, 'pi-2')).length === 0, 10_000);
		expect(await activeOn(central, 'kds-1')).toEqual(['S-1']);
	}, 60_000);
});
