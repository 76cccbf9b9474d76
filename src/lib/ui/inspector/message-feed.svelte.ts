/** The /inspector page's list of logged messages, newest first, live. */
/* eslint-disable svelte/prefer-svelte-reactivity -- a local Map; what is rendered is assigned
   whole to $state.raw. */
import { sameFilter, type MessageFilter } from './filter';
import { FEED_LIMIT, LogFollower, type FeedStatus, type FollowerOptions } from './log-follower';
import type { InspectorEntry } from './messages-api';

/** Both lists as one, newest (highest id) first, each id once, at most `limit` entries. */
export function mergeEntries(
	a: readonly InspectorEntry[],
	b: readonly InspectorEntry[],
	limit: number
): InspectorEntry[] {
	const byId = new Map<number, InspectorEntry>();
	for (const entry of [...a, ...b]) if (!byId.has(entry.id)) byId.set(entry.id, entry);
	return [...byId.values()].sort((x, y) => y.id - x.id).slice(0, limit);
}

/** The /inspector page's list: the newest entries that match the filter, live. */
export class MessageFeed {
	entries: InspectorEntry[] = $state.raw([]);
	status: FeedStatus = $state('loading');
	#follower: LogFollower;
	#started = false;
	#limit: number;

	constructor(options: FollowerOptions = {}) {
		this.#limit = options.limit ?? FEED_LIMIT;
		this.#follower = new LogFollower(
			{
				entries: (entries) => (this.entries = mergeEntries(entries, this.entries, this.#limit)),
				status: (status) => (this.status = status)
			},
			options
		);
	}

	/** Show the entries that match `filter` (starts following the log on first call). */
	setFilter(filter: MessageFilter): void {
		if (this.#started && sameFilter(filter, this.#follower.filter)) return;
		this.#started = true;
		this.entries = [];
		this.#follower.start(filter);
	}

	stop(): void {
		this.#started = false;
		this.#follower.stop();
	}
}
