/**
 * Baseline for the TCP benchmark: a bare Node TCP server that answers each newline-terminated
 * message with a fixed string. Prints its port on stdout.
 */
import { createServer } from 'node:net';

const server = createServer((socket) => {
	socket.setNoDelay(true);
	let pending = '';
	socket.setEncoding('utf8');
	socket.on('data', (data: string) => {
		pending += data;
		let nl: number;
		let out = '';
		while ((nl = pending.indexOf('\n')) >= 0) {
			pending = pending.slice(nl + 1);
			out += 'OK\n';
		}
		if (out) socket.write(out);
	});
	socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
