/**
 * One message in the inspector's log, as the agent keeps it (agent/message-log.ts) and the admin
 * API and its stream send it to the browser (src/lib/ui/inspector.svelte.ts).
 */
import type { Finding } from './conformance.ts';

export interface MessageEntry {
	id: number;
	/** Agent time (ms since epoch). */
	at: number;
	interface: 'tcp' | 'http';
	/** Peer address and port, or `inspector re-send`. */
	source: string;
	/** Screens the message was addressed to. */
	screenIds: string[];
	/** TCP: create-order …; HTTP: method and path. */
	command: string | null;
	orderId: string | null;
	/** TCP: the reply string; HTTP: the status code and, when refused, the message. */
	result: string;
	ok: boolean;
	/** The payload as received (text, truncated to the log's payload limit). */
	raw: string;
	/**
	 * HTTP: the request's Content-Type, null when it had none (so a re-send goes as it came).
	 * Absent on TCP entries and on entries logged by versions before it was kept.
	 */
	contentType?: string | null;
	findings: Finding[];
}
