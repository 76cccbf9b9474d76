import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entry, fakeAgent, json } from '../../../../tests/doubles/inspector-agent.ts';
import { mergeEntries, MessageFeed } from './message-feed.svelte';

it('merges lists newest first, each entry once, bounded', () => {
	const merged = mergeEntries([entry(5), entry(3)], [entry(4), entry(3), entry(1)], 3);
	expect(merged.map((e) => e.id)).toEqual([5, 4, 3]);
});

/** A feed that loaded and went live, then lost its connection (EventSource is reconnecting). */
async function liveThenDropped(answer: (url: string) => Response) {
	const agent = fakeAgent(answer);
	const feed = new MessageFeed(agent.options);
	feed.setFilter({ screen: '', order: '', severity: '' });
	const source = agent.sources[0];
	source.open();
	await vi.waitFor(() => expect(feed.status).toBe('live'));
	source.drop();
	return { agent, feed, source };
}

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

	it('after a dropped connection resumes from the stream alone: the agent replays what was missed', async () => {
		const { agent, feed, source } = await liveThenDropped(() => json([entry(1)]));
		expect(feed.status).toBe('reconnecting');
		source.open();
		// What the agent replays from Last-Event-ID comes as ordinary events.
		source.deliver(entry(2));
		source.deliver(entry(3));
		expect(feed.status).toBe('live');
		expect(feed.entries.map((e) => e.id)).toEqual([3, 2, 1]);
		expect(agent.urls).toHaveLength(1);
		expect(agent.sources).toHaveLength(1);
		feed.stop();
	});

	it('loads again when the agent says resync (it no longer holds all that was missed)', async () => {
		let log = [entry(1)];
		const { agent, feed, source } = await liveThenDropped(() => json(log));
		log = [entry(9), entry(8)];
		source.open();
		source.resync();
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([9, 8, 1]));
		expect(agent.urls).toHaveLength(2);
		feed.stop();
	});

	it('a filter changed while reconnecting is loaded when the stream is back', async () => {
		const agent = fakeAgent((url) => json(url.includes('order=o-5') ? [entry(5)] : [entry(1)]));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: '', order: '', severity: '' });
		const source = agent.sources[0];
		source.open();
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([1]));
		source.drop();
		feed.setFilter({ screen: '', order: 'o-5', severity: '' });
		expect(agent.urls).toHaveLength(1);
		source.open();
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([5]));
		feed.stop();
	});

	it('a newer load supersedes one still under way: its late answer is dropped', async () => {
		const answers: Array<(r: Response) => void> = [];
		const agent = fakeAgent(() => new Promise<Response>((resolve) => answers.push(resolve)));
		const feed = new MessageFeed(agent.options);
		feed.setFilter({ screen: '', order: '', severity: '' });
		agent.sources[0].open();
		feed.setFilter({ screen: '', order: 'o-2', severity: '' });
		expect(answers).toHaveLength(2);
		answers[1](json([entry(2, { orderId: 'o-2' })]));
		await vi.waitFor(() => expect(feed.entries.map((e) => e.id)).toEqual([2]));
		answers[0](json([entry(7)]));
		await vi.advanceTimersByTimeAsync(10);
		expect(feed.entries.map((e) => e.id)).toEqual([2]);
		feed.stop();
	});
});
