/**
 * What one TCP connection charges the pending-bytes budget, driven through a stand-in socket so
 * that the reads are exactly the ones given (a real socket may merge or split them).
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ByteBudget } from '../byte-budget.ts';
import { serveConnection } from './server.ts';

class FakeSocket extends EventEmitter {
	remoteAddress = '127.0.0.1';
	remotePort = 40000;
	destroyed = false;
	written = '';
	setNoDelay() {}
	setKeepAlive() {}
	setTimeout() {}
	write(text: string) {
		this.written += text;
		return true;
	}
	end() {}
	destroy() {
		if (this.destroyed) return;
		this.destroyed = true;
		this.emit('close');
	}
}

function connection(budget: ByteBudget, logged: object[] = []) {
	const socket = new FakeSocket();
	const logger = pino(
		{ level: 'info' },
		{ write: (line: string) => logged.push(JSON.parse(line)) }
	);
	serveConnection(socket as unknown as Socket, {
		host: '127.0.0.1',
		port: 0,
		logger,
		budget,
		handle: (text, _source, reply) => reply(JSON.parse(text).id),
		terminatorWaitMs: 0
	});
	return socket;
}

/** A 64 KiB read, as the socket gives it: spaces, then the start of a message at `at`. */
function read(at: number): Buffer {
	const chunk = Buffer.alloc(64 * 1024, ' ');
	chunk.write('{"id":"A","pad":"', at);
	return chunk;
}

describe('a TCP connection and the pending-bytes budget', () => {
	it('is charged the memory its unfinished message keeps alive, not only its bytes', () => {
		const budget = new ByteBudget(1024 * 1024);
		const socket = connection(budget);
		// 34 KiB of a message at the end of one 64 KiB read: the read is kept whole.
		socket.emit('data', read(30 * 1024));
		expect(budget.bytes).toBe(64 * 1024);
		socket.emit('data', Buffer.alloc(64 * 1024, 'x'));
		expect(budget.bytes).toBe(128 * 1024);
		socket.emit('data', Buffer.from('"}\n'));
		expect(budget.bytes).toBe(0);
		expect(socket.written).toBe('A\n');
	});

	it('evicts the newest connection once what they keep alive is over the budget', () => {
		// 3 × 64 KiB reads kept alive for 3 × 34 KiB of messages: over 160 KiB, though the bytes are not.
		const budget = new ByteBudget(160 * 1024);
		const sockets = [connection(budget), connection(budget), connection(budget)];
		for (const socket of sockets) socket.emit('data', read(30 * 1024));
		expect(sockets.map((s) => s.destroyed)).toEqual([false, false, true]);
		expect(budget.bytes).toBe(128 * 1024);
	});

	it('answers a message left unfinished at the half-close, logs its size and holds nothing', () => {
		const budget = new ByteBudget(1024 * 1024);
		const logged: object[] = [];
		const socket = connection(budget, logged);
		socket.emit('data', read(30 * 1024));
		socket.emit('end');
		expect(socket.written).toBe('Unable to parse data');
		expect(budget.bytes).toBe(0);
		expect(logged).toContainEqual(
			expect.objectContaining({
				kind: 'unfinished',
				bytes: 34 * 1024,
				msg: 'TCP message unfinished when the client closed its side'
			})
		);
	});
});
