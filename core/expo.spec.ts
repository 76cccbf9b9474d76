import { describe, expect, it } from 'vitest';
import {
	communicationProblems,
	expoCreatedChanges,
	allReady,
	expoProgress,
	shownStations,
	stationChanges,
	type CommunicatingScreen
} from './expo.ts';
import type { KdsItem, Order, OrderCommand } from './order-schema.ts';
import {
	applyChanges,
	createScreenState,
	decide,
	decideAction,
	type ScreenChange,
	type ScreenState
} from './screen.ts';

const T0 = 1_795_338_000_000;
let clock = T0;
const tick = () => (clock += 1000);

const item = (lineId: string, name: string, over: Partial<KdsItem> = {}): KdsItem => ({
	lineId,
	name,
	qty: 1,
	mods: [],
	...over
});
const BURGER = item('1', 'Burger 🍔', { mods: [{ name: 'No onion' }] });
const FRIES = item('2', 'Fries', { qty: 2 });
const SHAKE = item('3', '抹茶シェイク');

function order(items: KdsItem[], over: Partial<Order> = {}): Order {
	return { id: 'A1', name: 'Ana', time: '2026-12-02T09:00:00.000Z', mode: 'ToGo', items, ...over };
}
const create = (items: KdsItem[], over: Partial<Order> = {}): OrderCommand => ({
	command: 'create-order',
	order: order(items, over)
});

/** decide + apply on one screen; the changes. */
function run(screen: ScreenState, command: OrderCommand): ScreenChange[] {
	const decision = decide(screen, command, tick());
	if (!decision.ok) throw new Error(decision.code);
	applyChanges(screen, decision.changes);
	return decision.changes;
}
function act(screen: ScreenState, action: 'bump' | 'recall', id = 'A1'): ScreenChange[] {
	const changes = decideAction(screen, action, id, tick())!;
	applyChanges(screen, changes);
	return changes;
}
const GRILL = { id: 'grill', name: 'Grill' };
const FRY = { id: 'fry', name: 'Fry' };
/** The station's changes carried to the expo, applied there. */
function carry(station: typeof GRILL, changes: ScreenChange[], expo: ScreenState): ScreenChange[] {
	const out = stationChanges(station, changes, expo, clock);
	applyChanges(expo, out);
	return out;
}
const progressOf = (expo: ScreenState, id = 'A1') => expoProgress(expo.orders.get(id)!.context);

describe('stations and expo', () => {
	it('a station bump marks its items done on the expo card, by lineId, with the station', () => {
		const grill = createScreenState();
		const fry = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER, FRIES, SHAKE]));
		carry(GRILL, run(grill, create([BURGER])), expo);
		carry(FRY, run(fry, create([FRIES])), expo);
		expect(progressOf(expo)).toEqual({
			stations: [
				{ station: 'grill', name: 'Grill', items: 1, done: false },
				{ station: 'fry', name: 'Fry', items: 1, done: false }
			],
			doneBy: new Map()
		});
		const marked = carry(GRILL, act(grill, 'bump'), expo);
		expect(marked).toHaveLength(1);
		expect(expo.orders.get('A1')!.state).toBe('active');
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['1', 'Grill']]));
		expect(progressOf(expo)!.stations.map((s) => s.done)).toEqual([true, false]);
	});

	it('matches by name when the station gave other line ids (sent without them)', () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER, FRIES, SHAKE]));
		// The station's own order: its only item got the line id "#1" (generated), the expo's is "2".
		run(grill, create([item('#1', 'Fries', { qty: 2 })]));
		carry(GRILL, act(grill, 'bump'), expo);
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['2', 'Grill']]));
	});

	it('a recall on the station takes its marks back; a bump again sets them', () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER, FRIES]));
		run(grill, create([BURGER]));
		carry(GRILL, act(grill, 'bump'), expo);
		carry(GRILL, act(grill, 'recall'), expo);
		expect(progressOf(expo)!.doneBy.size).toBe(0);
		expect(progressOf(expo)!.stations[0].done).toBe(false);
		carry(GRILL, act(grill, 'bump'), expo);
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['1', 'Grill']]));
	});

	it("an update on the station changes its part; an item the expo removed is no one's", () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER, FRIES]));
		run(grill, create([BURGER]));
		carry(GRILL, run(grill, { command: 'update-order', order: order([BURGER, FRIES]) }), expo);
		expect(progressOf(expo)!.stations[0].items).toBe(2);
		run(expo, { command: 'update-order', order: order([FRIES]) });
		carry(GRILL, act(grill, 'bump'), expo);
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['2', 'Grill']]));
	});

	it('an order the expo does not have gets nothing; an expo create later takes the marks', () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(grill, create([BURGER]));
		expect(carry(GRILL, act(grill, 'bump'), expo)).toEqual([]);
		const created = run(expo, create([BURGER, FRIES]));
		const marks = expoCreatedChanges(created, [{ ...GRILL, state: grill }], clock);
		applyChanges(expo, marks);
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['1', 'Grill']]));
	});

	it("the expo's own bump clears its card; a station cancel leaves the marks", () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER]));
		carry(GRILL, run(grill, create([BURGER])), expo);
		expect(
			carry(GRILL, run(grill, { command: 'cancel-order', order: { id: 'A1' } }), expo)
		).toEqual([]);
		act(expo, 'bump');
		expect(expo.orders.get('A1')!.state).toBe('bumped');
		// The station bumping after the expo: kept on the expo's bumped record for a recall.
		carry(GRILL, act(grill, 'bump'), expo);
		expect(progressOf(expo)!.doneBy).toEqual(new Map([['1', 'Grill']]));
	});

	it('a change that leaves the station mark as it was sends nothing', () => {
		const grill = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER]));
		carry(GRILL, run(grill, create([BURGER])), expo);
		const patched = run(grill, {
			command: 'partial-update-order',
			order: { id: 'A1', name: 'Ana (table 4)' }
		});
		expect(carry(GRILL, patched, expo)).toEqual([]);
	});
});

describe('communication rules', () => {
	const screens: CommunicatingScreen[] = [
		{ id: 'grill', role: 'station', bumpsTo: ['expo'] },
		{ id: 'fry', role: 'station', bumpsTo: ['expo'] },
		{ id: 'expo', role: 'expo', bumpsTo: [] }
	];
	it('accepts stations sending to the expo of their location', () => {
		expect(communicationProblems(screens)).toEqual([]);
	});
	it('names each rule that points at no expo, and a rule on an expo', () => {
		expect(
			communicationProblems([
				{ id: 'grill', role: 'station', bumpsTo: ['fry', 'grill', 'elsewhere'] },
				{ id: 'fry', role: 'station', bumpsTo: [] },
				{ id: 'expo', role: 'expo', bumpsTo: ['grill'] }
			])
		).toEqual([
			{
				screen: 'grill',
				index: 0,
				message:
					'"fry" is a station, not an expo; expected the id of an expo screen of the same location'
			},
			{
				screen: 'grill',
				index: 1,
				message:
					'"grill" is this station itself; expected the id of an expo screen of the same location'
			},
			{
				screen: 'grill',
				index: 2,
				message:
					'"elsewhere" is not a screen of this location; expected the id of an expo screen of the same location'
			},
			{
				screen: 'expo',
				index: null,
				message: 'an expo screen has no communication rules (only a station sends its bumps)'
			}
		]);
	});
});

describe('ALL READY and the stations shown', () => {
	const station = (name: string, items: number, done: boolean) => ({
		station: name.toLowerCase(),
		name,
		items,
		done
	});
	const progress = (...stations: ReturnType<typeof station>[]) => ({
		stations,
		doneBy: new Map<string, string>()
	});

	it.each([
		['no station holds the order', null, false, []],
		[
			'both stations done',
			progress(station('Grill', 2, true), station('Fry', 1, true)),
			true,
			['Grill', 'Fry']
		],
		[
			'one still working',
			progress(station('Grill', 2, true), station('Fry', 1, false)),
			false,
			['Grill', 'Fry']
		],
		[
			'a station with none of the card’s items is not waited for',
			progress(station('Grill', 2, true), station('Bar', 0, false)),
			true,
			['Grill']
		],
		['only stations with no items', progress(station('Bar', 0, true)), false, []]
	] as const)('%s', (_label, p, ready, shown) => {
		expect(allReady(p)).toBe(ready);
		expect(shownStations(p).map((s) => s.name)).toEqual(shown);
	});

	it('from the stations’ bumps: ready once the last station bumps, not after a recall', () => {
		const grill = createScreenState();
		const fry = createScreenState();
		const expo = createScreenState();
		run(expo, create([BURGER, FRIES, SHAKE]));
		carry(GRILL, run(grill, create([BURGER])), expo);
		carry(FRY, run(fry, create([FRIES])), expo);
		carry(GRILL, act(grill, 'bump'), expo);
		expect(allReady(progressOf(expo))).toBe(false);
		carry(FRY, act(fry, 'bump'), expo);
		expect(allReady(progressOf(expo))).toBe(true);
		carry(FRY, act(fry, 'recall'), expo);
		expect(allReady(progressOf(expo))).toBe(false);
	});
});
