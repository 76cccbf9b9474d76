/**
 * Conformance findings for one message: every rule of the integrator contract that an integrator can
 * break, including those the schema lets through (the screen accepts the message but ignores a
 * field, or the result is unpredictable). By concern: the rule catalogue (rules.ts), the schema's
 * issues and unknown fields (schema-findings.ts), what the core decided (outcome-findings.ts)
 * and the rules about the message itself (message-findings.ts).
 *
 * Reporting only: a finding never changes the reply. Pure: no Node, no DOM.
 */
import { isObject, Report, type CheckContext, type Subject } from './conformance-subject.ts';
import { orderRules } from './message-findings.ts';
import { decided, outcomeFindings } from './outcome-findings.ts';
import { severityRank, type Finding } from './rules.ts';
import { showValue } from './parse.ts';
import { envelopeOf, tcpCommandOf, TCP_COMMANDS } from './tcp-message.ts';
import { readOrder, unknownFields } from './schema-findings.ts';
import { undecodedTextFindings } from './text-findings.ts';

export {
	countBySeverity,
	RULES,
	SEVERITIES,
	severityRank,
	worstSeverity,
	type Finding,
	type Rule,
	type RuleCode,
	type Severity
} from './rules.ts';
export type { CheckContext } from './conformance-subject.ts';
export { REPLACEMENT_CHARACTER } from './text-findings.ts';

const ENVELOPE_KEYS = new Set(['command', 'order']);

/** Check one message against the contract. Findings are sorted errors first. */
export function checkConformance(ctx: CheckContext): Finding[] {
	const report = new Report();
	undecodedTextFindings(ctx, report);
	const subject = locateOrder(ctx, report);
	if (subject) {
		const parsed = readOrder(subject);
		if (parsed) {
			outcomeFindings(subject, parsed.outcomes);
			decided(subject, parsed.order);
		}
		if (!ctx.plain) unknownFields(subject);
		orderRules(subject);
	}
	return report.findings.sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

/** The envelope (section 4.5, 9): find the order object, or report why there is none. */
function locateOrder(ctx: CheckContext, report: Report): Subject | undefined {
	const { raw } = ctx;
	if (!isObject(raw)) {
		report.add('KDS-NOT-AN-OBJECT', [], `expected a JSON object, got ${showValue(raw)}`);
		return undefined;
	}
	if (ctx.interface === 'http') return { ctx, order: raw, prefix: [], report, at: 0 };

	const envelope = envelopeOf(raw)!;
	if (!envelope.enveloped) {
		report.add(
			'KDS-TCP-BARE-ORDER',
			[],
			'no {command, order} envelope: a legacy bare order, treated as create-order'
		);
		return { ctx, order: raw, prefix: [], report, at: 0 };
	}
	if (envelope.command === undefined || envelope.command === null) {
		report.add('KDS-TCP-COMMAND-MISSING', ['command'], 'no command: create-order is assumed');
	} else if (tcpCommandOf(envelope) === undefined) {
		report.add(
			'KDS-TCP-COMMAND-INVALID',
			['command'],
			`expected one of ${TCP_COMMANDS.join(', ')}, got ${showValue(envelope.command)}`
		);
		return undefined;
	}
	for (const key of Object.keys(raw)) {
		if (!ENVELOPE_KEYS.has(key)) {
			report.add('KDS-FIELD-UNKNOWN', [key], `${key} is not a field of the TCP envelope; ignored`);
		}
	}
	if (envelope.order === null) {
		report.add(
			'KDS-TCP-ORDER-INVALID',
			['order'],
			`expected an order object, got ${showValue(envelope.orderValue)}`
		);
		return undefined;
	}
	return { ctx, order: envelope.order, prefix: ['order'], report, at: 0 };
}
