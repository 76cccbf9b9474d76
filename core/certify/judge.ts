/**
 * The certification judge (docs/certify.md): each scenario's verdict, PASS, FAIL, WARN, SKIPPED
 * (with the reason given) or NOT_APPLICABLE, from what the simulator observed during its step:
 * the inspector's entries (what the screen decided: accepted or refused, its findings), the
 * faults that fired and what the POS did next (./../fault-findings.ts), the webhook deliveries
 * and their answers; the verdict of each family of scenarios is its own module
 * (./judge-accepted.ts, ./judge-faults.ts, ./judge-webhooks.ts), the evidence's types and reading
 * ./evidence.ts. It never checks a message against the contract itself: a refusal, a
 * missing lineId, a time without offset are what the core decided and wrote in the entry.
 *
 * Pure: no Node, no DOM.
 */
import { missingCapabilities, type Capability, type Scenario } from './catalog.ts';
import type { Judged, ScenarioVerdict, StepEvidence, Verdict } from './evidence.ts';
import { judgeAccepted } from './judge-accepted.ts';
import { judgeFaulted } from './judge-faults.ts';
import { judgeWebhooks } from './judge-webhooks.ts';

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
