/**
 * Java's HttpClient (its default, HTTP/2) sends every request to an http:// URL with
 * `Connection: Upgrade, HTTP2-Settings` and `Upgrade: h2c`, body and all, and goes on in HTTP/1.1
 * when the answer is not 101. Node hands any request with an Upgrade header to the server's
 * 'upgrade' listeners once one exists (the WebSocket relay), so such a request never reached
 * the routes and the client waited until it timed out. Here a request asking for any upgrade
 * other than WebSocket is put back, without its upgrade headers, in front of the bytes still
 * unread, and the socket served as a new HTTP/1.1 connection: it is answered like any other.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

const HOP_BY_HOP = new Set(['upgrade', 'http2-settings']);

/** The request head as it came, less its upgrade headers. */
function withoutUpgrade(req: IncomingMessage): Buffer {
	const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
	const raw = req.rawHeaders;
	for (let i = 0; i < raw.length; i += 2) {
		const name = raw[i].toLowerCase();
		if (HOP_BY_HOP.has(name)) continue;
		let value = raw[i + 1];
		if (name === 'connection') {
			value = value
				.split(',')
				.map((t) => t.trim())
				.filter((t) => t && !HOP_BY_HOP.has(t.toLowerCase()))
				.join(', ');
			if (!value) continue;
		}
		lines.push(`${raw[i]}: ${value}`);
	}
	return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

export function serveUpgradesAsHttp1(server: Server): void {
	server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
		if (req.headers.upgrade?.toLowerCase() === 'websocket') return; // the relay's, or Vite's
		socket.unshift(Buffer.concat([withoutUpgrade(req), head]));
		server.emit('connection', socket);
	});
}
