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

/**
 * Ten ordinary tickets of two or three short lines, a modifier on the first: what a quiet 7-inch
 * panel mostly shows (a ticket without a single modifier is rarer than one with).
 */
export function ordinaryTickets(count = 10): Json[] {
	const dishes = ['Cheeseburger', 'Fries', 'Caesar Salad', 'Club Sandwich', 'Tomato Soup', 'Cola'];
	const mods = ['No onion', 'Extra salt', 'Dressing on side', 'Toasted', 'No croutons', 'No ice'];
	return Array.from({ length: count }, (_, i) => {
		const lines = 2 + (i % 2);
		const items = Array.from({ length: lines }, (_, j) =>
			item(
				String(j + 1),
				dishes[(i + j) % dishes.length],
				j === 0 ? { qty: 1 + (i % 3), mods: [{ name: mods[i % mods.length] }] } : {}
			)
		);
		return create(order(`N-${i + 1}`, `Guest ${i + 1}`, items));
	});
}

/**
 * A messy lunch rush on top of `busyScreen` (29 orders in all): CJK, emoji, a 52-character
 * name, an unbroken modifier, a 15-item order, a scheduled order hours ahead, updates, cancels.
 * `messages` are pop-ups for send-message (HTTP), the last one long.
 */
export function lunchRush(): ReturnType<typeof busyScreen> & { messages: string[] } {
	const busy = busyScreen();
	const big = order(
		'BIG-15',
		'Office Lunch',
		Array.from({ length: 15 }, (_, i) =>
			item(
				String(i + 1),
				['Club Sandwich', 'Tomato Soup', 'Cobb Salad', 'Brownie', 'Iced Tea'][i % 5],
				{
					qty: 1 + (i % 4),
					mods: i % 3 === 0 ? [{ name: 'No onion' }, { name: 'Gluten free bread' }] : []
				}
			)
		),
		{ mode: 'Pickup', covers: 15, specialInstructions: 'Label each bag with a name' }
	);
	const extra: Json[] = [
		create(
			order('JP-1', '山田 太郎 (Yamada)', [
				item('1', '味噌ラーメン', { mods: [{ name: '大盛り' }, { name: '煮卵 追加' }] }),
				item('2', '餃子', { qty: 2 })
			])
		),
		create(
			order('EM-1', 'Zoë 🎉 Birthday', [
				item('1', '🍔 Smash Burger 🔥', { mods: [{ name: 'Extra 🧀' }] }),
				item('2', 'Crème brûlée', { mods: [{ name: 'Candle 🕯️' }] })
			])
		),
		create(
			order(
				'LONG-1',
				'Maximilian Alexander Worthington-Fitzgerald the Third',
				[
					item('1', 'Grilled Chicken Sandwich', {
						mods: [{ name: 'NoOnionsNoPicklesNoTomatoesExtraCheeseExtraBaconPlease' }]
					}),
					item('2', 'Sweet Potato Fries')
				],
				{ mode: 'ToGo' }
			)
		),
		create(big),
		create(
			order(
				'SCH-1',
				'Catering: Smith wedding rehearsal',
				[item('1', 'Sandwich Platter', { qty: 4 })],
				{
					mode: 'Pickup',
					pickupTime: new Date(Date.now() + 3 * 3600_000).toISOString()
				}
			)
		),
		create(
			order(
				'C-77',
				'Counter 77',
				[item('1', 'Latte', { mods: [{ name: 'Oat milk' }] }), item('2', 'Croissant')],
				{
					mode: 'ToGo'
				}
			)
		),
		create(
			order('C-78', 'Counter 78', [item('1', 'Espresso'), item('2', 'Muffin')], { mode: 'ToGo' })
		),
		create(
			order(
				'DT-9',
				'Lane 1 Car 9',
				[item('1', 'Nuggets', { qty: 10 }), item('2', 'Fries'), item('3', 'Cola')],
				{
					mode: 'DriveThru'
				}
			)
		),
		create(
			order('T-9', 'Table 9', [item('1', 'Fish Tacos', { qty: 3 }), item('2', 'Guacamole')], {
				priority: true
			})
		),
		create(
			order('T-11', 'Table 11', [item('1', 'Pad Thai'), item('2', 'Spring Rolls', { qty: 2 })])
		),
		create(
			order('GH-3', 'Sam · Grubhub', [item('1', 'Burrito Bowl'), item('2', 'Horchata')], {
				mode: 'Delivery',
				deliveryService: { name: 'Grubhub', orderId: 'GH-99812' }
			})
		),
		create(order('X-1', 'Table 15', [item('1', 'Soup of the Day'), item('2', 'Bread')])),
		create(order('X-2', 'Table 16', [item('1', 'Ribeye', { mods: [{ name: 'Medium rare' }] })])),
		create(order('X-3', 'Table 17', [item('1', 'Club Sandwich'), item('2', 'Iced Tea')]))
	];
	return {
		...busy,
		fresh: [...busy.fresh, ...extra],
		after: [...busy.after, cancel('X-1'), patch({ id: 'C-78', name: 'Counter 78 (Priya)' })],
		messages: [
			'86 the salmon',
			'Health inspector arriving at 2 pm',
			'Staff meal at 3 pm: everyone please clean down your station first, restock the line, ' +
				'label and date every container, check the walk-in temperatures, and tell the ' +
				'manager about anything running low before the dinner rush starts at five o’clock. ' +
				'Thank you all for a great lunch service today.'
		]
	};
}

/**
 * The lunch rush a kitchen really sends, twenty orders: modifiers on about half the items, two
 * big orders (a coursed party of ten, a 15-item office lunch), a long name, CJK and emoji, a
 * scheduled pickup ("Priya (scheduled)"), an order placed 45 minutes before it was sent (a
 * re-send), an update and two cancels (of an order 9 and one 6 minutes old: their timers stop
 * there). Send `early` with the agent's clock 9 minutes back and
 * `warm` 6 minutes back (red and yellow timers), then `fresh`, then `after`. The README's
 * screenshots (scripts/screenshots.ts) and tests/e2e/rush.e2e.ts use it.
 */
export function rush(): { early: Json[]; warm: Json[]; fresh: Json[]; after: Json[] } {
	const mod = (...names: string[]) => ({ mods: names.map((name) => ({ name })) });
	const lunch = Array.from({ length: 15 }, (_, i) =>
		item(
			String(i + 1),
			['Club Sandwich', 'Tomato Soup', 'Cobb Salad', 'Brownie', 'Iced Tea'][i % 5],
			{
				qty: 1 + (i % 3),
				...(i % 2 === 0 ? mod(['No onion', 'Gluten-free bread', 'Dressing on side'][i % 3]) : {})
			}
		)
	);
	return {
		early: [
			create(
				order('C-77', 'Counter 77', [item('1', 'Latte', mod('Oat milk')), item('2', 'Croissant')], {
					mode: 'ToGo'
				})
			),
			create(
				order(
					'K-17',
					'Kiosk 17',
					[item('1', 'Chicken Wrap', mod('No mayo')), item('2', 'Fries', { qty: 2 })],
					{ mode: 'ToGo' }
				)
			),
			create(
				order('T-2', 'Table 2', [
					item('1', 'Caesar Salad', mod('Add chicken')),
					item('2', 'Tomato Soup')
				])
			)
		],
		warm: [
			create(order('X-1', 'Table 15', [item('1', 'Ribeye', mod('Medium')), item('2', 'Bread')])),
			create(
				order('1001', 'Maria', [
					item('1', 'Cheeseburger', mod('No pickles')),
					item('2', 'Side Salad', mod('Vinaigrette'))
				])
			),
			create(
				order(
					'D-44',
					'Lane 2 Car 44',
					[
						item('1', 'Double Burger', {
							itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' },
							...mod('No onion')
						}),
						item('2', 'Fries', { itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' } }),
						item('3', 'Shake', {
							itemGroup: { id: 'm1', name: 'Meal #1', note: 'Medium' },
							...mod('Vanilla')
						})
					],
					{ mode: 'DriveThru' }
				)
			)
		],
		fresh: [
			create(
				order(
					'P-10',
					'Party of 10',
					[
						item('1', 'Garlic Bread', { qty: 3, course: '1', courseStatus: 'fire' }),
						item('2', 'Calamari', {
							qty: 2,
							course: '1',
							courseStatus: 'fire',
							...mod('Extra lemon')
						}),
						item('3', 'Margherita Pizza', { qty: 2, course: '2', courseStatus: 'hold' }),
						item('4', 'Lasagna', {
							qty: 3,
							course: '2',
							courseStatus: 'hold',
							...mod('Extra cheese')
						}),
						item('5', 'Chicken Parm', {
							qty: 2,
							course: '2',
							courseStatus: 'hold',
							specialInstructions: 'Nut allergy'
						}),
						item('6', 'Tiramisu', { qty: 4, course: '3', courseStatus: 'hold' })
					],
					{ covers: 10, server: 'Jordan', checkNumber: '412' }
				)
			),
			create(
				order('T-4', 'Table 4', [
					item('1', 'Steak Frites', mod('Medium rare')),
					item('2', 'Soup of the Day')
				])
			),
			create(
				order('JP-1', '山田 太郎 (Yamada)', [
					item('1', '味噌ラーメン', mod('大盛り', '煮卵 追加')),
					item('2', '餃子', { qty: 2 })
				])
			),
			create(
				order('EM-1', 'Zoë 🎉 Birthday', [
					item('1', '🍔 Smash Burger 🔥', mod('Extra 🧀')),
					item('2', 'Crème brûlée')
				])
			),
			create(
				order('BIG-15', 'Office Lunch', lunch, {
					mode: 'Pickup',
					covers: 15
				})
			),
			create(
				order(
					'LONG-1',
					'Maximilian Alexander Worthington-Fitzgerald the Third',
					[
						item('1', 'Grilled Chicken Sandwich', mod('No tomato')),
						item('2', 'Sweet Potato Fries')
					],
					{ mode: 'ToGo' }
				)
			),
			create(
				order(
					'SCH-1',
					'Priya (scheduled)',
					[item('1', 'Sandwich Platter', { qty: 4, ...mod('Mixed') })],
					{
						mode: 'Pickup',
						pickupTime: new Date(Date.now() + 100 * 60_000).toISOString()
					}
				)
			),
			create(
				order('T-12', 'Christopher', [
					item('1', 'Fish Tacos', { qty: 3, ...mod('No cilantro') }),
					item('2', 'Guacamole'),
					item('3', 'Horchata', mod('No ice'))
				])
			),
			create(
				order(
					'DT-9',
					'Lane 1 Car 9',
					[
						item('1', 'Nuggets', { qty: 10, ...mod('BBQ sauce') }),
						item('2', 'Fries'),
						item('3', 'Cola')
					],
					{ mode: 'DriveThru' }
				)
			),
			create(
				order('T-11', 'Table 11', [
					item('1', 'Pad Thai', mod('Tofu', 'Mild')),
					item('2', 'Spring Rolls', { qty: 2 })
				])
			),
			create(
				order(
					'GH-3',
					'Sam',
					[item('1', 'Burrito Bowl', mod('Extra rice')), item('2', 'Horchata')],
					{
						mode: 'Delivery',
						originSource: 'Grubhub',
						deliveryService: { name: 'Grubhub', orderId: 'GH-99812' }
					}
				)
			),
			create(
				order('T-7', 'Table 7', [
					item('1', 'Cheeseburger', mod('Medium', 'No onion')),
					item('2', 'Fries'),
					item('3', 'Cola')
				])
			),
			create(
				order(
					'CS-1',
					'Alex',
					[item('1', 'Family Meal', mod('Extra biscuits')), item('2', 'Lemonade', { qty: 2 })],
					{ mode: 'Curbside', vehicleColor: 'Red', vehicleModel: 'Honda Civic' }
				)
			),
			// Placed 45 minutes before it was sent (a POS that re-sent it): its card says so.
			create(
				order(
					'R-88',
					'Walk-in 88',
					[item('1', 'Flat White', mod('Oat milk')), item('2', 'Scone')],
					{
						mode: 'ToGo',
						time: Date.now() - 45 * 60_000
					}
				)
			)
		],
		after: [
			// Maria: Side Salad removed, Cheeseburger changed, Onion Rings added.
			update(
				order('1001', 'Maria', [
					item('1', 'Cheeseburger', { qty: 2, ...mod('No pickles') }),
					item('3', 'Onion Rings')
				])
			),
			cancel('X-1'),
			cancel('C-77'),
			patch({ id: 'T-4', priority: true })
		]
	};
}

/**
 * The issue 47 lunch rush: `rush()` made messier, as a kitchen's lunch really is. Half the items
 * carry one to three modifiers; the coursed party has a nut allergy on a held course and a
 * "no …" line; notes carry emails, URLs and delivery ids (what the expo reads to a driver); CJK
 * and emoji; an update, two cancels, a scheduled order. Send as `rush()` is sent (`early` 9
 * minutes back, `warm` 6, then `fresh` and `after`). tests/e2e/messy-rush.e2e.ts reads it at five
 * sizes.
 */
export function messyRush(): ReturnType<typeof rush> {
	const base = rush();
	const mods = (...names: string[]) => names.map((name) => ({ name }));
	type Sent = { command: string; order: Json & { items?: Json[] } };
	const edit = (list: Json[], id: string, change: (o: Sent['order']) => void) => {
		const sent = list.find((m) => (m as Sent).order.id === id) as Sent | undefined;
		if (!sent) throw new Error(`messyRush: no order ${id}`);
		change(sent.order);
	};
	const fresh = base.fresh;
	edit(fresh, 'P-10', (o) => {
		const items = o.items!;
		items[3] = { ...items[3], mods: mods('Extra cheese', 'No basil', 'Well done') };
		items.splice(
			5,
			0,
			item('7', 'Kids Pasta', {
				course: '2',
				courseStatus: 'hold',
				mods: mods('Butter only'),
				specialInstructions: 'No nuts, no sesame: severe allergy (seat 4)'
			})
		);
	});
	edit(fresh, 'GH-3', (o) => {
		o.deliveryService = { name: 'Grubhub', orderId: 'GH-99812-7F3A9C2E-4B1D-11EF' };
		o.specialInstructions =
			'Driver: call sam.oconnor.deliveries@example-restaurant-group.com or see https://track.example.com/orders/GH-99812-7F3A9C2E?ref=kitchen';
	});
	edit(fresh, 'CS-1', (o) => {
		o.specialInstructions = 'Text on arrival: alex.p.whitfield+curbside@example.org, spot 7';
		o.items![0] = { ...o.items![0], mods: mods('Extra biscuits', 'Honey butter', 'No gravy') };
	});
	edit(fresh, 'T-12', (o) => {
		o.items![1] = {
			...o.items![1],
			mods: mods('Extra lime'),
			specialInstructions: 'Recipe: https://example.com/menu/guacamole-traditional-molcajete'
		};
	});
	edit(fresh, 'JP-1', (o) => {
		o.items![1] = {
			...o.items![1],
			mods: mods('焼き', 'タレ別'),
			specialInstructions: '🥜 ピーナッツアレルギー'
		};
	});
	edit(fresh, 'T-7', (o) => {
		o.items![1] = { ...o.items![1], mods: mods('Extra crispy', 'No salt') };
	});
	edit(fresh, 'DT-9', (o) => {
		o.items![2] = { ...o.items![2], mods: mods('No ice', 'Large') };
	});
	return base;
}

/**
 * Three items whose fields are long unbroken strings (a POS that sends ids, or a test typed by a
 * cat): they must wrap inside the card and take no more room than their words need.
 */
export function unbrokenOrder(id = 'UNBROKEN-1'): Json {
	const long = (word: string, n: number) => Array(n).fill(word).join('');
	return create(
		order(
			id,
			`Customer_${long('Name', 12)}`,
			[
				item('1', `Item_${long('Burger', 10)}`, {
					seat: long('S', 24),
					mods: mods2(`Mod_${long('NoOnion', 8)}`, `Mod_${long('Extra', 10)}`),
					specialInstructions: `Note_${long('Allergy', 10)}`
				}),
				item('2', long('Fries', 14), { mods: mods2(long('Salt', 16)) }),
				item('3', long('Shake', 12))
			],
			{
				mode: 'Delivery',
				deliveryService: { name: long('Service', 6), orderId: long('ID1234', 8) },
				specialInstructions: `https://example.com/${long('path', 20)}?user=${long('x', 40)}@example.com`
			}
		)
	);
}

function mods2(...names: string[]): Json[] {
	return names.map((name) => ({ name }));
}
