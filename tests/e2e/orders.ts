/**
 * Orders for the screen tests, as a POS would send them over TCP. The shared samples are used
 * as they are; the rest are built here.
 */
import { readFileSync } from 'node:fs';

type Json = Record<string, unknown>;

export function sample(name: string): Json {
	return JSON.parse(readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), 'utf8'));
}

export function item(lineId: string, name: string, over: Json = {}): Json {
	return { lineId, name, qty: 1, mods: [], ...over };
}

export function order(id: string, name: string, items: Json[], over: Json = {}): Json {
	return { id, name, time: Date.now(), mode: 'For Here', items, ...over };
}

export const create = (o: Json) => ({ command: 'create-order', order: o });
export const update = (o: Json) => ({ command: 'update-order', order: o });
export const patch = (p: Json) => ({ command: 'partial-update-order', order: p });
export const cancel = (id: string) => ({ command: 'cancel-order', order: { id } });

/** An HTTP sample body sent as a TCP create-order. */
export const createFromSample = (name: string) => create(sample(name));

/** A screen full of what a real lunch rush looks like: 13 cards of every kind. */
export function busyScreen(): { early: Json[]; warm: Json[]; fresh: Json[]; after: Json[] } {
	const party = order(
		'P-10',
		'Party of 10',
		[
			item('1', 'Garlic Bread', { qty: 3, course: '1', courseStatus: 'fire' }),
			item('2', 'Calamari', {
				qty: 2,
				course: '1',
				courseStatus: 'fire',
				mods: [{ name: 'Extra lemon' }]
			}),
			item('3', 'House Salad', {
				qty: 4,
				course: '1',
				courseStatus: 'fire',
				mods: [{ name: 'No onion' }, { name: 'Ranch', qty: 2 }]
			}),
			item('4', 'Margherita Pizza', { qty: 2, course: '2', courseStatus: 'hold', seat: '1' }),
			item('5', 'Lasagna', {
				qty: 3,
				course: '2',
				courseStatus: 'hold',
				mods: [{ name: 'Extra cheese' }]
			}),
			item('6', 'Chicken Parm', {
				qty: 2,
				course: '2',
				courseStatus: 'hold',
				specialInstructions: 'Nut allergy'
			}),
			item('7', 'Kids Pasta', {
				course: '2',
				courseStatus: 'hold',
				mods: [{ name: 'Butter only' }]
			}),
			item('8', 'Tiramisu', { qty: 4, course: '3', courseStatus: 'hold' }),
			item('9', 'Gelato', {
				qty: 6,
				course: '3',
				courseStatus: 'hold',
				mods: [
					{ name: 'Pistachio', qty: 3 },
					{ name: 'Chocolate', qty: 3 }
				]
			})
		],
		{ covers: 10, server: 'Jordan', terminal: 'POS 1', checkNumber: '412' }
	);
	return {
		// Old enough to be red.
		early: [
			sample('tcp-create-iso-time.json'),
			create(
				order(
					'K-17',
					'Kiosk 17',
					[
						item('1', 'Chicken Wrap', { mods: [{ name: 'No mayo' }] }),
						item('2', 'Fries', { qty: 2 })
					],
					{ mode: 'ToGo' }
				)
			)
		],
		// Yellow.
		warm: [
			createFromSample('http-create-combo-groups.json'),
			createFromSample('http-create-curbside.json')
		],
		fresh: [
			createFromSample('http-create-delivery-handoff.json'),
			create(
				order('1001', 'Maria', [
					item('1', 'Cheeseburger'),
					item('2', 'Side Salad', { mods: [{ name: 'Vinaigrette' }] })
				])
			),
			sample('tcp-bare-legacy.json'),
			create(party),
			create(
				order(
					'T-4',
					'Table 4',
					[item('1', 'Steak Frites', { mods: [{ name: 'Medium' }] }), item('2', 'Soup of the Day')],
					{ server: 'Ana' }
				)
			),
			create(
				order(
					'O-3021',
					'Online 3021',
					[
						item('1', 'Poke Bowl', {
							qty: 2,
							mods: [{ name: 'Salmon' }, { name: 'Extra avocado' }]
						})
					],
					{
						mode: 'Pickup',
						pickupTime: new Date(Date.now() + 20 * 60_000).toISOString(),
						specialInstructions: 'Pack sauces separately'
					}
				)
			),
			create(
				order(
					'U-5521',
					'Jamie',
					[item('1', 'Burrito', { mods: [{ name: 'Spicy' }] }), item('2', 'Chips & Salsa')],
					{
						mode: 'Delivery',
						originSource: 'Uber Eats',
						deliveryService: { name: 'Uber Eats', orderId: 'UE-5521' }
					}
				)
			),
			create(
				order('B-2', 'Bar 2', [
					item('1', 'Nachos'),
					item('2', 'Wings', { qty: 12, mods: [{ name: 'Buffalo' }] })
				])
			),
			create(
				order(
					'D-44',
					'Lane 2 Car 44',
					[
						item('1', 'Double Burger', {
							itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' }
						}),
						item('2', 'Fries', { itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' } }),
						item('3', 'Shake', {
							itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' },
							mods: [{ name: 'Vanilla' }]
						})
					],
					{ mode: 'DriveThru' }
				)
			)
		],
		after: [
			// Maria: Side Salad removed, Cheeseburger changed, Onion Rings added.
			update(
				order('1001', 'Maria', [
					item('1', 'Cheeseburger', { qty: 2, mods: [{ name: 'No pickles' }] }),
					item('3', 'Onion Rings')
				])
			),
			cancel('1003'),
			patch({ id: 'T-4', priority: true })
		]
	};
}
