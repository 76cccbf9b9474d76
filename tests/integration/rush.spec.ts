/**
 * `kds-sim rush` (agent/rush/rush.ts) against a real simulator: orders through the real TCP ports
 * and HTTP API, with updates and cancels, every one accepted, each on the screens it was sent to,
 * both interfaces in the inspector's log; the same seed sends the same orders; bad flags refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from '../../agent/config.ts';
import { readRushArgs, routeItems, rush, rushOrder } from '../../agent/rush/rush.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

const agents: RunningAgent[] = [];
afterEach(async () => {
	await Promise.all(agents.splice(0).map((a) => a.close()));
});

describe('kds-sim rush', () => {
	it('sends realistic orders over TCP and HTTP, updates and cancels included, all accepted', async () => {
		const agent = await startTestAgent({});
		agents.push(agent);
		const options = readRushArgs([
			'--url',
			agent.httpUrl,
			'--rate',
			'60000',
			'--orders',
			'16',
			'--seed',
			'7',
			'--updates',
			'0.3',
			'--cancels',
			'0.2'
		]);
		const summary = await rush(options);
		expect(summary.refused).toBe(0);
		expect(summary.orders).toBe(16);
		expect(summary.tcp).toBeGreaterThan(0);
		expect(summary.http).toBeGreaterThan(0);
		expect(summary.updates).toBeGreaterThan(0);
		expect(summary.cancels).toBeGreaterThan(0);
		await agent.engine.settled();
		// Every order is on the screens of the location (the default config's two screens).
		for (const screen of ['kds-1', 'kds-2']) {
			const ids = [...agent.engine.screen(screen)!.state.orders.keys()].sort();
			expect(ids).toEqual([...summary.ids].sort());
		}
		const cancelled = [...agent.engine.screen('kds-1')!.state.orders.values()].filter(
			(r) => r.state === 'cancelled'
		);
		expect(cancelled).toHaveLength(summary.cancels);
		const log = (await (
			await fetch(`${agent.httpUrl}/api/admin/messages?limit=1000`)
		).json()) as Array<{
			interface: string;
		}>;
		expect(new Set(log.map((m) => m.interface))).toEqual(new Set(['tcp', 'http']));
	});

	it('sends only to the screens named, and the same seed sends the same orders', async () => {
		const agent = await startTestAgent({});
		agents.push(agent);
		const summary = await rush(
			readRushArgs([
				'--url',
				agent.httpUrl,
				'--rate',
				'60000',
				'--orders',
				'5',
				'--seed',
				'3',
				'--screens',
				'kds-2',
				'--cancels',
				'0'
			])
		);
		await agent.engine.settled();
		expect(agent.engine.screen('kds-1')!.state.orders.size).toBe(0);
		expect(agent.engine.screen('kds-2')!.state.orders.size).toBe(5);
		expect(summary.refused).toBe(0);
		const a = [1, 2, 3].map((n) => ({ ...rushOrder(seed(9), n, 'x'), time: '' }));
		const b = [1, 2, 3].map((n) => ({ ...rushOrder(seed(9), n, 'x'), time: '' }));
		expect(a).toEqual(b);
	});

	it('over TCP to stations and an expo, the expo gets each whole order, each station its share', async () => {
		const config = loadConfigFile(
			fileURLToPath(new URL('../../docs/examples/three-screen-kitchen.json', import.meta.url))
		);
		const agent = await startTestAgent({ config });
		agents.push(agent);
		const summary = await rush(
			readRushArgs([
				'--url',
				agent.httpUrl,
				'--rate',
				'60000',
				'--orders',
				'8',
				'--seed',
				'21',
				'--cancels',
				'0',
				'--updates',
				'0',
				'--tcp',
				'1'
			])
		);
		expect(summary.refused).toBe(0);
		await agent.engine.settled();
		const expo = agent.engine.screen('expo')!.state.orders;
		expect([...expo.keys()].sort()).toEqual([...summary.ids].sort());
		for (const record of expo.values()) {
			const shares = ['grill', 'fry'].map(
				(id) =>
					agent.engine.screen(id)!.state.orders.get(record.context.id)?.context.items.length ?? 0
			);
			expect(shares[0] + shares[1]).toBe(record.context.items.length);
			// The expo knows which station has which items (screen communication).
			const marked = (record.context.stations ?? []).reduce((n, m) => n + m.items.length, 0);
			expect(marked).toBe(record.context.items.length);
		}
		expect(
			routeItems(
				[
					{ id: 'g', role: 'station' as const },
					{ id: 'f', role: 'station' as const },
					{ id: 'e', role: 'expo' as const }
				],
				[1, 2, 3].map((k) => ({ lineId: String(k), name: `I${k}`, qty: 1, mods: [] }))
			).map(
				(r) => `${r.screens.map((t) => t.id).join('+')}:${r.items.map((i) => i.name).join(',')}`
			)
		).toEqual(['e:I1,I2,I3', 'g:I1,I3', 'f:I2']);
	});

	it('refuses a bad flag with one sentence', () => {
		expect(() => readRushArgs(['--rate', 'fast'])).toThrow(
			'kds-sim rush: invalid --rate "fast" (expected a number 0.1-60000)'
		);
		expect(() => readRushArgs(['--tcp', '2'])).toThrow(
			'kds-sim rush: invalid --tcp "2" (expected a number 0-1)'
		);
		expect(() => readRushArgs(['--url', 'localhost'])).toThrow('invalid --url "localhost"');
	});
});

/** The generator's own seeded source, for comparing two runs. */
function seed(n: number): () => number {
	let a = n >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
