/**
 * The certification suite (docs/certify.md) as data: every scenario a POS is graded on, with a
 * stable id, its own version, the one sentence a person reads, the machine-readable step a test
 * harness performs, what the simulator does meanwhile (the faults it arms itself), what is
 * checked, and the capabilities it needs. The judge (./judge.ts) grades each from the traffic the
 * simulator observed; the agent's run (agent/certify/) walks through them.
 *
 * An id never changes meaning: a scenario whose check changes gets a new `version` (the report's
 * hash covers the versions), one that goes away leaves its id unused.
 *
 * Pure: no Node, no DOM.
 */
import type { FaultSpecInput } from '../fault-kinds.ts';

/** The suite's version: a scenario added, removed or re-versioned bumps it. */
export const SUITE_VERSION = '1.0.0';

/** What a POS can declare it does, at the start of a run. */
export const CAPABILITIES = [
	'tcp',
	'http',
	'courses',
	'itemGroups',
	'notifications',
	'webhooks',
	'scheduled'
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const SCENARIO_GROUPS = ['good-day', 'talks-back', 'bad-day'] as const;
export type ScenarioGroup = (typeof SCENARIO_GROUPS)[number];

/** The order commands and notifications a step sends, by the names a harness uses. */
export const STEP_ACTIONS = [
	'create',
	'update',
	'partial',
	'cancel',
	'customer-arrived',
	'eta',
	'message'
] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

/**
 * What the order of a step must carry or do, for a harness to build it: `lineIds` (every item
 * has one), `modifiers` (items with mods), `itemGroups`, `holdCourse` (a course sent with
 * courseStatus hold) then `fireCourse` (an update firing it), `priority`, `specialInstructions`,
 * `scheduled` (pickupTime with prepTimeDuration), `offset` (times with an offset), `adds`,
 * `changes`, `removes` (a partial update's itemsToAdd, itemsToUpdate, itemsToRemove).
 */
export const STEP_NEEDS = [
	'lineIds',
	'modifiers',
	'itemGroups',
	'holdCourse',
	'fireCourse',
	'priority',
	'specialInstructions',
	'scheduled',
	'offset',
	'adds',
	'changes',
	'removes'
] as const;
export type StepNeed = (typeof STEP_NEEDS)[number];

/**
 * The machine-readable step: what a harness does. `actions` in order (an update, a partial or a
 * cancel acts on the order the step created first; a step that lists only `update` acts on an
 * order it creates first itself, which `actions` then starts with). `expect` says what a careful
 * POS ends with: the order on the screen once (`one-ticket`), or `retry`: the POS's own retry
 * logic is what is graded (the simulator gets in its way).
 */
export interface HarnessStep {
	interface: 'tcp' | 'http';
	actions: StepAction[];
	needs: StepNeed[];
	/** The fault's effect the POS will meet, in words a harness can switch on. */
	meets?: string;
	/** Webhook scenarios: the POS's endpoint must be registered for KDS Order Created. */
	webhook?: true;
}

/**
 * A fault the simulator arms when the step starts, as the admin API takes it, without its
 * target: the run adds `screen` (TCP faults, cloud-offline) or `location` (HTTP faults) of the
 * screen it certifies on, and its seed.
 */
export type ArmedFault = FaultSpecInput extends infer F
	? F extends { kind: string }
		? Omit<F, 'screen' | 'location'>
		: never
	: never;

/** What the judge checks (./judge.ts reads it): one of a few kinds, with their parameters. */
export type Check =
	/** The commands, accepted by the screen, carrying what `needs` says; warnings make it WARN. */
	| { kind: 'accepted'; commands: StepAction[]; needs: StepNeed[] }
	/** After a fault that left the outcome unknown: the same id again (or asked), one ticket. */
	| { kind: 'same-id-after-fault' }
	/** After a fault that kept nothing: the order sent again and accepted, else it is lost. */
	| { kind: 'resent-after-fault'; honoursRetryAfter?: true }
	/** Screen away (down, rebooting): retries that back off, and the order there when it is back. */
	| { kind: 'backs-off' }
	/** A slow answer: the POS waits, or retries with the same id: one ticket. */
	| { kind: 'one-ticket' }
	/** Cloud offline: the POS sees the failed delivery and falls back or re-sends. */
	| { kind: 'delivery-failure-handled' }
	/** The POS's webhook endpoint answers 2xx in time (`times` deliveries of the event). */
	| { kind: 'webhook-2xx'; times: 1 | 2 };

export interface Scenario {
	id: string;
	/** Bumped when what is checked changes. */
	version: number;
	group: ScenarioGroup;
	title: string;
	/** One sentence for a person at the POS. */
	instruction: string;
	step: HarnessStep;
	/** What the simulator does while the step runs, in words. */
	simulator: string;
	/** The faults it arms for the step (none on the good day). */
	faults: ArmedFault[];
	/** After the step: re-send the step's webhook deliveries once (the same event twice). */
	redeliver?: true;
	/** What is checked, in words (the report repeats it as "expected"). */
	checks: string;
	/** Why a kitchen cares. */
	why: string;
	check: Check;
	/** Capabilities the POS must declare for the scenario to apply. */
	needs: Capability[];
}

type Iface = 'tcp' | 'http';
const NAME: Record<Iface, string> = { tcp: 'TCP', http: 'HTTP' };

/** The good day, the same for each interface (each scenario with the interface in its id). */
function goodDay(iface: Iface): Scenario[] {
	const on = `over ${NAME[iface]}`;
	const base = (
		n: number,
		s: Omit<Scenario, 'id' | 'version' | 'group' | 'faults' | 'needs' | 'simulator' | 'step'> & {
			actions: StepAction[];
			stepNeeds: StepNeed[];
			needs?: Capability[];
			simulator?: string;
		}
	): Scenario => ({
		id: `KDS-CERT-${NAME[iface]}-${String(n).padStart(3, '0')}`,
		version: 1,
		group: 'good-day',
		title: s.title,
		instruction: s.instruction,
		step: { interface: iface, actions: s.actions, needs: s.stepNeeds },
		simulator: s.simulator ?? 'Answers as the real screen does; nothing armed.',
		faults: [],
		checks: s.checks,
		why: s.why,
		check: s.check,
		needs: [iface, ...(s.needs ?? [])]
	});
	const accepted = (commands: StepAction[], needs: StepNeed[]): Check => ({
		kind: 'accepted',
		commands,
		needs
	});
	return [
		base(1, {
			title: `A create with line ids and modifiers ${on}`,
			instruction: `Send a new order ${on} whose items each have a lineId, most with modifiers.`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'modifiers'],
			checks:
				'A create accepted, every item with a lineId (no KDS-LINEID-MISSING), some item with modifiers; no warning findings.',
			why: 'Without line ids a later update cannot name an item; modifiers are what the cook must not miss.',
			check: accepted(['create'], ['lineIds', 'modifiers'])
		}),
		base(2, {
			title: `Item groups ${on}`,
			instruction: `Send an order ${on} with items grouped (a combo or a meal) by itemGroup.`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'itemGroups'],
			needs: ['itemGroups'],
			checks:
				'A create accepted with items carrying itemGroup, the groups read as sent (no KDS-GROUP-* finding).',
			why: 'A meal split across the ticket is cooked in pieces and sent out incomplete.',
			check: accepted(['create'], ['itemGroups'])
		}),
		base(3, {
			title: `Courses held and fired ${on}`,
			instruction: `Send an order ${on} with a course on hold, then fire that course with an update.`,
			actions: ['create', 'update'],
			stepNeeds: ['lineIds', 'holdCourse', 'fireCourse'],
			needs: ['courses'],
			checks:
				'A create accepted with an item courseStatus hold, then an update (full or partial) of that order accepted that fires it.',
			why: 'A main fired with the starters is cold by the time it is eaten.',
			check: accepted(['create', 'update'], ['holdCourse', 'fireCourse'])
		}),
		base(4, {
			title: `Priority ${on}`,
			instruction: `Send an order ${on} marked priority.`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'priority'],
			checks: 'A create accepted with priority true (the screen puts it at the front).',
			why: 'A rush order that sits at the back of the queue is late.',
			check: accepted(['create'], ['priority'])
		}),
		base(5, {
			title: `Special instructions ${on}`,
			instruction: `Send an order ${on} with special instructions on the order and on an item.`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'specialInstructions'],
			checks: 'A create accepted carrying specialInstructions.',
			why: '"No nuts" that never reaches the screen is an allergy incident.',
			check: accepted(['create'], ['specialInstructions'])
		}),
		base(6, {
			title: `A scheduled order ${on}`,
			instruction: `Send an order ${on} for later: a pickupTime with a prepTimeDuration.`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'scheduled', 'offset'],
			needs: ['scheduled'],
			checks:
				'A create accepted with pickupTime and prepTimeDuration, no KDS-PREP-TIME-* or KDS-TIME-* warning.',
			why: 'A catering order cooked at 9 for a noon pickup is thrown away.',
			check: accepted(['create'], ['scheduled'])
		}),
		base(7, {
			title: `A full update ${on}`,
			instruction: `Create an order ${on}, then send the whole order again as an update (an item added).`,
			actions: ['create', 'update'],
			stepNeeds: ['lineIds', 'modifiers'],
			checks: 'A create, then a full update of the same id, both accepted.',
			why: 'A guest who adds a drink at the counter must see it made.',
			check: accepted(['create', 'update'], [])
		}),
		base(8, {
			title: `A partial update that adds, changes and removes ${on}`,
			instruction: `Create an order ${on}, then send one partial update that adds an item, changes one and removes one.`,
			actions: ['create', 'partial'],
			stepNeeds: ['lineIds', 'adds', 'changes', 'removes'],
			checks:
				'A partial update accepted with itemsToAdd, itemsToUpdate and itemsToRemove, every lineId known to the screen (no KDS-LINEID-* finding).',
			why: 'A change the screen cannot place leaves the cook making the old order.',
			check: accepted(['create', 'partial'], ['adds', 'changes', 'removes'])
		}),
		base(9, {
			title: `A cancel ${on}`,
			instruction: `Create an order ${on}, then cancel it.`,
			actions: ['create', 'cancel'],
			stepNeeds: ['lineIds'],
			checks:
				'A cancel of an order the screen has, accepted (no KDS-ORDER-UNKNOWN, no KDS-CANCEL-IGNORED).',
			why: 'A cancelled order still cooking is food and time thrown away.',
			check: accepted(['create', 'cancel'], [])
		}),
		base(10, {
			title: `Times with an offset ${on}`,
			instruction: `Send an order ${on} whose time carries its UTC offset (2026-05-01T12:00:00+02:00, or Z).`,
			actions: ['create'],
			stepNeeds: ['lineIds', 'offset'],
			checks:
				'A create accepted with no KDS-TIME-NO-OFFSET (a time without offset is read in the screen’s zone).',
			why: 'A time read in the wrong zone makes every ticket look hours late, or early.',
			check: accepted(['create'], ['offset'])
		})
	];
}

/** Notifications (HTTP only). */
const notifications: Scenario[] = (
	[
		[
			11,
			'customer-arrived',
			'Customer arrived',
			'Send customer arrived for an order you created.',
			'The runner brings the bag out to the car.'
		],
		[
			12,
			'eta',
			'An estimated arrival',
			'Send an estimated arrival (minutes) for an order you created.',
			'The kitchen times the order to the guest, not to the ticket.'
		],
		[
			13,
			'message',
			'A message to the screens',
			'Send a message to the location’s screens.',
			'A note the whole kitchen must see ("the fryer is down").'
		]
	] as const
).map(([n, action, title, instruction, why]) => ({
	id: `KDS-CERT-HTTP-0${n}`,
	version: 1,
	group: 'good-day' as const,
	title: `${title} over HTTP`,
	instruction,
	step: {
		interface: 'http' as const,
		actions: action === 'message' ? ['message' as const] : ['create' as const, action],
		needs: ['lineIds' as const]
	},
	simulator: 'Answers as the real screen does; nothing armed.',
	faults: [],
	checks: `The ${action} notification accepted (2xx).`,
	why,
	check: { kind: 'accepted' as const, commands: [action], needs: [] },
	needs: ['http' as const, 'notifications' as const]
}));

const talksBack: Scenario[] = [
	{
		id: 'KDS-CERT-HOOK-001',
		version: 1,
		group: 'talks-back',
		title: 'The webhook endpoint answers 2xx in time',
		instruction:
			'With your endpoint registered for KDS Order Created, create an order over HTTP; your endpoint must answer 2xx within 5 s.',
		step: { interface: 'http', actions: ['create'], needs: ['lineIds'], webhook: true },
		simulator: 'Delivers KDS Order Created to every endpoint of the brand, as the vendor does.',
		faults: [],
		checks:
			'Every delivery of the step answered 2xx on its first attempt, within the 5 s time-out.',
		why: 'An endpoint that times out is retried, then given up: the POS never hears the order was made.',
		check: { kind: 'webhook-2xx', times: 1 },
		needs: ['http', 'webhooks']
	},
	{
		id: 'KDS-CERT-HOOK-002',
		version: 1,
		group: 'talks-back',
		title: 'The same event delivered twice',
		instruction:
			'Create an order over HTTP; the simulator delivers its KDS Order Created twice: your endpoint must answer 2xx both times (and act once).',
		step: { interface: 'http', actions: ['create'], needs: ['lineIds'], webhook: true },
		simulator:
			'Delivers KDS Order Created, then re-sends the delivery (the same body) when the step ends, as a retry after a lost answer would.',
		faults: [],
		redeliver: true,
		checks: 'Both deliveries of the event answered 2xx in time.',
		why: 'Webhooks are delivered at least once: an endpoint that fails on a repeat loses the next event too.',
		check: { kind: 'webhook-2xx', times: 2 },
		needs: ['http', 'webhooks']
	}
];

const bad = (
	n: number,
	iface: Iface,
	s: Omit<Scenario, 'id' | 'version' | 'group' | 'needs' | 'step'> & { meets: string }
): Scenario => ({
	id: `KDS-CERT-BAD-${String(n).padStart(3, '0')}`,
	version: 1,
	group: 'bad-day',
	title: s.title,
	instruction: s.instruction,
	step: { interface: iface, actions: ['create'], needs: ['lineIds'], meets: s.meets },
	simulator: s.simulator,
	faults: s.faults,
	checks: s.checks,
	why: s.why,
	check: s.check,
	needs: [iface]
});

const badDay: Scenario[] = [
	bad(1, 'tcp', {
		title: 'Lost reply over TCP: the same id again, one ticket',
		instruction: 'Send one order over TCP; its reply will be lost: retry it with the same id.',
		meets: 'lost-reply',
		simulator:
			'Arms lost-reply once: the order is committed and shown, then the connection closes without the reply.',
		faults: [{ kind: 'lost-reply', count: 1 }],
		checks:
			'The same order id sent again (answered DUPLICATE_ORDER_ID: expected, the order is there) or the active orders asked; never the order under a new id.',
		why: 'A retry under a new id puts two tickets in the kitchen: the order is cooked twice.',
		check: { kind: 'same-id-after-fault' }
	}),
	bad(2, 'tcp', {
		title: 'Reset before commit over TCP: re-sent, else the order is lost',
		instruction:
			'Send one order over TCP; the connection will be reset before the screen keeps it: send it again.',
		meets: 'reset-before-commit',
		simulator:
			'Arms reset-before-commit once: the connection is reset as the message arrives; nothing is kept.',
		faults: [{ kind: 'reset-before-commit', count: 1 }],
		checks:
			'The order sent again and accepted; never sent again is KDS-FAULT-ORDER-LOST (an error).',
		why: 'An order the POS believes sent and the kitchen never got is a guest with no food.',
		check: { kind: 'resent-after-fault' }
	}),
	bad(3, 'tcp', {
		title: 'Screen down over TCP: retries that back off',
		instruction:
			'Send one order over TCP while the screen is down (about 3 s): retry, backing off, until it is taken.',
		meets: 'down',
		simulator: 'Arms down for 3 s: every connection is reset as it opens (each attempt counted).',
		faults: [{ kind: 'down', durationMs: 3000 }],
		checks:
			'Fewer than 5 attempts in any second (no KDS-FAULT-RETRY-STORM), and the order accepted once the screen is back.',
		why: 'A POS hammering a dead screen floods the kitchen network; one that gives up loses the order.',
		check: { kind: 'backs-off' }
	}),
	bad(4, 'tcp', {
		title: 'Screen rebooting over TCP: the order there when it is back',
		instruction:
			'Send one order over TCP while the screen reboots (about 3 s, each connection reset): retry, backing off, until it is taken.',
		meets: 'reboot',
		simulator:
			'Arms a 3 s reboot: each connection is reset (ECONNRESET) while it is away, then it is back with every order.',
		faults: [{ kind: 'reboot', seconds: 3 }],
		checks:
			'The order accepted once the screen is back; no storm finding against the rebooting screen.',
		why: 'Tablets restart mid-rush; the orders sent meanwhile must still reach the kitchen.',
		check: { kind: 'backs-off' }
	}),
	bad(5, 'tcp', {
		title: 'Slow reply over TCP: wait, or retry with the same id',
		instruction:
			'Send one order over TCP; the reply comes 1.5 s late: wait for it, or retry with the same id.',
		meets: 'slow-reply',
		simulator: 'Arms slow-reply once (1.5 s).',
		faults: [{ kind: 'slow-reply', delayMs: 1500, count: 1 }],
		checks:
			'One ticket for the order: no second accepted create of the same order under another id.',
		why: 'A busy tablet answers late; a POS that gives up and re-sends under a new id doubles the order.',
		check: { kind: 'one-ticket' }
	}),
	bad(6, 'tcp', {
		title: 'No answer over TCP: the POS reads each reply',
		instruction:
			'Send one order over TCP; the screen takes it and never answers: your read time-out must notice, then re-send the same id or ask.',
		meets: 'no-answer',
		simulator:
			'Arms no-answer once: the order is committed and shown; no reply comes, the connection stays open.',
		faults: [{ kind: 'no-answer', count: 1 }],
		checks:
			'The same id sent again (DUPLICATE_ORDER_ID expected) or the active orders asked. A client that writes and closes without reading never notices: named here.',
		why: 'A POS that does not read replies never learns of a refusal, nor of a reply that never came.',
		check: { kind: 'same-id-after-fault' }
	}),
	bad(101, 'http', {
		title: '503 with Retry-After over HTTP: a retry that honours it',
		instruction:
			'Create one order over HTTP; it is answered 503 with Retry-After: 2: retry after 2 s.',
		meets: 'http-status 503',
		simulator: 'Arms http-status 503 with Retry-After 2 s on create, once. Nothing is kept.',
		faults: [{ kind: 'http-status', status: 503, retryAfter: 2, route: 'create', count: 1 }],
		checks:
			'The order sent again no sooner than Retry-After and accepted; never sent again is KDS-FAULT-ORDER-LOST.',
		why: 'A retry before Retry-After is refused again; none at all loses the order.',
		check: { kind: 'resent-after-fault', honoursRetryAfter: true }
	}),
	bad(102, 'http', {
		title: '429 over HTTP: a retry that honours Retry-After',
		instruction:
			'Create one order over HTTP; it is answered 429 with Retry-After: 1: retry after 1 s.',
		meets: 'http-status 429',
		simulator: 'Arms http-status 429 with Retry-After 1 s on create, once.',
		faults: [{ kind: 'http-status', status: 429, retryAfter: 1, route: 'create', count: 1 }],
		checks:
			'The order sent again no sooner than Retry-After (no KDS-FAULT-RETRY-TOO-SOON) and accepted.',
		why: 'Rate limits protect the screens in a rush; a POS that ignores them makes the rush worse.',
		check: { kind: 'resent-after-fault', honoursRetryAfter: true }
	}),
	bad(103, 'http', {
		title: 'A 5xx over HTTP: re-sent, else the order is lost',
		instruction: 'Create one order over HTTP; it is answered 500: send it again.',
		meets: 'http-status 500',
		simulator: 'Arms http-status 500 on create, once. Nothing is kept.',
		faults: [{ kind: 'http-status', status: 500, route: 'create', count: 1 }],
		checks: 'The order sent again and accepted; never sent again is KDS-FAULT-ORDER-LOST.',
		why: 'A server error keeps nothing: only the POS can still save the order.',
		check: { kind: 'resent-after-fault' }
	}),
	bad(104, 'http', {
		title: 'Connection dropped over HTTP: re-sent, else the order is lost',
		instruction:
			'Create one order over HTTP; the connection drops with no response: send it again.',
		meets: 'http-drop',
		simulator: 'Arms http-drop on create, once: closed before handling, nothing kept.',
		faults: [{ kind: 'http-drop', route: 'create', count: 1 }],
		checks: 'The order sent again and accepted; never sent again is KDS-FAULT-ORDER-LOST.',
		why: 'A dropped request is the everyday Wi-Fi failure; the order must survive it.',
		check: { kind: 'resent-after-fault' }
	}),
	bad(105, 'http', {
		title: 'Response lost after commit over HTTP: no second ticket',
		instruction:
			'Create one order over HTTP; it is kept but the response is lost: retry with the same id (409 then means it is there).',
		meets: 'http-response-lost',
		simulator:
			'Arms http-response-lost on create, once: handled (committed), then closed without answering.',
		faults: [{ kind: 'http-response-lost', route: 'create', count: 1 }],
		checks:
			'The same id sent again (409 expected) or the active orders asked; never under a new id.',
		why: 'The order is already cooking: a retry under a new id cooks it twice.',
		check: { kind: 'same-id-after-fault' }
	}),
	bad(106, 'http', {
		title: 'Slow answer over HTTP: wait, or retry with the same id',
		instruction:
			'Create one order over HTTP; the answer comes 3 s late: wait, or retry with the same id.',
		meets: 'http-delay',
		simulator: 'Arms http-delay 3 s on create, once (handled, then answered late).',
		faults: [{ kind: 'http-delay', delayMs: 3000, route: 'create', count: 1 }],
		checks:
			'One ticket for the order: no second accepted create of the same order under another id.',
		why: 'A slow cloud is common at lunch; a POS that re-sends under a new id doubles the order.',
		check: { kind: 'one-ticket' }
	}),
	bad(107, 'http', {
		title: 'A screen offline from the cloud: the failed delivery seen',
		instruction:
			'Create one order over HTTP for the screen while it is offline from the cloud (about 3 s): see the failed delivery, then send it over TCP or again once it is back.',
		meets: 'cloud-offline',
		simulator:
			'Arms cloud-offline (fail) on the screen for 3 s: API orders to it are answered 502 NOT_DELIVERED.',
		faults: [{ kind: 'cloud-offline', durationMs: 3000 }],
		checks:
			'After the 502, the same order accepted (over TCP, or over HTTP once back); else it is lost.',
		why: 'The screen still cooks what reaches it locally; a POS that ignores the failed delivery loses the order.',
		check: { kind: 'delivery-failure-handled' }
	})
];

/** Every scenario, in the order a run walks through them. */
export const SCENARIOS: readonly Scenario[] = [
	...goodDay('tcp'),
	...goodDay('http'),
	...notifications,
	...talksBack,
	...badDay
];

export function scenarioById(id: string): Scenario | undefined {
	return SCENARIOS.find((s) => s.id === id);
}

/** The capabilities a scenario needs that were not declared (empty: it applies). */
export function missingCapabilities(
	scenario: Scenario,
	declared: readonly Capability[]
): Capability[] {
	return scenario.needs.filter((c) => !declared.includes(c));
}
