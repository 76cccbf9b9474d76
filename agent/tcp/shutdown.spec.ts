/**
 * A screen's listener closing (the agent stopping): it stops accepting, writes every reply it
 * still owes, then closes each connection, as adapter-node lets HTTP requests in progress finish.
 * Read on a real loopback socket, byte for byte.
 */
import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { listenTcpScreen, type TcpScreenServer } from './server.ts';

let server: TcpScreenServer | undefined;
afterEach(async () => {
	await server?.close(0);
	server = undefined;
});

/** A listener whose replies wait until the test releases them. */
async function listener() {
	const owed: Array<() => void> = [];
	server = await listenTcpScreen({
		host: '127.0.0.1',
		port: 0,
		logger: pino({ level: 'silent' }),
		terminatorWaitMs: 0,
		handle: (text, _source, reply) => owed.push(() => reply(JSON.parse(text).id))
	});
	return { server, owed };
}

/** A client: what it received, and whether the listener closed the connection. */
function client(port: number) {
	const socket: Socket = connect(port, '127.0.0.1');
	const seen = { bytes: '', ended: false, closed: false };
	socket.setEncoding('utf8');
	socket.on('data', (d: string) => (seen.bytes += d));
	socket.on('end', () => (seen.ended = true));
	socket.on('close', () => (seen.closed = true));
	socket.on('error', () => {});
	return { socket, seen };
}

const until = async (check: () => boolean) => {
	for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
	expect(check()).toBe(true);
};

describe('a closing TCP listener', () => {
	it('writes the replies still owed, in order, then closes the connection', async () => {
		const { server, owed } = await listener();
		const { socket, seen } = client(server.port);
		socket.write('{"id":"A-1"}\n{"id":"A-2"}\n');
		await until(() => owed.length === 2);
		const closed = server.close();
		// The replies come after the close began (a commit still in flight).
		owed[1]();
		await new Promise((r) => setTimeout(r, 20));
		owed[0]();
		await closed;
		await until(() => seen.closed);
		expect(seen.bytes).toBe('A-1\nA-2\n');
		expect(seen.ended).toBe(true);
	});

	it('takes no new message and no new connection once closing', async () => {
		const { server, owed } = await listener();
		const { socket, seen } = client(server.port);
		socket.write('{"id":"B-1"}\n');
		await until(() => owed.length === 1);
		const closed = server.close();
		socket.write('{"id":"B-2"}\n');
		const late = client(server.port);
		await until(() => late.seen.closed);
		owed[0]();
		await closed;
		await until(() => seen.closed);
		expect(seen.bytes).toBe('B-1\n');
		expect(owed).toHaveLength(1);
		expect(late.seen.bytes).toBe('');
	});

	it('closes an idle connection at once, and one whose reply never comes after the grace', async () => {
		const { server, owed } = await listener();
		const idle = client(server.port);
		const stuck = client(server.port);
		stuck.socket.write('{"id":"C-1"}\n');
		await until(() => owed.length === 1);
		const started = Date.now();
		await server.close(200);
		await until(() => idle.seen.closed && stuck.seen.closed);
		expect(idle.seen.ended).toBe(true);
		expect(stuck.seen.bytes).toBe('');
		expect(Date.now() - started).toBeGreaterThanOrEqual(150);
	});
});
