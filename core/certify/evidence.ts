/**
 * What a certification step's evidence says, for every judge of core/certify/ (docs/certify.md):
 * the verdicts and the step's evidence as types, which step action an inspector entry carries
 * (read from the contract's route table, core/integrator-routes.ts), and an entry as a line of the
 * report. The verdicts themselves are ./judge.ts and its three families: ./judge-accepted.ts,
 * ./judge-faults.ts, ./judge-webhooks.ts.
 *
 * Pure: no Node, no DOM.
 */
import type { FaultTouch } from '../fault-findings.ts';
import { INTEGRATOR_ROUTES, integratorRouteOf } from '../integrator-routes.ts';
import type { MessageEntry } from '../message-entry.ts';
import type { WebhookDelivery } from '../webhooks.ts';
import type { Scenario, StepAction } from './catalog.ts';

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

export const asksActive = (m: MessageEntry) => routeOf(m)?.name === 'activeOrders';

export const codes = (m: MessageEntry) => m.findings.map((f) => f.code);

export const line = (m: MessageEntry, note = ''): EvidenceItem => ({
	ref: `#${m.id}`,
	at: m.at,
	what:
		`${m.interface.toUpperCase()} ${m.command ?? '(no command)'}${m.orderId ? ` ${m.orderId}` : ''} → ${m.result}` +
		(m.fault ? ` [${m.fault}]` : '') +
		(m.findings.length > 0 ? ` (${[...new Set(codes(m))].join(', ')})` : '') +
		(note ? `: ${note}` : '')
});

/** A family's verdict, before judge.ts adds the scenario's head. */
export interface Judged {
	verdict: Verdict;
	reason: string;
	seen: EvidenceItem[];
	messageIds?: number[];
	findings?: string[];
}

export const fail = (reason: string, seen: EvidenceItem[], more: Partial<Judged> = {}): Judged => ({
	verdict: 'FAIL',
	reason,
	seen,
	...more
});
