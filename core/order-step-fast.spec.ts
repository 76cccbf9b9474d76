/**
 * The fast path (order-step-fast.ts) against XState's own pure functions, `initialTransition`
 * and `transition`: on every order shape the samples and the schema allow, on every state and
 * event by table, and on generated orders and event sequences (seeded).
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { orderEvents } from '../tests/helpers/order-events.ts';
import {
	orderMachine,
	type OrderEvent,
	type OrderInput,
	type OrderRecord
} from './order-machine.ts';
import {
	createRecord,
	createRecordViaXState,
	FAST_PATH,
	snapshotOf,
	step,
	stepViaXState
} from './order-step.ts';
import {
	COURSE_STATUSES,
	HttpOrderSchema,
	ORDER_MODES,
	type KdsItem,
	type Order
} from './order-schema.ts';
import { parseWith } from './parse.ts';
import { parseTcpValue } from './tcp-message.ts';

const SAMPLES = new URL('../tests/fixtures/samples/', import.meta.url);
const T0 = 1_795_338_000_000;

/** Every full order among the vendored samples (creates and full updates), parsed. */
function sampleOrders(): [string, Order][] {
	return readdirSync(SAMPLES)
		.filter((f) => /^(tcp-create-|tcp-bare-|tcp-update-full|http-create-)/.test(f))
		.map((f): [string, Order] => {
			const raw = JSON.parse(readFileSync(new URL(f, SAMPLES), 'utf8')) as unknown;
			const parsed = f.startsWith('tcp-') ? parseTcpValue(raw) : parseWith(HttpOrderSchema, raw);
			if (!parsed.ok) throw new Error(f);
			const order = 'command' in parsed.value ? parsed.value.order : parsed.value;
			return [f, order as Order];
		});
}

function item(lineId: string, over: Partial<KdsItem> = {}): KdsItem {
	return { lineId, name: `Item ${lineId}`, qty: 1, mods: [], ...over };
}

const base: Order = {
	id: 'A',
	name: 'Order A',
	time: '2026-11-22T09:00:00.000Z',
	mode: 'ToGo',
	items: [item('1'), item('2')]
};

const SHAPES: [string, Order][] = [
	['plain', base],
	['no items', { ...base, items: [] }],
	[
		'every item field',
		{
			...base,
			items: [
				item('1', {
					price: '3.50',
					mods: [{ name: 'No onion' }, { name: 'Extra cheese', qty: 2 }],
					specialInstructions: 'well done',
					course: 'Mains',
					courseStatus: 'hold',
					seat: '2',
					itemGroup: { id: 'g1', name: 'Combo', note: 'no ice' }
				}),
				item('2', { course: 'Starters', courseStatus: 'straightFire' })
			]
		}
	],
	[
		'every order field',
		{
			...base,
			mode: 'Delivery',
			optInForSms: true,
			terminal: 'T1',
			customerArrivedUrl: 'https://example.com/arrived',
			pickupTime: '2026-11-22T10:00:00Z',
			phoneNumber: '+15550100',
			deliveryAddress: '1 Main St',
			deliveryHandoff: true,
			server: 'Sam',
			specialInstructions: 'ring twice',
			vehicleModel: 'Civic',
			vehicleColor: 'blue',
			costs: {
				subtotal: '10.00',
				tax: '1.00',
				additionalFees: [{ name: 'bag', amount: '0.10' }],
				total: '11.10',
				promoCodes: [{ name: 'X', amount: '1.00' }, { amount: '0.50' }]
			},
			deliveryService: { name: 'Dash', orderId: 'D1', driverPhone: '+15550101' },
			originSource: 'web',
			checkNumber: '42',
			priority: true,
			prepTimeDuration: 'PT30M',
			covers: 3,
			loyaltyMember: false,
			onlineOrder: true,
			isPaid: false
		}
	],
	['explicit undefined field', { ...base, server: undefined }],
	...sampleOrders()
];

const HELD = [undefined, false, true];
const TIMES = [T0, 0, -1];

const INPUTS: [string, OrderInput][] = SHAPES.flatMap(([shape, order]) =>
	HELD.flatMap((held) =>
		TIMES.map((at): [string, OrderInput] => [
			`${shape}, held ${String(held)}, at ${at}`,
			held === undefined ? { order, at, seq: 7 } : { order, at, seq: 7, held }
		])
	)
);

describe('createRecord equals the machine initial snapshot', () => {
	it('takes the fast path for the current machine', () => {
		// If this fails the machine gained something the fast path does not reproduce; orders
		// still behave, through XState, but are slower: extend the fast path or accept that.
		expect(FAST_PATH).toBe(true);
	});

	it.each(INPUTS)('%s', (_name, input) => {
		const snapshot = createActor(orderMachine, { input }).getSnapshot();
		const record = createRecord(input);
		const resolved = orderMachine.resolveState({ value: record.state, context: record.context });

		expect(record.state).toStrictEqual(snapshot.value);
		expect(record.context).toStrictEqual(snapshot.context);
		expect(resolved.tags).toStrictEqual(snapshot.tags);
		expect(resolved.status).toBe(snapshot.status);
		expect(Object.keys(record.context)).toStrictEqual(Object.keys(snapshot.context));
		expect(record).toStrictEqual(createRecordViaXState(input));
		// The context is the record's own: not the input, not shared with another create.
		expect(record.context).not.toBe(createRecord(input).context);
		expect(record.context.items).not.toBe(input.order.items);
	});
});

const at = (minutes: number) => T0 + minutes * 60_000;
const order = (over: Partial<Order> = {}): Order => ({ ...base, ...over });
const ev = orderEvents(order, at);

describe('step() equals XState taking the transition', () => {
	const coursedItems = [
		item('1', { course: '1' }),
		item('2', { course: '2', courseStatus: 'hold' }),
		item('3', { courseStatus: 'hold' })
	];
	/** Records in every state, with and without held courses, cancelled before or not. */
	const records: Array<[string, OrderRecord]> = [];
	const reach = (label: string, over: Partial<OrderInput>, events: OrderEvent[]) => {
		let record = createRecordViaXState({ order: base, at: T0, seq: 1, ...over });
		for (const e of events) {
			const next = stepViaXState(record, e);
			if (!next) throw new Error(`${label}: ${e.type} refused`);
			record = next;
		}
		records.push([label, record]);
	};
	for (const held of [false, true]) {
		const o = { held, order: order({ items: coursedItems }) };
		const h = held ? 'held' : 'queued';
		reach(`${h}`, o, []);
		reach(`${h}, cancelled`, o, [ev.cancelled(1)]);
		reach(`${h}, cancelled, bumped`, o, [ev.cancelled(1), ev.bumped(2)]);
		reach(`${h}, cancelled, bumped, recalled`, o, [ev.cancelled(1), ev.bumped(2), ev.recalled(3)]);
		reach(`${h}, patched`, o, [ev.patched(1, { priority: true })]);
	}
	reach('queued, bumped', {}, [ev.bumped(1)]);
	reach('queued, bumped, recalled', {}, [ev.bumped(1), ev.recalled(2)]);
	reach('queued, course 2 fired', { order: order({ items: coursedItems }) }, [
		ev.courseFired(1, '2')
	]);
	reach('queued, item 1 done, started', { order: order({ items: coursedItems }) }, [
		ev.itemMarked(1, '1'),
		ev.started(2)
	]);

	const events: OrderEvent[] = [
		ev.updated(10, { name: 'B', items: [item('1', { qty: 3 }), item('4')] }),
		ev.updated(10),
		ev.patched(10, { priority: true }),
		ev.patched(10, { itemsToAdd: [item('9')], itemsToRemove: ['1'] }),
		ev.patched(10, { itemsToUpdate: [item('2', { qty: 5 })] }),
		ev.cancelled(10),
		ev.fired(10, 42),
		ev.bumped(10),
		ev.recalled(10),
		ev.courseFired(10, '2'),
		ev.courseFired(10, ''),
		ev.courseFired(10, '1'),
		ev.courseFired(10, '7'),
		ev.itemMarked(10, '1'),
		ev.itemMarked(10, '1', false),
		ev.itemMarked(10, '9'),
		ev.started(10),
		ev.started(10, false),
		{ type: 'station.marked', mark: { station: 'grill', name: 'Grill', items: [] }, at: 10 },
		{
			type: 'station.marked',
			mark: { station: 'fry', name: 'Fry', items: [{ lineId: '1', name: 'F', qty: 2 }], doneAt: 9 },
			at: 10
		}
	];
	const cases = records.flatMap(([label, record]) =>
		events.map((e) => [`${label} (${record.state}) + ${e.type}`, record, e] as const)
	);

	it.each(cases)('%s', (_label, record, event) => {
		const viaXState = stepViaXState(record, event);
		const fast = step(record, event);
		expect(fast).toStrictEqual(viaXState);
		// The record it started from is left alone.
		expect(step(record, event)).toStrictEqual(fast);
	});

	it('covers every state, and events both taken and refused', () => {
		const states = new Set(records.map(([, r]) => r.state));
		expect([...states].sort()).toEqual(['active', 'bumped', 'cancelled', 'held']);
		const outcomes = cases.map(([, r, e]) => stepViaXState(r, e) === null);
		expect(outcomes).toContain(true);
		expect(outcomes).toContain(false);
	});
});

describe('the fast path equals XState on generated orders and event sequences (seeded)', () => {
	const lineIds = ['1', '2', '3', '4'];
	const courses = ['', 'Starters', 'Mains'];
	const itemArb: fc.Arbitrary<KdsItem> = fc
		.record(
			{
				lineId: fc.constantFrom(...lineIds),
				name: fc.string({ maxLength: 6 }),
				qty: fc.integer({ min: 0, max: 9 }),
				mods: fc.array(
					fc.record({ name: fc.string({ maxLength: 4 }) }, { noNullPrototype: true }),
					{
						maxLength: 2
					}
				),
				course: fc.constantFrom(...courses),
				courseStatus: fc.constantFrom(...COURSE_STATUSES),
				seat: fc.string({ maxLength: 2 })
			},
			{ requiredKeys: ['lineId', 'name', 'qty', 'mods'], noNullPrototype: true }
		)
		.map((i) => i as KdsItem);
	const itemsArb = fc.uniqueArray(itemArb, { selector: (i) => i.lineId, maxLength: 4 });
	const orderArb: fc.Arbitrary<Order> = fc
		.record(
			{
				name: fc.string({ maxLength: 8 }),
				mode: fc.constantFrom(...ORDER_MODES),
				items: itemsArb,
				priority: fc.boolean(),
				server: fc.string({ maxLength: 4 }),
				specialInstructions: fc.string({ maxLength: 8 })
			},
			{ requiredKeys: ['name', 'mode', 'items'], noNullPrototype: true }
		)
		.map((o) => ({ ...base, ...o }) as Order);
	const minute = fc.integer({ min: 0, max: 600 });
	const eventArb: fc.Arbitrary<OrderEvent> = fc.oneof(
		fc.tuple(minute, orderArb).map(([m, o]) => ev.updated(m, o)),
		fc
			.record(
				{
					name: fc.string({ maxLength: 8 }),
					priority: fc.boolean(),
					itemsToAdd: itemsArb,
					itemsToUpdate: itemsArb,
					itemsToRemove: fc.uniqueArray(fc.constantFrom(...lineIds, '9'), { maxLength: 3 })
				},
				{ requiredKeys: [], noNullPrototype: true }
			)
			.chain((patch) => minute.map((m) => ev.patched(m, patch))),
		minute.map(ev.cancelled),
		fc.tuple(minute, fc.integer({ min: 1, max: 99 })).map(([m, seq]) => ev.fired(m, seq)),
		minute.map(ev.bumped),
		minute.map(ev.recalled),
		fc.tuple(minute, fc.constantFrom(...courses, '7')).map(([m, c]) => ev.courseFired(m, c)),
		fc
			.tuple(minute, fc.constantFrom(...lineIds, '9'), fc.boolean())
			.map(([m, lineId, done]) => ev.itemMarked(m, lineId, done)),
		fc.tuple(minute, fc.boolean()).map(([m, started]) => ev.started(m, started)),
		fc
			.tuple(minute, fc.constantFrom('grill', 'fry'), fc.boolean())
			.map(([m, station, done]): OrderEvent => ({
				type: 'station.marked',
				mark: {
					station,
					name: station,
					items: [{ lineId: '1', name: 'x', qty: 1 }],
					...(done ? { doneAt: m } : {})
				},
				at: m
			}))
	);
	const inputArb: fc.Arbitrary<OrderInput> = fc.record(
		{
			order: orderArb,
			at: fc.integer({ min: 0, max: 2 * T0 }),
			seq: fc.integer({ min: 1, max: 1000 }),
			held: fc.boolean()
		},
		{ noNullPrototype: true }
	);

	it('createRecord gives the record initialTransition gives', () => {
		fc.assert(
			fc.property(inputArb, (input) => {
				expect(createRecord(input)).toStrictEqual(createRecordViaXState(input));
			}),
			{ seed: 1717, numRuns: 300 }
		);
	});

	it('step gives the record transition gives (or refuses as can() does), event after event', () => {
		let taken = 0;
		let refused = 0;
		fc.assert(
			fc.property(
				inputArb,
				fc.array(eventArb, { minLength: 1, maxLength: 12 }),
				(input, events) => {
					let record = createRecordViaXState(input);
					for (const event of events) {
						const before = structuredClone(record);
						const viaXState = stepViaXState(record, event);
						const fast = step(record, event);
						expect(fast).toStrictEqual(viaXState);
						expect(record).toStrictEqual(before);
						if (!viaXState) {
							refused++;
							continue;
						}
						taken++;
						// The tags the UI reads are the machine's for the state the fast path reached.
						expect(snapshotOf(viaXState).tags).toStrictEqual(snapshotOf(fast!).tags);
						record = viaXState;
					}
				}
			),
			{ seed: 1718, numRuns: 300 }
		);
		expect(taken).toBeGreaterThan(100);
		expect(refused).toBeGreaterThan(100);
	});

	it('an actor fed the same events ends where the fast path ends', () => {
		fc.assert(
			fc.property(inputArb, fc.array(eventArb, { maxLength: 12 }), (input, events) => {
				const actor = createActor(orderMachine, { input }).start();
				let record = createRecord(input);
				for (const event of events) {
					actor.send(event);
					record = step(record, event) ?? record;
				}
				const snapshot = actor.getSnapshot();
				actor.stop();
				expect(record).toStrictEqual({ state: snapshot.value, context: snapshot.context });
			}),
			{ seed: 1719, numRuns: 200 }
		);
	});
});
