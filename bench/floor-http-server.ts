/**
 * Second reference for the HTTP create benchmark: the least any server must do to honour the
 * contract's durability on POST /integrators/kds-orders (the order committed before the 201).
 * It reads the body, JSON-parses it, keeps and commits it as the agent does (floor-store.ts:
 * in memory, one SQLite row, group commit per turn), and answers 201 with the contract's body.
 * No tenancy, validation, rules, inspector or browsers: what is left between it and the agent
 * is the agent's own work. Takes the data directory as its argument; prints its URL on stdout.
 */
import { createServer, type ServerResponse } from 'node:http';
import { FloorStore } from './floor-store.ts';

const store = new FloorStore<ServerResponse>(process.argv[2], (res, id) => {
	const body = JSON.stringify({
		orderId: id,
		deliveryStatuses: [{ device: 'kds-1', status: 'SUCCESS', type: 'android' }]
	});
	res.writeHead(201, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(body)
	});
	res.end(body);
});

const server = createServer((req, res) => {
	const chunks: Buffer[] = [];
	req.on('data', (chunk: Buffer) => chunks.push(chunk));
	req.on('end', () => {
		const body = Buffer.concat(chunks).toString('utf8');
		const order = JSON.parse(body) as { id: string };
		store.accept(res, order.id, order, body);
	});
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(
		`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`
	);
});
