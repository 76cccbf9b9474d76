/**
 * Second reference for the TCP benchmark: the least any server must do to honour the contract's
 * durability (an order committed before its reply). It frames newline-terminated messages,
 * JSON-parses each, keeps and commits it as the agent does (floor-store.ts: in memory, one
 * SQLite row, group commit per turn), and replies with the order id. No validation, no rules,
 * no inspector, no browsers: what is left between it and the agent is the agent's own work, in
 * time and in memory. Takes the data directory as its argument; prints its port on stdout.
 */
import { createServer, type Socket } from 'node:net';
import { FloorStore } from './floor-store.ts';

const store = new FloorStore<Socket>(process.argv[2], (socket, id) => socket.write(`${id}\n`));

const server = createServer((socket) => {
	socket.setNoDelay(true);
	socket.setEncoding('utf8');
	let buffered = '';
	socket.on('data', (data: string) => {
		buffered += data;
		let nl: number;
		while ((nl = buffered.indexOf('\n')) >= 0) {
			const body = buffered.slice(0, nl);
			buffered = buffered.slice(nl + 1);
			const { order } = JSON.parse(body) as { order: { id: string } };
			store.accept(socket, order.id, order, body);
		}
	});
	socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
// Exit on SIGTERM through process.exit, so that `--cpu-prof` (bench/profile.bench.ts) writes its profile.
process.once('SIGTERM', () => process.exit(0));
