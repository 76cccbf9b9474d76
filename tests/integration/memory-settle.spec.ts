/**
 * The CLI's agent gives back the young generation V8 grew during a burst once the burst is over
 * (agent/memory-settle.ts): wired to the engine's commits, it collects once the replies are out
 * and the commits have stopped, and every order stays.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it, vi } from 'vitest';
import { startTestAgent } from '../helpers/test-agent.ts';
import { TcpSession } from '../helpers/tcp.ts';

/** No commit for this long ends the burst. */
const QUIET_MS = 500;

it('settles once a burst of TCP orders has ended, after the replies', async () => {
	let collections = 0;
	let repliesBefore = -1;
	let replies = 0;
	const agent = await startTestAgent({
		settleMemory: {
			// Long enough that no pause between two requests of the burst counts as its end on a
			// loaded machine (50 ms did once, under CI-like load: it collected mid-burst).
			quietMs: QUIET_MS,
			minYoungBytes: 0,
			collect: () => {
				collections++;
				repliesBefore = replies;
			}
		}
	});
	try {
		const { host, port } = agent.screens[0].tcp;
		const session = await TcpSession.open(host, port);
		for (let i = 1; i <= 20; i++) {
			const reply = await session.request(
				JSON.stringify({
					command: 'create-order',
					order: {
						id: `S-${i}`,
						name: `Guest ${i}`,
						time: 1795338000000,
						mode: 'ToGo',
						items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
					}
				})
			);
			expect(reply).toContain(`S-${i}`);
			replies++;
		}
		await session.close();
		await vi.waitFor(() => expect(collections).toBe(1), { timeout: 10_000, interval: 50 });
		expect(repliesBefore).toBe(20);
		// Once: nothing was committed since, so nothing settles again.
		await sleep(QUIET_MS * 2);
		expect(collections).toBe(1);
		// Every order is still on the screen.
		expect(agent.engine.screen(agent.screens[0].id)!.state.orders.size).toBe(20);
	} finally {
		await agent.close();
	}
});
