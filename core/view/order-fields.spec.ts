/**
 * The integrator's view of an order message, field by field: as received, as the screen read it
 * (the core's schema in the location's zone), where the card shows it, and the findings the core
 * gave each field. The findings here come from checkConformance, as the agent logs them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConformance } from '../conformance.ts';
import {
	cardPlace,
	fireTimeText,
	readOrderFields,
	type LoggedOrderMessage
} from './order-fields.ts';

const ZONE = 'Europe/Berlin';

/** A TCP message as the agent logs it: its text and the core's findings. */
function tcp(message: Record<string, unknown>): LoggedOrderMessage {
	const command = (message.command as 'create-order' | undefined) ?? 'create-order';
	return {
		interface: 'tcp',
		command,
		raw: JSON.stringify(message),
		findings: checkConformance({ interface: 'tcp', command, raw: message, timeZone: ZONE })
	};
}

const order = {
	id: 'A-17',
	name: 'Ana',
	time: '2026-11-25T12:30:00',
	mode: 'Delivery',
	deliveryHandoff: true,
	pickupTime: '2026-11-25T13:00:00+01:00',
	prepTimeDuration: 'PT20M',
	phoneNumber: '+49 30 1234567',
	deliveryAddress: 'Unter den Linden 1, Berlin',
	deliveryService: { name: 'Wolt', orderId: 'W-9', driverPhone: '+49 170 000' },
	costs: { subtotal: '12.50', tip: '2.00' },
	items: [{ lineId: '1', name: 'Burger', qty: 2, price: '6.25', mods: ['No onion'] }],
	tableColour: 'blue'
};

describe('readOrderFields', () => {
	it('reads every field of a TCP create as the screen did, and says where the card shows it', () => {
		const reading = readOrderFields(tcp({ command: 'create-order', order }), ZONE)!;
		const row = (field: string) => reading.rows.find((r) => r.field === field)!;
		expect(reading.command).toBe('create-order');
		expect(reading.errors).toEqual([]);

		// time without an offset: read in the location's zone, with the core's finding.
		expect(row('time').received).toBe('"2026-11-25T12:30:00"');
		expect(row('time').read).toMatch(
			/^2026-11-25T12:30:00\.?0*\+01:00 · 12:30 .+ \(Europe\/Berlin\)$/
		);
		expect(row('time').findings.map((f) => f.code)).toContain('KDS-TIME-NO-OFFSET');
		expect(row('time').card).toMatch(/^header: “placed 12:05 PM” on a selected card/);

		expect(row('mode').read).toBe('Delivery Handoff');
		expect(row('mode').card).toBe('mode chip');
		expect(row('prepTimeDuration').read).toBe('20 min');
		expect(row('phoneNumber')).toMatchObject({ read: '+49 30 1234567', card: null });
		expect(row('deliveryAddress').card).toBeNull();
		expect(row('deliveryService.name')).toMatchObject({ read: 'Wolt', card: 'info line' });
		expect(row('deliveryService.driverPhone')).toMatchObject({ read: '+49 170 000', card: null });
		expect(row('costs.tip')).toMatchObject({ received: '"2.00"', read: '2.00', card: null });
		expect(row('items[0]').read).toBe('2 × Burger (No onion)');
		expect(row('items[0]').card).toBe('item lines');

		// A field the contract does not have: ignored, with the core's finding.
		expect(row('tableColour').read).toBe('ignored: not a field the screen reads');
		expect(row('tableColour').findings.map((f) => f.code)).toContain('KDS-FIELD-UNKNOWN');

		// The fire time: pickupTime − prepTimeDuration, 12:40 in Berlin.
		expect(fireTimeText(reading, ZONE)).toMatch(
			/^12:40 .+ \(Europe\/Berlin\): pickupTime − prepTimeDuration$/
		);
	});

	it('reads a bare TCP order (no envelope) and an HTTP partial update by its route', () => {
		const bare = readOrderFields(tcp({ ...order, tableColour: undefined }), ZONE)!;
		expect(bare.rows.find((r) => r.field === 'time')!.findings.map((f) => f.code)).toContain(
			'KDS-TIME-NO-OFFSET'
		);
		const partial = readOrderFields(
			{
				interface: 'http',
				command: 'PUT /integrators/kds-orders/partial',
				raw: JSON.stringify({ id: 'A-17', priority: true, itemsToRemove: ['1'] }),
				findings: []
			},
			ZONE
		)!;
		expect(partial.command).toBe('partial-update-order');
		expect(partial.rows.map((r) => [r.field, r.read, r.card])).toEqual([
			['id', 'A-17', null],
			['priority', 'yes', 'chip “▲ Priority” and an orange frame'],
			['itemsToRemove', '["1"]', 'item lines, struck through']
		]);
	});

	it('names the schema’s errors for a refused message and reads no field of it', () => {
		const refused = tcp({ command: 'create-order', order: { ...order, items: [{ name: 'X' }] } });
		const reading = readOrderFields(refused, ZONE)!;
		expect(reading.errors.map((e) => e.path)).toContain('order.items[0].qty');
		expect(reading.rows.find((r) => r.field === 'items[0]')!.read).toBe(
			'not read: the message was refused'
		);
	});

	it('has nothing to read in a payload that is not an order', () => {
		for (const raw of ['hello', '[1,2]', 'null', '"x"']) {
			expect(readOrderFields({ interface: 'tcp', command: null, raw, findings: [] })).toBeNull();
		}
		expect(
			readOrderFields({
				interface: 'http',
				command: 'POST /integrators/kds-notifications/send-message',
				raw: '{"message":"hi"}',
				findings: []
			})
		).toBeNull();
	});

	it('places nested and indexed fields by their top field', () => {
		expect(cardPlace('items[12]')).toBe('item lines');
		expect(cardPlace('costs.additionalFees')).toBeNull();
		expect(cardPlace('somethingNew')).toBeNull();
	});

	it('never throws, and gives one row per received field, whatever JSON comes (seeded)', () => {
		fc.assert(
			fc.property(
				fc.dictionary(fc.string(), fc.jsonValue()),
				fc.constantFrom('tcp', 'http') as fc.Arbitrary<'tcp' | 'http'>,
				(body, iface) => {
					const reading = readOrderFields(
						{
							interface: iface,
							command: iface === 'http' ? 'POST /integrators/kds-orders' : 'create-order',
							raw: JSON.stringify(body),
							findings: []
						},
						ZONE
					);
					if (iface === 'http' || !('order' in body || 'command' in body)) {
						expect(reading).not.toBeNull();
						const tops = new Set(reading!.rows.map((r) => r.field.split(/[.[]/)[0]));
						for (const key of Object.keys(body)) {
							const value = body[key];
							const empty =
								(Array.isArray(value) && value.length === 0 && /^items/.test(key)) ||
								((key === 'costs' || key === 'deliveryService') &&
									typeof value === 'object' &&
									value !== null &&
									!Array.isArray(value) &&
									Object.keys(value).length === 0);
							if (!empty) expect(tops.has(key.split(/[.[]/)[0])).toBe(true);
						}
					}
				}
			),
			{ seed: 2626, numRuns: 300 }
		);
	});
});
