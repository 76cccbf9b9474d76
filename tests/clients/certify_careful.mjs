// A careful POS, as a certification run's step (kds-sim certify --exec "node certify_careful.mjs"):
// every item with a lineId and its modifiers, times with their offset; it reads every reply,
// waits up to 3 s for one (TCP) or 5 s (HTTP), and retries with the SAME id, backing off
// (0.25 s, doubling), honouring Retry-After; DUPLICATE_ORDER_ID or 409 after a retry means the
// order is there; a 502 NOT_DELIVERED (the screen offline from the cloud) falls back to the
// screen's TCP port. docs/certify.md.
import { connect } from 'node:net';
import {
	currentStep,
	sleep,
	stepMessages,
	tokenFor,
	TCP_COMMAND,
	HTTP_ROUTE
} from './certify_orders.mjs';

const step = currentStep();
const { host, port } = step.target.tcp;
const BACKOFF = [250, 500, 1000, 2000, 4000];

/** One TCP exchange: write, half-close, read until the screen closes (or time out). */
function tcpOnce(text, timeoutMs = 3000) {
	return new Promise((resolve) => {
		const chunks = [];
		const socket = connect({ host, port }, () => socket.end(text));
		const timer = setTimeout(() => {
			socket.destroy();
			resolve({ error: 'no reply in time' });
		}, timeoutMs);
		socket.on('data', (c) => chunks.push(c));
		socket.on('error', (err) => {
			clearTimeout(timer);
			resolve({ error: err.code ?? err.message });
		});
		socket.on('close', () => {
			clearTimeout(timer);
			resolve({ reply: Buffer.concat(chunks).toString('utf8').trim() });
		});
	});
}

async function sendTcp(action, body) {
	const text = JSON.stringify({ command: TCP_COMMAND[action], order: body });
	for (let attempt = 0; ; attempt++) {
		const { reply, error } = await tcpOnce(text);
		if (reply) {
			if (reply === 'DUPLICATE_ORDER_ID' && attempt > 0) return 'there already (our retry)';
			return reply;
		}
		if (attempt >= BACKOFF.length)
			throw new Error(`no reply after ${attempt + 1} tries (${error ?? 'closed'})`);
		await sleep(BACKOFF[attempt]);
	}
}

const token = await tokenFor(step.url, step.target.location);
async function sendHttp(action, body) {
	const [method, path] = HTTP_ROUTE[action];
	for (let attempt = 0; ; attempt++) {
		let res;
		try {
			res = await fetch(`${step.url}${path}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'x-integration-token': token,
					'x-location-id': step.target.location,
					'x-device-ids': step.target.screen
				},
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(5000)
			});
		} catch (err) {
			if (attempt >= BACKOFF.length) throw err;
			await sleep(BACKOFF[attempt]);
			continue;
		}
		const text = await res.text();
		if (res.ok) return `${res.status}`;
		if (res.status === 409 && attempt > 0) return '409: there already (our retry)';
		if (res.status === 502 && action === 'create' && text.includes('NOT_DELIVERED'))
			return `502, sent over TCP instead: ${await sendTcp(action, body)}`;
		if ((res.status === 429 || res.status >= 500) && attempt < BACKOFF.length) {
			const after = Number(res.headers.get('retry-after'));
			await sleep(Number.isFinite(after) && after > 0 ? after * 1000 + 100 : BACKOFF[attempt]);
			continue;
		}
		throw new Error(`${res.status} ${text}`);
	}
}

const iface = step.step.interface;
const id = `C${step.index}-${step.run.slice(-6)}`;
const messages = stepMessages(step, id, {
	time: (d) => (iface === 'tcp' ? d.getTime() : d.toISOString())
});
for (const { action, body } of messages) {
	const answer = iface === 'tcp' ? await sendTcp(action, body) : await sendHttp(action, body);
	console.log(`${step.id} ${action} ${id}: ${answer}`);
}
