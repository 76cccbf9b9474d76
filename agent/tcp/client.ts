/**
 * TCP clients for a screen's order interface (port 9104), in the styles real POS code uses: the
 * one `kds-sim send` uses, and re-exported by tests/helpers/tcp.ts for integrators' own test suites.
 */
import { connect, type Socket } from 'node:net';

function toText(payload: string | object): string {
	return typeof payload === 'string' ? payload : JSON.stringify(payload);
}

function open(host: string, port: number): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect({ host, port }, () => resolve(socket));
		socket.once('error', reject);
	});
}

/**
 * One-shot: connect, write the message, half-close, read until the screen closes. Resolves with
 * everything the screen sent, e.g. the order id or `DUPLICATE_ORDER_ID`.
 */
export async function sendTcp(
	host: string,
	port: number,
	payload: string | object
): Promise<string> {
	return sendTcpRaw(host, port, [toText(payload)]);
}

/** Write each chunk as its own write (a segment each, with Nagle off), half-close, read all. */
export async function sendTcpRaw(
	host: string,
	port: number,
	chunks: Array<string | Uint8Array>,
	options: { gapMs?: number; timeoutMs?: number } = {}
): Promise<string> {
	const socket = await open(host, port);
	socket.setNoDelay(true);
	const received: Buffer[] = [];
	const done = new Promise<string>((resolve, reject) => {
		const timer = setTimeout(() => {
			socket.destroy();
			reject(new Error(`no close from ${host}:${port} within ${options.timeoutMs ?? 5000} ms`));
		}, options.timeoutMs ?? 5000);
		socket.on('data', (data) => received.push(data));
		socket.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		socket.on('close', () => {
			clearTimeout(timer);
			resolve(Buffer.concat(received).toString('utf8'));
		});
	});
	for (const chunk of chunks) {
		socket.write(chunk);
		if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
	}
	socket.end();
	return done;
}

/**
 * A persistent connection: one JSON object per line, one reply line per message.
 */
export class TcpSession {
	private buffer = '';
	private waiting: Array<(line: string) => void> = [];
	private lines: string[] = [];

	private constructor(readonly socket: Socket) {
		socket.setEncoding('utf8');
		socket.on('data', (data: string) => {
			this.buffer += data;
			let nl: number;
			while ((nl = this.buffer.indexOf('\n')) >= 0) {
				const line = this.buffer.slice(0, nl);
				this.buffer = this.buffer.slice(nl + 1);
				const waiter = this.waiting.shift();
				if (waiter) waiter(line);
				else this.lines.push(line);
			}
		});
	}

	static async open(host: string, port: number): Promise<TcpSession> {
		const socket = await open(host, port);
		socket.setNoDelay(true);
		return new TcpSession(socket);
	}

	/** Write raw text as it is (add the newline yourself when you want one). */
	write(text: string | Uint8Array): void {
		this.socket.write(text);
	}

	/** The next reply line (without its newline). */
	nextLine(timeoutMs = 5000): Promise<string> {
		const ready = this.lines.shift();
		if (ready !== undefined) return Promise.resolve(ready);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('no reply line in time')), timeoutMs);
			this.waiting.push((line) => {
				clearTimeout(timer);
				resolve(line);
			});
		});
	}

	/** Send one message followed by a newline and wait for its reply line. */
	async request(payload: string | object, timeoutMs?: number): Promise<string> {
		this.write(`${toText(payload)}\n`);
		return this.nextLine(timeoutMs);
	}

	close(): Promise<void> {
		return new Promise((resolve) => {
			if (this.socket.destroyed) return resolve();
			this.socket.once('close', () => resolve());
			this.socket.end();
		});
	}
}
