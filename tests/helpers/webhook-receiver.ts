/**
 * A webhook receiver as an integrator writes one: a node:http server on loopback, on a port the OS
 * picks, that records every request (headers and parsed body) and answers what the test says.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	headers: IncomingHttpHeaders;
	raw: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	at: number;
}

/** What to answer request number `n` (from 1): a status and body, or 'hang' (never answer). */
export type Answer = { status: number; body?: string } | 'hang';

export interface Receiver {
	url: string;
	received: Received[];
	/** Set how the next requests are answered (default 200 "ok"). */
	answer: (fn: (n: number, req: Received) => Answer) => void;
	/** Resolves once `count` requests have come, or rejects after `ms`. */
	waitFor: (count: number, ms?: number) => Promise<Received[]>;
	close: () => Promise<void>;
}

export async function startReceiver(path = '/hooks/kds'): Promise<Receiver> {
	const received: Received[] = [];
	const hanging = new Set<ServerResponse>();
	let answer: (n: number, req: Received) => Answer = () => ({ status: 200, body: 'ok' });
	const server = createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			let body: unknown;
			try {
				body = JSON.parse(raw);
			} catch {
				body = null;
			}
			const entry = { headers: req.headers, raw, body, at: Date.now() };
			received.push(entry);
			const what = answer(received.length, entry);
			if (what === 'hang') {
				hanging.add(res);
				return;
			}
			res.writeHead(what.status, { 'content-type': 'text/plain' });
			res.end(what.body ?? '');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${path}`,
		received,
		answer: (fn) => (answer = fn),
		async waitFor(count, ms = 15_000) {
			const end = Date.now() + ms;
			while (received.length < count) {
				if (Date.now() > end)
					throw new Error(`receiver got ${received.length} requests, expected ${count}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			return received;
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const res of hanging) res.destroy();
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
