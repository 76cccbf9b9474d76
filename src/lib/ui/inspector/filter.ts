/**
 * The inspector's filters: read from and written to its URL's query, and the test the agent
 * applies to GET /api/admin/messages, for entries that come from the stream.
 */
import { SEVERITIES, type Severity } from '#core/rules';
import {
	isRefusal,
	MESSAGE_RESULTS,
	type MessageEntry as InspectorEntry,
	type MessageResult
} from '#core/message-entry';

/** The inspector's filters, as in its URL: `?screen=&order=&severity=&result=` ('' = any). */
export interface MessageFilter {
	screen: string;
	order: string;
	severity: Severity | '';
	/** `refused`: every refusal (any reply but acceptance), whatever its findings. */
	result?: MessageResult | '';
}

export function filterFromParams(params: Pick<URLSearchParams, 'get'>): MessageFilter {
	const severity = params.get('severity') ?? '';
	const result = params.get('result') ?? '';
	return {
		screen: params.get('screen')?.trim() ?? '',
		order: params.get('order')?.trim() ?? '',
		severity: (SEVERITIES as readonly string[]).includes(severity) ? (severity as Severity) : '',
		result: (MESSAGE_RESULTS as readonly string[]).includes(result) ? (result as MessageResult) : ''
	};
}

/** The query string of a filter, without the empty ones: `screen=kds-1&order=1042`. */
export function filterQuery(filter: MessageFilter): string {
	const params = new URLSearchParams();
	if (filter.screen) params.set('screen', filter.screen);
	if (filter.order) params.set('order', filter.order);
	if (filter.severity) params.set('severity', filter.severity);
	if (filter.result) params.set('result', filter.result);
	return params.toString();
}

export function sameFilter(a: MessageFilter, b: MessageFilter): boolean {
	return (
		a.screen === b.screen &&
		a.order === b.order &&
		a.severity === b.severity &&
		(a.result ?? '') === (b.result ?? '')
	);
}

/** The same test the agent applies to GET /api/admin/messages, for entries from the stream. */
export function matchesFilter(entry: InspectorEntry, filter: MessageFilter): boolean {
	if (filter.screen && !entry.screenIds.includes(filter.screen)) return false;
	if (filter.order && entry.orderId !== filter.order) return false;
	if (filter.severity && !entry.findings.some((f) => f.severity === filter.severity)) return false;
	if (filter.result && isRefusal(entry) !== (filter.result === 'refused')) return false;
	return true;
}
