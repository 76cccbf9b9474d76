/**
 * Outcome findings: what the core decided about a message (its parser's normalisations, and
 * what decide refused or ignored), each outcome one finding. The core is run here on the screen
 * as the message found it, so a finding cannot disagree with what the screen did.
 *
 * Pure: no Node, no DOM.
 */
import type { Outcome } from './outcome.ts';
import type { OrderCommand } from './order-schema.ts';
import { createScreenState, decide, recordAfter, type Decision } from './screen.ts';
import type { Subject } from './conformance-subject.ts';

export function outcomeFindings(s: Subject, outcomes: readonly Outcome[]): void {
	for (const outcome of outcomes) {
		s.report.add(outcome.code, [...s.prefix, ...outcome.path], outcome.message);
	}
}

/**
 * Run the core's decide on the screen as the message found it (the existing order, if any) and
 * report what it refused or ignored; or take the decision the caller made of the same message
 * (`ctx.decided`). Sets `s.live` and `s.after` for the rules that read the order around the
 * message.
 */
export function decided(s: Subject, order: OrderCommand['order']): void {
	const { existing } = s.ctx;
	const decision = handedOver(s) ?? decideHere(s, existing, order);
	outcomeFindings(s, decision.outcomes ?? []);
	s.after = recordAfter(decision);
	const updates = s.ctx.command === 'update-order' || s.ctx.command === 'partial-update-order';
	if (updates && decision.ok) s.live = existing;
}

/**
 * The caller's decision, when it is the one decided here would be: made with `explain`, and at a
 * time no item of the order before it carries (an item this message changed is told apart by its
 * time, here by the time after the order's last change).
 */
function handedOver(s: Subject): Decision | undefined {
	const handed = s.ctx.decided;
	if (handed?.decision.outcomes === undefined) return undefined;
	const { at } = handed;
	if (s.ctx.existing?.context.items.some((item) => item.changedAt === at)) return undefined;
	s.at = at;
	return handed.decision;
}

function decideHere(
	s: Subject,
	existing: Subject['ctx']['existing'],
	order: OrderCommand['order']
): Decision {
	s.at = (existing?.context.updatedAt ?? 0) + 1;
	const screen = createScreenState(existing ? [existing] : []);
	const command = { command: s.ctx.command, order } as OrderCommand;
	return decide(screen, command, s.at, { explain: true });
}
