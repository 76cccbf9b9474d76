/**
 * Second reference for the HTTP create benchmark: the least any server must do to honour the
 * contract's durability on POST /integrators/kds-orders (the order committed before the 201).
 * It reads the body, JSON-parses it, stores it as one SQLite row (WAL, synchronous=NORMAL, as
 * the agent) with the same group commit per turn of the event loop as the agent, keeps the
 * parsed order in a Map (as the TCP floor: a screen must know its orders), and answers 201 with
 * the contract's body. No tenancy, validation, rules, inspector or browsers: what is
 * left between it and the agent is the agent's own work. Takes the data directory as its
 * argument; prints its URL on stdout.
 */
import Database from 'better-sqlite3';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';

const db = new Database(join(process.argv[2], 'floor-http.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE IF NOT EXISTS orders (order_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)');
const put = db.prepare('INSERT OR REPLACE INTO orders (order_id, body) VALUES (?, ?)');

interface Accepted {
	res: ServerResponse;
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
	for (const { res, id } of work) {
		const body = JSON.stringify({
			orderId: id,
			deliveryStatuses: [{ device: 'kds-1', status: 'SUCCESS', type: 'android' }]
		});
		res.writeHead(201, {
			'content-type': 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(body)
		});
		res.end(body);
	}
}

const server = createServer((req, res) => {
	const chunks: Buffer[] = [];
	req.on('data', (chunk: Buffer) => chunks.push(chunk));
	req.on('end', () => {
		const body = Buffer.concat(chunks).toString('utf8');
		const order = JSON.parse(body) as { id: string };
		const { id } = order;
		orders.set(id, order);
		pending.push({ res, id, body });
		if (!scheduled) {
			scheduled = true;
			setImmediate(flush);
		}
	});
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(
		`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`
	);
});
