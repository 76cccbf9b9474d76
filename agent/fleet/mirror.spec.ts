/**
 * The central's copy of a remote screen follows the remote relay exactly: built from a real
 * engine's relay messages (the ones a browser gets), the copy equals the remote's own state.
 */
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '#core/relay';
import { createScreenState } from '#core/screen';
import { ManualClock } from '../clock.ts';
import { parseConfig, DEFAULT_CONFIG } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { createLogger } from '../log.ts';
import { Store } from '../store/store.ts';
import { ScreenMirror } from './mirror.ts';

function remoteEngine() {
	const store = new Store({ dataDir: null });
	const engine = new Engine({
		config: parseConfig(DEFAULT_CONFIG),
		store,
		logger: createLogger('silent'),
		clock: new ManualClock(Date.parse('2026-11-24T12:00:00Z'))
	});
	return engine;
}

const create = (id: string) => ({
	command: 'create-order' as const,
	order: {
		id,
		name: `Guest ${id}`,
		time: '2026-11-24T12:00:00.000Z',
		mode: 'ToGo' as const,
		items: [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }]
	}
});

async function run(engine: Engine, command: ReturnType<typeof create>) {
	await new Promise<void>((resolve) => engine.runCommand('kds-1', command, () => resolve()));
}

describe('ScreenMirror', () => {
	it('snapshot, then creates, bumps and recalls: the copy equals the remote screen', async () => {
		const engine = remoteEngine();
		await run(engine, create('A'));
		const copy = { state: createScreenState() };
		const mirror = new ScreenMirror(copy);
		expect(mirror.synced).toBe(false);
		const received: ServerMessage[] = [engine.fanout.snapshot('kds-1')];
		engine.fanout.subscribe('kds-1', (m) => received.push(m));
		await run(engine, create('B'));
		engine.runAction('kds-1', 'bump', 'A');
		await engine.settled();
		engine.runAction('kds-1', 'recall');
		await engine.settled();
		for (const m of received) expect(mirror.apply(m).kind).toBe('applied');
		expect(mirror.synced).toBe(true);
		const own = engine.screen('kds-1')!.state;
		expect([...copy.state.orders.entries()]).toEqual([...own.orders.entries()]);
	});

	it('a change that does not follow on (a lost message) asks for a snapshot', async () => {
		const engine = remoteEngine();
		const copy = { state: createScreenState() };
		const mirror = new ScreenMirror(copy);
		const received: ServerMessage[] = [];
		engine.fanout.subscribe('kds-1', (m) => received.push(m));
		await run(engine, create('A'));
		await run(engine, create('B'));
		// No snapshot yet: nothing to apply a change to.
		expect(mirror.apply(received[0]).kind).toBe('resync');
		expect(mirror.apply(engine.fanout.snapshot('kds-1')).kind).toBe('applied');
		await run(engine, create('C'));
		await run(engine, create('D'));
		// C lost: D does not follow on.
		expect(mirror.apply(received[3]).kind).toBe('resync');
		expect([...copy.state.orders.keys()]).toEqual(['A', 'B']);
	});

	it('messages that are not about orders change nothing', () => {
		const mirror = new ScreenMirror({ state: createScreenState() });
		expect(mirror.apply({ type: 'pong', now: 1 }).kind).toBe('ignored');
	});
});
