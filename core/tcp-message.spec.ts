/**
 * envelopeOf: the one decision of whether a TCP message is a `{command, order}` envelope or a
 * legacy bare order, and where its order is. The parser (the screen's reply), the findings and
 * the inspector's field view all read it, so they give one answer for the same message.
 */
import { describe, expect, it } from 'vitest';
import { checkConformance } from './conformance.ts';
import { envelopeOf, parseTcpValue, tcpCommandOf } from './tcp-message.ts';
import { readOrderFields } from './view/order-fields.ts';

const order = {
	id: 'E-1',
	name: 'Ana',
	time: 1795338000000,
	mode: 'For Here',
	items: [{ lineId: '1', name: 'Gyoza 餃子', qty: 6, mods: ['Extra chili'] }]
};

describe('envelopeOf', () => {
	it('an envelope whose order is null carries no order, and is not read as a bare order', () => {
		const json = { command: 'create-order', order: null };
		expect(envelopeOf(json)).toEqual({
			enveloped: true,
			command: 'create-order',
			named: 'create-order',
			order: null,
			orderValue: null,
			prefix: 'order.'
		});
		// The parser, the findings and the field view agree: refused at `order`.
		expect(parseTcpValue(json)).toEqual({
			ok: false,
			errors: [{ path: 'order', message: 'expected an object, got null' }]
		});
		const findings = checkConformance({ interface: 'tcp', command: 'create-order', raw: json });
		expect(findings.map((f) => [f.code, f.path])).toContainEqual([
			'KDS-TCP-ORDER-INVALID',
			'order'
		]);
		expect(findings.map((f) => f.code)).not.toContain('KDS-TCP-BARE-ORDER');
		const reading = readOrderFields({
			interface: 'tcp',
			command: 'create-order',
			raw: JSON.stringify(json),
			findings
		})!;
		expect(reading.errors.map((e) => e.path)).toEqual(['order']);
		expect(reading.rows).toEqual([]);
	});

	it('a message with a command and no order is an envelope too', () => {
		expect(envelopeOf({ command: 'cancel-order' })).toMatchObject({
			enveloped: true,
			named: 'cancel-order',
			order: null
		});
		expect(envelopeOf({ command: 'cancel-order', order: [] })?.order).toBeNull();
		expect(envelopeOf({ command: 'cancel-order', order: 'E-1' })?.order).toBeNull();
	});

	it('a message with neither key is a bare order: the message itself, create-order', () => {
		expect(envelopeOf(order)).toEqual({
			enveloped: false,
			command: undefined,
			named: 'create-order',
			order,
			orderValue: order,
			prefix: ''
		});
	});

	it('names the command: create-order when absent or null, the string as sent, null otherwise', () => {
		expect(envelopeOf({ order })?.named).toBe('create-order');
		expect(envelopeOf({ command: null, order })?.named).toBe('create-order');
		expect(envelopeOf({ command: 'delete-order', order })?.named).toBe('delete-order');
		expect(envelopeOf({ command: 42, order })?.named).toBeNull();
		expect(tcpCommandOf(envelopeOf({ command: 'delete-order', order })!)).toBeUndefined();
		expect(tcpCommandOf(envelopeOf({ command: 'update-order', order })!)).toBe('update-order');
	});

	it('is null for what is not a JSON object', () => {
		for (const json of [null, [order], 'order', 7, undefined]) expect(envelopeOf(json)).toBeNull();
	});
});
