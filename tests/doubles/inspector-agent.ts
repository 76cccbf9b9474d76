/**
 * Test doubles for the inspector's specs: log entries and findings, and an agent whose GET
 * answers and SSE streams the test drives.
 */
import type { Finding } from '#core/conformance';
import type { EventSourceLike } from '../../src/lib/ui/inspector/log-follower.ts';
import type { InspectorEntry } from '../../src/lib/ui/inspector/messages-api.ts';

export const warning = (code: string, path: string): Finding => ({
	severity: 'warning',
	code,
	path,
	message: `${path}: ${code}`
});
export const error = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'error'
});
export const info = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'info'
});

export function entry(id: number, over: Partial<InspectorEntry> = {}): InspectorEntry {
	return {
		id,
		at: 1_700_000_000_000 + id,
		interface: 'tcp',
		source: '127.0.0.1:50000',
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId: `o-${id}`,
		result: `o-${id}`,
		ok: true,
		raw: '{}',
		findings: [],
		...over
	};
}

export class FakeEventSource implements EventSourceLike {
	readyState = 0;
	onopen: EventSourceLike['onopen'] = null;
	onmessage: EventSourceLike['onmessage'] = null;
	onerror: EventSourceLike['onerror'] = null;
	closed = false;
	#resync: Array<(ev: MessageEvent) => unknown> = [];
	addEventListener(_type: 'resync', listener: (ev: MessageEvent) => unknown) {
		this.#resync.push(listener);
	}
	close() {
		this.closed = true;
		this.readyState = 2;
	}
	open() {
		this.readyState = 1;
		this.onopen?.(new Event('open'));
	}
	deliver(e: InspectorEntry) {
		this.onmessage?.({ data: JSON.stringify(e) } as MessageEvent);
	}
	/** The agent refused the stream (an HTTP error status): EventSource gives up. */
	fail() {
		this.readyState = 2;
		this.onerror?.(new Event('error'));
	}
	/** The connection dropped: EventSource reconnects by itself (then `open` again). */
	drop() {
		this.readyState = 0;
		this.onerror?.(new Event('error'));
	}
	/** The agent no longer holds all that this stream missed. */
	resync() {
		for (const listener of this.#resync) listener({ data: '{}' } as MessageEvent);
	}
}

export function fakeAgent(answer: (url: string) => Response | Promise<Response>) {
	const sources: FakeEventSource[] = [];
	const urls: string[] = [];
	const options = {
		fetch: (async (input: RequestInfo | URL) => {
			urls.push(String(input));
			return answer(String(input));
		}) as typeof fetch,
		createEventSource: () => {
			const source = new FakeEventSource();
			sources.push(source);
			return source;
		},
		retryMs: 100
	};
	return { sources, urls, options };
}

export const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
