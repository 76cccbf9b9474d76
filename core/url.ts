/**
 * The one check of a URL the simulator will call or that a customer is sent: an absolute http: or
 * https: URL with a host. Used for the callback URL of a notification (order-schema.ts), the SMS
 * webhook of the config (agent/config.ts) and the finding on an order's customerArrivedUrl
 * (message-findings.ts).
 */
export function isHttpUrl(text: string): boolean {
	const url = URL.parse(text);
	return (
		url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
	);
}
