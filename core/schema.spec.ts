import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
	CancelOrderSchema,
	HttpOrderSchema,
	PartialOrderSchema,
	TcpOrderSchema
} from './order-schema.ts';
import { formatErrors, formatPath, parseWith, type FieldError, type ParseResult } from './parse.ts';
import { parseTcpMessage, parseTcpValue } from './tcp-message.ts';

/** The sample payloads written from the contract (a copy of shared/samples kept in the repo). */
const SAMPLES_DIR =
	process.env.KDS_SAMPLES_DIR ??
	fileURLToPath(new URL('../tests/fixtures/samples/', import.meta.url));

function sampleText(file: string): string {
	return readFileSync(`${SAMPLES_DIR}/${file}`, 'utf8');
}

function sampleJson(file: string): unknown {
	return JSON.parse(sampleText(file));
}

function sampleFiles(): string[] {
	return readdirSync(SAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort();
}

function expectOk<T>(result: ParseResult<T>): T {
	if (!result.ok) throw new Error(`expected ok, got ${formatErrors(result.errors)}`);
	return result.value;
}

function expectErrors<T>(result: ParseResult<T>): FieldError[] {
	expect(result.ok).toBe(false);
	if (result.ok) throw new Error('unreachable');
	return result.errors;
}

/** A valid TCP order; tests change one thing at a time. */
function tcpOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		id: '1001',
		name: 'Maria',
		time: 1795338000000,
		mode: 'For Here',
		items: [
			{ lineId: '1', name: 'Cheeseburger', qty: 1, mods: [] },
			{ lineId: '2', name: 'Fries', qty: 1, mods: [] }
		],
		...over
	};
}

function tcp(command: unknown, order: unknown): string {
	return JSON.stringify(command === undefined ? { order } : { command, order });
}

describe('sample payloads', () => {
	it('the samples directory is there', () => {
		expect(existsSync(SAMPLES_DIR), `samples not found at ${SAMPLES_DIR}`).toBe(true);
		expect(sampleFiles().length).toBeGreaterThan(0);
	});

	it('every sample is one of the kinds tested below', () => {
		const unknown = sampleFiles().filter(
			(f) => !/^(tcp-|http-create-|http-partial-|http-notification-)/.test(f)
		);
		expect(unknown).toEqual([]);
	});

	const expectedCommand: Record<string, string> = {
		'tcp-bare-legacy.json': 'create-order',
		'tcp-cancel.json': 'cancel-order',
		'tcp-create-iso-time.json': 'create-order',
		'tcp-create-minimal.json': 'create-order',
		'tcp-update-full.json': 'update-order',
		'tcp-update-partial.json': 'partial-update-order'
	};

	it.each(sampleFiles().filter((f) => f.startsWith('tcp-')))(
		'%s parses as a TCP message',
		(file) => {
			const value = expectOk(parseTcpMessage(sampleText(file)));
			expect(expectedCommand[file], `no expected command listed for ${file}`).toBeDefined();
			expect(value.command).toBe(expectedCommand[file]);
			const raw = sampleJson(file) as { order?: { id: string }; id?: string };
			expect(value.order.id).toBe(raw.order?.id ?? raw.id);
		}
	);

	it.each(sampleFiles().filter((f) => f.startsWith('http-create-')))(
		'%s parses as an HTTP order',
		(file) => {
			const raw = sampleJson(file) as { id: string; time: string; items: unknown[] };
			const order = expectOk(parseWith(HttpOrderSchema, raw));
			expect(order.id).toBe(raw.id);
			expect(order.time).toBe(raw.time);
			expect(order.items).toHaveLength(raw.items.length);
		}
	);

	it.each(sampleFiles().filter((f) => f.startsWith('http-partial-')))(
		'%s parses as a partial order',
		(file) => {
			const raw = sampleJson(file) as { id: string };
			const patch = expectOk(parseWith(PartialOrderSchema, raw));
			expect(patch.id).toBe(raw.id);
		}
	);

	it('http-partial-nulls: null fields become absent, the rest is kept', () => {
		const patch = expectOk(parseWith(PartialOrderSchema, sampleJson('http-partial-nulls.json')));
		expect(patch.name).toBeUndefined();
		expect(patch.mode).toBeUndefined();
		expect(patch.priority).toBe(true);
		expect(patch.itemsToRemove).toEqual(['4']);
		expect(patch.itemsToAdd).toEqual([
			{ lineId: '5', name: 'Milkshake', qty: 1, mods: [{ name: 'Chocolate' }] }
		]);
	});

	it('tcp-update-partial: specialInstructions null is absent', () => {
		const value = expectOk(parseTcpMessage(sampleText('tcp-update-partial.json')));
		expect(value.command).toBe('partial-update-order');
		if (value.command !== 'partial-update-order') return;
		expect(value.order.specialInstructions).toBeUndefined();
		expect(value.order.priority).toBe(true);
		expect(value.order.itemsToUpdate?.[0].courseStatus).toBe('fire');
	});

	it('tcp-bare-legacy: string mods become {name}', () => {
		const value = expectOk(parseTcpMessage(sampleText('tcp-bare-legacy.json')));
		if (value.command !== 'create-order') throw new Error(value.command);
		expect(value.order.items[0].mods).toEqual([{ name: 'Oat milk' }, { name: 'Extra shot' }]);
		expect(value.order.items[1].mods).toEqual([]);
	});

	it('http-create-delivery-handoff keeps nested costs and delivery service', () => {
		const order = expectOk(
			parseWith(HttpOrderSchema, sampleJson('http-create-delivery-handoff.json'))
		);
		expect(order.deliveryService).toEqual({
			name: 'DoorDash',
			orderId: 'DD-88412',
			driverPhone: '+14155550188'
		});
		expect(order.costs?.promoCodes).toEqual([
			{ name: 'WELCOME5', amount: '-$5.00' },
			{ amount: '-$1.00' }
		]);
		expect(order.optInForSms).toBe(false);
	});
});

describe('parseTcpMessage: envelope', () => {
	it('a bare legacy order is create-order', () => {
		const value = expectOk(parseTcpMessage(JSON.stringify(tcpOrder())));
		expect(value.command).toBe('create-order');
		expect(value.order.id).toBe('1001');
	});

	it('a missing command is create-order', () => {
		const value = expectOk(parseTcpMessage(tcp(undefined, tcpOrder())));
		expect(value.command).toBe('create-order');
	});

	it.each(['create-order', 'update-order'])('%s carries a full order', (command) => {
		const value = expectOk(parseTcpMessage(tcp(command, tcpOrder())));
		expect(value.command).toBe(command);
		expect(value.order).toMatchObject({ id: '1001', name: 'Maria', mode: 'For Here' });
	});

	it('partial-update-order carries a partial order (only id required)', () => {
		const value = expectOk(parseTcpMessage(tcp('partial-update-order', { id: '7' })));
		expect(value).toEqual({ command: 'partial-update-order', order: { id: '7' } });
	});

	it('cancel-order carries only the id', () => {
		const value = expectOk(parseTcpMessage(tcp('cancel-order', { id: '7', name: 'x' })));
		expect(value).toEqual({ command: 'cancel-order', order: { id: '7' } });
	});

	it.each([
		['an unknown name', 'delete-order', '"delete-order"'],
		['a number', 3, '3'],
		['an object', {}, 'an object']
	])('an unknown command (%s) is an error at path command', (_label, command, shown) => {
		const errors = expectErrors(parseTcpMessage(tcp(command, tcpOrder())));
		expect(errors).toHaveLength(1);
		expect(errors[0].path).toBe('command');
		expect(errors[0].message).toContain('create-order');
		expect(errors[0].message).toContain(`got ${shown}`);
	});

	it.each([
		['missing', undefined, 'required'],
		['null', null, 'got null'],
		['an array', [], 'got an array'],
		['a string', 'x', 'got "x"']
	])('order %s is an error at path order', (_label, order, text) => {
		const message = JSON.stringify({ command: 'create-order', order });
		const errors = expectErrors(parseTcpMessage(message));
		expect(errors[0].path).toBe('order');
		expect(errors[0].message).toContain(text);
	});

	it.each([
		['an array', '[1,2]', 'an array'],
		['a string', '"hello"', '"hello"'],
		['a number', '42', '42'],
		['null', 'null', 'null']
	])('non-object JSON (%s) is an error', (_label, text, shown) => {
		const errors = expectErrors(parseTcpMessage(text));
		expect(errors).toEqual([{ path: '', message: `expected a JSON object, got ${shown}` }]);
	});

	it.each(['', '{', '{"command":"create-order",', 'not json', "{'id':'1'}"])(
		'invalid JSON %j is an error',
		(text) => {
			const errors = expectErrors(parseTcpMessage(text));
			expect(errors).toHaveLength(1);
			expect(errors[0].path).toBe('');
			expect(errors[0].message).toMatch(/^not valid JSON/);
		}
	);

	it('parseTcpValue takes decoded JSON', () => {
		const value = expectOk(parseTcpValue({ command: 'cancel-order', order: { id: '9' } }));
		expect(value).toEqual({ command: 'cancel-order', order: { id: '9' } });
	});

	it('error paths of a bare legacy order have no order. prefix', () => {
		const errors = expectErrors(parseTcpMessage(JSON.stringify(tcpOrder({ name: 5 }))));
		expect(errors.map((e) => e.path)).toEqual(['name']);
	});
});

describe('TCP order: time', () => {
	it.each([
		[1795338000000, '2026-11-22T09:00:00.000Z'],
		[0, '1970-01-01T00:00:00.000Z']
	])('int ms %d becomes the ISO string %s', (time, iso) => {
		const value = expectOk(parseTcpMessage(tcp('create-order', tcpOrder({ time }))));
		if (value.command !== 'create-order') throw new Error(value.command);
		expect(value.order.time).toBe(iso);
	});

	it.each([
		'2026-11-22T18:04:00.000Z',
		'2026-11-22T18:05:00Z',
		'2026-11-22T19:05:00+01:00',
		'2026-11-22T18:05Z'
	])('ISO string %s is kept as given', (time) => {
		const value = expectOk(parseTcpMessage(tcp('update-order', tcpOrder({ time }))));
		if (value.command !== 'update-order') throw new Error(value.command);
		expect(value.order.time).toBe(time);
	});

	it.each([
		['a word', 'yesterday'],
		['a date without time', '2026-11-22'],
		['a date and hour only', '2026-11-22T18'],
		['an impossible date', '2026-13-45T18:05:00Z'],
		['a fraction of a ms', 1.5],
		['a negative number', -1],
		['a number past the Date range', 9e15],
		['a boolean', true],
		['an object', {}],
		['null', null]
	])('garbage (%s) is an error at order.time', (_label, time) => {
		const errors = expectErrors(parseTcpMessage(tcp('create-order', tcpOrder({ time }))));
		expect(errors.map((e) => e.path)).toEqual(['order.time']);
		expect(errors[0].message).toMatch(/expected /);
	});

	it('a time with no offset is the local time of the location, and the parse says so', () => {
		const text = tcp('create-order', tcpOrder({ time: '2026-11-24T02:00:59.729233' }));
		const result = parseTcpMessage(text, { timeZone: 'America/Chicago' });
		const value = expectOk(result);
		if (value.command !== 'create-order') throw new Error(value.command);
		expect(value.order.time).toBe('2026-11-24T02:00:59.729-06:00');
		expect(result.ok && result.outcomes?.map((o) => [o.code, o.path.join('.')])).toEqual([
			['KDS-TIME-NO-OFFSET', 'time'],
			['KDS-TIME-FRACTION', 'time']
		]);
	});

	it('a time every engine reads alike is kept, with no outcomes', () => {
		const result = parseTcpMessage(tcp('create-order', tcpOrder({ time: '2026-11-22T18:05Z' })));
		expect(result).toMatchObject({ ok: true, value: { order: { time: '2026-11-22T18:05Z' } } });
		expect(result).not.toHaveProperty('outcomes');
	});

	it('missing time says required', () => {
		const order = tcpOrder();
		delete order.time;
		const errors = expectErrors(parseTcpMessage(tcp('create-order', order)));
		expect(errors).toHaveLength(1);
		expect(errors[0].path).toBe('order.time');
		expect(errors[0].message).toMatch(/^required/);
	});
});

describe('order fields', () => {
	it('mods as strings are normalised to {name}; objects keep qty', () => {
		const order = tcpOrder({
			items: [{ lineId: '1', name: 'Latte', qty: 1, mods: ['Oat milk', { name: 'Shot', qty: 2 }] }]
		});
		const value = expectOk(parseWith(TcpOrderSchema, order));
		expect(value.items[0].mods).toEqual([{ name: 'Oat milk' }, { name: 'Shot', qty: 2 }]);
	});

	it('null optional fields are treated as absent', () => {
		const value = expectOk(
			parseWith(
				TcpOrderSchema,
				tcpOrder({
					pickupTime: null,
					phoneNumber: null,
					priority: null,
					costs: null,
					deliveryService: null,
					covers: null,
					items: [
						{ lineId: '1', name: 'A', qty: 1, mods: [], price: null, seat: null, itemGroup: null }
					]
				})
			)
		);
		for (const key of [
			'pickupTime',
			'phoneNumber',
			'priority',
			'costs',
			'deliveryService',
			'covers'
		])
			expect(value[key as keyof typeof value], key).toBeUndefined();
		expect(value.items[0].price).toBeUndefined();
		expect(value.items[0].seat).toBeUndefined();
		expect(value.items[0].itemGroup).toBeUndefined();
	});

	it('an absent optional key stays absent; sent as null or undefined, it is kept as undefined', () => {
		const value = expectOk(
			parseWith(
				TcpOrderSchema,
				tcpOrder({
					phoneNumber: null,
					server: undefined,
					costs: { tax: null, tip: undefined, total: '1.00' },
					items: [{ lineId: '1', name: 'A', qty: 1, mods: [{ name: 'x', qty: null }], seat: null }]
				})
			)
		);
		expect(Object.keys(value)).toEqual([
			'id',
			'name',
			'mode',
			'items',
			'phoneNumber',
			'server',
			'costs',
			'time'
		]);
		expect(value).toHaveProperty('phoneNumber', undefined);
		expect(value).toHaveProperty('server', undefined);
		expect(value.costs).toStrictEqual({ tax: undefined, tip: undefined, total: '1.00' });
		expect(value.items[0]).toStrictEqual({
			lineId: '1',
			name: 'A',
			qty: 1,
			mods: [{ name: 'x', qty: undefined }],
			seat: undefined
		});
	});

	it('unknown fields are stripped', () => {
		const value = expectOk(parseWith(TcpOrderSchema, tcpOrder({ colour: 'blue' })));
		expect(value).not.toHaveProperty('colour');
	});

	it('a required field sent as null is not absent: it is an error', () => {
		const errors = expectErrors(parseWith(TcpOrderSchema, tcpOrder({ name: null })));
		expect(errors).toEqual([{ path: 'name', message: 'expected a string, got null' }]);
	});

	it.each([
		[
			'item qty as text',
			{
				items: [
					{ lineId: '1', name: 'A', qty: 1, mods: [] },
					{ lineId: '2', name: 'B', qty: '2x', mods: [] }
				]
			},
			'order.items[1].qty: expected an integer, got "2x"'
		],
		[
			'item qty as a fraction',
			{ items: [{ lineId: '1', name: 'A', qty: 1.5, mods: [] }] },
			'order.items[0].qty: expected an integer, got 1.5'
		],
		['unknown mode', { mode: 'Takeaway' }, 'order.mode: expected one of For Here, ToGo'],
		['priority as text', { priority: 'yes' }, 'order.priority: expected true or false, got "yes"'],
		['empty id', { id: '' }, 'order.id: expected a non-empty string'],
		['numeric id', { id: 1001 }, 'order.id: expected a non-empty string, got 1001'],
		['items not an array', { items: {} }, 'order.items: expected an array of items, got an object'],
		[
			'mods missing',
			{ items: [{ lineId: '1', name: 'A', qty: 1 }] },
			'order.items[0].mods: required (an array of modifiers)'
		],
		[
			'bad mod',
			{ items: [{ lineId: '1', name: 'A', qty: 1, mods: [7] }] },
			'order.items[0].mods[0]: expected a modifier object {name, qty?} or a string, got 7'
		],
		[
			'bad courseStatus',
			{ items: [{ lineId: '1', name: 'A', qty: 1, mods: [], courseStatus: 'later' }] },
			'order.items[0].courseStatus: expected one of straightFire, hold, fire, pickup, got "later"'
		],
		[
			'bad pickupTime',
			{ pickupTime: 'soon' },
			'order.pickupTime: expected an ISO 8601 date-time string'
		],
		[
			'bad prepTimeDuration',
			{ prepTimeDuration: '30 minutes' },
			'order.prepTimeDuration: expected an ISO 8601 duration string'
		],
		[
			'deliveryService without orderId',
			{ deliveryService: { name: 'DoorDash' } },
			'order.deliveryService.orderId: required (a string)'
		],
		['costs.tip as a number', { costs: { tip: 5 } }, 'order.costs.tip: expected a string, got 5']
	])('%s: the error names the path and what was expected', (_label, over, text) => {
		const errors = expectErrors(parseTcpMessage(tcp('create-order', tcpOrder(over))));
		expect(formatErrors(errors)).toContain(text);
	});

	it('every missing required field says required, one error each', () => {
		const errors = expectErrors(parseTcpMessage(tcp('update-order', { id: '1' })));
		expect(errors.map((e) => e.path).sort()).toEqual([
			'order.items',
			'order.mode',
			'order.name',
			'order.time'
		]);
		for (const e of errors) expect(e.message).toMatch(/^required \(/);
	});

	it('a missing required item field says required', () => {
		const errors = expectErrors(
			parseTcpMessage(tcp('create-order', tcpOrder({ items: [{ lineId: '1', qty: 1, mods: [] }] })))
		);
		expect(formatErrors(errors)).toBe('order.items[0].name: required (a string)');
	});

	it('items without a lineId (older clients) are accepted, each with a line id by its position', () => {
		const result = parseTcpMessage(
			tcp(
				'create-order',
				tcpOrder({
					items: [
						{ name: 'A', qty: 1, mods: [] },
						{ lineId: '#1', name: 'B', qty: 1, mods: [] },
						{ lineId: null, name: 'C', qty: 1, mods: [], notes: 'extra hot' }
					]
				})
			)
		);
		expect(result.ok).toBe(true);
		if (!result.ok || result.value.command !== 'create-order') return;
		expect(result.value.order.items.map((i) => i.lineId)).toEqual(['#1.2', '#1', '#3']);
	});

	it('several errors are joined in one line', () => {
		const errors = expectErrors(
			parseTcpMessage(tcp('create-order', tcpOrder({ name: 1, mode: 'x' })))
		);
		const line = formatErrors(errors);
		expect(line).toContain('order.name: expected a string, got 1');
		expect(line).toContain('order.mode: expected one of');
		expect(line).toContain('; ');
		expect(line).not.toContain('\n');
	});

	it('long bad values are shortened in messages', () => {
		const bad = expectErrors(parseWith(TcpOrderSchema, tcpOrder({ mode: 'y'.repeat(200) })));
		expect(bad[0].message.length).toBeLessThan(200);
		expect(bad[0].message).toContain('...');
	});
});

describe('formatPath and formatErrors', () => {
	it.each([
		[[], ''],
		[['order'], 'order'],
		[['order', 'items', 1, 'qty'], 'order.items[1].qty'],
		[['items', 0, 'mods', 2], 'items[0].mods[2]'],
		[[0, 'x'], '[0].x']
	] as const)('%j → %s', (path, text) => {
		expect(formatPath(path)).toBe(text);
	});

	it('an error without a path is the bare message', () => {
		expect(formatErrors([{ path: '', message: 'not valid JSON' }])).toBe('not valid JSON');
	});
});

describe('HTTP order', () => {
	const httpOrder = (over: Record<string, unknown> = {}) => ({
		...tcpOrder(),
		time: '2026-11-22T18:10:00Z',
		...over
	});

	it('takes an ISO time and keeps it', () => {
		expect(expectOk(parseWith(HttpOrderSchema, httpOrder())).time).toBe('2026-11-22T18:10:00Z');
	});

	it.each([
		['time', '2026-11-24T02:00:59.729233', '2026-11-24T02:00:59.729-06:00'],
		['pickupTime', '2026-11-24T02:30:00', '2026-11-24T02:30:00-06:00'],
		['pickupTime', '2026-11-24T08:30:00+0000', '2026-11-24T08:30:00+00:00']
	])('reads %s %s as %s in the location', (field, sent, read) => {
		const result = parseWith(HttpOrderSchema, httpOrder({ [field]: sent }), [], {
			timeZone: 'America/Chicago'
		});
		expect((expectOk(result) as Record<string, unknown>)[field]).toBe(read);
		expect(result.ok && result.outcomes?.every((o) => o.path[0] === field)).toBe(true);
	});

	it('a partial update reads pickupTime the same way', () => {
		const result = parseWith(
			PartialOrderSchema,
			{ id: 'W-1', pickupTime: '2026-07-01T12:00' },
			[],
			{ timeZone: 'America/Chicago' }
		);
		expect(expectOk(result).pickupTime).toBe('2026-07-01T12:00:00-05:00');
	});

	it('refuses two items with one lineId, naming the second (TCP too)', () => {
		const item = (lineId: string, name = 'Burger') => ({ lineId, name, qty: 1, mods: [] });
		const items = [item('1'), item('2'), item('1', 'Fries')];
		const errors = expectErrors(parseWith(HttpOrderSchema, httpOrder({ items })));
		expect(errors).toEqual([
			{
				path: 'items[2].lineId',
				message: 'lineId "1" is also used by items[0]; lineIds must be unique within the order'
			}
		]);
		const tcpErrors = expectErrors(parseTcpMessage(tcp('update-order', tcpOrder({ items }))));
		expect(tcpErrors.map((e) => e.path)).toEqual(['order.items[2].lineId']);
	});

	it('refuses a numeric time', () => {
		const errors = expectErrors(parseWith(HttpOrderSchema, httpOrder({ time: 1795338000000 })));
		expect(errors).toHaveLength(1);
		expect(errors[0].path).toBe('time');
		expect(errors[0].message).toBe('expected an ISO 8601 date-time string, got 1795338000000');
	});

	it('a prefix puts errors under a path', () => {
		const errors = expectErrors(parseWith(HttpOrderSchema, httpOrder({ covers: -1 }), ['body']));
		expect(errors[0].path).toBe('body.covers');
	});
});

describe('partial order', () => {
	it('only id is required', () => {
		expect(expectOk(parseWith(PartialOrderSchema, { id: 'W-1' }))).toEqual({ id: 'W-1' });
		const errors = expectErrors(parseWith(PartialOrderSchema, { name: 'x' }));
		expect(errors).toEqual([{ path: 'id', message: 'required (a non-empty string)' }]);
	});

	it('null is absent', () => {
		const patch = expectOk(
			parseWith(PartialOrderSchema, {
				id: 'W-1',
				name: null,
				mode: null,
				priority: null,
				costs: null,
				itemsToAdd: null,
				itemsToUpdate: null,
				itemsToRemove: null
			})
		);
		expect(patch).toEqual({ id: 'W-1' });
		for (const value of Object.values(patch).slice(1)) expect(value).toBeUndefined();
	});

	it('unknown fields, and fields the partial order does not have, are stripped', () => {
		const patch = expectOk(
			parseWith(PartialOrderSchema, {
				id: 'W-1',
				colour: 'blue',
				time: 5,
				items: [],
				terminal: 'T1',
				optInForSms: false,
				customerArrivedUrl: 'https://x'
			})
		);
		expect(Object.keys(patch)).toEqual(['id']);
	});

	it('present fields are validated like the full order', () => {
		const errors = expectErrors(
			parseWith(PartialOrderSchema, {
				id: 'W-1',
				mode: 'Takeaway',
				itemsToAdd: [{ lineId: '5', name: 'Shake', qty: '1', mods: [] }],
				itemsToRemove: [4]
			})
		);
		expect(errors.map((e) => e.path).sort()).toEqual([
			'itemsToAdd[0].qty',
			'itemsToRemove[0]',
			'mode'
		]);
	});
});

describe('cancel order', () => {
	it('needs a non-empty id and drops the rest', () => {
		expect(expectOk(parseWith(CancelOrderSchema, { id: 'A', extra: 1 }))).toEqual({ id: 'A' });
		expect(expectErrors(parseWith(CancelOrderSchema, { id: '' }))[0].path).toBe('id');
		expect(formatErrors(expectErrors(parseTcpMessage(tcp('cancel-order', {}))))).toBe(
			'order.id: required (a non-empty string)'
		);
	});
});
