/**
 * The durable floor (floor-http-server.ts) served through a bare Fastify instance: the same
 * routes, the same body, the same SQLite work (floor-store.ts), but Fastify's default JSON body
 * parser instead of JSON.parse on the collected chunks, and `reply.code(…).send(object)` (Fastify's
 * default serializer) instead of writeHead + end. No hooks, plugins, logger or schemas: what it
 * costs beyond the node:http floor is what the framework itself costs per request, the part of
 * the agent's gap to the floor that comes with having chosen Fastify (issue 28).
 * Takes the data directory as its argument; prints its URL on stdout.
 *
 * Run beside the node:http floor, alternating rounds under the same load generator:
 *
 *   npx tsx bench/threads.ts fastify-floor [create|partial] [rounds]
 */
import Fastify, { type FastifyReply } from 'fastify';
import { FloorStore } from './floor-store.ts';

const store = new FloorStore<FastifyReply>(process.argv[2], (reply, id) => {
	const created = reply.request.method === 'POST';
	reply.code(created ? 201 : 200).send({
		orderId: id,
		deliveryStatuses: [
			created
				? { device: 'kds-1', status: 'SUCCESS', type: 'android' }
				: { device: 'kds-1', status: 'SUCCESS' }
		]
	});
});

const app = Fastify({ keepAliveTimeout: 72000 });
// Not async: the reply is sent by the store after the group commit.
app.post('/integrators/kds-orders', (req, reply) => {
	const order = req.body as { id: string };
	// The row is the order's JSON, as the node:http floor stores the body it read.
	store.accept(reply, order.id, order, JSON.stringify(order));
});
app.put('/integrators/kds-orders/partial', (req, reply) => {
	const order = req.body as { id: string };
	const kept = store.get(order.id);
	if (kept === undefined) return reply.code(404).send();
	const merged = Object.assign(kept as object, order);
	store.accept(reply, order.id, merged, JSON.stringify(merged));
});
app.listen({ port: 0, host: '127.0.0.1' }).then((url) => process.stdout.write(`${url}\n`));
