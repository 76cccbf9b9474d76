/**
 * Durability: an order acknowledged over TCP survives kill -9 and a restart, exactly once; so
 * does a notification queued for a screen no browser shows, with the callback it owes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallbackBody } from '../../agent/notifications.ts';
import type { OrderRecord } from '../../src/lib/core/order-machine.ts';
import type { ServerMessage } from '../../src/lib/core/relay.ts';
import { spawnAgent, waitForExit } from '../helpers/process.ts';
import { TcpSession } from '../helpers/tcp.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'kds-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const order = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: `Crash ${id}`,
		time: 1795338000000,
		mode: 'ToGo',
		items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
	}
});

async function stateOf(httpUrl: string, screen: string): Promise<OrderRecord[]> {
	const res = await fetch(`${httpUrl}/api/screens/${screen}/state`);
	return ((await res.json()) as { records: OrderRecord[] }).records;
}

describe('kill -9 mid-stream', () => {
	it('keeps every acknowledged order exactly once after a restart', async () => {
		const flags = [
			'--data-dir',
			dataDir,
			'--http-port',
			'0',
			'--tcp-port',
			'0',
			'--log-level',
			'silent'
		];
		const first = await spawnAgent(flags);
		const acked = new Map<string, Set<string>>();
		const sent = new Set<string>();
		const screens = [...first.tcp.entries()];

		// Four connections per screen, each streaming orders one per line as fast as replies come.
		const writers = screens.flatMap(([screenId, { host, port }]) =>
			Array.from({ length: 4 }, async (_, c) => {
				const session = await TcpSession.open(host, port);
				const mine = acked.get(screenId) ?? new Set<string>();
				acked.set(screenId, mine);
				for (let n = 0; n < 100_000; n++) {
					const id = `${screenId}-c${c}-${n}`;
					sent.add(id);
					try {
						const reply = await session.request(order(id), 2000);
						if (reply === id) mine.add(id);
						else throw new Error(`unexpected reply ${reply}`);
					} catch {
						return; // the agent died under us
					}
				}
			})
		);
		// Let the stream run, then kill the agent in the middle of it.
		await new Promise((r) => setTimeout(r, 1500));
		first.child.kill('SIGKILL');
		await waitForExit(first.child);
		await Promise.all(writers);

		const total = [...acked.values()].reduce((n, s) => n + s.size, 0);
		expect(total).toBeGreaterThan(50);

		const second = await spawnAgent(flags);
		try {
			for (const [screenId, ids] of acked) {
				const records = await stateOf(second.httpUrl, screenId);
				const counts = new Map<string, number>();
				for (const r of records) counts.set(r.context.id, (counts.get(r.context.id) ?? 0) + 1);
				for (const id of ids) expect(counts.get(id), `${id} after restart`).toBe(1);
				// Nothing appears that was never sent, nothing twice.
				for (const [id, n] of counts) {
					expect(sent.has(id)).toBe(true);
					expect(n).toBe(1);
				}
				for (const r of records.filter((r) => ids.has(r.context.id)))
					expect(r.state).toBe('active');
			}
		} finally {
			second.child.kill('SIGTERM');
			await waitForExit(second.child);
		}
	}, 60_000);
});

describe('kill -9 with a notification queued', () => {
	it('a browser opening the screen after the restart shows it, and the callback says delivered', async () => {
		const notifyDir = mkdtempSync(join(tmpdir(), 'kds-crash-notify-'));
		const bodies: CallbackBody[] = [];
		const receiver = createServer((req, res) => {
			let text = '';
			req.on('data', (chunk) => (text += chunk));
			req.on('end', () => {
				bodies.push(JSON.parse(text));
				res.writeHead(204).end();
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/done`;
		const flags = ['--data-dir', notifyDir, '--http-port', '0', '--tcp-port', '0'];
		const headers = {
			'content-type': 'application/json',
			'x-integration-token': 'kds-demo-token',
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-1'
		};
		let second: Awaited<ReturnType<typeof spawnAgent>> | undefined;
		let ws: WebSocket | undefined;
		try {
			const first = await spawnAgent([...flags, '--log-level', 'silent']);
			const created = await fetch(`${first.httpUrl}/integrators/kds-orders`, {
				method: 'POST',
				headers,
				body: JSON.stringify({
					id: 'K-1',
					name: 'Kim',
					time: new Date().toISOString(),
					mode: 'Curbside',
					items: [{ lineId: '1', name: 'Family Meal', qty: 1, mods: [] }]
				})
			});
			expect(created.status).toBe(201);
			const queued = await fetch(
				`${first.httpUrl}/integrators/kds-notifications/customer-arrived`,
				{
					method: 'POST',
					headers,
					body: JSON.stringify({ id: 'K-1', retry: { notificationUrl: callbackUrl } })
				}
			);
			expect(queued.status).toBe(202);
			const { notificationId, deliveryStatuses } = (await queued.json()) as {
				notificationId: string;
				deliveryStatuses: unknown[];
			};
			expect(deliveryStatuses).toEqual([{ device: 'kds-1', status: 'QUEUED' }]);

			// Killed right after the 202: no shutdown, nothing flushed on the way out.
			first.child.kill('SIGKILL');
			await waitForExit(first.child);
			expect(bodies).toEqual([]);

			second = await spawnAgent([...flags, '--log-level', 'info']);
			const pending = await fetch(`${second.httpUrl}/api/screens/kds-1/notifications`);
			expect(((await pending.json()) as { deliveries: unknown[] }).deliveries).toEqual([
				expect.objectContaining({ notificationId, orderId: 'K-1', status: 'pending' })
			]);

			// A browser opens kds-1: its snapshot shows the arrival, and the callback follows.
			const messages: ServerMessage[] = [];
			ws = new WebSocket(`${second.httpUrl.replace('http', 'ws')}/ws?screen=kds-1`);
			ws.on('message', (data) => messages.push(JSON.parse(String(data))));
			await new Promise((resolve, reject) => ws!.once('open', resolve).once('error', reject));
			await expect.poll(() => bodies.length, { timeout: 10_000 }).toBe(1);
			const shows = () => {
				const last = messages.findLast((m) => m.type === 'notifications' || m.type === 'snapshot');
				if (last?.type === 'notifications') return last.takeout;
				return last?.type === 'snapshot' ? last.notifications?.takeout : undefined;
			};
			await expect.poll(shows).toEqual([{ orderId: 'K-1', arrivedAt: expect.any(Number) }]);
			expect(bodies[0]).toMatchObject({
				notificationId,
				notification: 'customer-arrived',
				orderId: 'K-1',
				locationId: 'loc-1',
				deviceId: 'kds-1',
				outcome: 'delivered'
			});
			await expect.poll(() => second!.output()).toMatch(/notification callback sent \(delivered\)/);
		} finally {
			ws?.terminate();
			if (second) {
				second.child.kill('SIGTERM');
				await waitForExit(second.child);
			}
			receiver.closeAllConnections();
			await new Promise((resolve) => receiver.close(resolve));
			rmSync(notifyDir, { recursive: true, force: true });
		}
	}, 60_000);
});
