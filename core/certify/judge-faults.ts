/**
 * The verdict of a scenario with faults armed (docs/certify.md): what the POS did after each
 * fault (backed off, handled a failed delivery, kept one ticket, sent the same id again, re-sent
 * what was not kept), from the core's fault judgement (../fault-findings.ts) and the step's
 * entries.
 *
 * Pure: no Node, no DOM.
 */
import {
	clientOf,
	judgeFaults,
	orderFingerprint,
	orderOfPayload,
	type FaultFinding,
	type FaultTouch
} from '../fault-findings.ts';
import type { MessageEntry } from '../message-entry.ts';
import type { Scenario } from './catalog.ts';
import {
	actionOf,
	asksActive,
	fail,
	line,
	type EvidenceItem,
	type Judged,
	type StepEvidence
} from './evidence.ts';

/** The fault findings of a step: what the POS did after each fault, from the core's judge. */
function faultFindings(evidence: StepEvidence): FaultFinding[] {
	return judgeFaults(evidence.touches, evidence.messages).clients.flatMap((c) => c.findings);
}

const touchLine = (t: FaultTouch): EvidenceItem => ({
	ref: `fault ${t.faultId}`,
	at: t.at,
	what: `${t.kind} touched ${t.command ?? 'a connection'}${t.orderId ? ` ${t.orderId}` : ''} from ${t.source}${t.committed ? ' (the order was kept)' : ' (nothing was kept)'}`
});
const findingLine = (f: FaultFinding): EvidenceItem => ({
	ref: f.messageId !== undefined ? `#${f.messageId}` : `fault ${f.faultId}`,
	at: 0,
	what: `${f.rule} (${f.severity}): ${f.message}`
});

/** Accepted creates of an order id (any interface), after a moment. */
const acceptedCreates = (
	messages: readonly MessageEntry[],
	orderId: string | null,
	after: number
) =>
	messages.filter(
		(m) =>
			m.ok &&
			actionOf(m) === 'create' &&
			m.at >= after &&
			(orderId === null || m.orderId === orderId)
	);

/** The fault findings that say an order is lost, by whichever judge names it. */
const LOST = 'KDS-FAULT-ORDER-LOST';

export function judgeFaulted(scenario: Scenario, evidence: StepEvidence): Judged {
	const { messages, touches } = evidence;
	const iface = scenario.step.interface;
	const check = scenario.check;
	const sent = messages.filter((m) => m.interface === iface && actionOf(m) === 'create');
	const found = faultFindings(evidence);
	// What happened, in time order, then what the fault judgement made of it.
	const seen = [
		...[...touches.map(touchLine), ...messages.map((m) => line(m))].sort((a, b) => a.at - b.at),
		...found.map(findingLine)
	];
	const rules = [...new Set(found.map((f) => f.rule))];
	const base = { findings: rules, messageIds: messages.map((m) => m.id) };
	const first = touches.find((t) => t.command !== null) ?? touches[0];

	if (check.kind === 'backs-off') {
		const storm = found.find((f) => f.rule === 'KDS-FAULT-RETRY-STORM');
		const landed = acceptedCreates(messages, null, 0).filter((m) => m.interface === iface);
		if (storm) return fail(`${storm.rule}: ${storm.message}`, seen, base);
		if (landed.length === 0)
			return fail(
				`${LOST}: no order reached the screen, while it was away or once it was back` +
					(touches.length > 0
						? ` (${touches.length} connection attempts seen, then none)`
						: ' (no connection attempt seen)'),
				seen,
				base
			);
		return {
			verdict: 'PASS',
			reason: `the order arrived once the screen was back (#${landed[0].id})`,
			seen,
			...base
		};
	}

	if (check.kind === 'delivery-failure-handled') {
		const failed = sent.find((m) => !m.ok && m.result.startsWith('502'));
		if (!failed)
			return fail(
				'no create was refused for the offline screen: the step was not performed',
				seen,
				base
			);
		const later = acceptedCreates(messages, failed.orderId, failed.at).filter(
			(m) => m.id > failed.id
		);
		if (later.length === 0)
			return fail(
				`${LOST}: order ${failed.orderId} was refused (${failed.result}) and never sent again`,
				seen,
				{
					...base,
					findings: [...rules, LOST]
				}
			);
		return {
			verdict: 'PASS',
			reason: `after the failed delivery (#${failed.id}) the order was sent again and accepted (#${later[0].id}, ${later[0].interface.toUpperCase()})`,
			seen,
			...base
		};
	}

	if (check.kind === 'one-ticket') {
		const creates = acceptedCreates(messages, null, 0).filter((m) => m.interface === iface);
		// The tickets: every accepted create, and every create a fault let through to the screen
		// (committed), logged or not (a request whose client left before a late answer is kept,
		// yet has no answer to log).
		const tickets = new Map<string, Map<string, string>>();
		const add = (print: string | null, orderId: string | null, ref: string) => {
			if (print === null || orderId === null) return;
			const ids = tickets.get(print) ?? tickets.set(print, new Map()).get(print)!;
			if (!ids.has(orderId)) ids.set(orderId, ref);
		};
		for (const t of touches)
			if (
				t.committed &&
				t.command !== null &&
				actionOf({ interface: t.interface, command: t.command }) === 'create'
			)
				add(t.fingerprint, t.orderId, `fault ${t.faultId}`);
		for (const m of creates) add(orderFingerprint(orderOfPayload(m.raw)), m.orderId, `#${m.id}`);
		if (sent.length === 0 && touches.length === 0)
			return fail('no order was sent during the step', seen, base);
		const twice = [...tickets.values()].find((ids) => ids.size > 1);
		if (twice)
			return fail(
				`two tickets for one order: ${[...twice].map(([id, ref]) => `${id} (${ref})`).join(' and ')}: re-sent under a new id`,
				seen,
				base
			);
		if (tickets.size === 0)
			return fail(
				`the order was not accepted: ${sent[0] ? (sent[0].why ?? sent[0].result) : 'nothing reached the screen'}`,
				seen,
				base
			);
		const [orderId] = [...[...tickets.values()][0].keys()];
		const retried = sent.filter((m) => m.orderId === orderId && !m.ok);
		return {
			verdict: 'PASS',
			reason:
				retried.length > 0
					? `one ticket; the retry with the same id (#${retried[0].id}, ${retried[0].result}) is expected`
					: 'one ticket: the POS waited for the answer',
			seen,
			...base
		};
	}

	// The faults that leave the outcome unknown, or keep nothing: judged per touched order.
	if (!first || first.orderId === null)
		return fail(
			sent.length === 0
				? `nothing was sent over ${iface.toUpperCase()} during the step, so the fault never fired`
				: 'the fault never touched an order create',
			seen,
			base
		);
	const orderId = first.orderId;
	const mineFound = found.filter((f) => f.touchId === first.id);
	const newId = mineFound.find((f) => f.rule === 'KDS-FAULT-RESENT-NEW-ID');
	if (newId) return fail(`${newId.rule}: ${newId.message}`, seen, base);
	const lost = mineFound.find((f) => (f.rule as string) === LOST);
	const client = clientOf(first.interface, first.source);
	// What the client sent after the fault: not the touched message itself (its entry carries the
	// fault's id when it has one).
	const later = messages.filter(
		(m) =>
			m.at >= first.at &&
			m.id !== first.messageId &&
			!(m.fault ?? '').includes(`(${first.faultId})`) &&
			clientOf(m.interface, m.source) === client
	);

	if (check.kind === 'same-id-after-fault') {
		const never = mineFound.find(
			(f) => f.rule === 'KDS-FAULT-NEVER-RESENT' || (f.rule as string) === LOST
		);
		if (never) return fail(`${never.rule}: ${never.message}`, seen, base);
		const again = later.find((m) => m.orderId === orderId && actionOf(m) === 'create');
		const asked = later.find(asksActive);
		if (again)
			return {
				verdict: 'PASS',
				reason: `the same id sent again (#${again.id}, answered ${again.result}: expected, the order was kept)`,
				seen,
				...base
			};
		if (asked)
			return {
				verdict: 'PASS',
				reason: `the POS asked for the active orders (#${asked.id})`,
				seen,
				...base
			};
		return fail(
			`order ${orderId} was kept but the POS neither sent it again nor asked: it does not know it arrived`,
			seen,
			base
		);
	}

	// resent-after-fault: nothing was kept; only a re-send saves the order.
	const again = acceptedCreates(later, null, first.at).filter((m) => m.id !== first.messageId);
	const same = again.find((m) => m.orderId === orderId);
	const twin = again.find(
		(m) =>
			first.fingerprint !== null && orderFingerprint(orderOfPayload(m.raw)) === first.fingerprint
	);
	const saved = same ?? twin;
	if (lost || !saved)
		return fail(
			lost
				? `${LOST}: ${lost.message}`
				: `${LOST}: order ${orderId} was not kept (${first.kind}) and never sent again: it is not in the kitchen`,
			seen,
			{ ...base, findings: [...new Set([...rules, LOST])] }
		);
	if (check.kind === 'resent-after-fault' && check.honoursRetryAfter) {
		const retryAfter = (scenario.faults[0] as { retryAfter?: number }).retryAfter;
		const tooSoon = found.find((f) => f.rule === 'KDS-FAULT-RETRY-TOO-SOON');
		const firstRetry = later.find((m) => m.orderId === orderId || m === saved);
		const waitedMs = firstRetry ? firstRetry.at - first.at : Infinity;
		if (tooSoon) return fail(`${tooSoon.rule}: ${tooSoon.message}`, seen, base);
		if (retryAfter !== undefined && waitedMs < retryAfter * 1000)
			return fail(
				`re-sent ${waitedMs} ms after the ${first.kind}, before its Retry-After of ${retryAfter} s (#${firstRetry!.id})`,
				seen,
				{ ...base, findings: [...rules, 'KDS-FAULT-RETRY-TOO-SOON'] }
			);
	}
	return {
		verdict: 'PASS',
		reason: `sent again and accepted (#${saved.id}${saved.orderId !== orderId ? `, as ${saved.orderId}: nothing had been kept, so one ticket` : ''})`,
		seen,
		...base
	};
}
