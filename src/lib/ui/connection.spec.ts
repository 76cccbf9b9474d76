import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '#core/relay';
import { backoffDelay, ScreenConnection } from './connection.svelte';
import { FakeSocket } from '../../../tests/doubles/screen-socket.ts';

function setup(onMessage: (m: ServerMessage) => string | void = () => {}) {
	const sockets: FakeSocket[] = [];
	const connection = new ScreenConnection({
		url: 'ws://test/ws?screen=kds-1',
		onMessage,
		createSocket: () => {
			const socket = new FakeSocket();
			sockets.push(socket);
			return socket;
		},
		random: () => 0.5,
		isOnline: () => true
	});
	return { connection, sockets };
}

const snapshot: ServerMessage = {
	type: 'snapshot',
	seq: 0,
	now: 0,
	records: [],
	screen: {
		id: 'kds-1',
		name: 'Grill',
		locationId: 'loc-1',
		locationName: 'Demo Kitchen',
		timezone: 'America/Chicago',
		settings: {
			timers: { warnAfter: 300, lateAfter: 480 },
			autoHoldFutureOrders: false,
			keymap: {}
		}
	}
};

describe('ScreenConnection', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('a message that fails the relay schema is not handled but named to onInvalid, by field path', () => {
		const handled: ServerMessage[] = [];
		const invalid: string[] = [];
		const connection = new ScreenConnection({
			url: 'ws://test/ws?screen=kds-1',
			onMessage: (m) => void handled.push(m),
			onInvalid: (error) => void invalid.push(error),
			createSocket: () => socket,
			random: () => 0.5,
			isOnline: () => true
		});
		const socket = new FakeSocket();
		connection.start();
		socket.open();
		socket.deliver({ ...snapshot, screen: { ...snapshot.screen, settings: null } } as never);
		socket.onmessage?.({ data: '{not json' } as MessageEvent);
		socket.deliver(snapshot);
		expect(handled).toEqual([snapshot]);
		expect(invalid).toHaveLength(2);
		expect(invalid[0]).toContain('screen.settings');
		expect(invalid[1]).toBe('not valid JSON');
		expect(connection.state).toBe('connected');
		connection.stop();
	});

	it('backs off exponentially from 0.5 s to 5 s with jitter', () => {
		expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 5000, () => 0.5))).toEqual([
			500, 1000, 2000, 4000, 5000, 5000
		]);
		expect(backoffDelay(1, 500, 5000, () => 0)).toBe(400);
		expect(backoffDelay(1, 500, 5000, () => 1)).toBe(600);
	});

	it('reconnects after a drop, shows reconnecting, then offline after repeated failures', () => {
		const { connection, sockets } = setup();
		connection.start();
		expect(connection.state).toBe('connecting');
		sockets[0].open();
		expect(connection.state).toBe('connected');

		sockets[0].drop();
		expect(connection.state).toBe('reconnecting');
		vi.advanceTimersByTime(499);
		expect(sockets).toHaveLength(1);
		vi.advanceTimersByTime(1);
		expect(sockets).toHaveLength(2);

		for (let i = 0; i < 5; i++) {
			sockets.at(-1)!.drop();
			vi.advanceTimersByTime(5000);
		}
		expect(connection.state).toBe('offline');
		expect(sockets.length).toBeGreaterThan(5); // still retrying
		sockets.at(-1)!.open();
		expect(connection.state).toBe('connected');
		expect(connection.failures).toBe(0);
		connection.stop();
	});

	it('asks for a resync when the board reports a gap', () => {
		const { connection, sockets } = setup(() => 'gap');
		connection.start();
		sockets[0].open();
		sockets[0].deliver(snapshot);
		expect(sockets[0].sent).toEqual([{ type: 'resync' }]);
		connection.stop();
	});

	it('probes a silent socket with a ping, then replaces it when it stays silent', () => {
		const { connection, sockets } = setup();
		connection.start();
		sockets[0].open();
		sockets[0].deliver(snapshot);
		vi.advanceTimersByTime(12_000);
		expect(sockets[0].sent).toEqual([{ type: 'ping' }]);
		vi.advanceTimersByTime(13_000);
		expect(connection.state).toBe('reconnecting');
		vi.advanceTimersByTime(600);
		expect(sockets).toHaveLength(2);
		connection.stop();
	});

	it('a silence check that runs late (a throttled or stalled page) probes before it gives up', () => {
		const { connection, sockets } = setup();
		connection.start();
		sockets[0].open();
		sockets[0].deliver(snapshot);
		// The page's timers stood still for a minute (a hidden tab checks once a minute) while the
		// socket was fine: the first check after that sees 60 s of silence.
		vi.setSystemTime(Date.now() + 60_000);
		vi.advanceTimersByTime(1000);
		expect(connection.state).toBe('connected');
		expect(sockets).toHaveLength(1);
		expect(sockets[0].sent).toEqual([{ type: 'ping' }]);
		sockets[0].deliver({ type: 'pong', now: 0 });
		vi.advanceTimersByTime(11_000);
		expect(connection.state).toBe('connected');
		expect(sockets).toHaveLength(1);
		// A probe that stays unanswered still ends the socket, 13 s after it went out.
		vi.setSystemTime(Date.now() + 60_000);
		vi.advanceTimersByTime(1000);
		expect(sockets[0].sent).toHaveLength(2);
		vi.advanceTimersByTime(12_000);
		expect(connection.state).toBe('connected');
		vi.advanceTimersByTime(1000);
		expect(connection.state).toBe('reconnecting');
		connection.stop();
	});

	it('sends actions only while connected', () => {
		const { connection, sockets } = setup();
		connection.start();
		expect(connection.send({ type: 'action', action: 'recall' })).toBe(false);
		sockets[0].open();
		expect(connection.send({ type: 'action', action: 'bump', orderId: '1' })).toBe(true);
		expect(sockets[0].sent).toEqual([{ type: 'action', action: 'bump', orderId: '1' }]);
		connection.stop();
	});

	it.each([
		['not JSON', '{"type":"snap', 'not valid JSON'],
		['an unknown type', '{"type":"explode"}', 'type: expected one of "snapshot"'],
		[
			'a change without seq',
			'{"type":"change","now":1,"change":{"type":"order.removed","id":"A"}}',
			'seq: required (a finite number)'
		],
		[
			'a record with a bad state',
			JSON.stringify({ ...snapshot, records: [{ state: 'gone', context: {} }] }),
			'records[0].state: expected one of "held", "active", "cancelled", "bumped", got "gone"'
		],
		[
			'an event with a string time',
			'{"type":"change","seq":1,"now":1,"change":{"type":"order.event","id":"A","event":{"type":"order.bumped","at":"now"}}}',
			'change.event.at: expected a finite number, got "now"'
		],
		[
			'a pop-up without message',
			'{"type":"notifications","now":1,"takeout":[],"popups":[{"id":"p","at":1}]}',
			'popups[0].message: required (a string)'
		]
	])('drops %s with a warning naming the path, and goes on', (_name, raw, words) => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const received: ServerMessage[] = [];
		const { connection, sockets } = setup((m) => void received.push(m));
		connection.start();
		sockets[0].open();
		sockets[0].onmessage?.({ data: raw } as MessageEvent);
		expect(received).toEqual([]);
		expect(warn).toHaveBeenCalledTimes(1);
		expect(String(warn.mock.calls[0][0])).toContain(words);
		sockets[0].deliver(snapshot);
		expect(received).toEqual([snapshot]);
		expect(connection.state).toBe('connected');
		warn.mockRestore();
		connection.stop();
	});
});
