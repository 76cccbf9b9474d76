/**
 * The admin API's live stream of the message log, read as a plain HTTP client reads it: every
 * event has an id, and a client that comes back with Last-Event-ID gets exactly what it missed,
 * or a `resync` event when the log no longer holds all of it.
 */
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { sendTcp } from '../helpers/tcp.ts';

interface SseEvent {
	id?: string;
	event: string;
	data: string;
}

/** One connection to the stream: its events as they come, parsed as EventSource parses them. */
class StreamReader {
	readonly events: SseEvent[] = [];
	private readonly req: ClientRequest;
	private buffer = '';
	private waiters: Array<() => void> = [];

	constructor(url: string, headers: Record<string, string> = {}) {
		this.req = request(url, { headers }, (res) => {
			expect(res.statusCode).toBe(200);
			expect(res.headers['content-type']).toBe('text/event-stream');
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => this.take(chunk));
		});
		this.req.on('error', () => {});
		this.req.end();
	}

	private take(chunk: string): void {
		this.buffer += chunk;
		let end: number;
		while ((end = this.buffer.indexOf('\n\n')) >= 0) {
			const block = this.buffer.slice(0, end);
			this.buffer = this.buffer.slice(end + 2);
			const event: SseEvent = { event: 'message', data: '' };
			let hasData = false;
			for (const line of block.split('\n')) {
				if (line.startsWith(':')) continue;
				const colon = line.indexOf(':');
				const field = line.slice(0, colon);
				const value = line.slice(colon + 1).replace(/^ /, '');
				if (field === 'id') event.id = value;
				else if (field === 'event') event.event = value;
				else if (field === 'data') {
					event.data += (hasData ? '\n' : '') + value;
					hasData = true;
				}
			}
			if (hasData) this.events.push(event);
		}
		for (const wake of this.waiters.splice(0)) wake();
	}

	/** Wait until `count` events have come (fails the test after 5 s). */
	async until(count: number): Promise<SseEvent[]> {
		const deadline = Date.now() + 5000;
		while (this.events.length < count) {
			if (Date.now() > deadline) {
				throw new Error(`expected ${count} events, got ${JSON.stringify(this.events)}`);
			}
			await new Promise<void>((resolve) => {
				this.waiters.push(resolve);
				setTimeout(resolve, 50);
			});
		}
		return this.events;
	}

	/** The last id the stream gave, as EventSource keeps it for Last-Event-ID. */
	get lastEventId(): string {
		return this.events.findLast((e) => e.id !== undefined)?.id ?? '';
	}

	close(): void {
		this.req.destroy();
	}
}

const order = (id: string) =>
	JSON.stringify({
		command: 'create-order',
		order: {
			id,
			name: 'Maria',
			time: 1795338000000,
			mode: 'For Here',
			items: [{ lineId: '1', name: 'Cheeseburger', qty: 1, mods: [] }]
		}
	});

/** The order ids of the entries among `events`. */
const orderIdsOf = (events: SseEvent[]) =>
	events
		.filter((e) => e.event === 'message')
		.map((e) => (JSON.parse(e.data) as { orderId: string }).orderId);

let agent: RunningAgent;
let tcp: { host: string; port: number };
const streamUrl = () => `${agent.httpUrl}/api/admin/messages/stream`;
const send = async (id: string) => expect(await sendTcp(tcp.host, tcp.port, order(id))).toBe(id);

beforeAll(async () => {
	agent = await startTestAgent({
		inspectorRetention: 5
	});
	tcp = agent.screens[0].tcp;
});
afterAll(() => agent.close());

describe('the message stream resumes from Last-Event-ID', () => {
	it('gives each entry its id, and after a reconnect exactly the entries missed, then the new ones', async () => {
		const first = new StreamReader(streamUrl());
		const [ready] = await first.until(1);
		expect(ready.event).toBe('ready');
		await send('S-1');
		await send('S-2');
		const seen = await first.until(3);
		expect(orderIdsOf(seen)).toEqual(['S-1', 'S-2']);
		const ids = seen.slice(1).map((e) => Number(e.id));
		expect(ids[1]).toBe(ids[0] + 1);
		expect(seen.slice(1).map((e) => (JSON.parse(e.data) as { id: number }).id)).toEqual(ids);
		const lastEventId = first.lastEventId;
		first.close();

		await send('S-3');
		await send('S-4');
		await send('S-5');
		const second = new StreamReader(streamUrl(), { 'last-event-id': lastEventId });
		const resumed = await second.until(4);
		expect(resumed.map((e) => e.event)).toEqual(['message', 'message', 'message', 'ready']);
		expect(orderIdsOf(resumed)).toEqual(['S-3', 'S-4', 'S-5']);
		expect(resumed.map((e) => Number(e.id))).toEqual([
			ids[1] + 1,
			ids[1] + 2,
			ids[1] + 3,
			ids[1] + 3
		]);
		await send('S-6');
		expect(orderIdsOf(await second.until(5))).toEqual(['S-3', 'S-4', 'S-5', 'S-6']);
		second.close();
	});

	it('a client that saw no entry yet resumes from the ready event’s id', async () => {
		const first = new StreamReader(streamUrl());
		const [ready] = await first.until(1);
		first.close();
		await send('R-1');
		const second = new StreamReader(streamUrl(), { 'last-event-id': ready.id ?? '' });
		expect(orderIdsOf(await second.until(2))).toEqual(['R-1']);
		second.close();
	});

	it('says resync, and replays nothing, when the log no longer holds all that was missed', async () => {
		const first = new StreamReader(streamUrl());
		const [ready] = await first.until(1);
		first.close();
		// Retention 5: six new entries push the one after ready's id out of the log.
		for (const id of ['G-1', 'G-2', 'G-3', 'G-4', 'G-5', 'G-6']) await send(id);
		const second = new StreamReader(streamUrl(), { 'last-event-id': ready.id ?? '' });
		const events = await second.until(2);
		expect(events.map((e) => e.event)).toEqual(['resync', 'ready']);
		expect(JSON.parse(events[0].data)).toEqual({ lastEventId: ready.id });
		second.close();

		const stranger = new StreamReader(streamUrl(), { 'last-event-id': 'not-an-id' });
		expect((await stranger.until(2)).map((e) => e.event)).toEqual(['resync', 'ready']);
		stranger.close();
	});
});
