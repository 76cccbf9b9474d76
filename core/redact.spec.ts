import { describe, expect, it } from 'vitest';
import { redactMessage, Redactor } from './redact.ts';

describe('Redactor', () => {
	it('replaces names, phones and addresses of an HTTP order, keeping every other byte', () => {
		const raw =
			'{ "id":"1001", "name":"María José 🌮", "phoneNumber":"+14155550123",\n' +
			'  "deliveryAddress":"1 Main St, Springfield", "server":"Ann",\n' +
			'  "items":[{"lineId":"1","name":"抹茶ラテ","mods":[{"name":"Oat milk"}]}],\n' +
			'  "deliveryService":{"name":"DoorDash","orderId":"D1","driverPhone":"(415) 555-0199"} }';
		const out = redactMessage(raw);
		expect(out).toBe(
			'{ "id":"1001", "name":"Customer 1", "phoneNumber":"+55500000001",\n' +
				'  "deliveryAddress":"Address 1", "server":"Server 1",\n' +
				'  "items":[{"lineId":"1","name":"抹茶ラテ","mods":[{"name":"Oat milk"}]}],\n' +
				'  "deliveryService":{"name":"DoorDash","orderId":"D1","driverPhone":"(555) 000-0002"} }'
		);
	});

	it('reads the order under the TCP envelope, and gives equal values the same stand-in', () => {
		const r = new Redactor();
		const a = r.message(
			'{"command":"create-order","order":{"id":"1","name":"Sam Lee","items":[]}}'
		);
		const b = r.message(
			'{"command":"create-order","order":{"id":"2","name":" sam lee ","items":[]}}'
		);
		const c = r.message('{"command":"create-order","order":{"id":"3","name":"Kai","items":[]}}');
		expect(a).toContain('"name":"Customer 1"');
		expect(b).toContain('"name":"Customer 1"');
		expect(c).toContain('"name":"Customer 2"');
		// The command's and items' names are not customer data.
		expect(r.message('{"order":{"id":"1","items":[{"name":"Fries"}]}}')).toContain('"Fries"');
	});

	it('redacts free text of known values and phone-like runs, and a text that is not whole JSON', () => {
		const r = new Redactor();
		const out = r.message(
			'{"id":"9","specialInstructions":"Call Maria on +44 20 7946 0958","name":"Maria","items":[{"na'
		);
		expect(out).toBe(
			'{"id":"9","specialInstructions":"Call Customer 1 on +•• •• •••• ••••","name":"Customer 1","items":[{"na'
		);
		expect(r.text('same name "maria" as order "8"')).toBe('same name "Customer 1" as order "8"');
		expect(redactMessage('not json at all')).toBe('not json at all');
	});

	it('redacts a parsed value as it redacts its text', () => {
		const r = new Redactor();
		const order = { id: '1', name: 'Zoë', phoneNumber: '+15551234567', items: [{ name: 'Taco' }] };
		expect(r.value(order)).toEqual({
			id: '1',
			name: 'Customer 1',
			phoneNumber: '+55500000001',
			items: [{ name: 'Taco' }]
		});
		expect(order.name).toBe('Zoë');
		expect(JSON.parse(new Redactor().message(JSON.stringify(order)))).toEqual(r.value(order));
	});
});
