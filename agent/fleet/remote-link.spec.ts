/** The TCP writer of a remote screen: one message, one reply, each outcome named (docs/fleet.md). */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.ts';
import { RemoteLink, statusOfReply } from './remote-link.ts';

const servers: Server[] = [];
afterEach(() => {
	for (const s of servers.splice(0)) s.close();
});

/** A TCP peer on 127.0.0.1 (OS-chosen port) that does `onData` with what it reads. */
async function peer(
	onData: (text: string, end: (reply?: string) => void) => void
): Promise<number> {
	const server = createServer({ allowHalfOpen: true }, (socket) => {
		let text = '';
		socket.on('data', (d) => (text += d));
		socket.on('end', () =>
			onData(text, (reply) => (reply === undefined ? socket.end() : socket.end(reply)))
		);
		socket.on('error', () => {});
	});
	servers.push(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return (server.address() as { port: number }).port;
}

const link = (port: number, replyTimeoutMs = 300) =>
	new RemoteLink({
		url: 'http://127.0.0.1:1',
		screen: 'kds-1',
		tcp: { host: '127.0.0.1', port },
		logger: createLogger('silent'),
		onMessage: () => {},
		onState: () => {},
		replyTimeoutMs
	});

describe('remote screen TCP writes', () => {
	it('the reply names the status: the id, the contract refusals, anything else', () => {
		expect(statusOfReply('A-1\n', 'A-1')).toBe('SUCCESS');
		expect(statusOfReply('DUPLICATE_ORDER_ID', 'A-1')).toBe('DUPLICATE_ORDER_ID');
		expect(statusOfReply('ORDER_DOES_NOT_EXIST\n', 'A-1')).toBe('ORDER_DOES_NOT_EXIST');
		expect(statusOfReply('Unable to parse data', 'A-1')).toBe('UNABLE_TO_PARSE_DATA');
		expect(statusOfReply('A-2', 'A-1')).toBe('REFUSED');
	});

	it('writes the message as one JSON line and reads the reply to the close', async () => {
		let got = '';
		const port = await peer((text, end) => {
			got = text;
			end('A-1');
		});
		const outcome = await link(port).send({ command: 'create-order', order: { id: 'A-1' } }, 'A-1');
		expect(outcome).toEqual({ status: 'SUCCESS', reply: 'A-1' });
		expect(got).toBe('{"command":"create-order","order":{"id":"A-1"}}\n');
	});

	it('a refusal carries the reply and a sentence', async () => {
		const port = await peer((_t, end) => end('DUPLICATE_ORDER_ID'));
		expect(await link(port).send({}, 'A-1')).toEqual({
			status: 'DUPLICATE_ORDER_ID',
			reply: 'DUPLICATE_ORDER_ID',
			message: `the screen at 127.0.0.1:${port} replied DUPLICATE_ORDER_ID`
		});
	});

	it('nobody listening: UNREACHABLE, nothing was sent', async () => {
		const port = await peer(() => {});
		servers.pop()!.close();
		await new Promise((r) => setTimeout(r, 50));
		const outcome = await link(port).send({}, 'A-1');
		expect(outcome.status).toBe('UNREACHABLE');
		expect(outcome.message).toBe(
			`cannot connect to 127.0.0.1:${port} (ECONNREFUSED); nothing was sent`
		);
	});

	it('written but never answered: NO_REPLY (it may or may not be there), after the timeout', async () => {
		const port = await peer(() => {});
		const outcome = await link(port, 200).send({}, 'A-1');
		expect(outcome).toEqual({
			status: 'NO_REPLY',
			message: `sent to 127.0.0.1:${port}, no reply within 200 ms: the screen may or may not have it`
		});
	});

	it('closed without a word: NO_REPLY', async () => {
		const port = await peer((_t, end) => end());
		expect((await link(port).send({}, 'A-1')).status).toBe('NO_REPLY');
	});
});
