/**
 * The inspector's recorder: the one place where a message received over TCP or HTTP becomes an
 * entry of the log, on the agent's clock (the one every rule and timer reads, which tests
 * replace), with one rule for why it was refused. Each transport hands it what only it knows:
 * the TCP handler (tcp/messages.ts) and HTTP's hooks (http/message-hooks.ts) are given the same
 * recorder by app.ts.
 */
import type { Finding } from '#core/conformance';
import type { Clock } from '../clock.ts';
import type { MessageEntry, MessageLog, NewEntry } from './message-log.ts';

/** A message as a transport saw it: the entry but its time and its `why`. */
export type ReceivedMessage = Omit<NewEntry, 'at' | 'why'>;

/** Why a message was refused, in the words each side has. */
export interface RefusalWords {
	/**
	 * Words its client never received: the field-path errors behind TCP's
	 * `Unable to parse data`.
	 */
	unsent?: string | null;
	/** The refusal as its client got it: an HTTP error body's message. */
	sent?: string | null;
}

export class MessageRecorder {
	/**
	 * Told of each refused message before it is logged (app.ts: the faults' expectedRetry); may
	 * mark it `expected` and change its findings. Unset: nothing runs.
	 */
	judgeRefusal?: (entry: NewEntry) => void;

	constructor(
		readonly log: MessageLog,
		private readonly clock: Clock
	) {}

	/** The agent's time now: when a message arrived. */
	now(): number {
		return this.clock.now();
	}

	/**
	 * Record a message received at `at` (default: now). Refused, its `why` is the first there is
	 * of: the words its client never received, the core's error findings (what the screen
	 * decided), the refusal's own words. `message` is taken over (a fresh object per message).
	 */
	record(message: ReceivedMessage, words: RefusalWords = {}, at = this.clock.now()): MessageEntry {
		const entry = message as NewEntry;
		entry.at = at;
		if (!entry.ok && this.judgeRefusal !== undefined) this.judgeRefusal(entry);
		entry.why = entry.ok
			? null
			: entry.expected !== undefined
				? (entry.findings.find((f) => f.code === 'KDS-FAULT-RETRY-EXPECTED')?.message ?? null)
				: words.unsent || errorsOf(entry.findings) || words.sent || null;
		return this.log.record(entry);
	}
}

/** The messages of the error findings, one per line; empty when there are none. */
function errorsOf(found: readonly Finding[]): string {
	let out = '';
	for (const f of found) {
		if (f.severity === 'error') out += out ? `\n${f.message}` : f.message;
	}
	return out;
}
