/**
 * An order message field by field, as the integrator's view (the inspector's Fields tab) shows
 * it: each field as received, as the screen read it, where it lands on the card (or that the card
 * does not show it), and the findings at its path. The reading is the core's own: the message is
 * parsed again with the schema its interface and command use (tcp-message.ts, order-schema.ts),
 * in the location's time zone, so a date-time with no offset reads here exactly as it did on the
 * screen; the findings are the ones the agent logged.
 *
 * Pure: no Node, no Svelte. Shared by the UI and its specs.
 */
import type { ItemView } from '../content.ts';
import { durationMs, startTime } from '../holds.ts';
import {
	CancelOrderSchema,
	HttpOrderSchema,
	PartialOrderSchema,
	type OrderCommand,
	type OrderMode
} from '../order-schema.ts';
import { parseWith, type FieldError, type ParseResult } from '../parse.ts';
import type { Finding } from '../rules.ts';
import { envelopeOf, parseTcpValue, tcpCommandOf } from '../tcp-message.ts';
import { orderCommandOfRoute } from '../integrator-routes.ts';
import { itemLabel } from './card-layout.ts';
import { formatClock, formatMinutes, modeLabel } from './format.ts';

/** One field of an order message. */
export interface FieldRow {
	/** Its path in the order: `time`, `costs.tip`, `items[2]`. */
	field: string;
	/** As received: its JSON text, or null when the message did not send it. */
	received: string | null;
	/** As the screen read it, in words: a date-time in the location's zone, a duration. */
	read: string;
	/** Where the card shows it; null when the card does not. */
	card: string | null;
	/** Where else the simulator uses a field the card does not show; null when nowhere. */
	elsewhere: string | null;
	/** The logged findings at this field or inside it. */
	findings: Finding[];
}

export interface OrderReading {
	command: OrderCommand['command'];
	/** The schema's verdict: the field-path errors that refused it, or none. */
	errors: FieldError[];
	rows: FieldRow[];
	/** Findings of the message as a whole or at a field no row shows. */
	otherFindings: Finding[];
	/**
	 * When preparation starts (the hold's fire time): pickupTime − prepTimeDuration as the
	 * core's holds compute it; null without both.
	 */
	fireAt: number | null;
}

/** What a logged message must carry to be read here (a MessageEntry has all of it). */
export interface LoggedOrderMessage {
	interface: 'tcp' | 'http';
	command: string | null;
	raw: string;
	findings: readonly Finding[];
}

const NOT_SHOWN = null;

/**
 * Where each field of contract section 2.1 lands on a card (OrderCard.svelte draws it; the
 * e2e test tests/e2e/order-fields.e2e.ts checks the card shows what this says it does).
 */
export const CARD_PLACES: Readonly<Record<string, string | null>> = {
	id: NOT_SHOWN,
	name: 'title',
	checkNumber: 'title, after “#”',
	originSource: 'title, after “·”',
	mode: 'mode chip',
	deliveryHandoff: 'mode chip: “Delivery Handoff” on a Delivery order',
	time: 'header: “placed 12:05 PM” on a selected card; always, amber with “· 45 min ago”, when placed 10 min or more before the screen received it',
	pickupTime: 'Pickup chip (clock time in the location’s zone); the Holds list',
	prepTimeDuration: 'with pickupTime: the scheduled start on the card and in Holds',
	covers: 'chip: “N cvr”',
	priority: 'chip “▲ Priority” and an orange frame',
	loyaltyMember: 'chip “★ Loyalty”',
	server: 'info line (server · terminal)',
	terminal: 'info line (server · terminal)',
	vehicleModel: 'info line “Car …”; Take Out view',
	vehicleColor: 'info line “Car …”; Take Out view',
	deliveryService: 'info line: service name and “#order id”',
	'deliveryService.name': 'info line',
	'deliveryService.orderId': 'info line, after “#”',
	'deliveryService.driverPhone': NOT_SHOWN,
	specialInstructions: 'order note under the header',
	items: 'item lines',
	phoneNumber: NOT_SHOWN,
	deliveryAddress: NOT_SHOWN,
	costs: NOT_SHOWN,
	optInForSms: NOT_SHOWN,
	customerArrivedUrl: NOT_SHOWN,
	onlineOrder: NOT_SHOWN,
	isPaid: NOT_SHOWN,
	itemsToAdd: 'item lines, marked new',
	itemsToUpdate: 'item lines, marked changed',
	itemsToRemove: 'item lines, struck through'
};

/** Where the simulator uses a field the card leaves out. */
const USED_ELSEWHERE: Readonly<Record<string, string>> = {
	id: 'the order’s key: updates, bumps and webhooks name it',
	time: 'the timer counts from when the screen received the order, not from this',
	optInForSms: 'the simulated SMS (/sms) when the order is bumped',
	phoneNumber: 'the simulated SMS (/sms)',
	customerArrivedUrl: 'kept for the customer-arrived notification'
};

const DATE_TIME_FIELDS = new Set(['time', 'pickupTime']);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HTTP_SCHEMAS = {
	'create-order': HttpOrderSchema,
	'update-order': HttpOrderSchema,
	'partial-update-order': PartialOrderSchema,
	'cancel-order': CancelOrderSchema
} as const;

/**
 * Read an order message field by field; null when it carries no order (not JSON, not an object,
 * or not an order route).
 */
export function readOrderFields(entry: LoggedOrderMessage, timeZone?: string): OrderReading | null {
	let json: unknown;
	try {
		json = JSON.parse(entry.raw);
	} catch {
		return null;
	}
	if (!isObject(json)) return null;
	let command: OrderCommand['command'];
	let received: Record<string, unknown>;
	let parsed: ParseResult<OrderCommand>;
	/** What the findings' paths start with before the order's own fields. */
	let prefix = '';
	if (entry.interface === 'tcp') {
		// An envelope without an order object (`{"command":"create-order","order":null}`) is read
		// as the screen read it: refused, its errors named, no field to show (#core/tcp-message).
		const envelope = envelopeOf(json)!;
		received = envelope.order ?? {};
		prefix = envelope.prefix;
		parsed = parseTcpValue(json, { timeZone });
		command = parsed.ok ? parsed.value.command : (tcpCommandOf(envelope) ?? 'create-order');
	} else {
		const routed = orderCommandOfRoute(entry.command);
		if (!routed) return null;
		command = routed;
		received = json;
		const result = parseWith(HTTP_SCHEMAS[routed], json, [], { timeZone });
		parsed = result.ok
			? { ...result, value: { command: routed, order: result.value } as OrderCommand }
			: result;
	}
	const read = parsed.ok ? (parsed.value.order as Record<string, unknown>) : undefined;
	const unclaimed = new Set(entry.findings);
	const rows: FieldRow[] = [];
	for (const [key, value] of Object.entries(received)) {
		rowsOf(key, value, read?.[key], key in (read ?? {}), rows);
	}
	for (const row of rows) {
		row.findings = entry.findings.filter((f) => {
			const path = f.path.startsWith(prefix) ? f.path.slice(prefix.length) : f.path;
			const hit =
				path === row.field || path.startsWith(`${row.field}.`) || path.startsWith(`${row.field}[`);
			if (hit) unclaimed.delete(f);
			return hit;
		});
	}
	for (const row of rows) row.read = describe(row, read, timeZone, parsed.ok);
	return {
		command,
		errors: parsed.ok ? [] : parsed.errors,
		rows,
		otherFindings: [...unclaimed],
		fireAt: read ? startTime(read as { pickupTime?: string; prepTimeDuration?: string }) : null
	};

	function rowsOf(
		key: string,
		value: unknown,
		readValue: unknown,
		known: boolean,
		out: FieldRow[]
	): void {
		// An object field (costs, deliveryService) is shown field by field, an item line by line.
		if (isObject(value) && (key === 'costs' || key === 'deliveryService')) {
			for (const [inner, innerValue] of Object.entries(value)) {
				out.push(
					row(`${key}.${inner}`, innerValue, (readValue as Record<string, unknown>)?.[inner])
				);
			}
			return;
		}
		if (Array.isArray(value) && /^items(ToAdd|ToUpdate)?$/.test(key)) {
			value.forEach((item, i) =>
				out.push(row(`${key}[${i}]`, item, (readValue as unknown[])?.[i]))
			);
			return;
		}
		out.push(row(key, value, known ? readValue : undefined));
	}

	function row(field: string, value: unknown, readValue: unknown): FieldRow {
		return {
			field,
			received: value === undefined ? null : JSON.stringify(value),
			read: readValue === undefined ? '' : JSON.stringify(readValue),
			card: cardPlace(field),
			elsewhere: USED_ELSEWHERE[field] ?? null,
			findings: []
		};
	}
}

/** Where a field (`costs.tip`, `items[3]`) lands on the card, or null. */
export function cardPlace(field: string): string | null {
	const bare = field.replace(/\[\d+\]$/, '');
	if (bare in CARD_PLACES) return CARD_PLACES[bare];
	const top = bare.split('.')[0];
	return top in CARD_PLACES ? CARD_PLACES[top] : NOT_SHOWN;
}

/** The field's value as read, in words; the row's `read` holds its JSON text until then. */
function describe(
	row: FieldRow,
	order: Record<string, unknown> | undefined,
	timeZone: string | undefined,
	accepted: boolean
): string {
	if (!accepted) return row.findings.length > 0 ? 'not read: the message was refused' : '—';
	if (row.read === '') {
		if (row.received === 'null') return 'absent (null is read as not sent)';
		return 'ignored: not a field the screen reads';
	}
	const value = JSON.parse(row.read) as unknown;
	if (DATE_TIME_FIELDS.has(row.field) && typeof value === 'string') {
		return `${value} · ${formatClock(value, timeZone)} (${timeZone ?? 'UTC'})`;
	}
	if (row.field === 'prepTimeDuration' && typeof value === 'string') {
		const ms = durationMs(value);
		return ms === null ? value : formatMinutes(ms / 60_000);
	}
	if (row.field === 'mode' && order) {
		return modeLabel(order as { mode: OrderMode; deliveryHandoff?: boolean });
	}
	if (/^items(ToAdd|ToUpdate)?\[\d+\]$/.test(row.field) && isObject(value)) {
		return itemLabel(value as unknown as ItemView);
	}
	if (typeof value === 'boolean') return value ? 'yes' : 'no';
	if (typeof value === 'string') return value;
	return row.read;
}

/** The fire time as the view shows it, in the location's zone; null without one. */
export function fireTimeText(reading: OrderReading, timeZone?: string): string | null {
	if (reading.fireAt === null) return null;
	return `${formatClock(reading.fireAt, timeZone)} (${timeZone ?? 'UTC'}): pickupTime − prepTimeDuration`;
}
