/**
 * Durable floor of the start-up benchmark (start.bench.ts): the least a server must do before
 * its first reply when it honours the contract's durability. It loads SQLite, opens a new store
 * in the data directory (floor-store.ts: WAL, one row per order, group commit), listens on the
 * given TCP port and, for each connection, reads the message until the client half-closes,
 * JSON-parses it, commits the order and answers with its id. No validation, no rules, no logger,
 * no HTTP: what is left between it and the agent's start is the agent's own start-up work.
 *
 * Usage: node floor-start-server.js <port> <data directory>
 */
import { createServer, type Socket } from 'node:net';
import { FloorStore } from './floor-store.ts';

const [port, dataDir] = [Number(process.argv[2]), process.argv[3]];
const store = new FloorStore<Socket>(dataDir, (socket, id) => socket.end(id));

createServer({ allowHalfOpen: true }, (socket) => {
	socket.setEncoding('utf8');
	let body = '';
	socket.on('data', (data: string) => (body += data));
	socket.on('end', () => {
		const { order } = JSON.parse(body) as { order: { id: string } };
		store.accept(socket, order.id, order, body);
	});
	socket.on('error', () => {});
}).listen(port, '127.0.0.1');
