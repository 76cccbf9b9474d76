/**
 * The verdict of a scenario that asks for messages to be accepted (docs/certify.md): each command
 * of the check accepted over the step's interface, and each need (modifiers, a held course, an
 * offset, ...) met by the accepted message it is read from. Findings are the core's, as written
 * in the inspector's entries.
 *
 * Pure: no Node, no DOM.
 */
import { orderOfPayload } from '../fault-findings.ts';
import type { MessageEntry } from '../message-entry.ts';
import type { Check, StepAction, StepNeed } from './catalog.ts';
import { actionOf, codes, fail, line, type Judged } from './evidence.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const itemsOf = (order: Obj, key = 'items'): Obj[] =>
	Array.isArray(order[key]) ? (order[key] as unknown[]).filter(isObj) : [];
const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';

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

export function judgeAccepted(
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
