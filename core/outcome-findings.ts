/**
 * Outcome findings: what the core decided about a message (its parser's normalisations, and
 * what decide refused or ignored), each outcome one finding. The core is run here on the screen
 * as the message found it, so a finding cannot disagree with what the screen did.
 *
 * Pure: no Node, no DOM.
 */
import type { Outcome } from './outcome';
import type { OrderCommand } from './order-schema';
import { createScreenState, decide, recordAfter } from './screen';
import type { Subject } from './conformance-subject';

export function outcomeFindings(s: Subject, outcomes: readonly Outcome[]): void {
	for (const outcome of outcomes) {
		s.report.add(outcome.code, [...s.prefix, ...outcome.path], outcome.message);
	}
}

/**
 * Run the core's decide on the screen as the message found it (the existing order, if any) and
 * report what it refused or ignored. Sets `s.live` and `s.after` for the rules that read the
 * order around the message.
 */
export function decided(s: Subject, order: OrderCommand['order']): void {
	const { existing } = s.ctx;
	s.at = (existing?.context.updatedAt ?? 0) + 1;
	const screen = createScreenState(existing ? [existing] : []);
	const command = { command: s.ctx.command, order } as OrderCommand;
	const decision = decide(screen, command, s.at, { explain: true });
	outcomeFindings(s, decision.outcomes ?? []);
	s.after = recordAfter(decision);
	const updates = s.ctx.command === 'update-order' || s.ctx.command === 'partial-update-order';
	if (updates && decision.ok) s.live = existing;
}
