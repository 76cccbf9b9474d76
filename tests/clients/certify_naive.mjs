// A naive POS, as a certification run's step (kds-sim certify --exec "node certify_naive.mjs"):
// the mistakes integrations really make. It has no modifiers, its partial updates only add,
// its HTTP times carry no offset (a local LocalDateTime). Over TCP it writes and never reads a
// reply; when the connection fails it tries again at once, up to 10 times (no back-off). Over
// HTTP it gives up on any error status, and after a time-out (2 s) or a dropped connection it
// sends the order again under a NEW id. Its webhook endpoint (the test's) refuses an event it has
// seen. docs/certify.md says which scenarios it fails, and why.
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

/** Write and go: no read; a failure seen within 300 ms of the write is retried at once. */
function tcpFireAndForget(text) {
	return new Promise((resolve) => {
		let failed = null;
		const socket = connect({ host, port }, () => socket.end(text, () => setTimeout(done, 300)));
		const done = () => {
			socket.destroy();
			resolve(failed);
		};
		socket.on('error', (err) => {
			failed = err.code ?? err.message;
			done();
		});
	});
}

async function sendTcp(action, body) {
	const text = JSON.stringify({ command: TCP_COMMAND[action], order: body });
	for (let attempt = 0; attempt < 10; attempt++) {
		const failed = await tcpFireAndForget(text);
		if (!failed) return 'sent';
	}
	return 'gave up';
}

const token = await tokenFor(step.url, step.target.location);
async function sendHttp(action, body, retried = false) {
	const [method, path] = HTTP_ROUTE[action];
	try {
		const res = await fetch(`${step.url}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'x-integration-token': token,
				'x-location-id': step.target.location,
				'x-device-ids': step.target.screen
			},
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(2000)
		});
		return `${res.status}`;
	} catch {
		if (retried || action !== 'create') return 'gave up';
		return sendHttp(action, { ...body, id: `${body.id}-R` }, true);
	}
}

const iface = step.step.interface;
const id = `N${step.index}-${step.run.slice(-6)}`;
const messages = stepMessages(step, id, {
	honour: (need) => !['modifiers', 'changes', 'removes'].includes(need),
	time: (d) => (iface === 'tcp' ? d.getTime() : d.toISOString().slice(0, 19))
});
for (const { action, body } of messages) {
	const answer = iface === 'tcp' ? await sendTcp(action, body) : await sendHttp(action, body);
	console.log(`${step.id} ${action} ${id}: ${answer}`);
	await sleep(200);
}
