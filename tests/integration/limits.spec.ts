/**
 * The agent's memory and patience are bounded whatever clients do: one budget for the bytes of
 * every unfinished message (TCP and HTTP bodies together; the newest offender goes first, and a
 * client that sends whole messages is still answered), and a deadline for each message however
 * slowly it trickles in, not only for a connection that goes silent.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { DRAIN_TIMEOUT_MS } from '../../agent/http/drain.ts';

const MiB = 1024 * 1024;
let agent: RunningAgent | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
	for (const s of sockets.splice(0)) s.destroy();
	await agent?.close();
	agent = undefined;
});

async function start(options: { pendingBudgetBytes?: number; messageTimeoutMs?: number }) {
	agent = await startTestAgent({
		...options
	});
	return agent;
}

const order = (id: string) => ({
	id,
	name: `Guest ${id}`,
	time: 1795338000000,
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
});

/** An open connection that has sent `head`; what it received, and whether it was closed. */
interface Peer {
	socket: Socket;
	received: () => string;
	closed: () => boolean;
	/** Resolves with everything received once the agent closes the connection. */
	whenClosed: Promise<string>;
	write(text: string): Promise<void>;
}

async function peer(host: string, port: number): Promise<Peer> {
	const socket = await new Promise<Socket>((resolve, reject) => {
		const s = connect({ host, port }, () => resolve(s));
		s.once('error', reject);
	});
	sockets.push(socket);
	let data = '';
	let closed = false;
	socket.on('data', (d) => (data += d));
	socket.on('error', () => {});
	const whenClosed = new Promise<string>((resolve) =>
		socket.on('close', () => {
			closed = true;
			resolve(data);
		})
	);
	return {
		socket,
		received: () => data,
		closed: () => closed,
		whenClosed,
		write: (text) => new Promise<void>((resolve) => socket.write(text, () => resolve()))
	};
}

/** Give the agent time to read what was written (the loopback delivers it at once). */
const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

/** The first 400 KiB of a TCP create whose `pad` field is still open. */
const tcpHead = (id: string) =>
	JSON.stringify({ command: 'create-order', order: { ...order(id), pad: '' } }).slice(0, -3) +
	'x'.repeat(400 * 1024);
const TCP_TAIL = '"}}\n';

const httpHead = (httpUrl: string, length: number) => {
	const { host } = new URL(httpUrl);
	return (
		`POST /integrators/kds-orders HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n` +
		`x-integration-token: ${agent!.token}\r\nx-location-id: loc-1\r\nx-device-ids: kds-1\r\n` +
		`content-length: ${length}\r\n\r\n`
	);
};
const httpEndpoint = (httpUrl: string) => {
	const url = new URL(httpUrl);
	return { host: url.hostname, port: Number(url.port) };
};

describe('one budget for the bytes of unfinished messages', () => {
	it('TCP: past it the newest unfinished message is closed; the older ones and whole messages go on', async () => {
		const { screens } = await start({ pendingBudgetBytes: MiB });
		const { host, port } = screens[0].tcp;
		const first = await peer(host, port);
		await first.write(tcpHead('T1'));
		await settle();
		const second = await peer(host, port);
		await second.write(tcpHead('T2'));
		await settle();
		const third = await peer(host, port);
		await third.write(tcpHead('T3'));
		// 3 × 400 KiB is over the 1 MiB budget: the third (newest) goes, with no reply.
		expect(await third.whenClosed).toBe('');
		await settle();
		expect([first.closed(), second.closed()]).toEqual([false, false]);
		// A client that sends whole messages is answered.
		expect(await sendTcp(host, port, { command: 'create-order', order: order('W1') })).toBe('W1');
		// The oldest finishes its message and is answered as usual.
		await first.write(TCP_TAIL);
		await expect.poll(() => first.received()).toBe('T1\n');
		expect(agent!.engine.screen(screens[0].id)!.state.orders.has('T3')).toBe(false);
	});

	it('HTTP bodies count against the same budget: the newest is answered 503 BUSY and closed', async () => {
		const running = await start({ pendingBudgetBytes: MiB });
		const { host, port } = running.screens[0].tcp;
		const tcp = await peer(host, port);
		await tcp.write(tcpHead('T1'));
		await settle();
		const http = httpEndpoint(running.httpUrl);
		const body = JSON.stringify({
			...order('H1'),
			time: '2026-11-22T18:10:00Z',
			pad: 'x'.repeat(500 * 1024)
		});
		const older = await peer(http.host, http.port);
		await older.write(
			httpHead(running.httpUrl, Buffer.byteLength(body)) + body.slice(0, 300 * 1024)
		);
		await settle();
		const newest = await peer(http.host, http.port);
		await newest.write(
			httpHead(running.httpUrl, Buffer.byteLength(body)) + body.slice(0, 400 * 1024)
		);
		const answer = await newest.whenClosed;
		expect(answer).toMatch(/^HTTP\/1\.1 503 /);
		expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
			code: 'BUSY',
			message:
				'The simulator is holding too many unfinished requests; this one was refused to keep memory bounded. Send it again.'
		});
		expect([tcp.closed(), older.closed()]).toEqual([false, false]);
		// The older request completes and is served.
		await older.write(body.slice(300 * 1024));
		await expect.poll(() => older.received()).toMatch(/^HTTP\/1\.1 201 /);
		expect(await sendTcp(host, port, { command: 'create-order', order: order('W2') })).toBe('W2');
	});
});

describe('small HTTP bodies (declared length up to 64 KiB)', () => {
	it('are charged their declared length at once: the newest past the budget is answered 503 BUSY, the older one is served', async () => {
		const running = await start({ pendingBudgetBytes: 100 * 1024 });
		const http = httpEndpoint(running.httpUrl);
		const body = (id: string) =>
			JSON.stringify({ ...order(id), time: '2026-11-22T18:10:00Z', pad: 'x'.repeat(60 * 1024) });
		// Each sends its headers and only 10 bytes: 2 × 60 KiB declared is over the 100 KiB budget.
		const older = await peer(http.host, http.port);
		await older.write(
			httpHead(running.httpUrl, Buffer.byteLength(body('D1'))) + body('D1').slice(0, 10)
		);
		await settle();
		const newest = await peer(http.host, http.port);
		await newest.write(
			httpHead(running.httpUrl, Buffer.byteLength(body('D2'))) + body('D2').slice(0, 10)
		);
		const answer = await newest.whenClosed;
		expect(answer).toMatch(/^HTTP\/1\.1 503 /);
		expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
			code: 'BUSY'
		});
		expect(older.closed()).toBe(false);
		// The older one finishes its body and is served; its bytes are released after.
		await older.write(body('D1').slice(10));
		await expect.poll(() => older.received()).toMatch(/^HTTP\/1\.1 201 /);
		const screen = running.engine.screen('kds-1')!;
		expect([screen.state.orders.has('D1'), screen.state.orders.has('D2')]).toEqual([true, false]);
		// Nothing is held any more: a third small body is served at once.
		const res = await fetch(`${running.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': running.token,
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			},
			body: body('D3')
		});
		expect(res.status).toBe(201);
	});

	it('a body that comes whole in pieces is served, and one whose client goes away frees its bytes', async () => {
		const running = await start({ pendingBudgetBytes: 100 * 1024 });
		const http = httpEndpoint(running.httpUrl);
		const body = JSON.stringify({
			...order('P1'),
			time: '2026-11-22T18:10:00Z',
			pad: 'y'.repeat(60 * 1024)
		});
		const gone = await peer(http.host, http.port);
		await gone.write(httpHead(running.httpUrl, Buffer.byteLength(body)) + body.slice(0, 100));
		await settle();
		gone.socket.destroy();
		await settle();
		// Had the first one's 60 KiB stayed charged, this one would be over the budget.
		const pieces = await peer(http.host, http.port);
		await pieces.write(httpHead(running.httpUrl, Buffer.byteLength(body)));
		for (let i = 0; i < body.length; i += 16 * 1024) {
			await pieces.write(body.slice(i, i + 16 * 1024));
			await settle(20);
		}
		await expect.poll(() => pieces.received()).toMatch(/^HTTP\/1\.1 201 /);
	});
});

describe('a slow sender is timed out per message, not only when silent', () => {
	it('TCP: a message trickled a byte at a time is closed after the message timeout', async () => {
		const { screens } = await start({ messageTimeoutMs: 600 });
		const { host, port } = screens[0].tcp;
		const slow = await peer(host, port);
		const text = JSON.stringify({ command: 'create-order', order: order('S1') });
		const started = Date.now();
		for (let i = 0; i < text.length && !slow.closed(); i++) {
			await slow.write(text[i]);
			await new Promise((r) => setTimeout(r, 50));
		}
		expect(slow.closed()).toBe(true);
		// Closed well before the whole message (over 4 s at this pace) could arrive.
		expect(Date.now() - started).toBeLessThan(text.length * 50);
		expect(slow.received()).toBe('');
		// Whole messages on the same port are unaffected, and nothing of the slow one took effect.
		expect(await sendTcp(host, port, { command: 'create-order', order: order('S2') })).toBe('S2');
		expect(agent!.engine.screen(screens[0].id)!.state.orders.has('S1')).toBe(false);
	});

	it('TCP: a connection that sends whole messages slowly is not closed', async () => {
		const { screens } = await start({ messageTimeoutMs: 400 });
		const { host, port } = screens[0].tcp;
		const steady = await peer(host, port);
		for (const id of ['K1', 'K2', 'K3']) {
			await steady.write(`${JSON.stringify({ command: 'create-order', order: order(id) })}\n`);
			await settle(300);
		}
		expect(steady.received()).toBe('K1\nK2\nK3\n');
		expect(steady.closed()).toBe(false);
	});

	it('HTTP: a request stalled in its body is answered 408 and closed', async () => {
		const running = await start({ messageTimeoutMs: 600 });
		const http = httpEndpoint(running.httpUrl);
		const body = JSON.stringify(order('H2'));
		const stalled = await peer(http.host, http.port);
		const sent = Date.now();
		await stalled.write(httpHead(running.httpUrl, Buffer.byteLength(body)) + body.slice(0, 20));
		const answer = await stalled.whenClosed;
		expect(answer).toMatch(/^HTTP\/1\.1 408 /);
		// Answered once the body stopped coming (DRAIN_IDLE_MS), not after the drain's whole bound:
		// a client stalled in its body sends nothing more to drain.
		expect(Date.now() - sent).toBeLessThan(DRAIN_TIMEOUT_MS);
		expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
			code: 'REQUEST_TIMEOUT',
			message:
				'body: not complete 0.6 s after the headers (20 bytes came); send the whole request at once'
		});
		expect(running.engine.screen('kds-1')!.state.orders.has('H2')).toBe(false);
	});

	it('HTTP: stalled bodies started at different times are each answered 408 at their own deadline, whole ones in between are served', async () => {
		const running = await start({ messageTimeoutMs: 600 });
		const http = httpEndpoint(running.httpUrl);
		// HTTP's time is an ISO 8601 string (TCP's the epoch milliseconds).
		const body = (id: string) => JSON.stringify({ ...order(id), time: '2026-11-22T18:10:00Z' });
		const first = await peer(http.host, http.port);
		const t0 = Date.now();
		await first.write(
			httpHead(running.httpUrl, Buffer.byteLength(body('S1'))) + body('S1').slice(0, 7)
		);
		await settle(300);
		const second = await peer(http.host, http.port);
		const t1 = Date.now();
		await second.write(
			httpHead(running.httpUrl, Buffer.byteLength(body('S2'))) + body('S2').slice(0, 11)
		);
		// A whole request between them is served at once, on a connection of its own.
		const whole = await fetch(`${running.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': running.token,
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			},
			body: body('S3')
		});
		expect(whole.status).toBe(201);
		const [a, b] = await Promise.all([
			first.whenClosed.then((text) => ({ text, after: Date.now() - t0 })),
			second.whenClosed.then((text) => ({ text, after: Date.now() - t1 }))
		]);
		for (const [answer, bytes] of [
			[a, 7],
			[b, 11]
		] as const) {
			expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
			expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toEqual({
				code: 'REQUEST_TIMEOUT',
				message: `body: not complete 0.6 s after the headers (${bytes} bytes came); send the whole request at once`
			});
			expect(answer.after).toBeGreaterThanOrEqual(590);
			expect(answer.after).toBeLessThan(DRAIN_TIMEOUT_MS);
		}
		const orders = running.engine.screen('kds-1')!.state.orders;
		expect([orders.has('S1'), orders.has('S2'), orders.has('S3')]).toEqual([false, false, true]);
	});
});
