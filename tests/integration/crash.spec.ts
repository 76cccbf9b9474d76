/**
 * Durability: an order acknowledged over TCP survives kill -9 and a restart, exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../src/lib/core/order-machine.ts';
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
