/**
 * Faults on cue (docs/faults.md): what a tester asks the simulator to do wrong, and when. The
 * kinds, their targets and parameters (one zod schema, validated once at the admin API's and the
 * config's edge, and parseFaultSpec, which names every wrong field). When a fault fires is
 * ./fault-firing.ts, the named sets of faults ./fault-profiles.ts. The agent (agent/faults/)
 * keeps the live faults and applies them; this module knows no socket.
 */
import { integratorRouteOf, ORDER_ROUTES, routeFamilyOf } from './integrator-routes.ts';
import * as z from 'zod';
import { expected, formatPath, parseWith, type ParseResult } from './parse.ts';

/**
 * Every fault kind, once: where it acts and what it leaves behind. Every list, set and switch of
 * kinds (the schema's variants, the TCP listener's and the HTTP hooks' effects, the judgement of
 * what the client did next) is read from here or checked against it (`satisfies Record<FaultKind,
 * ...>` and core/fault-kinds.spec.ts), so a kind cannot be accepted by one place and never fire in
 * another.
 *
 * - `transport`: the screen's TCP port, or the HTTP integrator API;
 * - `stage`: where it acts: on a `connection` as it opens, on a message `before-commit` (nothing
 *   is kept), on the `reply` of a committed message, or on the `screen` as a whole (at once, when
 *   added: its port away, offline from the cloud);
 * - `commits`: whether the message it touches is kept all the same;
 * - `outcomeUnknown`: whether the client cannot tell from what it got whether the message took
 *   effect (it must re-send the same id, or ask);
 * - `delay`: a delay that composes with one other fault on the same message (docs/faults.md).
 */
export const FAULT_KIND_TABLE = {
	down: {
		transport: 'tcp',
		stage: 'connection',
		commits: false,
		outcomeUnknown: false,
		delay: false
	},
	'lost-reply': {
		transport: 'tcp',
		stage: 'reply',
		commits: true,
		outcomeUnknown: true,
		delay: false
	},
	'reset-before-commit': {
		transport: 'tcp',
		stage: 'before-commit',
		commits: false,
		outcomeUnknown: true,
		delay: false
	},
	'no-answer': {
		transport: 'tcp',
		stage: 'reply',
		commits: true,
		outcomeUnknown: true,
		delay: false
	},
	'slow-reply': {
		transport: 'tcp',
		stage: 'reply',
		commits: true,
		outcomeUnknown: false,
		delay: true
	},
	'reply-in-pieces': {
		transport: 'tcp',
		stage: 'reply',
		commits: true,
		outcomeUnknown: false,
		delay: false
	},
	reboot: {
		transport: 'tcp',
		stage: 'screen',
		commits: false,
		outcomeUnknown: false,
		delay: false
	},
	'http-status': {
		transport: 'http',
		stage: 'before-commit',
		commits: false,
		outcomeUnknown: true,
		delay: false
	},
	'http-delay': {
		transport: 'http',
		stage: 'reply',
		commits: true,
		outcomeUnknown: false,
		delay: true
	},
	'http-drop': {
		transport: 'http',
		stage: 'before-commit',
		commits: false,
		outcomeUnknown: true,
		delay: false
	},
	'http-response-lost': {
		transport: 'http',
		stage: 'reply',
		commits: true,
		outcomeUnknown: true,
		delay: false
	},
	'cloud-offline': {
		transport: 'http',
		stage: 'screen',
		commits: false,
		outcomeUnknown: false,
		delay: false
	}
} as const satisfies Record<
	string,
	{
		transport: 'tcp' | 'http';
		stage: 'connection' | 'before-commit' | 'reply' | 'screen';
		commits: boolean;
		outcomeUnknown: boolean;
		delay: boolean;
	}
>;

type KindTable = typeof FAULT_KIND_TABLE;
export type FaultKind = keyof KindTable;
export type FaultKindInfo = KindTable[FaultKind];
/** The kinds whose row has these values, as a type: `KindsWhere<{ transport: 'tcp' }>`. */
export type KindsWhere<Row extends Partial<FaultKindInfo>> = {
	[K in FaultKind]: KindTable[K] extends Row ? K : never;
}[FaultKind];
export type TcpFaultKind = KindsWhere<{ transport: 'tcp' }>;
export type HttpFaultKind = KindsWhere<{ transport: 'http' }>;

/** Every kind, in the table's order. */
export const FAULT_KINDS = Object.keys(FAULT_KIND_TABLE) as FaultKind[];

/** The kinds whose row has these values. */
export function kindsWhere<Row extends Partial<FaultKindInfo>>(row: Row): KindsWhere<Row>[] {
	return FAULT_KINDS.filter((kind) =>
		Object.entries(row).every(
			([key, value]) => FAULT_KIND_TABLE[kind][key as keyof FaultKindInfo] === value
		)
	) as KindsWhere<Row>[];
}

/** Faults on a screen's TCP port. */
export const TCP_FAULT_KINDS = kindsWhere({ transport: 'tcp' });
/** Faults on the HTTP integrator API, and a screen offline from the cloud. */
export const HTTP_FAULT_KINDS = kindsWhere({ transport: 'http' });

/**
 * Faults after which an order is not in the kitchen and the client was not told it is: unless it
 * sends that order id again, the order is lost for good (KDS-FAULT-ORDER-LOST).
 */
export function losesOrder(kind: FaultKind): boolean {
	const row = FAULT_KIND_TABLE[kind];
	return row.stage === 'before-commit' && !row.commits && row.outcomeUnknown;
}

/**
 * The integrator routes a fault can name (absent: every route): the order routes by their names in
 * the route table (core/integrator-routes.ts), the active orders, and the information and
 * notification families.
 */
export const FAULT_ROUTES = [
	...(Object.keys(ORDER_ROUTES) as Array<keyof typeof ORDER_ROUTES>),
	'active',
	'information',
	'notifications'
] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];

/** The statuses an HTTP fault answers with. */
export const FAULT_STATUSES = [500, 502, 503, 504, 429] as const;

/** How a screen offline from the cloud answers API orders to it (docs/faults.md). */
export const OFFLINE_MODES = ['fail', 'queue'] as const;

const count = z
	.int()
	.min(1)
	.optional()
	.describe('Fire for the next N matching messages (TCP connections for down); absent: no limit.');
const durationMs = z
	.int()
	.min(1)
	.max(24 * 3_600_000)
	.optional()
	.describe('On for this long after it is added (ms); absent: until removed.');
const probability = z
	.number()
	.min(0)
	.max(1)
	.optional()
	.describe('Fire on each matching message with this probability (0-1); absent: always.');
const seed = z
	.int()
	.min(0)
	.max(2 ** 32 - 1)
	.optional()
	.describe('Seed of the probability draws: the same seed fires on the same messages.');
const label = z.string().max(80).optional().describe('A name to find it by (a profile sets it).');

const when = { count, durationMs, probability, seed, label };
const screen = z.string().min(1).describe('A screen id of the configuration.');
const delayMs = z.int().min(0).max(600_000);

export const FaultSpecSchema = z.discriminatedUnion('kind', [
	z.strictObject({
		kind: z.literal('down').describe('Every connection to the port is reset as it opens.'),
		screen,
		...when
	}),
	z.strictObject({ kind: z.literal('lost-reply'), screen, ...when }),
	z.strictObject({ kind: z.literal('reset-before-commit'), screen, ...when }),
	z.strictObject({ kind: z.literal('no-answer'), screen, ...when }),
	z.strictObject({
		kind: z.literal('slow-reply'),
		screen,
		delayMs: delayMs.describe('The reply waits this long (ms).'),
		maxDelayMs: delayMs
			.optional()
			.describe('With it, a delay drawn between delayMs and this (ms), seeded.'),
		...when
	}),
	z.strictObject({
		kind: z.literal('reply-in-pieces'),
		screen,
		pieces: z.int().min(2).max(64).default(3).describe('How many writes the reply is cut into.'),
		pauseMs: z.int().min(0).max(60_000).default(200).describe('The pause between them (ms).'),
		...when
	}),
	z.strictObject({
		kind: z.literal('reboot'),
		screen,
		seconds: z
			.number()
			.min(0.1)
			.max(3600)
			.describe('How long the screen is away: its port closed, its browsers let go.'),
		label
	}),
	z.strictObject({
		kind: z.literal('http-status'),
		status: z.literal(FAULT_STATUSES).describe('The status answered.'),
		retryAfter: z
			.int()
			.min(0)
			.max(86_400)
			.optional()
			.describe('Retry-After in seconds (429 and 503); 429 without it sends 1.'),
		route: z.enum(FAULT_ROUTES).optional(),
		location: z.string().min(1).optional(),
		screen: screen.optional(),
		...when
	}),
	z.strictObject({
		kind: z.literal('http-delay'),
		delayMs: delayMs.describe('The answer waits this long after the request is handled (ms).'),
		route: z.enum(FAULT_ROUTES).optional(),
		location: z.string().min(1).optional(),
		screen: screen.optional(),
		...when
	}),
	z.strictObject({
		kind: z.literal('http-drop'),
		route: z.enum(FAULT_ROUTES).optional(),
		location: z.string().min(1).optional(),
		screen: screen.optional(),
		...when
	}),
	z.strictObject({
		kind: z.literal('http-response-lost'),
		route: z.enum(FAULT_ROUTES).optional(),
		location: z.string().min(1).optional(),
		screen: screen.optional(),
		...when
	}),
	z.strictObject({
		kind: z.literal('cloud-offline'),
		screen,
		mode: z
			.enum(OFFLINE_MODES)
			.default('fail')
			.describe(
				'fail: API orders to it get a failed delivery status; queue: accepted, shown when it is back online.'
			),
		durationMs: when.durationMs,
		label
	})
]);

/**
 * The schema has one variant per kind of the table, and no other: a kind missing from either
 * does not compile (and core/fault-kinds.spec.ts checks the same at run time).
 */
type SchemaKind = z.output<typeof FaultSpecSchema>['kind'];
export const SCHEMA_COVERS_TABLE: [FaultKind] extends [SchemaKind]
	? [SchemaKind] extends [FaultKind]
		? true
		: never
	: never = true;

export type FaultSpec = z.output<typeof FaultSpecSchema>;
export type FaultSpecInput = z.input<typeof FaultSpecSchema>;

/** Which fault route a request is on (`METHOD path`, no query, trailing slash allowed). */
export function faultRouteOf(method: string, path: string): FaultRoute | undefined {
	const route = integratorRouteOf(method, path);
	if (route?.family === 'orders')
		return route.name === 'activeOrders' ? 'active' : (route.name as FaultRoute);
	const family = routeFamilyOf(path);
	return family === 'information' || family === 'notifications' ? family : undefined;
}

const VARIANTS = new Map(
	FaultSpecSchema.options.map((variant) => [variant.shape.kind.value as FaultKind, variant])
);

/**
 * Read one fault as a tester wrote it: every wrong field named at once (an unknown field by its
 * own name), `kind` first, since it decides which fields there are.
 */
export function parseFaultSpec(
	input: unknown,
	prefix: ReadonlyArray<PropertyKey> = []
): ParseResult<FaultSpec> {
	const at = (key: string) => formatPath([...prefix, key]);
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		return {
			ok: false,
			errors: [{ path: formatPath(prefix), message: expected('an object', input) }]
		};
	const kind = (input as { kind?: unknown }).kind;
	const variant = VARIANTS.get(kind as FaultKind);
	if (variant === undefined) {
		return {
			ok: false,
			errors: [{ path: at('kind'), message: expected(`one of ${FAULT_KINDS.join(', ')}`, kind) }]
		};
	}
	const fields = Object.keys(variant.shape);
	const unknown = Object.keys(input)
		.filter((key) => !fields.includes(key))
		.map((key) => ({
			path: at(key),
			message: `not a field of a ${String(kind)} fault (its fields: ${fields.join(', ')})`
		}));
	const parsed = parseWith(variant, input, prefix);
	if (parsed.ok && unknown.length === 0) return { ok: true, value: parsed.value as FaultSpec };
	// The strict object's own word on unknown keys is the one issue without a path: named above.
	const errors = parsed.ok ? [] : parsed.errors.filter((e) => e.path !== formatPath(prefix));
	return { ok: false, errors: [...unknown, ...errors] };
}
