/**
 * The POS's answer to a fault, judged (docs/faults.md): for every message or connection a fault
 * touched, what the same client did next, read from the inspector's log; as findings with stable
 * rule ids, and one resilience report per client. Pure: the agent hands in what the faults
 * touched and the log.
 */
import { FAULT_KIND_TABLE, losesOrder, type FaultKind } from './fault-kinds.ts';
import { orderCommandOfRoute, PATHS, routeKey } from './integrator-routes.ts';
import { envelopeOf } from './tcp-message.ts';
import type { Finding } from './conformance.ts';
import { faultLabel, type MessageEntry } from './message-entry.ts';
import { FAULT_RULE_TABLE, type FaultRuleId, type Severity } from './rules.ts';

/** A message or connection a fault touched. */
export interface FaultTouch {
	id: number;
	/** Agent time (ms). */
	at: number;
	faultId: string;
	kind: FaultKind;
	interface: 'tcp' | 'http';
	screenId: string | null;
	/** Peer address and port. */
	source: string;
	/** The command (TCP) or `METHOD path` (HTTP); null for a connection (down). */
	command: string | null;
	orderId: string | null;
	/** The order's name and items, to know it again under another id. */
	fingerprint: string | null;
	/** Whether the order was committed all the same (lost reply, response lost, no answer). */
	committed: boolean;
	/** A 429's Retry-After (ms). */
	retryAfterMs?: number;
	/** The inspector's entry of the message, when it has one. */
	messageId?: number;
	/** A delay that fired with it on the same message (`slow-reply (f2)`): composed faults. */
	delayedBy?: string;
}

export const FAULT_RULES = FAULT_RULE_TABLE;
export type { FaultRuleId };

export interface FaultFinding {
	rule: FaultRuleId;
	severity: Severity;
	client: string;
	faultId: string;
	kind: FaultKind;
	touchId: number;
	orderId: string | null;
	/** The message that showed it (the re-send), when there is one. */
	messageId?: number;
	message: string;
}

export interface ClientReport {
	/** `tcp 10.0.0.7` or `http 10.0.0.7`: a POS terminal is its address (ports change). */
	client: string;
	/** How many of its messages or connections a fault touched, by kind. */
	touched: Partial<Record<FaultKind, number>>;
	/** ok: nothing to fix; warning or error: the worst of its findings. */
	verdict: 'ok' | 'warning' | 'error';
	findings: FaultFinding[];
}

export interface ResilienceReport {
	clients: ClientReport[];
}

/** The client a source belongs to: its interface and address, without the port. */
export function clientOf(iface: 'tcp' | 'http', source: string): string {
	const colon = source.lastIndexOf(':');
	const address = colon > 0 ? source.slice(0, colon) : source;
	return `${iface} ${address}`;
}

/** An order's name and items, the same under any id: how a re-send under a new id is known. */
export function orderFingerprint(order: unknown): string | null {
	if (typeof order !== 'object' || order === null) return null;
	const { name, items } = order as { name?: unknown; items?: unknown };
	if (!Array.isArray(items) || items.length === 0) return null;
	const lines = items
		.map((item) => {
			const { name: n, qty } = (item ?? {}) as { name?: unknown; qty?: unknown };
			return `${String(qty ?? 1)}x${String(n)}`;
		})
		.sort();
	return `${String(name ?? '')}|${lines.join(',')}`;
}

/** The order a logged message carries (TCP: in its envelope or bare, envelopeOf; HTTP: the body). */
export function orderOfPayload(raw: string): { id?: unknown } | null {
	try {
		return envelopeOf(JSON.parse(raw))?.order ?? null;
	} catch {
		return null;
	}
}

/** A create, over TCP (`create-order`) or HTTP (`POST /integrators/kds-orders`, the route table). */
const isCreate = (command: string | null) =>
	command === 'create-order' || orderCommandOfRoute(command) === 'create-order';

/** The client asked for the active orders (GET /integrators/kds-orders/active). */
const ACTIVE_ORDERS = routeKey({ method: 'GET', path: PATHS.activeOrders });

/** Faults after which the client cannot know whether its message took effect (the kinds table). */
const unknownOutcome = (kind: FaultKind) => FAULT_KIND_TABLE[kind].outcomeUnknown;

/**
 * A same-id retry answered as a duplicate after a fault that kept the order (the core decided
 * DUPLICATE_ORDER_ID, finding KDS-ORDER-DUPLICATE; a fault had touched that order id of the same
 * client, it was committed, and its message logged before this one): the answer a correct POS expects, not a refusal. Returns the
 * finding to show instead of KDS-ORDER-DUPLICATE, and the fault's label; null for anything else
 * (a duplicate no fault explains stays an error).
 */
export function expectedRetry(
	entry: Pick<MessageEntry, 'interface' | 'source' | 'orderId' | 'findings'>,
	touches: readonly FaultTouch[]
): { fault: string; finding: Finding } | null {
	if (entry.orderId === null) return null;
	const duplicate = entry.findings.find((f) => f.code === 'KDS-ORDER-DUPLICATE');
	if (duplicate === undefined) return null;
	const client = clientOf(entry.interface, entry.source);
	for (let i = touches.length - 1; i >= 0; i--) {
		const touch = touches[i];
		if (
			touch.orderId !== entry.orderId ||
			!touch.committed ||
			// Not yet logged: the touch of this very message (it is logged after).
			touch.messageId === undefined ||
			clientOf(touch.interface, touch.source) !== client
		)
			continue;
		const fault = faultLabel(touch);
		return {
			fault,
			finding: {
				severity: FAULT_RULES['KDS-FAULT-RETRY-EXPECTED'].severity,
				code: 'KDS-FAULT-RETRY-EXPECTED',
				path: duplicate.path,
				message: `the same order id again after the ${fault} kept the order: ${entry.interface === 'tcp' ? 'DUPLICATE_ORDER_ID' : '409'} is the expected answer, the order is there`
			}
		};
	}
	return null;
}

const STORM_ATTEMPTS = 5;
const STORM_WINDOW_MS = 1000;

/**
 * Judge what each client did after each fault that touched it. `messages` is the inspector's
 * log, in any order.
 */
export function judgeFaults(
	touches: readonly FaultTouch[],
	messages: readonly MessageEntry[]
): ResilienceReport {
	// Each client's messages, oldest first: what it did next is read from its own only.
	const byClient = new Map<string, MessageEntry[]>();
	for (const m of [...messages].sort((a, b) => a.id - b.id)) {
		const client = clientOf(m.interface, m.source);
		const list = byClient.get(client);
		if (list === undefined) byClient.set(client, [m]);
		else list.push(m);
	}
	const reports = new Map<string, ClientReport>();
	const reportOf = (client: string) => {
		let report = reports.get(client);
		if (!report)
			reports.set(client, (report = { client, touched: {}, verdict: 'ok', findings: [] }));
		return report;
	};
	const find = (
		touch: FaultTouch,
		client: string,
		rule: FaultRuleId,
		message: string,
		messageId?: number
	) =>
		reportOf(client).findings.push({
			rule,
			severity: FAULT_RULES[rule].severity,
			client,
			faultId: touch.faultId,
			kind: touch.kind,
			touchId: touch.id,
			orderId: touch.orderId,
			...(messageId === undefined ? {} : { messageId }),
			message
		});
	// A client's messages after a moment: not the touched message itself.
	const after = (touch: FaultTouch, client: string) =>
		(byClient.get(client) ?? []).filter(
			(m) =>
				m.id !== touch.messageId &&
				m.at >= touch.at &&
				(touch.messageId === undefined || m.id > touch.messageId)
		);

	const downs = new Map<string, FaultTouch[]>();
	for (const touch of touches) {
		const client = clientOf(touch.interface, touch.source);
		const report = reportOf(client);
		report.touched[touch.kind] = (report.touched[touch.kind] ?? 0) + 1;
		// A connection reset while the screen was down or away (rebooting): counted for a storm.
		if (touch.command === null && touch.interface === 'tcp') {
			const key = `${client} ${touch.screenId}`;
			(downs.get(key) ?? downs.set(key, []).get(key)!).push(touch);
			continue;
		}
		if (touch.kind === 'http-status' && touch.retryAfterMs !== undefined) {
			const early = after(touch, client).find((m) => m.at < touch.at + touch.retryAfterMs!);
			if (early)
				find(
					touch,
					client,
					'KDS-FAULT-RETRY-TOO-SOON',
					`sent #${early.id} ${early.at - touch.at} ms after a 429 that said Retry-After: ${touch.retryAfterMs / 1000} s`,
					early.id
				);
		}
		if (!unknownOutcome(touch.kind) || !isCreate(touch.command) || touch.orderId === null) continue;
		const later = after(touch, client);
		const same = later.find((m) => m.orderId === touch.orderId);
		if (same) {
			find(
				touch,
				client,
				'KDS-FAULT-RESENT-SAME-ID',
				`re-sent order ${touch.orderId} after the ${touch.kind} (#${same.id}, answered ${same.result})` +
					(touch.committed ? ': the order was there, and the answer says so' : ''),
				same.id
			);
		}
		const twin = touch.fingerprint
			? later.find(
					(m) =>
						isCreate(m.command) &&
						m.ok &&
						m.orderId !== touch.orderId &&
						orderFingerprint(orderOfPayload(m.raw)) === touch.fingerprint
				)
			: undefined;
		if (twin && touch.committed) {
			find(
				touch,
				client,
				'KDS-FAULT-RESENT-NEW-ID',
				`re-sent order ${touch.orderId} as ${twin.orderId} after the ${touch.kind} (#${twin.id}): the first was kept, so the kitchen has two tickets for one order`,
				twin.id
			);
		}
		if (losesOrder(touch.kind) && !same && !twin) {
			// Judged when the report is read: a later re-send of the id clears it.
			find(
				touch,
				client,
				'KDS-FAULT-ORDER-LOST',
				`order ${touch.orderId} was not kept (${touch.kind}) and the client never sent it again: it is not in the kitchen`
			);
		}
		const asked = later.some((m) => m.command === ACTIVE_ORDERS);
		if (!same && !twin && !asked && touch.committed) {
			find(
				touch,
				client,
				'KDS-FAULT-NEVER-RESENT',
				`order ${touch.orderId} was kept but its reply was lost (${touch.kind}), and the client neither re-sent it nor asked for the active orders`
			);
		}
	}
	for (const [key, list] of downs) {
		const client = key.split(' ').slice(0, 2).join(' ');
		let start = 0;
		for (let end = 0; end < list.length; end++) {
			while (list[end].at - list[start].at > STORM_WINDOW_MS) start++;
			if (end - start + 1 >= STORM_ATTEMPTS) {
				find(
					list[start],
					client,
					'KDS-FAULT-RETRY-STORM',
					`${end - start + 1} connection attempts to ${list[start].screenId} within ${list[end].at - list[start].at} ms while it was ${list[start].kind === 'reboot' ? 'rebooting' : 'down'}`
				);
				break;
			}
		}
	}
	for (const report of reports.values()) {
		report.verdict = report.findings.some((f) => f.severity === 'error')
			? 'error'
			: report.findings.some((f) => f.severity === 'warning')
				? 'warning'
				: 'ok';
	}
	return { clients: [...reports.values()] };
}
