import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Finding } from '#core/conformance';
import {
	filterFromParams,
	filterQuery,
	findingsByLine,
	formatTime,
	lineOfPath,
	markerOf,
	matchesFilter,
	mergeEntries,
	MessageFeed,
	parentPath,
	prettyPayload,
	recentRefusals,
	REFUSAL_WINDOW_MS,
	ScreenFindings,
	type EventSourceLike,
	type InspectorEntry
} from './inspector.svelte';

const warning = (code: string, path: string): Finding => ({
	severity: 'warning',
	code,
	path,
	message: `${path}: ${code}`
});
const error = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'error'
});
const info = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'info'
});

function entry(id: number, over: Partial<InspectorEntry> = {}): InspectorEntry {
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

const message = {
	command: 'create-order',
	order: {
		id: '1042',
		tableColour: 'blue',
		items: [
			{ lineId: '1', name: 'Burger', qty: 1, mods: ['No onion'] },
			{ lineId: '2', name: 'Fries', qty: 'two', mods: [] }
		],
		costs: {}
	}
};

describe('prettyPayload', () => {
	it('prints JSON exactly as JSON.stringify with two spaces', () => {
		const raw = JSON.stringify(message);
		const { json, lines } = prettyPayload(raw);
		expect(json).toBe(true);
		expect(lines.map((l) => l.text).join('\n')).toBe(JSON.stringify(message, null, 2));
	});

	it('knows the field each line starts', () => {
		const { lines } = prettyPayload(JSON.stringify(message));
		const at = (text: string) => lines.find((l) => l.text.trim().startsWith(text))?.path;
		expect(lines[0].path).toBe('');
		expect(at('"tableColour"')).toBe('order.tableColour');
		expect(at('"qty": "two"')).toBe('order.items[1].qty');
		expect(at('"No onion"')).toBe('order.items[0].mods[0]');
		expect(at('"costs": {}')).toBe('order.costs');
		expect(lines.at(-1)).toEqual({ text: '}', path: null });
	});

	it('shows a payload that is not JSON as it came', () => {
		const { json, lines } = prettyPayload('{"command": "create-order",\r\n  oops');
		expect(json).toBe(false);
		expect(lines).toEqual([
			{ text: '{"command": "create-order",', path: null },
			{ text: '  oops', path: null }
		]);
	});

	it('prints scalars and empty containers at the top level', () => {
		expect(prettyPayload('"just text"').lines).toEqual([{ text: '"just text"', path: '' }]);
		expect(prettyPayload('[]').lines).toEqual([{ text: '[]', path: '' }]);
	});
});

describe('lineOfPath', () => {
	const { lines } = prettyPayload(JSON.stringify(message));
	const textOf = (path: string) => lines[lineOfPath(lines, path)]?.text.trim();

	it('points a finding at the line of its field', () => {
		expect(textOf('order.tableColour')).toBe('"tableColour": "blue",');
		expect(textOf('order.items[1].qty')).toBe('"qty": "two",');
		expect(textOf('order.items[0].mods')).toBe('"mods": [');
		expect(textOf('command')).toBe('"command": "create-order",');
	});

	it('points a missing field at the nearest enclosing one', () => {
		expect(textOf('order.items[1].seat')).toBe('{');
		expect(lineOfPath(lines, 'order.items[1].seat')).toBe(lineOfPath(lines, 'order.items[1]'));
		expect(textOf('order.time')).toBe('"order": {');
	});

	it('points nowhere for the whole message or text that is not JSON', () => {
		expect(lineOfPath(lines, '')).toBe(-1);
		expect(lineOfPath(prettyPayload('nope').lines, 'order.id')).toBe(-1);
		expect(lineOfPath(lines, 'nothing.here')).toBe(-1);
	});

	it('walks up a path one field at a time', () => {
		expect(parentPath('order.items[1].qty')).toBe('order.items[1]');
		expect(parentPath('order.items[1]')).toBe('order.items');
		expect(parentPath('order')).toBe('');
		expect(parentPath('items[0]')).toBe('items');
	});

	it('groups findings by line', () => {
		const byLine = findingsByLine(lines, [
			warning('KDS-FIELD-UNKNOWN', 'order.tableColour'),
			error('KDS-INTEGER-INVALID', 'order.items[1].qty'),
			info('KDS-TCP-BARE-ORDER', '')
		]);
		expect([...byLine.values()].map((fs) => fs.map((f) => f.code))).toEqual([
			['KDS-FIELD-UNKNOWN'],
			['KDS-INTEGER-INVALID']
		]);
	});
});

describe('filters', () => {
	it('read and write the URL query, dropping empty and unknown values', () => {
		const filter = filterFromParams(new URLSearchParams('order=1042&severity=loud&screen=kds-1'));
		expect(filter).toEqual({ screen: 'kds-1', order: '1042', severity: '' });
		expect(filterQuery({ ...filter, severity: 'error' })).toBe(
			'screen=kds-1&order=1042&severity=error'
		);
		expect(filterQuery({ screen: '', order: '', severity: '' })).toBe('');
	});

	it('match entries as the agent does', () => {
		const bad = entry(1, { findings: [warning('KDS-FIELD-UNKNOWN', 'x')] });
		expect(matchesFilter(bad, { screen: 'kds-1', order: 'o-1', severity: 'warning' })).toBe(true);
		expect(matchesFilter(bad, { screen: 'kds-2', order: '', severity: '' })).toBe(false);
		expect(matchesFilter(bad, { screen: '', order: 'o-2', severity: '' })).toBe(false);
		expect(matchesFilter(bad, { screen: '', order: '', severity: 'error' })).toBe(false);
	});

	it('merges lists newest first, each entry once, bounded', () => {
		const merged = mergeEntries([entry(5), entry(3)], [entry(4), entry(3), entry(1)], 3);
		expect(merged.map((e) => e.id)).toEqual([5, 4, 3]);
	});
});

describe('markerOf', () => {
	it('counts warnings and errors, red when any is an error, none for infos', () => {
		expect(markerOf([info('KDS-MODS-PLAIN-STRING', 'a')])).toBeNull();
		expect(markerOf([warning('A', 'a'), info('B', 'b')])).toEqual({
			count: 1,
			severity: 'warning'
		});
		expect(markerOf([warning('A', 'a'), error('B', 'b')])).toEqual({ count: 2, severity: 'error' });
	});
});

it("formats the time with milliseconds in the location's zone, labelled, never the browser's", () => {
	const at = Date.UTC(2025, 0, 2, 15, 5, 7, 42);
	expect(formatTime(at, 'America/Chicago')).toBe('09:05:07.042 CST');
	expect(formatTime(Date.UTC(2025, 6, 2, 15, 5, 7, 42), 'America/Chicago')).toBe(
		'10:05:07.042 CDT'
	);
	expect(formatTime(at, 'America/Chicago', { date: true })).toBe('2025-01-02 09:05:07.042 CST');
	expect(formatTime(at)).toBe('15:05:07.042 UTC');
	expect(formatTime(at, 'Not/AZone')).toBe('15:05:07.042 UTC');
});

class FakeEventSource implements EventSourceLike {
	readyState = 0;
	onopen: EventSourceLike['onopen'] = null;
	onmessage: EventSourceLike['onmessage'] = null;
	onerror: EventSourceLike['onerror'] = null;
	closed = false;
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
	fail() {
		this.readyState = 2;
		this.onerror?.(new Event('error'));
	}
}

function fakeAgent(answer: (url: string) => Response | Promise<Response>) {
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

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('MessageFeed', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('loads the filtered log once the stream is open, then adds matching entries from it, each once', async () => {
		const agent = fakeAgent(() => json([entry(2), entry(1)]));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: 'kds-1', order: '', severity: '' });
		const source = agent.sources[0];
		expect(agent.urls).toEqual([]);
		source.open();
		source.deliver(entry(3));
		source.deliver(entry(4, { screenIds: ['kds-2'] }));
		await vi.waitFor(() => expect(feed.status).toBe('live'));
		source.deliver(entry(2));
		expect(agent.urls).toEqual(['/api/admin/messages?screen=kds-1&limit=500']);
		expect(feed.entries.map((e) => e.id)).toEqual([3, 2, 1]);
		feed.stop();
		expect(source.closed).toBe(true);
	});

	it('starts over when the filter changes, keeping the stream', async () => {
		const agent = fakeAgent((url) => json(url.includes('order=o-1') ? [entry(1)] : [entry(2)]));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: '', order: '', severity: '' });
		agent.sources[0].open();
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([2]));
		feed.setFilter({ screen: '', order: '', severity: '' });
		feed.setFilter({ screen: '', order: 'o-1', severity: '' });
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([1]));
		expect(agent.sources).toHaveLength(1);
		expect(agent.urls).toHaveLength(2);
		feed.stop();
	});

	it('stops at a 403: the admin API is not for this browser', async () => {
		const agent = fakeAgent(() => json({ code: 'ADMIN_ONLY' }, 403));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: '', order: '', severity: '' });
		// EventSource hides the status of a refused stream; the GET tells.
		agent.sources[0].fail();
		await vi.waitFor(() => expect(feed.status).toBe('forbidden'));
		await vi.advanceTimersByTimeAsync(1000);
		expect(feed.status).toBe('forbidden');
		expect(agent.sources).toHaveLength(1);
		expect(agent.sources[0].closed).toBe(true);
	});

	it('reopens a closed stream and loads again what it missed', async () => {
		let log = [entry(1)];
		const agent = fakeAgent(() => json(log));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: '', order: '', severity: '' });
		agent.sources[0].open();
		await vi.waitFor(() => expect(feed.status).toBe('live'));
		agent.sources[0].fail();
		expect(feed.status).toBe('reconnecting');
		log = [entry(2), entry(1)];
		await vi.advanceTimersByTimeAsync(100);
		expect(agent.sources).toHaveLength(2);
		agent.sources[1].open();
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([2, 1]));
		expect(feed.status).toBe('live');
		feed.stop();
	});
});

describe('ScreenFindings', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('keeps per order the union of the warnings and errors of its messages', async () => {
		const agent = fakeAgent(() =>
			json([
				entry(2, { orderId: 'A', findings: [warning('KDS-FIELD-UNKNOWN', 'order.x')] }),
				entry(1, {
					orderId: 'A',
					findings: [warning('KDS-FIELD-UNKNOWN', 'order.x'), info('KDS-MODS-PLAIN-STRING', 'm')]
				})
			])
		);
		const store = new ScreenFindings('kds-1', agent.options);
		const a = store.order('A');
		const release = store.watch('A');
		agent.sources[0].open();
		await vi.waitFor(() => expect(a.marker).toEqual({ count: 1, severity: 'warning' }));
		expect(agent.urls).toEqual(['/api/admin/messages?screen=kds-1&limit=500']);

		agent.sources[0].deliver(
			entry(3, { orderId: 'A', findings: [error('KDS-ORDER-DUPLICATE', 'order.id')] })
		);
		expect(a.marker).toEqual({ count: 2, severity: 'error' });
		expect(a.findings.map((f) => f.code)).toEqual(['KDS-FIELD-UNKNOWN', 'KDS-ORDER-DUPLICATE']);

		const before = a.findings;
		agent.sources[0].deliver(entry(4, { orderId: 'A' }));
		agent.sources[0].deliver(
			entry(3, { orderId: 'A', findings: [error('KDS-ORDER-DUPLICATE', 'order.id')] })
		);
		expect(a.findings).toBe(before);
		release();
	});

	it('leaves other orders, infos and other screens alone', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('B');
		agent.sources[0].open();
		await vi.waitFor(() => expect(store.status).toBe('live'));
		agent.sources[0].deliver(entry(1, { orderId: 'A', findings: [warning('W', 'x')] }));
		agent.sources[0].deliver(entry(2, { orderId: 'B', findings: [info('I', 'x')] }));
		agent.sources[0].deliver(
			entry(3, { orderId: 'B', screenIds: ['kds-2'], findings: [warning('W', 'x')] })
		);
		expect(store.order('B').marker).toBeNull();
		expect(store.order('A').marker).toEqual({ count: 1, severity: 'warning' });
		release();
	});

	it('keeps the findings of a refused message off the live card and counts the refusal', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('A');
		agent.sources[0].open();
		await vi.waitFor(() => expect(store.status).toBe('live'));
		agent.sources[0].deliver(entry(1, { orderId: 'A' }));
		// A duplicate create with the live card's id: refused, with an error finding.
		const duplicate = entry(2, {
			orderId: 'A',
			ok: false,
			result: 'DUPLICATE_ORDER_ID',
			findings: [error('KDS-ORDER-DUPLICATE', 'order.id')]
		});
		agent.sources[0].deliver(duplicate);
		agent.sources[0].deliver(duplicate);
		agent.sources[0].deliver(entry(3, { orderId: null, ok: false, screenIds: ['kds-2'] }));
		agent.sources[0].deliver(
			entry(4, { orderId: null, ok: false, result: 'Unable to parse data' })
		);
		expect(store.order('A').marker).toBeNull();
		expect(store.refusals.map((r) => r.id)).toEqual([2, 4]);
		release();
	});

	it('counts the refusals of the last ten minutes', () => {
		const now = 1_700_000_000_000;
		const refusals = [
			{ id: 1, at: now - REFUSAL_WINDOW_MS - 1 },
			{ id: 2, at: now - REFUSAL_WINDOW_MS },
			{ id: 3, at: now - 1000 }
		];
		expect(recentRefusals(refusals, now)).toBe(2);
		expect(recentRefusals(refusals, now + REFUSAL_WINDOW_MS - 1000)).toBe(1);
		expect(recentRefusals([], now)).toBe(0);
	});

	it('follows the log while a card watches, and a while after', async () => {
		const agent = fakeAgent(() => json([]));
		const store = new ScreenFindings('kds-1', agent.options);
		const one = store.watch('A');
		const two = store.watch('B');
		expect(agent.sources).toHaveLength(1);
		one();
		two();
		two();
		await vi.advanceTimersByTimeAsync(1000);
		const three = store.watch('C');
		expect(agent.sources[0].closed).toBe(false);
		three();
		await vi.advanceTimersByTimeAsync(5000);
		expect(agent.sources[0].closed).toBe(true);
	});

	it('shows no markers when the admin API answers 403', async () => {
		const agent = fakeAgent(() => json({ code: 'ADMIN_ONLY' }, 403));
		const store = new ScreenFindings('kds-1', agent.options);
		const release = store.watch('A');
		agent.sources[0].fail();
		await vi.waitFor(() => expect(store.status).toBe('forbidden'));
		expect(store.order('A').marker).toBeNull();
		release();
	});
});
