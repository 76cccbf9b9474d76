/**
 * The certification judge (docs/certify.md): each scenario's verdict, PASS, FAIL, WARN, SKIPPED
 * (with the reason given) or NOT_APPLICABLE, from what the simulator observed during its step:
 * the inspector's entries (what the screen decided: accepted or refused, its findings), the
 * faults that fired and what the POS did next (./../fault-findings.ts), the webhook deliveries
 * and their answers. It never checks a message against the contract itself: a refusal, a
 * missing lineId, a time without offset are what the core decided and wrote in the entry.
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
import { INTEGRATOR_ROUTES, integratorRouteOf } from '../integrator-routes.ts';
import type { MessageEntry } from '../message-entry.ts';
import type { WebhookDelivery } from '../webhooks.ts';
import {
	missingCapabilities,
	type Capability,
	type Check,
	type Scenario,
	type StepAction,
	type StepNeed
} from './catalog.ts';

export const VERDICTS = ['PASS', 'FAIL', 'WARN', 'SKIPPED', 'NOT_APPLICABLE'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Where a step of a run stands. */
export type StepStatus = 'pending' | 'current' | 'done' | 'skipped' | 'not-applicable';

/** What the simulator saw during one step: the judge's whole input for a scenario. */
export interface StepEvidence {
	status: StepStatus;
	/** Why it was skipped (a person's words, or "the run was stopped"). */
	skipReason?: string;
	/** The inspector's entries of the step, oldest first. */
	messages: readonly MessageEntry[];
	/** What the faults the step armed touched. */
	touches: readonly FaultTouch[];
	/** Webhook deliveries made during the step (re-sends included). */
	deliveries: readonly WebhookDelivery[];
}

/** One piece of evidence: a message, a fault, a delivery, as the report shows it. */
export interface EvidenceItem {
	/** `#12` (an inspector entry), `fault f3`, `delivery d-…`. */
	ref: string;
	at: number;
	what: string;
}

export interface ScenarioVerdict {
	id: string;
	version: number;
	title: string;
	group: Scenario['group'];
	verdict: Verdict;
	/** One sentence: why this verdict. */
	reason: string;
	/** What was expected (the scenario's checks). */
	expected: string;
	/** What was seen, one line each. */
	seen: EvidenceItem[];
	/** The inspector entries the verdict rests on. */
	messageIds: number[];
	/** Rule ids of the findings it rests on (conformance and fault rules). */
	findings: string[];
}

/** The step actions of the integrator routes (core/integrator-routes.ts names them). */
const HTTP_ACTIONS: Partial<Record<string, StepAction>> = {
	create: 'create',
	update: 'update',
	partial: 'partial',
	cancel: 'cancel',
	customerArrived: 'customer-arrived',
	estimatedArrival: 'eta',
	sendMessage: 'message'
};

/** The integrator route an HTTP entry was sent to (the inspector writes `METHOD path`). */
function routeOf(entry: Pick<MessageEntry, 'interface' | 'command'>) {
	if (entry.interface !== 'http' || entry.command === null) return undefined;
	const [method, target = ''] = entry.command.split(' ');
	return integratorRouteOf(method, target.split('?')[0]);
}

/**
 * The step action an entry carries: its TCP command, or the integrator route it was sent to.
 * Null for anything else (GET active, information).
 */
export function actionOf(entry: Pick<MessageEntry, 'interface' | 'command'>): StepAction | null {
	if (entry.interface === 'http') return HTTP_ACTIONS[routeOf(entry)?.name ?? ''] ?? null;
	const route = INTEGRATOR_ROUTES.find((r) => 'command' in r && r.command === entry.command);
	return route ? (HTTP_ACTIONS[route.name] ?? null) : null;
}

const asksActive = (m: MessageEntry) => routeOf(m)?.name === 'activeOrders';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const itemsOf = (order: Obj, key = 'items'): Obj[] =>
	Array.isArray(order[key]) ? (order[key] as unknown[]).filter(isObj) : [];
const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const codes = (m: MessageEntry) => m.findings.map((f) => f.code);

const line = (m: MessageEntry, note = ''): EvidenceItem => ({
	ref: `#${m.id}`,
	at: m.at,
	what:
		`${m.interface.toUpperCase()} ${m.command ?? '(no command)'}${m.orderId ? ` ${m.orderId}` : ''} → ${m.result}` +
		(m.fault ? ` [${m.fault}]` : '') +
		(m.findings.length > 0 ? ` (${[...new Set(codes(m))].join(', ')})` : '') +
		(note ? `: ${note}` : '')
});

/** What each need looks for in the accepted message(s) of a step; the reason when it is not met. */
const NEEDS: Record<StepNeed, (order: Obj, entry: MessageEntry) => string | null> = {
	lineIds: (_o, m) =>
		codes(m).includes('KDS-LINEID-MISSING') ? 'an item has no lineId (KDS-LINEID-MISSING)' : null,
	modifiers: (o) =>
		itemsOf(o).some((i) => Array.isArray(i.mods) && i.mods.length > 0)
			? null
			: 'no item carried modifiers (mods)',
	itemGroups: (o, m) =>
		!itemsOf(o).some((i) => isObj(i.itemGroup))
			? 'no item carried an itemGroup'
			: codes(m).some((c) => c.startsWith('KDS-GROUP-'))
				? `the groups were not read as sent (${codes(m)
						.filter((c) => c.startsWith('KDS-GROUP-'))
						.join(', ')})`
				: null,
	holdCourse: (o) =>
		itemsOf(o).some((i) => i.courseStatus === 'hold')
			? null
			: 'no item was sent with courseStatus hold',
	fireCourse: (o) =>
		[...itemsOf(o), ...itemsOf(o, 'itemsToUpdate'), ...itemsOf(o, 'itemsToAdd')].some(
			(i) => i.courseStatus === 'fire'
		)
			? null
			: 'no update fired the held course (courseStatus fire)',
	priority: (o) => (o.priority === true ? null : 'priority was not true'),
	specialInstructions: (o) =>
		nonEmpty(o.specialInstructions) || itemsOf(o).some((i) => nonEmpty(i.specialInstructions))
			? null
			: 'no specialInstructions on the order or an item',
	scheduled: (o, m) =>
		!nonEmpty(o.pickupTime) || !nonEmpty(o.prepTimeDuration)
			? 'no pickupTime with a prepTimeDuration'
			: codes(m).some((c) => c.startsWith('KDS-PREP-TIME-'))
				? `the screen did not schedule it (${codes(m)
						.filter((c) => c.startsWith('KDS-PREP-TIME-'))
						.join(', ')})`
				: null,
	offset: (o, m) =>
		o.time === undefined
			? 'no time'
			: codes(m).includes('KDS-TIME-NO-OFFSET')
				? 'a time without offset (KDS-TIME-NO-OFFSET): read in the screen’s zone'
				: null,
	adds: (o) => (itemsOf(o, 'itemsToAdd').length > 0 ? null : 'no itemsToAdd'),
	changes: (o) => (itemsOf(o, 'itemsToUpdate').length > 0 ? null : 'no itemsToUpdate'),
	removes: (o) =>
		Array.isArray(o.itemsToRemove) && o.itemsToRemove.length > 0 ? null : 'no itemsToRemove'
};

/** Which step action a need is read from. */
const NEED_ON: Partial<Record<StepNeed, StepAction>> = {
	fireCourse: 'update',
	adds: 'partial',
	changes: 'partial',
	removes: 'partial'
};

/** An update check is met by a full or a partial update. */
const matches = (want: StepAction, got: StepAction | null) =>
	got === want || (want === 'update' && got === 'partial');

interface Judged {
	verdict: Verdict;
	reason: string;
	seen: EvidenceItem[];
	messageIds?: number[];
	findings?: string[];
}

const fail = (reason: string, seen: EvidenceItem[], more: Partial<Judged> = {}): Judged => ({
	verdict: 'FAIL',
	reason,
	seen,
	...more
});

function judgeAccepted(
	check: Extract<Check, { kind: 'accepted' }>,
	iface: 'tcp' | 'http',
	messages: readonly MessageEntry[]
): Judged {
	const mine = messages.filter((m) => m.interface === iface && actionOf(m) !== null);
	const seen = mine.map((m) => line(m));
	if (mine.length === 0)
		return fail(`nothing was sent over ${iface.toUpperCase()} during the step`, seen);
	const used: MessageEntry[] = [];
	for (const want of check.commands) {
		const ok = mine.find((m) => m.ok && matches(want, actionOf(m)) && !used.includes(m));
		if (!ok) {
			const refused = mine.filter((m) => !m.ok && matches(want, actionOf(m)));
			return fail(
				refused.length > 0
					? `the ${want} was refused: ${refused[0].why ?? refused[0].result}`
					: `no ${want} was sent over ${iface.toUpperCase()}`,
				seen,
				{ messageIds: refused.map((m) => m.id), findings: refused.flatMap(codes) }
			);
		}
		used.push(ok);
	}
	const create = used.find((m) => actionOf(m) === 'create') ?? used[0];
	for (const need of check.needs) {
		const on = NEED_ON[need];
		const entry = on ? (used.find((m) => matches(on, actionOf(m))) ?? create) : create;
		const order = orderOfPayload(entry.raw);
		const missing = isObj(order) ? NEEDS[need](order, entry) : 'its payload could not be read back';
		if (missing)
			return fail(`${line(entry).ref}: ${missing}`, seen, {
				messageIds: [entry.id],
				findings: codes(entry)
			});
	}
	const refused = mine.filter((m) => !m.ok);
	const warnings = used.flatMap((m) =>
		m.findings.filter((f) => f.severity !== 'info').map((f) => `${f.code} (#${m.id})`)
	);
	const findings = [...new Set(used.flatMap(codes))];
	const messageIds = used.map((m) => m.id);
	if (warnings.length > 0)
		return {
			verdict: 'WARN',
			reason: `accepted, with ${warnings.join(', ')}`,
			seen,
			messageIds,
			findings
		};
	if (refused.length > 0)
		return {
			verdict: 'WARN',
			reason: `accepted after ${refused.length} refused (first: ${refused[0].why ?? refused[0].result})`,
			seen,
			messageIds: [...messageIds, ...refused.map((m) => m.id)],
			findings
		};
	return { verdict: 'PASS', reason: 'accepted as the step asks', seen, messageIds, findings };
}

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

function judgeFaulted(scenario: Scenario, evidence: StepEvidence): Judged {
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

/**
 * A delivery's first attempt, once answered: undefined while none was made or it is still in
 * flight (the agent writes an attempt as started, `in flight`, before its request goes).
 */
export function firstAnswer(d: WebhookDelivery): WebhookDelivery['log'][number] | undefined {
	const first = d.log[0];
	return first && !(first.status === null && first.answer === 'in flight') ? first : undefined;
}

function judgeWebhooks(times: 1 | 2, deliveries: readonly WebhookDelivery[]): Judged {
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

/** The verdict of one scenario, from its step's evidence and the capabilities declared. */
export function judgeScenario(
	scenario: Scenario,
	evidence: StepEvidence,
	declared: readonly Capability[]
): ScenarioVerdict {
	const head = {
		id: scenario.id,
		version: scenario.version,
		title: scenario.title,
		group: scenario.group,
		expected: scenario.checks
	};
	const missing = missingCapabilities(scenario, declared);
	const out = (j: Judged): ScenarioVerdict => ({
		...head,
		verdict: j.verdict,
		reason: j.reason,
		seen: j.seen,
		messageIds: j.messageIds ?? [],
		findings: j.findings ?? []
	});
	if (missing.length > 0 || evidence.status === 'not-applicable')
		return out({
			verdict: 'NOT_APPLICABLE',
			reason: `needs ${missing.join(', ')}, not declared`,
			seen: []
		});
	if (evidence.status === 'skipped')
		return out({ verdict: 'SKIPPED', reason: evidence.skipReason ?? 'skipped', seen: [] });
	if (evidence.status !== 'done')
		return out({ verdict: 'SKIPPED', reason: 'not reached: the run was stopped first', seen: [] });
	const check = scenario.check;
	if (check.kind === 'accepted')
		return out(judgeAccepted(check, scenario.step.interface, evidence.messages));
	if (check.kind === 'webhook-2xx') return out(judgeWebhooks(check.times, evidence.deliveries));
	return out(judgeFaulted(scenario, evidence));
}

/** The run's verdict: FAIL if any scenario failed, WARN if any warned, else PASS. */
export function overallVerdict(
	verdicts: readonly { verdict: Verdict }[]
): 'PASS' | 'FAIL' | 'WARN' {
	if (verdicts.some((v) => v.verdict === 'FAIL')) return 'FAIL';
	if (verdicts.some((v) => v.verdict === 'WARN')) return 'WARN';
	return 'PASS';
}
