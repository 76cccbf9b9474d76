import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	checkConformance,
	RULES,
	type CheckContext,
	type Finding,
	type Severity
} from './conformance.ts';
import type { OrderRecord } from './order-machine.ts';
import { createRecord, createScreenState, decide, step } from './screen.ts';
import { HttpOrderSchema, type Order } from './order-schema.ts';
import { parseWith } from './parse.ts';
import { parseTcpValue } from './tcp-message.ts';

const SAMPLES = new URL('../tests/fixtures/samples/', import.meta.url);
const SAMPLE_FILES = readdirSync(SAMPLES).filter((f) => f.endsWith('.json'));
const T0 = 1_795_338_000_000;

type Json = Record<string, unknown>;
/** A finding without its prose: what a test pins. */
type Triple = [Severity, string, string];

function sample(name: string): Json {
	return JSON.parse(readFileSync(new URL(name, SAMPLES), 'utf8')) as Json;
}

function clone<T>(value: T): T {
	return structuredClone(value);
}

/** The order a create sample puts on the screen. */
function orderOf(name: string): Order {
	const raw = sample(name);
	if (name.startsWith('tcp-')) {
		const parsed = parseTcpValue(raw);
		if (!parsed.ok || parsed.value.command !== 'create-order') throw new Error(name);
		return parsed.value.order;
	}
	const parsed = parseWith(HttpOrderSchema, raw);
	if (!parsed.ok) throw new Error(name);
	return parsed.value;
}

function onScreen(name: string): OrderRecord {
	return createRecord({ order: orderOf(name), at: T0, seq: 1 });
}

function moved(record: OrderRecord, type: 'order.bumped' | 'order.cancelled'): OrderRecord {
	const next = step(record, { type, at: T0 + 1000 });
	if (!next) throw new Error(type);
	return next;
}

/** Every create sample, by the order id it creates: the screen later samples address. */
const CREATES = new Map<string, OrderRecord>(
	SAMPLE_FILES.filter((f) => /^(tcp-create-|tcp-bare-|http-create-)/.test(f)).map((f) => [
		orderOf(f).id,
		onScreen(f)
	])
);

function triples(findings: Finding[]): Triple[] {
	return findings.map((f): Triple => [f.severity, f.code, f.path]).sort();
}

/** checkConformance, plus what holds for every finding: a documented code and its severity. */
function check(ctx: CheckContext): Finding[] {
	const findings = checkConformance(ctx);
	for (const f of findings) {
		expect(RULES[f.code], f.code).toBeDefined();
		expect(f.severity).toBe(RULES[f.code].severity);
		expect(f.message).toMatch(/^\S[^\n]*[^.\s]$/);
	}
	return findings;
}

// --- The vendored samples: clean, apart from the infos that are true. ----------------------

function sampleContext(file: string): CheckContext | undefined {
	const raw = sample(file);
	if (file.startsWith('tcp-')) {
		const command = ('command' in raw ? raw.command : 'create-order') as CheckContext['command'];
		const order = ('order' in raw ? raw.order : raw) as Json;
		const existing = command === 'create-order' ? undefined : CREATES.get(order.id as string);
		return { interface: 'tcp', command, raw, existing, autoHold: true };
	}
	if (file.startsWith('http-create-')) {
		return { interface: 'http', command: 'create-order', raw, autoHold: true };
	}
	if (file.startsWith('http-partial-')) {
		const existing = CREATES.get(raw.id as string);
		return { interface: 'http', command: 'partial-update-order', raw, existing, autoHold: true };
	}
	return undefined;
}

const SAMPLE_INFOS: Record<string, Triple[]> = {
	'tcp-bare-legacy.json': [
		['info', 'KDS-MODS-PLAIN-STRING', 'items[0].mods'],
		['info', 'KDS-TCP-BARE-ORDER', ''],
		['info', 'KDS-TCP-TIME-STRING', 'time']
	],
	'tcp-create-iso-time.json': [['info', 'KDS-TCP-TIME-STRING', 'order.time']]
};

describe('vendored samples', () => {
	const files = SAMPLE_FILES;

	it('covers every order sample (notifications are not order commands)', () => {
		const checked = files.filter((f) => sampleContext(f));
		const skipped = files.filter((f) => !sampleContext(f));
		expect(checked.length).toBeGreaterThanOrEqual(11);
		expect(skipped.every((f) => f.startsWith('http-notification-'))).toBe(true);
	});

	it.each(files.filter((f) => sampleContext(f)))('%s has no warnings or errors', (file) => {
		const ctx = sampleContext(file) as CheckContext;
		expect(triples(check(ctx))).toEqual(SAMPLE_INFOS[file] ?? []);
	});

	it('the update samples address the orders the create samples made', () => {
		for (const file of ['tcp-update-full.json', 'tcp-update-partial.json', 'tcp-cancel.json']) {
			expect(sampleContext(file)?.existing, file).toBeDefined();
		}
		expect(sampleContext('http-partial-nulls.json')?.existing).toBeDefined();
	});
});

// --- Crafted payloads: each rule fires where it should, and nothing else does. --------------

const W2001 = CREATES.get('W-2001') as OrderRecord;
const O1001 = CREATES.get('1001') as OrderRecord;
const O1002 = CREATES.get('1002') as OrderRecord;

/**
 * A create the caller decided with Combine Orders on (`decided`, as the TCP and HTTP edges hand
 * it over), on a screen holding 1001 (Maria) since T0: the decision the finding is read from.
 */
function combinedCreate(id: string, name: string, seconds: number): CheckContext {
	const raw = tcp((o) => Object.assign(o, { id, name }));
	const parsed = parseTcpValue(raw);
	if (!parsed.ok || parsed.value.command !== 'create-order') throw new Error(id);
	const at = T0 + seconds * 1000;
	const screen = createScreenState([O1001]);
	const decision = decide(screen, parsed.value, at, { explain: true, combine: true });
	return ctxOf('tcp', 'create-order', raw, { decided: { decision, at } });
}

/** tcp-create-minimal.json, order changed by `edit`. */
function tcp(edit: (order: Json) => void = () => {}, command = 'create-order'): Json {
	const raw = sample('tcp-create-minimal.json');
	edit(raw.order as Json);
	raw.command = command;
	return raw;
}

function items(order: Json): Json[] {
	return order.items as Json[];
}

/** A body from an http sample, changed by `edit`. */
function http(file: string, edit: (order: Json) => void = () => {}): Json {
	const raw = clone(sample(file));
	edit(raw);
	return raw;
}

const combo = (edit: (order: Json) => void) => http('http-create-combo-groups.json', edit);
const partial = (body: Json) => ({ id: 'W-2001', ...body });

function ctxOf(
	iface: CheckContext['interface'],
	command: CheckContext['command'],
	raw: unknown,
	more: Partial<CheckContext> = {}
): CheckContext {
	return { interface: iface, command, raw, autoHold: true, ...more };
}

const item = (lineId: string, more: Json = {}): Json => ({
	lineId,
	name: `Item ${lineId}`,
	qty: 1,
	mods: [],
	...more
});

interface Case {
	name: string;
	ctx: CheckContext;
	expected: Triple[];
}

const CASES: Case[] = [
	// Errors the schema also refuses, with a code each.
	{
		name: 'HTTP body that is not an object',
		ctx: ctxOf('http', 'create-order', [1, 2]),
		expected: [['error', 'KDS-NOT-AN-OBJECT', '']]
	},
	{
		name: 'TCP message that is a string',
		ctx: ctxOf('tcp', 'create-order', 'hello'),
		expected: [['error', 'KDS-NOT-AN-OBJECT', '']]
	},
	{
		name: 'TCP command outside its set',
		ctx: ctxOf('tcp', 'create-order', tcp(undefined, 'delete-order')),
		expected: [['error', 'KDS-TCP-COMMAND-INVALID', 'command']]
	},
	{
		name: 'TCP envelope without order',
		ctx: ctxOf('tcp', 'cancel-order', { command: 'cancel-order' }),
		expected: [['error', 'KDS-TCP-ORDER-INVALID', 'order']]
	},
	{
		name: 'TCP envelope whose order is an array',
		ctx: ctxOf('tcp', 'create-order', { command: 'create-order', order: [] }),
		expected: [['error', 'KDS-TCP-ORDER-INVALID', 'order']]
	},
	{
		name: 'missing order name and item mods',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => {
				delete o.name;
				delete items(o)[0].mods;
			})
		),
		expected: [
			['error', 'KDS-FIELD-REQUIRED', 'order.items[0].mods'],
			['error', 'KDS-FIELD-REQUIRED', 'order.name']
		]
	},
	{
		name: 'empty lineId',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (items(o)[0].lineId = ''))
		),
		expected: [['error', 'KDS-ID-EMPTY', 'order.items[0].lineId']]
	},
	{
		name: 'mode outside its set',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (o.mode = 'Dine In'))
		),
		expected: [['error', 'KDS-MODE-INVALID', 'order.mode']]
	},
	{
		name: 'mode outside its set in a partial update',
		ctx: ctxOf('http', 'partial-update-order', partial({ mode: 'Eat' }), { existing: W2001 }),
		expected: [['error', 'KDS-MODE-INVALID', 'mode']]
	},
	{
		name: 'courseStatus outside its set',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (items(o)[0].courseStatus = 'later'))
		),
		expected: [['error', 'KDS-COURSE-STATUS-INVALID', 'order.items[0].courseStatus']]
	},
	{
		name: 'priority not a boolean',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => (o.priority = 'yes'))
		),
		expected: [['error', 'KDS-BOOLEAN-INVALID', 'priority']]
	},
	{
		name: 'qty not an integer, covers negative, modifier qty negative',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				items(o)[0].qty = 1.5;
				items(o)[1].qty = '2';
				o.covers = -2;
				items(o)[2].mods = [{ name: 'Ice', qty: -1 }];
			})
		),
		expected: [
			['error', 'KDS-INTEGER-INVALID', 'covers'],
			['error', 'KDS-INTEGER-INVALID', 'items[0].qty'],
			['error', 'KDS-INTEGER-INVALID', 'items[1].qty'],
			['error', 'KDS-INTEGER-INVALID', 'items[2].mods[0].qty']
		]
	},
	{
		name: 'costs fields that are not strings',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				o.costs = { tax: 0.83, total: '$10.90', additionalFees: [{ name: 'Bag', amount: 0.1 }] };
			})
		),
		expected: [
			['error', 'KDS-COST-NOT-STRING', 'costs.additionalFees[0].amount'],
			['error', 'KDS-COST-NOT-STRING', 'costs.tax']
		]
	},
	{
		name: 'HTTP time as milliseconds, pickupTime without a date',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				o.time = T0;
				o.pickupTime = '18:40';
			})
		),
		expected: [
			['error', 'KDS-TIME-INVALID', 'pickupTime'],
			['error', 'KDS-TIME-INVALID', 'time']
		]
	},
	{
		name: 'TCP time as a string that is no date (no time-string info)',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (o.time = 'yesterday'))
		),
		expected: [['error', 'KDS-TIME-INVALID', 'order.time']]
	},
	{
		name: 'Python isoformat() time: no offset, microseconds (read in the location)',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => (o.time = '2026-11-24T02:00:59.729233')),
			{ timeZone: 'America/Chicago' }
		),
		expected: [
			['info', 'KDS-TIME-FRACTION', 'time'],
			['warning', 'KDS-TIME-NO-OFFSET', 'time']
		]
	},
	{
		name: 'Latin-1 bytes read as U+FFFD (Java getBytes() on a non-UTF-8 machine)',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => {
				o.name = 'M\uFFFDller';
				items(o)[0].name = 'Cr\uFFFDme br\uFFFDl\uFFFDe';
			})
		),
		expected: [
			['warning', 'KDS-TEXT-NOT-UTF8', 'order.items[0].name'],
			['warning', 'KDS-TEXT-NOT-UTF8', 'order.name']
		]
	},
	{
		name: 'null for optional fields at every level of a create (none for a partial update)',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => {
				o.server = null;
				o.costs = { subtotal: null, total: '$1.00' };
				items(o)[0].seat = null;
				items(o)[0].mods = [{ name: 'Salt', qty: null }];
			})
		),
		expected: [
			['info', 'KDS-FIELD-NULL', 'order.costs.subtotal'],
			['info', 'KDS-FIELD-NULL', 'order.items[0].mods[0].qty'],
			['info', 'KDS-FIELD-NULL', 'order.items[0].seat'],
			['info', 'KDS-FIELD-NULL', 'order.server']
		]
	},
	{
		name: 'unknown fields of a Node or Python POS at every level are named, not refused',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				Object.assign(o, { terminal: 'T1', source: 'pos', accessibility: { large: true } });
				Object.assign(items(o)[0], { id: 'sku-1', components: [] });
				(items(o)[1].itemGroup as Json).id2 = 'x';
				items(o)[0].mods = [{ name: 'Salt', id: 'm-1', components: [] }];
			})
		),
		expected: [
			['warning', 'KDS-FIELD-UNKNOWN', 'accessibility'],
			['warning', 'KDS-FIELD-UNKNOWN', 'items[0].components'],
			['warning', 'KDS-FIELD-UNKNOWN', 'items[0].id'],
			['warning', 'KDS-FIELD-UNKNOWN', 'items[0].mods[0].components'],
			['warning', 'KDS-FIELD-UNKNOWN', 'items[0].mods[0].id'],
			['warning', 'KDS-FIELD-UNKNOWN', 'items[1].itemGroup.id2'],
			['warning', 'KDS-FIELD-UNKNOWN', 'source']
		]
	},
	{
		name: 'TCP pickupTime with a basic-form offset',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (o.pickupTime = '2026-11-24T09:00:00-0600'))
		),
		expected: [['info', 'KDS-TIME-OFFSET-BASIC', 'order.pickupTime']]
	},
	{
		name: 'prepTimeDuration not ISO 8601 (no prep-time warnings on top)',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => (o.prepTimeDuration = '30 minutes'))
		),
		expected: [['error', 'KDS-DURATION-INVALID', 'prepTimeDuration']]
	},
	{
		name: 'itemsToUpdate with a partial item',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ itemsToUpdate: [{ lineId: '1', qty: 2 }] }),
			{ existing: W2001 }
		),
		expected: [
			['error', 'KDS-ITEM-PARTIAL', 'itemsToUpdate[0].mods'],
			['error', 'KDS-ITEM-PARTIAL', 'itemsToUpdate[0].name']
		]
	},
	{
		name: 'itemsToAdd with a partial item is a plain missing field',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ itemsToAdd: [{ lineId: '9', qty: 2, mods: [] }] }),
			{ existing: W2001 }
		),
		expected: [['error', 'KDS-FIELD-REQUIRED', 'itemsToAdd[0].name']]
	},
	{
		name: 'wrong types: name a number, mods a string, a modifier a number',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				o.name = 42;
				items(o)[0].mods = 'none';
				items(o)[3].mods = [5];
			})
		),
		expected: [
			['error', 'KDS-TYPE-INVALID', 'items[0].mods'],
			['error', 'KDS-TYPE-INVALID', 'items[3].mods[0]'],
			['error', 'KDS-TYPE-INVALID', 'name']
		]
	},
	{
		name: 'create for an id already on the screen',
		ctx: ctxOf('tcp', 'create-order', tcp(), { existing: O1001 }),
		expected: [['error', 'KDS-ORDER-DUPLICATE', 'order.id']]
	},
	{
		name: 'create for an id that was bumped is no duplicate',
		ctx: ctxOf('tcp', 'create-order', tcp(), { existing: moved(O1001, 'order.bumped') }),
		expected: []
	},

	// Warnings: accepted, but ignored or unpredictable.
	{
		name: 'unknown fields everywhere',
		ctx: ctxOf('tcp', 'create-order', {
			...tcp((o) => {
				o.table = '12';
				items(o)[0].colour = 'red';
				items(o)[0].mods = [{ name: 'Cheese', price: '$1' }];
				items(o)[0].itemGroup = { id: 'g', name: 'G', size: 'L' };
				o.costs = { total: '$1', currency: 'USD', promoCodes: [{ amount: '$1', code: 'X' }] };
				o.deliveryService = { name: 'Uber', orderId: 'U1', eta: 5 };
				o.itemsToAdd = [];
			}),
			version: 2
		}),
		expected: [
			['warning', 'KDS-FIELD-UNKNOWN', 'order.costs.currency'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.costs.promoCodes[0].code'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.deliveryService.eta'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.items[0].colour'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.items[0].itemGroup.size'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.items[0].mods[0].price'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.itemsToAdd'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.table'],
			['warning', 'KDS-FIELD-UNKNOWN', 'version']
		]
	},
	{
		name: 'cancel carrying a whole order',
		ctx: ctxOf('tcp', 'cancel-order', tcp(undefined, 'cancel-order'), { existing: O1001 }),
		expected: [
			['warning', 'KDS-FIELD-UNKNOWN', 'order.items'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.mode'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.name'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.time']
		]
	},
	{
		name: 'partial update with fields the partial order does not have (null ones are silent)',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({
				time: '2026-11-22T18:10:00Z',
				items: [item('1')],
				terminal: 'POS 1',
				optInForSms: false,
				customerArrivedUrl: null,
				colour: 'red'
			}),
			{ existing: W2001 }
		),
		expected: [
			['warning', 'KDS-FIELD-UNKNOWN', 'colour'],
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', 'items'],
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', 'optInForSms'],
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', 'terminal'],
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', 'time']
		]
	},
	{
		name: 'full update for an id not on the screen',
		ctx: ctxOf('tcp', 'update-order', sample('tcp-update-full.json')),
		expected: [['warning', 'KDS-ORDER-UNKNOWN', 'order.id']]
	},
	{
		name: 'full update whose id does not match the existing order',
		ctx: ctxOf('tcp', 'update-order', sample('tcp-update-full.json'), { existing: O1002 }),
		expected: [['warning', 'KDS-ORDER-UNKNOWN', 'order.id']]
	},
	{
		name: 'full update of a bumped order',
		ctx: ctxOf('tcp', 'update-order', sample('tcp-update-full.json'), {
			existing: moved(O1001, 'order.bumped')
		}),
		expected: [['warning', 'KDS-ORDER-UNKNOWN', 'order.id']]
	},
	{
		name: 'partial update for an id not on the screen',
		ctx: ctxOf('http', 'partial-update-order', { id: 'W-9999', priority: true }),
		expected: [['warning', 'KDS-ORDER-UNKNOWN', 'id']]
	},
	{
		name: 'cancel for an id not on the screen',
		ctx: ctxOf('tcp', 'cancel-order', sample('tcp-cancel.json')),
		expected: [['warning', 'KDS-ORDER-UNKNOWN', 'order.id']]
	},
	{
		name: 'itemGroup properties differ within a group',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				(items(o)[1].itemGroup as Json).name = 'Combo #3';
				delete (items(o)[2].itemGroup as Json).note;
			})
		),
		expected: [
			['warning', 'KDS-GROUP-MISMATCH', 'items[1].itemGroup.name'],
			['warning', 'KDS-GROUP-MISMATCH', 'items[2].itemGroup.note']
		]
	},
	{
		name: 'itemsToAdd joins a group on the screen with another name',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({
				itemsToAdd: [item('5', { itemGroup: { id: 'combo-1', name: 'Combo', note: 'Large' } })]
			}),
			{ existing: W2001 }
		),
		expected: [['warning', 'KDS-GROUP-MISMATCH', 'itemsToAdd[0].itemGroup.name']]
	},
	{
		name: 'items of a group differ in seat and courseStatus',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => {
				items(o)[1].seat = '2';
				items(o)[2].courseStatus = 'hold';
			})
		),
		expected: [
			['warning', 'KDS-GROUP-SPLIT', 'items[1].seat'],
			['warning', 'KDS-GROUP-SPLIT', 'items[2].courseStatus']
		]
	},
	{
		name: 'itemsToUpdate moves one item of a group to another course',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({
				itemsToUpdate: [
					{ ...(sample('http-create-combo-groups.json').items as Json[])[1], course: '2' }
				]
			}),
			{ existing: W2001 }
		),
		expected: [['warning', 'KDS-GROUP-SPLIT', 'itemsToUpdate[0].course']]
	},
	{
		name: 'removing the rest of a group leaves nothing to mismatch',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({
				itemsToRemove: ['1', '2', '3'],
				itemsToAdd: [item('6', { itemGroup: { id: 'combo-1', name: 'Combo #9' } })]
			}),
			{ existing: W2001 }
		),
		expected: []
	},
	{
		name: 'items without lineId (a food-truck POS bridge): accepted, a warning per item; item notes named unknown',
		ctx: ctxOf('tcp', 'create-order', {
			command: 'create-order',
			order: {
				id: 'FT-1',
				name: 'Sam',
				time: 1795338000000,
				mode: 'ToGo',
				server: null,
				items: [
					{ name: 'Wings', qty: 1, mods: ['Buffalo (+$0.50)'], notes: 'extra crispy' },
					{ lineId: '7', name: 'Soda', qty: 2, mods: [] },
					{ name: 'Fries', qty: 1, mods: [] }
				]
			}
		}),
		expected: [
			['warning', 'KDS-LINEID-MISSING', 'order.items[0].lineId'],
			['warning', 'KDS-LINEID-MISSING', 'order.items[2].lineId'],
			['warning', 'KDS-FIELD-UNKNOWN', 'order.items[0].notes'],
			['info', 'KDS-FIELD-NULL', 'order.server'],
			['info', 'KDS-MODS-PLAIN-STRING', 'order.items[0].mods']
		]
	},
	{
		name: 'duplicate lineIds in an order: refused',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => (items(o)[3].lineId = '1'))
		),
		expected: [['error', 'KDS-LINEID-NOT-UNIQUE', 'items[3].lineId']]
	},
	{
		name: 'duplicate lineIds within itemsToAdd and within itemsToUpdate',
		ctx: ctxOf(
			'tcp',
			'partial-update-order',
			{
				command: 'partial-update-order',
				order: {
					id: '1002',
					itemsToAdd: [item('7'), item('7')],
					itemsToUpdate: [item('3'), item('3')]
				}
			},
			{ existing: O1002 }
		),
		expected: [
			['warning', 'KDS-LINEID-DUPLICATE', 'order.itemsToAdd[1].lineId'],
			['warning', 'KDS-LINEID-DUPLICATE', 'order.itemsToUpdate[1].lineId']
		]
	},
	{
		name: 'one lineId in itemsToAdd and itemsToRemove, another in itemsToUpdate and itemsToRemove',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ itemsToAdd: [item('5')], itemsToUpdate: [item('4')], itemsToRemove: ['5', '4'] }),
			{ existing: W2001 }
		),
		expected: [
			['warning', 'KDS-LINEID-CONFLICT', 'itemsToRemove[0]'],
			['warning', 'KDS-LINEID-CONFLICT', 'itemsToRemove[1]'],
			// The core judges itemsToRemove against the order before the request: lineId 5 was not on
			// it, so the core ignores that entry, and the finding says so.
			['warning', 'KDS-LINEID-UNKNOWN', 'itemsToRemove[0]']
		]
	},
	{
		name: 'itemsToAdd with a lineId already on the order',
		ctx: ctxOf('http', 'partial-update-order', partial({ itemsToAdd: [item('4')] }), {
			existing: W2001
		}),
		expected: [['warning', 'KDS-LINEID-EXISTS', 'itemsToAdd[0].lineId']]
	},
	{
		name: 'itemsToUpdate and itemsToRemove with lineIds not on the order',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ itemsToUpdate: [item('9')], itemsToRemove: ['8'] }),
			{ existing: W2001 }
		),
		expected: [
			['warning', 'KDS-LINEID-UNKNOWN', 'itemsToRemove[0]'],
			['warning', 'KDS-LINEID-UNKNOWN', 'itemsToUpdate[0].lineId']
		]
	},
	{
		name: 'phone numbers not in E.164',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-delivery-handoff.json', (o) => {
				o.phoneNumber = '415-555-0123';
				(o.deliveryService as Json).driverPhone = '+0044 7700 900123';
			})
		),
		expected: [
			['warning', 'KDS-PHONE-NOT-E164', 'deliveryService.driverPhone'],
			['warning', 'KDS-PHONE-NOT-E164', 'phoneNumber']
		]
	},
	{
		name: 'phone number not in E.164 in a partial update',
		ctx: ctxOf('http', 'partial-update-order', partial({ phoneNumber: '07700 900123' }), {
			existing: W2001
		}),
		expected: [['warning', 'KDS-PHONE-NOT-E164', 'phoneNumber']]
	},
	{
		name: 'prepTimeDuration while the screen does not auto-hold',
		ctx: ctxOf('http', 'create-order', sample('http-create-future-hold.json'), {
			autoHold: false
		}),
		expected: [['warning', 'KDS-PREP-TIME-IGNORED', 'prepTimeDuration']]
	},
	{
		name: 'prepTimeDuration without pickupTime',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-future-hold.json', (o) => delete o.pickupTime)
		),
		expected: [['warning', 'KDS-PREP-TIME-NO-PICKUP', 'prepTimeDuration']]
	},
	{
		name: 'prepTimeDuration without pickupTime, auto-hold setting unknown',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-future-hold.json', (o) => delete o.pickupTime),
			{ autoHold: undefined }
		),
		expected: [['warning', 'KDS-PREP-TIME-NO-PICKUP', 'prepTimeDuration']]
	},
	{
		name: 'prepTimeDuration by partial update on an order without pickupTime',
		ctx: ctxOf('http', 'partial-update-order', partial({ prepTimeDuration: 'PT10M' }), {
			existing: W2001
		}),
		expected: [['warning', 'KDS-PREP-TIME-NO-PICKUP', 'prepTimeDuration']]
	},
	{
		name: 'prepTimeDuration by partial update on an order with pickupTime',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			{ id: 'C-3107', prepTimeDuration: 'PT10M' },
			{ existing: CREATES.get('C-3107') }
		),
		expected: []
	},
	{
		name: 'deliveryHandoff with a mode other than Delivery',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-delivery-handoff.json', (o) => (o.mode = 'Pickup'))
		),
		expected: [['warning', 'KDS-HANDOFF-IGNORED', 'deliveryHandoff']]
	},
	{
		name: 'deliveryHandoff by partial update on a DriveThru order',
		ctx: ctxOf('http', 'partial-update-order', partial({ deliveryHandoff: true }), {
			existing: W2001
		}),
		expected: [['warning', 'KDS-HANDOFF-IGNORED', 'deliveryHandoff']]
	},
	{
		name: 'deliveryHandoff with mode Delivery set in the same partial update',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ deliveryHandoff: true, mode: 'Delivery' }),
			{ existing: W2001 }
		),
		expected: []
	},
	{
		name: 'customerArrivedUrl that is not an http(s) URL',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-curbside.json', (o) => (o.customerArrivedUrl = 'example.com/arrived'))
		),
		expected: [['warning', 'KDS-URL-INVALID', 'customerArrivedUrl']]
	},
	{
		name: 'customerArrivedUrl with another scheme',
		ctx: ctxOf(
			'http',
			'create-order',
			http('http-create-curbside.json', (o) => (o.customerArrivedUrl = 'ftp://example.com/a'))
		),
		expected: [['warning', 'KDS-URL-INVALID', 'customerArrivedUrl']]
	},
	{
		name: 'create with no items',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (o.items = []))
		),
		expected: [['warning', 'KDS-ITEMS-EMPTY', 'order.items']]
	},

	// Infos.
	{
		name: 'bare TCP order',
		ctx: ctxOf('tcp', 'create-order', tcp().order),
		expected: [['info', 'KDS-TCP-BARE-ORDER', '']]
	},
	{
		name: 'TCP envelope without command',
		ctx: ctxOf('tcp', 'create-order', { order: tcp().order }),
		expected: [['info', 'KDS-TCP-COMMAND-MISSING', 'command']]
	},
	{
		name: 'TCP time as an ISO string',
		ctx: ctxOf(
			'tcp',
			'create-order',
			tcp((o) => (o.time = '2026-11-22T18:04:00Z'))
		),
		expected: [['info', 'KDS-TCP-TIME-STRING', 'order.time']]
	},
	{
		name: 'mods as plain strings in itemsToAdd',
		ctx: ctxOf(
			'http',
			'partial-update-order',
			partial({ itemsToAdd: [item('5', { mods: ['Chocolate', { name: 'Whip' }] })] }),
			{ existing: W2001 }
		),
		expected: [['info', 'KDS-MODS-PLAIN-STRING', 'itemsToAdd[0].mods']]
	},
	{
		name: 'modifier qty 0',
		ctx: ctxOf(
			'http',
			'create-order',
			combo((o) => (items(o)[3].mods = [{ name: 'Cream', qty: 0 }]))
		),
		expected: [['info', 'KDS-MODIFIER-QTY-ZERO', 'items[3].mods[0].qty']]
	},
	{
		name: 'full update that leaves out fields the order has',
		ctx: ctxOf(
			'http',
			'update-order',
			combo((o) => {
				delete o.costs;
				o.loyaltyMember = null;
			}),
			{ existing: W2001 }
		),
		expected: [
			['info', 'KDS-FIELD-NULL', 'loyaltyMember'],
			['info', 'KDS-UPDATE-FIELD-CLEARED', 'costs'],
			['info', 'KDS-UPDATE-FIELD-CLEARED', 'loyaltyMember']
		]
	},
	{
		name: 'create with the name of an order 2 minutes before it, Combine Orders on',
		ctx: combinedCreate('1009', ' maria ', 120),
		expected: [['info', 'KDS-ORDER-COMBINED', 'order.id']]
	},
	{
		name: 'the same create 6 minutes after it: a ticket of its own',
		ctx: combinedCreate('1009', 'Maria', 360),
		expected: []
	},
	{
		name: 'another name within the 5 minutes: a ticket of its own',
		ctx: combinedCreate('1009', 'Mario', 120),
		expected: []
	},
	{
		name: 'cancel of a bumped order',
		ctx: ctxOf('tcp', 'cancel-order', sample('tcp-cancel.json'), {
			existing: moved(CREATES.get('1003') as OrderRecord, 'order.bumped')
		}),
		expected: [['info', 'KDS-CANCEL-IGNORED', 'order.id']]
	},
	{
		name: 'cancel of a cancelled order',
		ctx: ctxOf('tcp', 'cancel-order', sample('tcp-cancel.json'), {
			existing: moved(CREATES.get('1003') as OrderRecord, 'order.cancelled')
		}),
		expected: [['info', 'KDS-CANCEL-IGNORED', 'order.id']]
	},

	// Several at once: sorted errors first.
	{
		name: 'a bare legacy order with an error and a warning',
		ctx: ctxOf('tcp', 'create-order', {
			...sample('tcp-bare-legacy.json'),
			mode: 'Takeaway',
			phoneNumber: '555'
		}),
		expected: [
			['error', 'KDS-MODE-INVALID', 'mode'],
			['info', 'KDS-MODS-PLAIN-STRING', 'items[0].mods'],
			['info', 'KDS-TCP-BARE-ORDER', ''],
			['info', 'KDS-TCP-TIME-STRING', 'time'],
			['warning', 'KDS-PHONE-NOT-E164', 'phoneNumber']
		]
	}
];

describe('checkConformance', () => {
	it.each(CASES)('$name', ({ ctx, expected }) => {
		expect(triples(check(ctx))).toEqual([...expected].sort());
	});

	it('sorts errors first, then warnings, then infos', () => {
		const last = CASES[CASES.length - 1];
		const severities = check(last.ctx).map((f) => f.severity);
		expect(severities).toEqual(['error', 'warning', 'info', 'info', 'info']);
	});

	it('says where and what in its messages', () => {
		const [finding] = check(
			ctxOf(
				'http',
				'create-order',
				combo((o) => (items(o)[0].qty = '2x'))
			)
		);
		expect(finding).toEqual({
			severity: 'error',
			code: 'KDS-INTEGER-INVALID',
			path: 'items[0].qty',
			message: 'expected an integer, got "2x"'
		});
	});

	it('names the other side of a group mismatch', () => {
		const [finding] = check(
			ctxOf(
				'http',
				'create-order',
				combo((o) => delete (items(o)[2].itemGroup as Json).note)
			)
		);
		expect(finding.message).toBe(
			'group "combo-1" has note "Large" in items[0] but nothing here; every property must be identical'
		);
	});

	it('only reads the message', () => {
		const raw = sample('tcp-update-partial.json');
		const before = JSON.stringify(raw);
		const existing = CREATES.get('1002') as OrderRecord;
		const record = JSON.stringify(existing);
		check(ctxOf('tcp', 'partial-update-order', raw, { existing }));
		expect(JSON.stringify(raw)).toBe(before);
		expect(JSON.stringify(existing)).toBe(record);
	});
});

describe('a partial update sending a field the partial order does not have', () => {
	const FIELDS: Array<[string, unknown]> = [
		['time', '2026-11-22T18:10:00Z'],
		['items', [item('1')]],
		['terminal', 'POS 1'],
		['optInForSms', false],
		['customerArrivedUrl', 'https://example.test/arrived/W-2001']
	];
	const clean = { id: 'W-2001', name: 'Sam' };

	it.each(FIELDS)('%s: one warning at its path over HTTP and TCP', (field, value) => {
		const body = { ...clean, [field]: value };
		const existing = W2001;
		expect(triples(check(ctxOf('http', 'partial-update-order', body, { existing })))).toEqual([
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', field]
		]);
		const envelope = { command: 'partial-update-order', order: body };
		expect(triples(check(ctxOf('tcp', 'partial-update-order', envelope, { existing })))).toEqual([
			['warning', 'KDS-PARTIAL-FIELD-IGNORED', `order.${field}`]
		]);
	});

	it('the same body without it is clean', () => {
		expect(check(ctxOf('http', 'partial-update-order', clean, { existing: W2001 }))).toEqual([]);
		const envelope = { command: 'partial-update-order', order: clean };
		expect(check(ctxOf('tcp', 'partial-update-order', envelope, { existing: W2001 }))).toEqual([]);
	});
});

describe('RULES', () => {
	it('documents every code that is emitted, and every documented code is exercised', () => {
		const seen = new Set<string>();
		const contexts = [
			...CASES.map((c) => c.ctx),
			...SAMPLE_FILES.flatMap((f) => sampleContext(f) ?? [])
		];
		for (const ctx of contexts) for (const f of checkConformance(ctx)) seen.add(f.code);
		expect([...seen].filter((code) => !(code in RULES))).toEqual([]);
		expect(Object.keys(RULES).filter((code) => !seen.has(code))).toEqual([]);
	});

	it('gives each code a severity and a one-line summary', () => {
		for (const [code, rule] of Object.entries(RULES)) {
			expect(code).toMatch(/^KDS(-[A-Z0-9]+)+$/);
			expect(['error', 'warning', 'info']).toContain(rule.severity);
			expect(rule.summary).toMatch(/^\S[^\n]*\.$/);
		}
	});
});

describe('Combine Orders', () => {
	it('says which ticket the order joined and why, from the decision handed over', () => {
		const [finding] = check(combinedCreate('1009', 'maria', 120));
		expect(finding.message).toBe(
			'order "1009" joins the ticket of order "1001": same name "maria" as order "1001", 120 s after it (combineOrders: within 5 minutes)'
		);
	});
});
