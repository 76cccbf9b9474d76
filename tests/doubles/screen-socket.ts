/**
 * A test double for the screen's WebSocket (src/lib/ui/connection.svelte.ts's SocketLike): the
 * spec opens it, drops it and delivers server messages; it records what the page sent and
 * whether the page closed it.
 */
import type { ServerMessage } from '#core/relay';
import type { SocketLike } from '../../src/lib/ui/connection.svelte.ts';

export class FakeSocket implements SocketLike {
	readyState = 0;
	closed = false;
	sent: unknown[] = [];
	onopen: SocketLike['onopen'] = null;
	onclose: SocketLike['onclose'] = null;
	onmessage: SocketLike['onmessage'] = null;
	onerror: SocketLike['onerror'] = null;
	constructor(readonly url = '') {}
	send(data: string) {
		this.sent.push(JSON.parse(data));
	}
	close() {
		this.closed = true;
		this.readyState = 3;
	}
	open() {
		this.readyState = 1;
		this.onopen?.(new Event('open'));
	}
	drop() {
		this.readyState = 3;
		this.onclose?.({} as CloseEvent);
	}
	deliver(message: ServerMessage | object) {
		this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
	}
}
