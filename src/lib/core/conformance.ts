/**
 * Conformance findings for one message: every rule of kds-interface.md that an integrator can
 * break, including those the schema lets through (the screen accepts the message but ignores a
 * field, or the result is unpredictable). Type and value errors are not written again here: they
 * are the schema's own issues, given a stable code by `codeOfIssue`.
 *
 * Reporting only: a finding never changes the reply. Pure: no Node, no DOM.
 */
import type { z } from 'zod';
import type { OrderRecord } from './order-machine';
import type { Outcome } from './outcome';
import {
	CancelOrderSchema,
	describe as show,
	formatPath,
	HttpOrderSchema,
	ItemGroupSchema,
	ORDER_MODES,
	parseWith,
	PartialOrderSchema,
	TCP_COMMANDS,
	TcpOrderSchema,
	type OrderCommand,
	type TcpCommandName
} from './schema';
import { createScreenState, decide, recordAfter } from './screen';
import { RULE_TABLE, type Finding, type RuleCode, type Severity } from './rules';

export { RULES, type Finding, type Rule, type RuleCode, type Severity } from './rules';

export interface CheckContext {
	interface: 'tcp' | 'http';
	command: TcpCommandName;
	/**
	 * The raw decoded JSON as received (before schema parsing), so unknown fields and wrong types
	 * are visible. For TCP: the whole message (envelope or bare order); for HTTP: the body.
	 */
	raw: unknown;
	/**
	 * The screen setting auto hold future orders (prepTimeDuration is ignored when off). Leave it
	 * out when unknown: the rule that needs it is then skipped.
	 */
	autoHold?: boolean;
	/**
	 * The order on the screen with the message's id, if any (bumped ones included). For update,
	 * partial update and cancel, leaving it out means the screen has no such order.
	 */
	existing?: OrderRecord;
	/**
	 * The caller already parsed this message's order with the schema the check would use (TCP:
	 * the command's schema, HTTP: the route's) and it passed, so the schema has no issues to
	 * report and is not run a second time. Leave it out when unsure: the schema is then run.
	 */
	schemaValid?: boolean;
	/**
	 * What the core decided about this message (outcome.ts): parsing's normalisations and
	 * decide's ignored entries, paths relative to the order. Leave it out when unknown: the
	 * parser's outcomes are then worked out here (the schema is run), with `timeZone`.
	 */
	outcomes?: readonly Outcome[];
	/** The IANA time zone of the screen's location, when `outcomes` is left out. */
	timeZone?: string;
	/**
	 * The order as the caller's parser read it (with `schemaValid`), so the check does not parse
	 * it again. Left out: the check parses it.
	 */
	parsed?: OrderCommand['order'];
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

const E164 = /^\+[1-9]\d{1,14}$/;

type Key = string | number;
type Path = readonly Key[];
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined when the path leaves the data. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
	let here = value;
	for (const key of path) {
		if (typeof key === 'number' && Array.isArray(here)) here = here[key];
		else if (typeof key === 'string' && isObject(here)) here = here[key];
		else return undefined;
	}
	return here;
}

// Field lists come from the schemas themselves, never retyped.
const FULL_ORDER_KEYS = new Set(Object.keys(TcpOrderSchema.shape));
const PARTIAL_ORDER_KEYS = new Set(Object.keys(PartialOrderSchema.shape));
const ENVELOPE_KEYS = new Set(['command', 'order']);

function orderSchemaFor(ctx: CheckContext): z.ZodType {
	switch (ctx.command) {
		case 'create-order':
		case 'update-order':
			return ctx.interface === 'tcp' ? TcpOrderSchema : HttpOrderSchema;
		case 'partial-update-order':
			return PartialOrderSchema;
		case 'cancel-order':
			return CancelOrderSchema;
	}
}

/** Collects findings; one per code and path. */
class Report {
	readonly findings: Finding[] = [];
	private readonly seen = new Set<string>();

	add(code: RuleCode, path: Path, message: string): void {
		const at = formatPath(path);
		const key = `${code} ${at}`;
		if (this.seen.has(key)) return;
		this.seen.add(key);
		this.findings.push({ severity: RULE_TABLE[code].severity, code, path: at, message });
	}
}

/** What is checked: the order object of the message and where it sits in the message. */
interface Subject {
	ctx: CheckContext;
	order: Json;
	/** Path of the order inside the raw message: ['order'] in a TCP envelope, else []. */
	prefix: Path;
	report: Report;
	/** The existing order when the core took this update or partial update for it. */
	live?: OrderRecord;
	/** The order as the core leaves it after this message, when the core took the message. */
	after?: OrderRecord;
	/** The time the core's decision was made at here: every item this message changed has it. */
	at: number;
}

/** Check one message against the contract. Findings are sorted errors first. */
export function checkConformance(ctx: CheckContext): Finding[] {
	const report = new Report();
	const subject = locateOrder(ctx, report);
	if (subject) {
		const parsed = readOrder(subject);
		if (parsed) {
			outcomeFindings(subject, parsed.outcomes);
			decided(subject, parsed.order);
		}
		unknownFields(subject);
		orderRules(subject);
	}
	return report.findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

/** The envelope (section 4.5, 9): find the order object, or report why there is none. */
function locateOrder(ctx: CheckContext, report: Report): Subject | undefined {
	const { raw } = ctx;
	if (!isObject(raw)) {
		report.add('KDS-NOT-AN-OBJECT', [], `expected a JSON object, got ${show(raw)}`);
		return undefined;
	}
	if (ctx.interface === 'http') return { ctx, order: raw, prefix: [], report, at: 0 };

	if (!('order' in raw) && !('command' in raw)) {
		report.add(
			'KDS-TCP-BARE-ORDER',
			[],
			'no {command, order} envelope: a legacy bare order, treated as create-order'
		);
		return { ctx, order: raw, prefix: [], report, at: 0 };
	}
	if (raw.command === undefined || raw.command === null) {
		report.add('KDS-TCP-COMMAND-MISSING', ['command'], 'no command: create-order is assumed');
	} else if (!(TCP_COMMANDS as readonly unknown[]).includes(raw.command)) {
		report.add(
			'KDS-TCP-COMMAND-INVALID',
			['command'],
			`expected one of ${TCP_COMMANDS.join(', ')}, got ${show(raw.command)}`
		);
		return undefined;
	}
	for (const key of Object.keys(raw)) {
		if (!ENVELOPE_KEYS.has(key)) {
			report.add('KDS-FIELD-UNKNOWN', [key], `${key} is not a field of the TCP envelope; ignored`);
		}
	}
	if (!isObject(raw.order)) {
		report.add(
			'KDS-TCP-ORDER-INVALID',
			['order'],
			`expected an order object, got ${show(raw.order)}`
		);
		return undefined;
	}
	return { ctx, order: raw.order, prefix: ['order'], report, at: 0 };
}

/**
 * The order as the core's parser reads it, with what the parser normalised; or undefined, the
 * schema's issues reported, when it refuses the order.
 */
function readOrder(
	s: Subject
): { order: OrderCommand['order']; outcomes: readonly Outcome[] } | undefined {
	const { ctx } = s;
	if (ctx.schemaValid === true && ctx.parsed) {
		return { order: ctx.parsed, outcomes: ctx.outcomes ?? [] };
	}
	const schema = orderSchemaFor(ctx);
	const parsed = parseWith(schema, s.order, [], { timeZone: ctx.timeZone });
	if (parsed.ok) {
		const order = parsed.value as OrderCommand['order'];
		return { order, outcomes: ctx.outcomes ?? parsed.outcomes ?? [] };
	}
	const result = schema.safeParse(s.order);
	if (!result.success) for (const issue of result.error.issues) reportIssue(s, issue, []);
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// What the core decided, each outcome one finding.

function outcomeFindings(s: Subject, outcomes: readonly Outcome[]): void {
	for (const outcome of outcomes) {
		s.report.add(outcome.code, [...s.prefix, ...outcome.path], outcome.message);
	}
}

/**
 * Run the core's decide on the screen as the message found it (the existing order, if any) and
 * report what it refused or ignored. Sets `s.live` and `s.after` for the rules that read the
 * order around the message.
 */
function decided(s: Subject, order: OrderCommand['order']): void {
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

// ---------------------------------------------------------------------------------------------
// Errors: the schema's issues, each given a stable code.

function reportIssue(s: Subject, issue: z.core.$ZodIssue, base: readonly PropertyKey[]): void {
	const rel = [...base, ...issue.path];
	if (issue.code === 'invalid_union') {
		// Report the branch that matched the value's kind (a modifier object with a bad qty, say).
		const branch = issue.errors.find(
			(issues) => !issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')
		);
		if (branch) {
			for (const inner of branch) reportIssue(s, inner, rel);
			return;
		}
	}
	const path = [...s.prefix, ...(rel as Key[])];
	s.report.add(codeOfIssue(s.order, issue, rel), path, issue.message);
}

/** The rule a schema issue breaks, from where it is and what was expected. */
function codeOfIssue(order: Json, issue: z.core.$ZodIssue, rel: readonly PropertyKey[]): RuleCode {
	const key = rel[rel.length - 1];
	const missing =
		issue.code === 'invalid_type' &&
		rel.length > 0 &&
		valueAt(order, rel) === undefined &&
		isObject(valueAt(order, rel.slice(0, -1)));
	if (missing) {
		return rel.length === 3 && rel[0] === 'itemsToUpdate'
			? 'KDS-ITEM-PARTIAL'
			: 'KDS-FIELD-REQUIRED';
	}
	if (issue.code === 'custom' && key === 'lineId') return 'KDS-LINEID-NOT-UNIQUE';
	if (rel.length === 1 && key === 'mode') return 'KDS-MODE-INVALID';
	if (rel.length === 1 && (key === 'time' || key === 'pickupTime')) return 'KDS-TIME-INVALID';
	if (rel.length === 1 && key === 'prepTimeDuration') return 'KDS-DURATION-INVALID';
	if (key === 'courseStatus') return 'KDS-COURSE-STATUS-INVALID';
	if (issue.code === 'invalid_type') {
		if (rel[0] === 'costs' && issue.expected === 'string') return 'KDS-COST-NOT-STRING';
		if (issue.expected === 'boolean') return 'KDS-BOOLEAN-INVALID';
		if (issue.expected === 'number' || issue.expected === 'int') return 'KDS-INTEGER-INVALID';
	}
	if (issue.code === 'too_small' || issue.code === 'too_big') {
		if (issue.origin === 'number') return 'KDS-INTEGER-INVALID';
		if (issue.origin === 'string') return 'KDS-ID-EMPTY';
	}
	return 'KDS-TYPE-INVALID';
}

// ---------------------------------------------------------------------------------------------
// Unknown fields, found by walking the raw value along the schema that reads it.

function unknownFields(s: Subject): void {
	const schema = orderSchemaFor(s.ctx);
	const partial = s.ctx.command === 'partial-update-order';
	walk(schema, s.order, [...s.prefix], (path, key, value) => {
		const top = path.length === s.prefix.length;
		const at = [...path, key];
		if (top && partial && FULL_ORDER_KEYS.has(key)) {
			// null means "leave unchanged", which is what happens anyway.
			if (value !== null) {
				s.report.add(
					'KDS-PARTIAL-FIELD-IGNORED',
					at,
					`the partial order has no ${key} field; it is ignored (use update-order to change it)`
				);
			}
		} else if (top && s.ctx.command === 'cancel-order') {
			s.report.add('KDS-FIELD-UNKNOWN', at, `cancel takes only id; ${key} is ignored`);
		} else if (top && PARTIAL_ORDER_KEYS.has(key)) {
			s.report.add(
				'KDS-FIELD-UNKNOWN',
				at,
				`${key} belongs to partial-update-order; a full order ignores it`
			);
		} else {
			s.report.add('KDS-FIELD-UNKNOWN', at, `${key} is not a field of the contract; ignored`);
		}
	});
}

type SchemaNode = z.core.$ZodType;

/**
 * How `walk` reads one schema node, worked out once per node (the schemas are module constants):
 * the shape of an object, the element of an array, the object and array options of a union.
 */
type WalkPlan =
	| { kind: 'object'; shape: Record<string, SchemaNode> }
	| { kind: 'array'; element: SchemaNode }
	| { kind: 'union'; object?: SchemaNode; array?: SchemaNode }
	| { kind: 'leaf' };

const plans = new WeakMap<SchemaNode, WalkPlan>();

/** The schema that reads the raw input: through pipes (transforms) and optional/nullable. */
function inputSide(schema: SchemaNode): SchemaNode {
	let node = schema;
	for (;;) {
		const def = node._zod.def;
		if (def.type === 'pipe') node = (def as z.core.$ZodPipeDef).in;
		else if (def.type === 'optional' || def.type === 'nullable') {
			node = (def as z.core.$ZodOptionalDef).innerType;
		} else return node;
	}
}

function planOf(schema: SchemaNode): WalkPlan {
	let plan = plans.get(schema);
	if (plan) return plan;
	const def = inputSide(schema)._zod.def;
	if (def.type === 'union') {
		const options = (def as z.core.$ZodUnionDef).options.map(inputSide);
		plan = {
			kind: 'union',
			object: options.find((o) => o._zod.def.type === 'object'),
			array: options.find((o) => o._zod.def.type === 'array')
		};
	} else if (def.type === 'object') {
		plan = { kind: 'object', shape: (def as z.core.$ZodObjectDef).shape };
	} else if (def.type === 'array') {
		plan = { kind: 'array', element: (def as z.core.$ZodArrayDef).element };
	} else plan = { kind: 'leaf' };
	plans.set(schema, plan);
	return plan;
}

/**
 * Walks the raw value along the schema; calls `onUnknown` for every key an object schema does not
 * have. `path` is the walk's own stack: valid during the call only (copy it to keep it).
 */
function walk(
	schema: SchemaNode,
	value: unknown,
	path: Key[],
	onUnknown: (path: Path, key: string, value: unknown) => void
): void {
	const plan = planOf(schema);
	if (plan.kind === 'union') {
		const option = Array.isArray(value) ? plan.array : isObject(value) ? plan.object : undefined;
		if (option) walk(option, value, path, onUnknown);
	} else if (plan.kind === 'object' && isObject(value)) {
		const { shape } = plan;
		for (const key of Object.keys(value)) {
			if (Object.hasOwn(shape, key)) {
				path.push(key);
				walk(shape[key], value[key], path, onUnknown);
				path.pop();
			} else onUnknown(path, key, value[key]);
		}
	} else if (plan.kind === 'array' && Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			path.push(i);
			walk(plan.element, value[i], path, onUnknown);
			path.pop();
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Rules the schema does not see.

interface ItemAt {
	item: Json;
	/** Path relative to the order, e.g. ['items', 2]. */
	rel: Path;
}

function itemsOf(order: Json, list: string): ItemAt[] {
	const items = order[list];
	if (!Array.isArray(items)) return [];
	const out: ItemAt[] = [];
	items.forEach((item, i) => {
		if (isObject(item)) out.push({ item, rel: [list, i] });
	});
	return out;
}

function str(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

function orderRules(s: Subject): void {
	const { ctx, order } = s;
	if (ctx.command === 'cancel-order') return;

	const at = (...rel: Key[]): Path => [...s.prefix, ...rel];
	const partial = ctx.command === 'partial-update-order';
	const lists = partial ? ['itemsToAdd', 'itemsToUpdate'] : ['items'];
	const messageItems = lists.flatMap((list) => itemsOf(order, list));

	if (!partial) {
		if (ctx.command === 'create-order' && Array.isArray(order.items) && order.items.length === 0) {
			s.report.add('KDS-ITEMS-EMPTY', at('items'), 'no items: the screen shows an empty card');
		}
		if (ctx.interface === 'tcp' && typeof order.time === 'string' && !hasError(s, at('time'))) {
			s.report.add(
				'KDS-TCP-TIME-STRING',
				at('time'),
				'time is an ISO 8601 string where TCP declares int milliseconds; accepted'
			);
		}
		const url = str(order.customerArrivedUrl);
		if (url !== undefined && !isHttpUrl(url)) {
			s.report.add(
				'KDS-URL-INVALID',
				at('customerArrivedUrl'),
				`expected an http(s) URL, got ${show(url)}; it would be sent to the customer as is`
			);
		}
	}

	phoneRules(s);
	prepTimeRules(s);
	handoffRule(s);
	for (const { item, rel } of messageItems) modifierRules(s, item, rel);
	lineIdRules(s);
	groupRules(s, messageItems);
}

function hasError(s: Subject, path: Path): boolean {
	const at = formatPath(path);
	return s.report.findings.some((f) => f.severity === 'error' && f.path === at);
}

function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

function phoneRules(s: Subject): void {
	const check = (value: unknown, rel: Path) => {
		const phone = str(value);
		if (phone !== undefined && !E164.test(phone)) {
			s.report.add(
				'KDS-PHONE-NOT-E164',
				[...s.prefix, ...rel],
				`expected an E.164 number such as +14155550123, got ${show(phone)}`
			);
		}
	};
	check(s.order.phoneNumber, ['phoneNumber']);
	const service = s.order.deliveryService;
	if (isObject(service)) check(service.driverPhone, ['deliveryService', 'driverPhone']);
}

/** A field of the order after this message: the message's value, else the order on screen's. */
function effective(s: Subject, key: string): unknown {
	const sent = s.order[key];
	if (sent !== undefined && sent !== null) return sent;
	if (s.ctx.command !== 'partial-update-order') return undefined;
	return (s.live?.context.fields as Json | undefined)?.[key];
}

function prepTimeRules(s: Subject): void {
	const path = [...s.prefix, 'prepTimeDuration'];
	if (typeof s.order.prepTimeDuration !== 'string' || hasError(s, path)) return;
	if (s.ctx.autoHold === false) {
		s.report.add(
			'KDS-PREP-TIME-IGNORED',
			path,
			"the screen's auto hold future orders is off, so prepTimeDuration is ignored"
		);
		return;
	}
	// A partial update of an order we cannot see may rely on the pickupTime it already has.
	if (s.ctx.command === 'partial-update-order' && !s.live) return;
	if (effective(s, 'pickupTime') === undefined) {
		s.report.add(
			'KDS-PREP-TIME-NO-PICKUP',
			path,
			'prepTimeDuration without pickupTime: there is no time to count the preparation back from'
		);
	}
}

function handoffRule(s: Subject): void {
	if (s.order.deliveryHandoff !== true) return;
	const mode = effective(s, 'mode');
	if (!(ORDER_MODES as readonly unknown[]).includes(mode) || mode === 'Delivery') return;
	s.report.add(
		'KDS-HANDOFF-IGNORED',
		[...s.prefix, 'deliveryHandoff'],
		`deliveryHandoff applies only to mode Delivery, and the mode is ${show(mode)}; ignored`
	);
}

function modifierRules(s: Subject, item: Json, rel: Path): void {
	if (!Array.isArray(item.mods)) return;
	if (item.mods.some((mod) => typeof mod === 'string')) {
		s.report.add(
			'KDS-MODS-PLAIN-STRING',
			[...s.prefix, ...rel, 'mods'],
			'plain-string mods are deprecated but accepted; send {name, qty?} objects'
		);
	}
	item.mods.forEach((mod, i) => {
		if (isObject(mod) && mod.qty === 0) {
			s.report.add(
				'KDS-MODIFIER-QTY-ZERO',
				[...s.prefix, ...rel, 'mods', i, 'qty'],
				'modifier qty 0 is not shown, the modifier still is (qty shows only when > 1)'
			);
		}
	});
}

function lineIdRules(s: Subject): void {
	const at = (rel: Path) => [...s.prefix, ...rel];
	// A full order's lineIds are the schema's (KDS-LINEID-NOT-UNIQUE): such an order is refused.
	if (s.ctx.command !== 'partial-update-order') return;
	for (const list of ['itemsToAdd', 'itemsToUpdate']) {
		const first = new Map<string, Path>();
		for (const { item, rel } of itemsOf(s.order, list)) {
			const lineId = str(item.lineId);
			if (lineId === undefined) continue;
			const earlier = first.get(lineId);
			if (earlier) {
				s.report.add(
					'KDS-LINEID-DUPLICATE',
					at([...rel, 'lineId']),
					`lineId ${show(lineId)} is also used by ${formatPath(earlier)}; lineIds must be unique`
				);
			} else first.set(lineId, rel);
		}
	}
	// Where one lineId sits in two lists, the order of add, update and remove is not specified.
	const named = new Map<string, string>();
	const removals = Array.isArray(s.order.itemsToRemove) ? s.order.itemsToRemove : [];
	const entries: Array<{ list: string; lineId: unknown; rel: Path }> = [
		...itemsOf(s.order, 'itemsToAdd').map(({ item, rel }) => ({
			list: 'itemsToAdd',
			lineId: item.lineId,
			rel: [...rel, 'lineId']
		})),
		...itemsOf(s.order, 'itemsToUpdate').map(({ item, rel }) => ({
			list: 'itemsToUpdate',
			lineId: item.lineId,
			rel: [...rel, 'lineId']
		})),
		...removals.map((lineId, i) => ({ list: 'itemsToRemove', lineId, rel: ['itemsToRemove', i] }))
	];
	for (const { list, lineId, rel } of entries) {
		if (typeof lineId !== 'string') continue;
		const other = named.get(lineId);
		if (other === undefined) named.set(lineId, list);
		else if (other !== list) {
			s.report.add(
				'KDS-LINEID-CONFLICT',
				at(rel),
				`lineId ${show(lineId)} is also in ${other}; the result is unpredictable`
			);
		}
	}
}

/** A group member: an item of this message (with its path) or one already on the order. */
interface Member {
	item: Json;
	rel?: Path;
}

const SAME_IN_GROUP = ['course', 'seat', 'courseStatus'] as const;
/** The itemGroup properties the screen reads (unknown ones are ignored, and named as such). */
const GROUP_KEYS = Object.keys(ItemGroupSchema.shape);

/** ItemGroup rules 1-3 (section 2.6), over the items the order will have after this message. */
function groupRules(s: Subject, messageItems: ItemAt[]): void {
	const members: Member[] = [];
	if (s.after) {
		// The items the card shows after this message, as the core left them; those this message
		// put there are read as sent, with their path.
		const sent = new Map<string, ItemAt[]>();
		for (const at of messageItems) {
			const lineId = str(at.item.lineId);
			if (lineId !== undefined) sent.set(lineId, [...(sent.get(lineId) ?? []), at]);
		}
		const fromMessage = s.ctx.command !== 'partial-update-order';
		for (const item of s.after.context.items) {
			if (item.deleted) continue;
			const candidates = fromMessage || item.changedAt === s.at ? sent.get(item.lineId) : undefined;
			// The last: itemsToUpdate is applied after itemsToAdd.
			const mine = candidates?.[candidates.length - 1];
			members.push(mine ?? { item: { ...item } });
		}
	} else {
		members.push(...messageItems);
	}

	const groups = new Map<string, Member[]>();
	for (const member of members) {
		const group = member.item.itemGroup;
		if (!isObject(group) || typeof group.id !== 'string') continue;
		const list = groups.get(group.id) ?? [];
		list.push(member);
		groups.set(group.id, list);
	}
	for (const [id, list] of groups) {
		const [first, ...rest] = list;
		const firstGroup = first.item.itemGroup as Json;
		const where = first.rel ? formatPath([...s.prefix, ...first.rel]) : 'the order on the screen';
		for (const member of rest) {
			// Both on the screen already: nothing this message can fix.
			if (!member.rel) continue;
			const group = member.item.itemGroup as Json;
			for (const key of GROUP_KEYS) {
				if (!sameValue(group[key], firstGroup[key])) {
					s.report.add(
						'KDS-GROUP-MISMATCH',
						[...s.prefix, ...member.rel, 'itemGroup', key],
						`group ${show(id)} has ${key} ${show(firstGroup[key])} in ${where} but ${show(group[key])} here; every property must be identical`
					);
				}
			}
			for (const key of SAME_IN_GROUP) {
				if (!sameValue(member.item[key], first.item[key])) {
					s.report.add(
						'KDS-GROUP-SPLIT',
						[...s.prefix, ...member.rel, key],
						`group ${show(id)} has ${key} ${show(first.item[key])} in ${where} but ${show(member.item[key])} here; a group cannot be split`
					);
				}
			}
		}
	}
}

/** Equal as JSON, with null and absent the same (the schema reads null as absent). */
function sameValue(a: unknown, b: unknown): boolean {
	return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
