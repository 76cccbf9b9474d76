import type { WebhookDelivery, WebhookEndpointInfo } from '#core/webhooks';
import type { LocationSummary } from '#lib/ui/api.ts';
import type { PageLoad } from './$types';

/** At most this many deliveries of each endpoint, newest first (GET .../deliveries?limit=). */
const LOG_ROWS = 50;

/**
 * The webhook endpoints (GET /api/admin/webhooks), each with its newest deliveries, and the
 * locations (for the add form and the time zones). Reloaded by `invalidate('app:webhooks')`.
 */
export const load: PageLoad = async ({ fetch, depends }) => {
	depends('app:webhooks');
	try {
		const [res, places] = await Promise.all([
			fetch('/api/admin/webhooks'),
			fetch('/api/locations')
		]);
		const locations = places.ok ? ((await places.json()) as LocationSummary[]) : [];
		if (res.status === 403) {
			return {
				endpoints: null,
				locations,
				problem:
					'Webhooks carry orders and customer data: sign this browser in with the admin token at /access'
			};
		}
		if (!res.ok) return { endpoints: null, locations, problem: `The agent answered ${res.status}` };
		const list = (await res.json()) as WebhookEndpointInfo[];
		const endpoints = await Promise.all(
			list.map(async (endpoint) => {
				const log = await fetch(
					`/api/admin/webhooks/${encodeURIComponent(endpoint.id)}/deliveries?limit=${LOG_ROWS}`
				);
				const deliveries = log.ok ? ((await log.json()) as WebhookDelivery[]) : [];
				return { endpoint, deliveries };
			})
		);
		return { endpoints, locations, problem: null };
	} catch {
		return {
			endpoints: null,
			locations: [] as LocationSummary[],
			problem: 'The agent is not reachable'
		};
	}
};
