/**
 * Second reference for the TCP benchmark: the least any server must do to honour the contract's
 * durability (an order committed before its reply). It frames newline-terminated messages,
 * JSON-parses each, stores it as one SQLite row (WAL, synchronous=NORMAL, as the agent) with
 * the same group commit per turn of the event loop as the agent, keeps the parsed order in a
 * Map (a screen must know its orders to answer the next command) and replies with the order id.
 * No validation, no rules, no inspector, no browsers: what is left between it and the agent is
 * the agent's own work, in time and in memory. Takes the data directory as its argument; prints its port on stdout.
 */
import Database from 'better-sqlite3';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';

const db = new Database(join(process.argv[2], 'floor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE IF NOT EXISTS orders (order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)');
const put = db.prepare('INSERT INTO orders (order_id, body) VALUES (?, ?)');

interface Accepted {
	socket: Socket;
	id: string;
	body: string;
}
const commit = db.transaction((rows: Accepted[]) => {
	for (const row of rows) put.run(row.id, row.body);
});
const orders = new Map<string, unknown>();
let pending: Accepted[] = [];
let scheduled = false;

function flush(): void {
	scheduled = false;
	const work = pending;
	pending = [];
	commit(work);
	for (const { socket, id } of work) socket.write(`${id}\n`);
}

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
			orders.set(order.id, order);
			pending.push({ socket, id: order.id, body });
		}
		if (!scheduled && pending.length > 0) {
			scheduled = true;
			setImmediate(flush);
		}
	});
	socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
