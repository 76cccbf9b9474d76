/**
 * Webhook deliveries survive kill -9 (docs/webhooks.md): every order acknowledged before the kill
 * gets its KDS Order Created after the restart, and no attempt of a delivery reaches the receiver
 * twice (x-kds-delivery + x-kds-attempt never repeat), whether the agent died between attempts or
 * with a request in flight.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { agentFlags, spawnAgent, waitForExit, type AgentProcess } from '../helpers/process.ts';
import { crashOrder as order, sendTcp } from '../helpers/tcp.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'kds-webhook-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function kill(agent: AgentProcess): Promise<void> {
	agent.child.kill('SIGKILL');
	await waitForExit(agent.child);
}

describe('kill -9 with webhook deliveries owed', () => {
	it('every acknowledged order gets its Created after a restart; no attempt is sent twice', async () => {
		const receiver = await startReceiver();
		// Until the restart: every first attempt fails (500) or hangs, in turn.
		let restarted = false;
		receiver.answer((_n, req) =>
			restarted
				? { status: 200 }
				: Number(req.body?.data?.supplierOrderId?.slice(1)) % 2 === 0
					? { status: 500 }
					: 'hang'
		);
		const config = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG & {
			brands: Array<{ webhooks?: object[] }>;
		};
		config.brands[0].webhooks = [
			{ url: receiver.url, triggers: ['KDS Order Created'], attempts: 3, secondsBetweenAttempts: 1 }
		];
		const file = join(dir, 'kds.json');
		writeFileSync(file, JSON.stringify(config));
		const dataDir = join(dir, 'data');
		const flags = [...agentFlags(dataDir), '--config', file];
		try {
			const first = await spawnAgent(flags);
			const { host, port } = first.tcp.get('kds-1')!;
			const acked: string[] = [];
			for (let n = 0; n < 12; n++) {
				const id = `W${n}`;
				if ((await sendTcp(host, port, order(id))) === id) acked.push(id);
			}
			expect(acked).toHaveLength(12);
			// Every first attempt has gone (half failed, half hanging in flight): kill now.
			await receiver.waitFor(12);
			await kill(first);
			restarted = true;
			const before = receiver.received.length;

			const second = await spawnAgent(flags);
			try {
				const end = Date.now() + 20_000;
				const delivered = () =>
					new Set(
						receiver.received.slice(before).map((r) => r.body.data.supplierOrderId as string)
					);
				while (delivered().size < acked.length && Date.now() < end)
					await new Promise((r) => setTimeout(r, 50));
				expect([...delivered()].sort()).toEqual([...acked].sort());
				// Never the same attempt of the same delivery twice; after the restart, no first attempt.
				const pairs = receiver.received.map(
					(r) => `${r.headers['x-kds-delivery']} ${r.headers['x-kds-attempt']}`
				);
				expect(new Set(pairs).size).toBe(pairs.length);
				const after = receiver.received.slice(before).map((r) => r.headers['x-kds-attempt']);
				expect(after.filter((a) => a === '1')).toEqual([]);
				// One delivery per order, however often it was tried.
				expect(new Set(receiver.received.map((r) => r.headers['x-kds-delivery'])).size).toBe(12);
				// The log shows the attempt the kill cut short.
				const deliveries = (await (
					await fetch(`${second.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`)
				).json()) as Array<{ order: string; status: string; log: Array<{ answer: string }> }>;
				await new Promise((r) => setTimeout(r, 300));
				const hung = deliveries.find((d) => d.order === 'W1')!;
				expect(hung.log[0].answer).toBe('no answer: the agent stopped during this attempt');
				const failed = deliveries.find((d) => d.order === 'W0')!;
				expect(failed.log[0]).toMatchObject({ status: 500, ok: false });
			} finally {
				await kill(second);
			}
		} finally {
			await receiver.close();
		}
	}, 60_000);
});
