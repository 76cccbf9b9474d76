import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '#core/relay';
import { ScreenConnection } from './connection.svelte';
import { EarlySockets } from './early-socket';
import { FakeSocket } from '../../../tests/doubles/screen-socket.ts';

const URL_1 = 'ws://test/ws?screen=kds-1';
const URL_2 = 'ws://test/ws?screen=kds-2';

const screen = {
	id: 'kds-1',
	name: 'Grill',
	locationId: 'loc-1',
	locationName: 'Demo Kitchen',
	timezone: 'America/Chicago',
	settings: { timers: { warnAfter: 300, lateAfter: 480 }, autoHoldFutureOrders: false, keymap: {} }
};
const snapshot = { type: 'snapshot', seq: 0, now: 0, records: [], screen } as ServerMessage;
const removed = {
	type: 'change',
	seq: 1,
	now: 1,
	change: { type: 'order.removed', id: 'A' }
} as ServerMessage;

function world() {
	const created: FakeSocket[] = [];
	const create = (url: string) => {
		const socket = new FakeSocket(url);
		created.push(socket);
		return socket;
	};
	const early = new EarlySockets(create, 10_000);
	const events: string[] = [];
	const connection = (url = URL_1) =>
		new ScreenConnection({
			url,
			onOpen: () => void events.push('open'),
			onMessage: (m) => void events.push(`${m.type}${'seq' in m ? ` ${m.seq}` : ''}`),
			createSocket: create,
			early,
			random: () => 0.5,
			isOnline: () => true
		});
	return { created, early, events, connection };
}

describe('a screen socket opened ahead of its page (EarlySockets + ScreenConnection)', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('the connection takes the early socket with the snapshot it got: opened, then every message in order, then live ones', () => {
		const { created, early, events, connection } = world();
		early.open(URL_1);
		expect(created.map((s) => s.url)).toEqual([URL_1]);
		created[0].open();
		created[0].deliver(snapshot);
		created[0].deliver(removed);
		expect(events).toEqual([]);

		const c = connection();
		c.start();
		expect(created).toHaveLength(1);
		expect(c.state).toBe('connected');
		expect(events).toEqual(['open', 'snapshot 0', 'change 1']);
		created[0].deliver({ ...removed, seq: 2 });
		expect(events.at(-1)).toBe('change 2');
		// Actions go out on it.
		expect(c.send({ type: 'action', action: 'recall' })).toBe(true);
		expect(created[0].sent).toEqual([{ type: 'action', action: 'recall' }]);
		c.stop();
		expect(created[0].closed).toBe(true);
	});

	it('an early socket still connecting is taken as it is: its open and snapshot come to the connection', () => {
		const { created, early, events, connection } = world();
		early.open(URL_1);
		const c = connection();
		c.start();
		expect(c.state).toBe('connecting');
		expect(created).toHaveLength(1);
		created[0].open();
		created[0].deliver(snapshot);
		expect(events).toEqual(['open', 'snapshot 0']);
		expect(c.state).toBe('connected');
		c.stop();
	});

	it('after a drop the connection opens a new socket (the early one is taken once), and a later start of another connection opens its own', () => {
		const { created, early, events, connection } = world();
		early.open(URL_1);
		created[0].open();
		created[0].deliver(snapshot);
		const c = connection();
		c.start();
		created[0].drop();
		expect(c.state).toBe('reconnecting');
		vi.advanceTimersByTime(600);
		expect(created).toHaveLength(2);
		created[1].open();
		created[1].deliver(snapshot);
		expect(events).toEqual(['open', 'snapshot 0', 'open', 'snapshot 0']);
		c.stop();
		const d = connection();
		d.start();
		expect(created).toHaveLength(3);
		d.stop();
	});

	it('an early socket that closed before it was taken (agent refused it, went away) is not used: the connection opens its own', () => {
		const { created, early, events, connection } = world();
		early.open(URL_1);
		created[0].open();
		created[0].deliver(snapshot);
		created[0].drop();
		const c = connection();
		c.start();
		expect(created).toHaveLength(2);
		expect(c.state).toBe('connecting');
		expect(events).toEqual([]);
		created[1].open();
		expect(events).toEqual(['open']);
		c.stop();
	});

	it('a socket to another screen is not taken; it is closed when the next one is opened', () => {
		const { created, early, connection } = world();
		early.open(URL_2);
		const c = connection(URL_1);
		c.start();
		expect(created.map((s) => s.url)).toEqual([URL_2, URL_1]);
		expect(created[0].closed).toBe(false);
		early.open('ws://test/ws?screen=kds-3');
		expect(created[0].closed).toBe(true);
		c.stop();
	});

	it('not taken within 10 s (the navigation went elsewhere): closed, and nothing is left to take', () => {
		const { created, early } = world();
		early.open(URL_1);
		created[0].open();
		vi.advanceTimersByTime(9_999);
		expect(created[0].closed).toBe(false);
		vi.advanceTimersByTime(1);
		expect(created[0].closed).toBe(true);
		expect(early.take(URL_1)).toBeNull();
	});

	it('no second socket for a screen whose connection runs (the load run again for ?view=takeout) or whose early socket waits', () => {
		const { created, early, connection } = world();
		early.open(URL_1);
		early.open(URL_1);
		expect(created).toHaveLength(1);
		const c = connection();
		c.start();
		early.open(URL_1);
		expect(created).toHaveLength(1);
		c.stop();
		early.open(URL_1);
		expect(created).toHaveLength(2);
	});

	it('a socket that cannot be created is no error: the connection tries on its own', () => {
		const early = new EarlySockets(() => {
			throw new Error('SyntaxError: bad URL');
		});
		expect(() => early.open(URL_1)).not.toThrow();
		expect(early.take(URL_1)).toBeNull();
	});
});

describe("the socket the page's HTML opened (src/app.html: window.__kdsEarlySocket)", () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('is pending from the start: what it got before and after is handed over in order, and the load function opens no second one', () => {
		const socket = new FakeSocket(URL_1);
		// As the page's script leaves it: its own handlers fill the same array.
		const opened = { url: URL_1, socket, messages: [] as MessageEvent[], closed: false };
		socket.onmessage = (event) => void opened.messages.push(event);
		socket.open();
		socket.deliver(snapshot);
		const created: FakeSocket[] = [];
		const early = new EarlySockets(
			(url) => {
				const s = new FakeSocket(url);
				created.push(s);
				return s;
			},
			10_000,
			opened
		);
		socket.deliver(removed);
		early.open(URL_1);
		expect(created).toHaveLength(0);
		const taken = early.take(URL_1);
		expect(taken?.socket).toBe(socket);
		expect(taken?.messages.map((e) => JSON.parse(e.data as string).type)).toEqual([
			'snapshot',
			'change'
		]);
	});

	it('closed before the page took it (a refused screen): not taken, so the page opens its own', () => {
		const socket = new FakeSocket(URL_1);
		const opened = { url: URL_1, socket, messages: [], closed: false };
		const early = new EarlySockets(() => new FakeSocket(URL_1), 10_000, opened);
		socket.drop();
		expect(early.take(URL_1)).toBeNull();
		expect(socket.closed).toBe(true);
	});

	it('not taken in 10 s: closed', () => {
		const socket = new FakeSocket(URL_1);
		const early = new EarlySockets(() => new FakeSocket(URL_1), 10_000, {
			url: URL_1,
			socket,
			messages: [],
			closed: false
		});
		vi.advanceTimersByTime(10_000);
		expect(socket.closed).toBe(true);
		expect(early.take(URL_1)).toBeNull();
	});
});
