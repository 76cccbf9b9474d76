import { describe, expect, it } from 'vitest';
import { ORDER_MODES } from './order-schema.ts';
import { webhookItems, webhookOrderType } from './webhooks.ts';

describe('webhook bodies (#core/webhooks)', () => {
	it('order types as the vendor spells them: lowercase, no spaces', () => {
		expect(ORDER_MODES.map(webhookOrderType)).toEqual([
			'forhere',
			'togo',
			'pickup',
			'drivethru',
			'delivery',
			'curbside'
		]);
	});

	it('items: removed lines left out, an item note a modifier, the order note an item of its own', () => {
		const items = webhookItems(
			[
				{ lineId: 'a', name: 'Soup', qty: 1, mods: [{ name: 'Crackers', qty: 3 }] },
				{ lineId: 'b', name: 'Gone', qty: 1, mods: [], deleted: true },
				{ lineId: 'c', name: 'Tea', qty: 2, mods: [], specialInstructions: '  no sugar ' }
			],
			'  '
		);
		expect(items).toEqual([
			{
				itemId: 'a',
				quantity: 1,
				name: 'Soup',
				menuItemId: null,
				categoryIds: null,
				modifiers: [{ name: 'Crackers', quantity: 3 }]
			},
			{
				itemId: 'c',
				quantity: 2,
				name: 'Tea',
				menuItemId: null,
				categoryIds: null,
				modifiers: [{ name: 'no sugar', quantity: 1 }]
			}
		]);
		expect(webhookItems([], 'Knock twice').at(-1)).toEqual({
			itemId: null,
			quantity: 1,
			name: 'Special Instructions',
			menuItemId: null,
			categoryIds: null,
			modifiers: [{ name: 'Knock twice', quantity: 1 }]
		});
	});
});
