/**
 * Schema findings: the schema's issues, each given a stable code (type and value errors are not
 * written again here), and the fields the schema does not read (unknown fields).
 *
 * Pure: no Node, no DOM.
 */
import type * as z from 'zod';
import type { Outcome } from './outcome.ts';
import type { RuleCode } from './rules.ts';
import { PartialOrderSchema, TcpOrderSchema, type OrderCommand } from './order-schema.ts';
import { parseWith } from './parse.ts';
import {
	isObject,
	orderSchemaFor,
	type Json,
	type Key,
	type Path,
	type Subject
} from './conformance-subject.ts';

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

/**
 * The order as the core's parser reads it, with what the parser normalised; or undefined, the
 * schema's issues reported, when it refuses the order.
 */
export function readOrder(
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

export function unknownFields(s: Subject): void {
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
		// for…in over own keys: the keys Object.keys gives, in its order, without an array per object
		// (2.3 KB per 10-item create).
		for (const key in value) {
			if (!Object.hasOwn(value, key)) continue;
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
