/**
 * The relay's heartbeat: a browser that stops answering WebSocket pings (a tablet that lost its
 * network without closing the socket) is terminated and no longer counted as showing the screen,
 * two heartbeat periods later (one to ping, one to find no pong); a browser that answers stays,
 * also when the agent stalled and the overdue tick runs before the pong is read.
 * Without it, a dead tablet would hold notifications as "delivered" and keep its buffers forever.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { createLogger } from '../log.ts';
import { Store } from '../store/store.ts';
import { attachRelay, type Relay } from './browser-relay.ts';

const HEARTBEAT_MS = 100;

let store: Store;
let engine: Engine;
let server: Server;
let relay: Relay;
let url: string;
const clients: WebSocket[] = [];

beforeEach(async () => {
	store = new Store({ dataDir: null });
	const logger = createLogger('silent');
	engine = new Engine({ config: parseConfig(DEFAULT_CONFIG), store, logger });
	server = createServer();
	relay = attachRelay(server, engine, logger, { heartbeatMs: HEARTBEAT_MS });
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws?screen=kds-1`;
});
afterEach(async () => {
	for (const ws of clients) ws.terminate();
	relay.close();
	await new Promise((resolve) => server.close(resolve));
	store.close();
});

/** A browser on kds-1; `answersPings: false` is one whose network went away without a close. */
async function browser(answersPings: boolean) {
	const ws = new WebSocket(url, { autoPong: answersPings });
	clients.push(ws);
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
	return { ws };
}

describe('heartbeat', () => {
	it('terminates a browser that stops answering pings, and stops counting it', async () => {
		const live = await browser(true);
		const dead = await browser(false);
		expect(engine.fanout.viewers('kds-1')).toBe(2);
		// Two periods suffice (a ping, then no pong by the next tick); the bound is generous for a
		// loaded machine, and without the heartbeat the dead browser is never closed at all.
		await expect
			.poll(() => dead.ws.readyState, { timeout: 20 * HEARTBEAT_MS, interval: HEARTBEAT_MS / 2 })
			.toBe(WebSocket.CLOSED);
		await expect.poll(() => engine.fanout.viewers('kds-1')).toBe(1);
		expect(relay.connected('kds-1')).toBe(1);
		// The browser that answers is still there several periods later, and still served.
		await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_MS));
		expect(live.ws.readyState).toBe(WebSocket.OPEN);
		expect(engine.fanout.viewers('kds-1')).toBe(1);
	});

	it('keeps a browser that answered while the agent was stalled (a late tick judges no one)', async () => {
		const live = await browser(true);
		// Right after a ping is answered, the process (agent and browser alike) stalls for more
		// than two periods: the pong is on its way but unread when the overdue tick runs.
		await new Promise<void>((resolve) =>
			live.ws.once('ping', () => {
				const until = performance.now() + 2.5 * HEARTBEAT_MS;
				while (performance.now() < until);
				resolve();
			})
		);
		await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_MS));
		expect(live.ws.readyState).toBe(WebSocket.OPEN);
		expect(engine.fanout.viewers('kds-1')).toBe(1);
	});
});

/** The next `count` messages the browser gets, parsed. */
function nextMessages(ws: WebSocket, count: number): Promise<Array<Record<string, unknown>>> {
	return new Promise((resolve) => {
		const got: Array<Record<string, unknown>> = [];
		const onMessage = (data: WebSocket.RawData) => {
			got.push(JSON.parse(String(data)) as Record<string, unknown>);
			if (got.length === count) {
				ws.off('message', onMessage);
				resolve(got);
			}
		};
		ws.on('message', onMessage);
	});
}

describe('what a browser sends is validated', () => {
	it.each([
		['not JSON', '{"type":', 'not valid JSON'],
		[
			'no type',
			'{}',
			'type: required (one of "resync", "ping", "action", "popup.ack", "takeout.ready")'
		],
		['an array', '[1,2]', 'expected an object, got an array'],
		['null', 'null', 'expected an object, got null'],
		['an unknown type', '{"type":"hello"}', 'type: expected one of'],
		['an unknown action', '{"type":"action","action":"explode"}', 'action: expected one of "bump"'],
		[
			'a numeric order id',
			'{"type":"action","action":"bump","orderId":42}',
			'orderId: expected a string, got 42'
		],
		['a pop-up ack without id', '{"type":"popup.ack"}', 'id: required (a string)'],
		['a ready tap without order', '{"type":"takeout.ready"}', 'orderId: required (a string)'],
		[
			'fire-course without course',
			'{"type":"action","action":"fire-course","orderId":"A"}',
			'course: required'
		]
	])(
		'%s gets BAD_MESSAGE naming the field, and the browser stays served',
		async (_name, raw, words) => {
			const client = await browser(true);
			const other = await browser(true);
			const replies = nextMessages(client.ws, 2);
			client.ws.send(raw);
			client.ws.send('{"type":"ping"}');
			const [error, pong] = await replies;
			expect(error).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
			expect(String(error.message)).toContain(words);
			expect(pong).toMatchObject({ type: 'pong', now: expect.any(Number) });
			expect(client.ws.readyState).toBe(WebSocket.OPEN);
			expect(other.ws.readyState).toBe(WebSocket.OPEN);
			expect(engine.fanout.viewers('kds-1')).toBe(2);
		}
	);

	it('a valid action still runs: a bump of an unknown order is refused as before', async () => {
		const client = await browser(true);
		const replies = nextMessages(client.ws, 1);
		client.ws.send(JSON.stringify({ type: 'action', action: 'bump', orderId: 'ghost' }));
		expect((await replies)[0]).toMatchObject({
			type: 'error',
			code: 'ACTION_REFUSED',
			message: 'bump: order ghost cannot be changed so'
		});
	});
});
