import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
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

describe('faults compose, on the agent clock', () => {
	it('a delay and another fault both fire on one message: the delay with it, each spent', () => {
		const f = faults();
		f.add([
			{ kind: 'slow-reply', screen: 'kds-1', delayMs: 2000, count: 1 },
			{ kind: 'lost-reply', screen: 'kds-1', count: 1 }
		]);
		const kinds = new Set(['slow-reply', 'lost-reply'] as const);
		const firing = f.tcpFault(f.screen('kds-1'), kinds);
		expect([firing?.fault.spec.kind, firing?.delay?.spec.kind]).toEqual([
			'lost-reply',
			'slow-reply'
		]);
		expect(f.tcpFault(f.screen('kds-1'), kinds)).toBeUndefined();
		const touch = f.touched(firing!, {
			interface: 'tcp',
			screenId: 'kds-1',
			source: '10.0.0.1:5000',
			command: 'create-order',
			orderId: 'A',
			fingerprint: null,
			committed: true
		});
		expect(touch).toMatchObject({ kind: 'lost-reply', delayedBy: 'slow-reply (f1)' });
		expect(f.touchedList().map((t) => t.kind)).toEqual(['slow-reply', 'lost-reply']);
	});

	it('a reboot is away until the agent clock says its seconds are over', () => {
		const clock = new ManualClock(1_000);
		const f = new Faults({
			clock,
			isScreen: () => true,
			isLocation: () => false,
			seeds: () => 1
		});
		const told: string[] = [];
		f.actions.reboot = (screen) => told.push(screen);
		f.add([{ kind: 'reboot', screen: 'kds-1', seconds: 2 }]);
		expect(told).toEqual(['kds-1']);
		expect([f.screen('kds-1').on, f.screen('kds-1').away?.spec.kind]).toEqual([true, 'reboot']);
		clock.advance(1_999);
		expect(f.screen('kds-1').away).toBeDefined();
		clock.advance(1);
		expect([f.screen('kds-1').on, f.screen('kds-1').away]).toEqual([false, undefined]);
		expect(f.list()).toEqual([]);
	});
});
