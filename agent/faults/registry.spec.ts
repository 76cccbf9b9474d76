import { describe, expect, it } from 'vitest';
import { Faults } from './registry.ts';

function faults(now = () => 1000) {
	return new Faults({
		now,
		isScreen: (id) => id === 'kds-1' || id === 'kds-2',
		isLocation: (id) => id === 'loc-1',
		seeds: () => 99
	});
}

describe('the live faults', () => {
	it('a screen reads one boolean: on while a TCP fault of its own is there', () => {
		const f = faults();
		const one = f.screen('kds-1');
		const two = f.screen('kds-2');
		expect([one.on, two.on, f.http]).toEqual([false, false, null]);
		const added = f.add([{ kind: 'lost-reply', screen: 'kds-1' }, { kind: 'http-drop' }]);
		expect(added.ok).toBe(true);
		expect([one.on, two.on, f.http?.length]).toEqual([true, false, 1]);
		f.reset();
		expect([one.on, two.on, f.http]).toEqual([false, false, null]);
	});

	it('all or none: one bad fault adds nothing, and every error is named with its index', () => {
		const f = faults();
		const result = f.add([
			{ kind: 'lost-reply', screen: 'kds-1' },
			{ kind: 'http-status', status: 503, location: 'loc-9', screen: 'kds-9' }
		]);
		expect(result).toEqual({
			ok: false,
			errors: [
				{ path: '[1].screen', message: 'no screen "kds-9" here' },
				{ path: '[1].location', message: 'no location "loc-9" in the configuration' }
			]
		});
		expect(f.list()).toEqual([]);
		expect(f.screen('kds-1').on).toBe(false);
	});

	it('a fault given no seed lists the one it drew; ids count up', () => {
		const f = faults();
		f.add([{ kind: 'no-answer', screen: 'kds-1', probability: 0.5 }]);
		f.add([{ kind: 'no-answer', screen: 'kds-1', probability: 0.5, seed: 3 }]);
		expect(f.list().map((x) => [x.id, x.seed])).toEqual([
			['f1', 99],
			['f2', 3]
		]);
	});

	it('offline from the cloud: told on and off; queued commands are handed back in order, once', () => {
		const f = faults();
		const told: Array<[string, boolean]> = [];
		f.actions.offline = (screen, offline) => told.push([screen, offline]);
		const added = f.add([{ kind: 'cloud-offline', screen: 'kds-2', mode: 'queue' }]);
		if (!added.ok) throw new Error('not added');
		const order = (id: string) => ({ id, name: 'Zoë', time: 0, mode: 'ToGo', items: [] });
		f.queueOffline('kds-2', { command: 'create-order', order: order('1') } as never);
		f.queueOffline('kds-2', { command: 'cancel-order', order: { id: '1' } } as never);
		f.remove(added.added[0].id);
		expect(told).toEqual([
			['kds-2', true],
			['kds-2', false]
		]);
		expect(f.takeQueued('kds-2').map((c) => c.command)).toEqual(['create-order', 'cancel-order']);
		expect(f.takeQueued('kds-2')).toEqual([]);
	});

	it('what the faults touched outlives them, until the log is cleared', () => {
		const f = faults();
		const added = f.add([{ kind: 'down', screen: 'kds-1' }]);
		if (!added.ok) throw new Error('not added');
		f.touched(added.added[0], {
			interface: 'tcp',
			screenId: 'kds-1',
			source: '10.0.0.7:5000',
			command: null,
			orderId: null,
			fingerprint: null,
			committed: false
		});
		f.reset();
		expect(f.touchedList()).toHaveLength(1);
		f.forgetTouches();
		expect(f.touchedList()).toEqual([]);
	});

	it('the indicator names the kinds per screen; a spent fault no longer shows', () => {
		let now = 1000;
		const f = faults(() => now);
		f.add([
			{ kind: 'slow-reply', screen: 'kds-1', delayMs: 10, durationMs: 500 },
			{ kind: 'http-status', status: 503 }
		]);
		expect(f.byScreen()).toEqual({ 'kds-1': ['slow-reply'], '*': ['http-status'] });
		now = 2000;
		expect(f.byScreen()).toEqual({ '*': ['http-status'] });
	});
});
