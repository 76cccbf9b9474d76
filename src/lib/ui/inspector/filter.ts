/**
 * The inspector's filters: read from and written to its URL's query, and the test the agent
 * applies to GET /api/admin/messages, for entries that come from the stream.
 */
import { SEVERITIES, type Severity } from '#core/conformance';
import type { MessageEntry as InspectorEntry } from '#core/message-entry';

/** The inspector's filters, as in its URL: `?screen=&order=&severity=` ('' = any). */
export interface MessageFilter {
	screen: string;
	order: string;
	severity: Severity | '';
}

export function filterFromParams(params: Pick<URLSearchParams, 'get'>): MessageFilter {
	const severity = params.get('severity') ?? '';
	return {
		screen: params.get('screen')?.trim() ?? '',
		order: params.get('order')?.trim() ?? '',
		severity: (SEVERITIES as readonly string[]).includes(severity) ? (severity as Severity) : ''
	};
}

/** The query string of a filter, without the empty ones: `screen=kds-1&order=1042`. */
export function filterQuery(filter: MessageFilter): string {
	const params = new URLSearchParams();
	if (filter.screen) params.set('screen', filter.screen);
	if (filter.order) params.set('order', filter.order);
	if (filter.severity) params.set('severity', filter.severity);
	return params.toString();
}

export function sameFilter(a: MessageFilter, b: MessageFilter): boolean {
	return a.screen === b.screen && a.order === b.order && a.severity === b.severity;
}

/** The same test the agent applies to GET /api/admin/messages, for entries from the stream. */
export function matchesFilter(entry: InspectorEntry, filter: MessageFilter): boolean {
	if (filter.screen && !entry.screenIds.includes(filter.screen)) return false;
	if (filter.order && entry.orderId !== filter.order) return false;
	if (filter.severity && !entry.findings.some((f) => f.severity === filter.severity)) return false;
	return true;
}
