/**
 * Second reference for the HTTP create benchmark: the least any server must do to honour the
 * contract's durability on POST /integrators/kds-orders (the order committed before the 201).
 * It reads the body, JSON-parses it, keeps and commits it as the agent does (floor-store.ts:
 * in memory, one SQLite row, group commit per turn), and answers 201 with the contract's body.
 * A partial update (PUT …/partial) merges the body's fields into the kept order, stores the
 * merged order's JSON as its row and answers 200 (404 for an order it does not hold).
 * No tenancy, validation, rules, inspector or browsers: what is left between it and the agent
 * is the agent's own work. Takes the data directory as its argument; prints its URL on stdout.
 */
import { createServer, type ServerResponse } from 'node:http';
import { FloorStore } from './floor-store.ts';

const store = new FloorStore<ServerResponse>(process.argv[2], (res, id) => {
	const created = res.req.method === 'POST';
	const body = JSON.stringify({
		orderId: id,
		deliveryStatuses: [
			created
				? { device: 'kds-1', status: 'SUCCESS', type: 'android' }
				: { device: 'kds-1', status: 'SUCCESS' }
		]
	});
	res.writeHead(created ? 201 : 200, {
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
		if (req.method === 'POST') return store.accept(res, order.id, order, body);
		const kept = store.get(order.id);
		if (kept === undefined) return res.writeHead(404).end();
		const merged = Object.assign(kept as object, order);
		store.accept(res, order.id, merged, JSON.stringify(merged));
	});
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(
		`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`
	);
});
// Exit on SIGTERM through process.exit, so that `--cpu-prof` (bench/profile.bench.ts) writes its profile.
process.once('SIGTERM', () => process.exit(0));
