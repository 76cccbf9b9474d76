/**
 * Durability: an order acknowledged over TCP survives kill -9 and a restart, exactly once; an
 * HTTP create, partial update or cancel fanned out to two screens is there after the restart on
 * both screens or on neither, never half; a notification queued for a screen no browser shows
 * survives too, with the callback it owes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallbackBody } from '../../agent/notify/notification-state.ts';
import type { OrderRecord } from '#core/order-machine';
import type { ServerMessage } from '#core/relay';
import { agentFlags, spawnAgent, waitForExit } from '../helpers/process.ts';
import { crashOrder as order, TcpSession } from '../helpers/tcp.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'kds-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Resolves once `done()` holds (checked every 20 ms), or after 30 s: the test then fails on its counts. */
async function until(done: () => boolean): Promise<void> {
	const end = Date.now() + 30_000;
	while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

async function stateOf(httpUrl: string, screen: string): Promise<OrderRecord[]> {
	const res = await fetch(`${httpUrl}/api/screens/${screen}/state`);
	return ((await res.json()) as { records: OrderRecord[] }).records;
}

describe('kill -9 mid-stream', () => {
	it('keeps every acknowledged order exactly once after a restart', async () => {
		const flags = agentFlags(dataDir);
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
		// Let the stream run, then kill the agent in the middle of it. Waiting for a number of
		// acknowledgements rather than a fixed time keeps the test the same on a loaded machine.
		await until(() => [...acked.values()].reduce((n, s) => n + s.size, 0) > 60);
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

describe('kill -9 while HTTP requests fan out to two screens', () => {
	it('every acknowledged step is there after the restart, on both screens alike', async () => {
		const dir = tempDir('kds-crash-http-');
		const flags = agentFlags(dir);
		const headers = {
			'content-type': 'application/json',
			'x-integration-token': 'kds-demo-token',
			'x-location-id': 'loc-1',
			'x-device-ids': 'all'
		};
		// Each order goes through three steps, one request each: 1 created, 2 renamed, 3 cancelled.
		const steps = (id: string): Array<[string, string, object]> => [
			['POST', '/integrators/kds-orders', { ...order(id).order, time: '2026-11-23T12:00:00Z' }],
			['PUT', '/integrators/kds-orders/partial', { id, name: `${id} v2` }],
			['PUT', '/integrators/kds-orders/cancel', { id }]
		];
		const acked = new Map<string, number>();
		const sent = new Map<string, number>();
		const failures: unknown[] = [];
		let killed = false;
		const first = await spawnAgent(flags);
		try {
			const clients = Array.from({ length: 6 }, async (_, c) => {
				for (let n = 0; n < 100_000; n++) {
					const id = `h${c}-${n}`;
					for (const [step, [method, path, body]] of steps(id).entries()) {
						sent.set(id, step + 1);
						try {
							const res = await fetch(`${first.httpUrl}${path}`, {
								method,
								headers,
								body: JSON.stringify(body),
								signal: AbortSignal.timeout(2000)
							});
							if (res.status !== (step === 0 ? 201 : 200))
								throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
							acked.set(id, step + 1);
						} catch (err) {
							if (!killed) failures.push(err);
							return; // or the agent died under us
						}
					}
				}
			});
			await until(() => acked.size > 25);
			killed = true;
			first.child.kill('SIGKILL');
			await waitForExit(first.child);
			await Promise.all(clients);
		} finally {
			first.child.kill('SIGKILL');
		}
		expect(failures).toEqual([]);
		expect(acked.size).toBeGreaterThan(20);

		const second = await spawnAgent(flags);
		try {
			const stepOn = new Map<string, Map<string, number>>();
			for (const screen of ['kds-1', 'kds-2']) {
				const seen = new Map<string, number>();
				for (const r of await stateOf(second.httpUrl, screen)) {
					expect(seen.has(r.context.id), `${r.context.id} twice on ${screen}`).toBe(false);
					const step =
						r.state === 'cancelled' ? 3 : r.context.fields.name === `${r.context.id} v2` ? 2 : 1;
					// Steps happen in order: a cancelled order was renamed first.
					if (r.state === 'cancelled') expect(r.context.fields.name).toBe(`${r.context.id} v2`);
					seen.set(r.context.id, step);
				}
				stepOn.set(screen, seen);
			}
			for (const [id, last] of sent) {
				const onGrill = stepOn.get('kds-1')!.get(id) ?? 0;
				const onExpo = stepOn.get('kds-2')!.get(id) ?? 0;
				// One request, one transaction over both screens: never half applied.
				expect(onExpo, `${id}: grill at step ${onGrill}, expo at ${onExpo}`).toBe(onGrill);
				// Everything acknowledged is there; at most the one request in flight beyond it.
				expect(onGrill, `${id} after restart`).toBeGreaterThanOrEqual(acked.get(id) ?? 0);
				expect(onGrill).toBeLessThanOrEqual(last);
			}
			for (const seen of stepOn.values())
				for (const id of seen.keys()) expect(sent.has(id)).toBe(true);
		} finally {
			second.child.kill('SIGTERM');
			await waitForExit(second.child);
		}
	}, 60_000);
});

describe('kill -9 with a notification queued', () => {
	it('a browser opening the screen after the restart shows it, and the callback says delivered', async () => {
		const notifyDir = tempDir('kds-crash-notify-');
		const receiver = await startReceiver('/done');
		const bodies = (): CallbackBody[] => receiver.received.map((r) => r.body);
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
					body: JSON.stringify({ id: 'K-1', retry: { notificationUrl: receiver.url } })
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
			expect(bodies()).toEqual([]);

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
			await expect.poll(() => bodies().length, { timeout: 10_000 }).toBe(1);
			const shows = () => {
				const last = messages.findLast((m) => m.type === 'notifications' || m.type === 'snapshot');
				if (last?.type === 'notifications') return last.takeout;
				return last?.type === 'snapshot' ? last.notifications?.takeout : undefined;
			};
			await expect.poll(shows).toEqual([{ orderId: 'K-1', arrivedAt: expect.any(Number) }]);
			expect(bodies()[0]).toMatchObject({
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
			await receiver.close();
		}
	}, 60_000);
});
