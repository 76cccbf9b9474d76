/**
 * The verdict of a webhook scenario (docs/certify.md): the POS's endpoint answered each KDS Order
 * Created 2xx on its first attempt, as many times as the check asks.
 *
 * Pure: no Node, no DOM.
 */
import type { WebhookDelivery } from '../webhooks.ts';
import { fail, type EvidenceItem, type Judged } from './evidence.ts';

/**
 * A delivery's first attempt, once answered: undefined while none was made or it is still in
 * flight (the agent writes an attempt as started, `in flight`, before its request goes).
 */
export function firstAnswer(d: WebhookDelivery): WebhookDelivery['log'][number] | undefined {
	const first = d.log[0];
	return first && !(first.status === null && first.answer === 'in flight') ? first : undefined;
}

export function judgeWebhooks(times: 1 | 2, deliveries: readonly WebhookDelivery[]): Judged {
	const created = deliveries.filter((d) => d.event === 'KDS Order Created');
	const seen: EvidenceItem[] = created.map((d) => ({
		ref: `delivery ${d.id}`,
		at: Date.parse(d.createdAt),
		what: `${d.event} for ${d.order ?? '-'}${d.resendOf ? ` (re-send of ${d.resendOf})` : ''}: ${
			d.log.length === 0
				? `${d.status}, not yet answered`
				: d.log
						.map(
							(a) =>
								`attempt ${a.attempt}: ${a.status ?? 'no answer'} ${a.ok ? 'ok' : `(${a.answer.slice(0, 80)})`}`
						)
						.join('; ')
		}`
	}));
	if (created.length === 0)
		return fail(
			'no KDS Order Created was delivered: no endpoint is registered for it, or no order was created over HTTP',
			seen
		);
	for (const d of created) {
		const firstTry = firstAnswer(d);
		if (!firstTry) return fail(`delivery ${d.id} was not answered within the step`, seen);
		if (!firstTry.ok)
			return fail(
				firstTry.status === null
					? `delivery ${d.id}: no answer in time (${firstTry.answer})`
					: `delivery ${d.id}: answered ${firstTry.status}, not 2xx`,
				seen
			);
	}
	if (created.length < times)
		return fail(
			`the event was delivered ${created.length} time(s); ${times} were to be answered`,
			seen
		);
	return {
		verdict: 'PASS',
		reason: times === 2 ? 'answered 2xx both times' : 'answered 2xx on the first attempt',
		seen
	};
}
