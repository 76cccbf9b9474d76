/**
 * The fast path of order-step.ts: what XState's `initialTransition` and `transition` compute for
 * the order machine, read once from the machine's own definition (its context factory, its
 * states' transitions, their named guards and assign actions) and then applied without building
 * an actor or a snapshot. XState's pure functions build a throwaway actor on every call (about
 * 25 µs each, most of a command's cost); this takes about 1 µs. It reads XState internals
 * (`root`, `transitions`, `implementations`), so it refuses (null) any machine with something it
 * does not reproduce — nested states, entry or exit actions, eventless transitions after the
 * start, wildcard events, inline guards or actions, actions other than assign, parameters — and
 * XState serves instead. order-step-fast.spec.ts holds it to XState on generated records and
 * events; docs/performance.md says what it buys.
 */
import { createActor, type ActorScope } from 'xstate';
import type {
	OrderContext,
	OrderEvent,
	OrderInput,
	OrderMachine,
	OrderRecord,
	OrderSnapshot,
	OrderStateName
} from './order-machine.ts';

export interface OrderStepper {
	createRecord(input: OrderInput): OrderRecord;
	step(record: OrderRecord, event: OrderEvent): OrderRecord | null;
}

type Self = ActorScope<OrderSnapshot, OrderEvent>['self'];
type System = ActorScope<OrderSnapshot, OrderEvent>['system'];
type InitialContext = (args: { input: OrderInput; self: Self; spawn: () => never }) => OrderContext;
/** A guard as the machine implements it (its guards take no parameters). */
type Guard = (args: { context: OrderContext; event: unknown }, params: undefined) => boolean;
type StateNode = OrderMachine['root'];
type AssignArgs = {
	context: OrderContext;
	event: OrderEvent;
	spawn: () => never;
	self: Self;
	system: System;
};
type Assigner = (args: AssignArgs, params: undefined) => unknown;
type Assignment = Assigner | Record<string, unknown>;

interface InitialTransition {
	guard?: Guard;
	target: OrderStateName;
}

interface EventTransition {
	guard?: Guard;
	/** null: the order stays in its state. */
	target: OrderStateName | null;
	assignments: Assignment[];
}

function neverSpawn(): never {
	throw new Error('the order machine spawns nothing');
}

/** A state with no children and nothing to do on entry or exit. */
function isPlain(node: StateNode): boolean {
	return node.type === 'atomic' && node.entry.length === 0 && node.exit.length === 0;
}

/**
 * The fast path for `machine`, or null when it has anything the fast path does not reproduce.
 * `fallback` (XState's pure functions) serves the cases the tables do not cover: a create whose
 * start has no transition that holds, a record in a state the tables do not hold.
 */
export function fastPathOf(machine: OrderMachine, fallback: OrderStepper): OrderStepper | null {
	// The actor the context factory and assign actions are handed as `self`: never started.
	const self = createActor(machine, {
		input: { order: { id: '-', name: '', time: '', mode: 'ToGo', items: [] }, at: 0, seq: 0 }
	});

	/**
	 * The implementation of a transition's guard: undefined when it has none, null when the fast
	 * path cannot call it (inline, or with parameters).
	 */
	function namedGuard(guard: unknown): Guard | undefined | null {
		if (guard === undefined) return undefined;
		const guards = machine.implementations.guards as Record<string, Guard | undefined>;
		return (typeof guard === 'string' ? guards[guard] : undefined) ?? null;
	}

	/**
	 * What `initialTransition` does for this machine: its context factory, then the first
	 * `always` transition of the initial state whose guard holds.
	 */
	function initialRules(): { context: InitialContext; transitions: InitialTransition[] } | null {
		const root = machine.root;
		const context = (machine.config as { context?: unknown }).context;
		const initial = root.initial;
		if (
			typeof context !== 'function' ||
			root.entry.length > 0 ||
			root.always ||
			initial.actions.length > 0
		) {
			return null;
		}
		if (initial.target.length !== 1) return null;
		const start = initial.target[0];
		if (!isPlain(start) || start.transitions.size > 0 || !start.always) return null;
		const transitions: InitialTransition[] = [];
		for (const t of start.always) {
			if (t.actions.length > 0 || t.target?.length !== 1) return null;
			const target = t.target[0];
			if (!isPlain(target) || target.always) return null;
			const guard = namedGuard(t.guard);
			if (guard === null) return null;
			transitions.push({ guard, target: target.key as OrderStateName });
		}
		return { context: context as InitialContext, transitions };
	}

	/**
	 * What `transition` does for this machine: per state and event type, the transitions in
	 * order, each with its named guard, its target and its assign actions.
	 */
	function eventRules(): Map<string, Map<string, EventTransition[]>> | null {
		const root = machine.root;
		if (root.transitions.size > 0 || root.entry.length > 0 || root.exit.length > 0) return null;
		const actions = machine.implementations.actions as Record<
			string,
			{ type?: string; assignment?: Assignment } | undefined
		>;
		const table = new Map<string, Map<string, EventTransition[]>>();
		for (const node of Object.values(root.states)) {
			if (node.always && node.key === root.initial.target[0]?.key) continue; // the start only
			if (!isPlain(node) || node.always) return null;
			const byEvent = new Map<string, EventTransition[]>();
			for (const [type, transitions] of node.transitions) {
				if (type.includes('*')) return null;
				const list: EventTransition[] = [];
				for (const t of transitions) {
					if (t.target && (t.target.length !== 1 || t.target[0].parent !== root)) return null;
					if (!t.target && t.actions.length === 0) return null;
					const guard = namedGuard(t.guard);
					if (guard === null) return null;
					const assignments: Assignment[] = [];
					for (const name of t.actions) {
						const action = typeof name === 'string' ? actions[name] : undefined;
						if (action?.type !== 'xstate.assign' || !action.assignment) return null;
						assignments.push(action.assignment);
					}
					const target = t.target ? (t.target[0].key as OrderStateName) : null;
					list.push({ guard, target, assignments });
				}
				byEvent.set(type, list);
			}
			table.set(node.key, byEvent);
		}
		return table;
	}

	const initial = initialRules();
	const events = eventRules();
	if (!initial || !events) return null;

	/** One assign action as XState's resolveAssign applies it: a shallow merge onto a copy. */
	function assignOnto(
		context: OrderContext,
		event: OrderEvent,
		assignment: Assignment
	): OrderContext {
		const args: AssignArgs = { context, event, spawn: neverSpawn, self, system: self.system };
		let partial: Record<string, unknown>;
		if (typeof assignment === 'function') {
			partial = assignment(args, undefined) as Record<string, unknown>;
		} else {
			partial = {};
			for (const key of Object.keys(assignment)) {
				const value = assignment[key];
				partial[key] = typeof value === 'function' ? (value as Assigner)(args, undefined) : value;
			}
		}
		return Object.assign({}, context, partial) as OrderContext;
	}

	return {
		createRecord(input) {
			// XState assigns the factory's result onto an empty context, a shallow copy; the factory
			// returns a fresh object no one else holds, so it is the context itself here.
			const context = initial.context({ input, self, spawn: neverSpawn });
			const event = { type: 'xstate.init', input };
			for (const t of initial.transitions) {
				if (!t.guard || t.guard({ context, event }, undefined)) return { state: t.target, context };
			}
			return fallback.createRecord(input);
		},
		step(record, event) {
			const byEvent = events.get(record.state);
			if (!byEvent) return fallback.step(record, event);
			for (const t of byEvent.get(event.type) ?? []) {
				if (t.guard && !t.guard({ context: record.context, event }, undefined)) continue;
				let context = record.context;
				for (const assignment of t.assignments) context = assignOnto(context, event, assignment);
				return { state: t.target ?? record.state, context };
			}
			return null;
		}
	};
}
