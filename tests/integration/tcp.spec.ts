/**
 * The direct TCP order interface over real sockets: every row of the contract's state table and
 * every update rule, asserting the exact reply bytes, in each client style real POS code uses.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import type { Order } from '#core/order-schema';
import { createRecord } from '#core/screen';
import { sendTcp, sendTcpRaw, TcpSession } from '../helpers/tcp.ts';

const sample = (name: string) =>
	readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), 'utf8');

let agent: RunningAgent;
let host: string;
let port: number;

beforeAll(async () => {
	agent = await startTestAgent();
	({ host, port } = agent.screens[0].tcp);
});
afterAll(() => agent.close());
beforeEach(() => agent.engine.reset());

const order = (
	id: string,
	items: object[] = [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }],
	extra = {}
) => ({
	id,
	name: `Guest ${id}`,
	time: 1795338000000,
	mode: 'For Here',
	items,
	...extra
});
const send = (command: string, body: object) => sendTcp(host, port, { command, order: body });
const record = (id: string) => agent.engine.screen(agent.screens[0].id)!.state.orders.get(id);

describe('state table (contract section 3) over TCP', () => {
	it('create of a new id answers the id, bare, then closes', async () => {
		expect(await send('create-order', order('A1'))).toBe('A1');
		expect(record('A1')?.state).toBe('active');
	});

	it('create of an id already on the screen answers DUPLICATE_ORDER_ID and changes nothing', async () => {
		await send('create-order', order('A2'));
		expect(
			await send('create-order', order('A2', [{ lineId: '9', name: 'Other', qty: 1, mods: [] }]))
		).toBe('DUPLICATE_ORDER_ID');
		expect(record('A2')?.context.items.map((i) => i.name)).toEqual(['Burger']);
	});

	it('create of an id that is on hold answers DUPLICATE_ORDER_ID', async () => {
		// Put an order in the holds list the way auto-hold does: created held.
		const input = {
			order: { ...order('H1'), time: '2026-11-22T18:00:00.000Z' } as Order,
			at: 1,
			seq: 1,
			held: true
		};
		const screenId = agent.screens[0].id;
		await agent.engine.commit([
			{ screenId, changes: [{ type: 'order.created', input, record: createRecord(input) }] }
		]);
		expect(record('H1')?.state).toBe('held');
		expect(await send('create-order', order('H1'))).toBe('DUPLICATE_ORDER_ID');
	});

	it('full update removes absent lineIds (flagged deleted) and adds new ones', async () => {
		await send(
			'create-order',
			order('U1', [
				{ lineId: '1', name: 'Burger', qty: 1, mods: [] },
				{ lineId: '2', name: 'Fries', qty: 1, mods: [] }
			])
		);
		expect(
			await send(
				'update-order',
				order('U1', [
					{ lineId: '1', name: 'Burger', qty: 2, mods: [] },
					{ lineId: '3', name: 'Shake', qty: 1, mods: ['Chocolate'] }
				])
			)
		).toBe('U1');
		const items = record('U1')!.context.items;
		expect(
			items.map((i) => [i.lineId, i.name, i.qty, i.deleted ?? false, i.change ?? null])
		).toEqual([
			['1', 'Burger', 2, false, 'updated'],
			['2', 'Fries', 1, true, null],
			['3', 'Shake', 1, false, 'added']
		]);
		expect(items[2].mods).toEqual([{ name: 'Chocolate' }]);
	});

	it('update, partial update and cancel of an unknown id answer ORDER_DOES_NOT_EXIST', async () => {
		expect(await send('update-order', order('nope'))).toBe('ORDER_DOES_NOT_EXIST');
		expect(await send('partial-update-order', { id: 'nope', name: 'x' })).toBe(
			'ORDER_DOES_NOT_EXIST'
		);
		expect(await send('cancel-order', { id: 'nope' })).toBe('ORDER_DOES_NOT_EXIST');
	});

	it('partial update: null and absent leave fields; itemsToAdd/Update/Remove by lineId, unknown ones ignored', async () => {
		await send(
			'create-order',
			order(
				'P1',
				[
					{ lineId: '1', name: 'Burger', qty: 1, mods: [] },
					{ lineId: '2', name: 'Fries', qty: 1, mods: [] }
				],
				{ server: 'Jordan', specialInstructions: 'Rush' }
			)
		);
		const reply = await send('partial-update-order', {
			id: 'P1',
			name: null,
			server: 'Alex',
			specialInstructions: null,
			itemsToAdd: [
				{ lineId: '1', name: 'Ignored duplicate', qty: 5, mods: [] },
				{ lineId: '3', name: 'Cola', qty: 1, mods: [] }
			],
			itemsToUpdate: [
				{ lineId: '2', name: 'Fries', qty: 3, mods: [{ name: 'Salt', qty: 2 }] },
				{ lineId: '99', name: 'Ghost', qty: 1, mods: [] }
			],
			itemsToRemove: ['1', '42']
		});
		expect(reply).toBe('P1');
		const { fields, items } = record('P1')!.context;
		expect(fields.name).toBe('Guest P1');
		expect(fields.server).toBe('Alex');
		expect(fields.specialInstructions).toBe('Rush');
		expect(items.map((i) => [i.lineId, i.name, i.qty, i.deleted ?? false])).toEqual([
			['1', 'Burger', 1, true],
			['2', 'Fries', 3, false],
			['3', 'Cola', 1, false]
		]);
	});

	it('partial update with a partial item is refused as unparseable', async () => {
		await send('create-order', order('P2'));
		expect(
			await send('partial-update-order', { id: 'P2', itemsToUpdate: [{ lineId: '1', qty: 2 }] })
		).toBe('Unable to parse data');
		expect(record('P2')!.context.items[0].qty).toBe(1);
	});

	it('cancel keeps the card, marked cancelled; cancelling again answers the id and changes nothing', async () => {
		await send('create-order', order('C1'));
		expect(await send('cancel-order', { id: 'C1' })).toBe('C1');
		expect(record('C1')?.state).toBe('cancelled');
		expect(await send('cancel-order', { id: 'C1' })).toBe('C1');
		expect(record('C1')?.state).toBe('cancelled');
	});

	it('cancel of a bumped order is ignored (answers the id); updating it answers ORDER_DOES_NOT_EXIST', async () => {
		await send('create-order', order('B1'));
		expect(agent.engine.runAction(agent.screens[0].id, 'bump', 'B1')).toBe(true);
		expect(await send('cancel-order', { id: 'B1' })).toBe('B1');
		expect(record('B1')?.state).toBe('bumped');
		expect(await send('update-order', order('B1'))).toBe('ORDER_DOES_NOT_EXIST');
		// Done orders are not on the screen: the id can be used again.
		expect(await send('create-order', order('B1'))).toBe('B1');
		expect(record('B1')?.state).toBe('active');
	});

	it('priority orders go to the front of the queue', async () => {
		await send('create-order', order('Q1'));
		await send('create-order', order('Q2'));
		expect(await send('partial-update-order', { id: 'Q2', priority: true })).toBe('Q2');
		expect(agent.engine.queue(agent.screens[0].id).map((r) => r.context.id)).toEqual(['Q2', 'Q1']);
	});

	it('the two screens are separate: an order on one is unknown on the other', async () => {
		await send('create-order', order('S1'));
		const other = agent.screens[1].tcp;
		expect(
			await sendTcp(other.host, other.port, { command: 'cancel-order', order: { id: 'S1' } })
		).toBe('ORDER_DOES_NOT_EXIST');
		expect(
			await sendTcp(other.host, other.port, { command: 'create-order', order: order('S1') })
		).toBe('S1');
	});
});

describe('message shapes (contract 4.5 and 9)', () => {
	it.each([
		['tcp-create-minimal.json', '1001'],
		['tcp-create-iso-time.json', '1002'],
		['tcp-bare-legacy.json', '1003']
	])('sample %s is accepted', async (file, id) => {
		// The sample files end with a newline, so the reply does too.
		expect(await sendTcp(host, port, sample(file))).toBe(`${id}\n`);
	});

	it('a missing command means create-order', async () => {
		expect(await sendTcp(host, port, { order: order('M1') })).toBe('M1');
	});

	it.each([
		['not JSON', 'hello'],
		['truncated JSON', '{"command":"create-order","order":{"id":"T1"'],
		['an array', '[1,2,3]'],
		['an unknown command', JSON.stringify({ command: 'delete-order', order: { id: 'x' } })],
		['a missing order object', JSON.stringify({ command: 'cancel-order' })],
		[
			'a wrong type',
			JSON.stringify({
				command: 'create-order',
				order: { ...order('W1'), items: [{ lineId: '1', name: 'x', qty: '2x', mods: [] }] }
			})
		],
		[
			'an unknown mode',
			JSON.stringify({ command: 'create-order', order: { ...order('W2'), mode: 'Dine In' } })
		],
		[
			'time as a bad string',
			JSON.stringify({ command: 'create-order', order: { ...order('W3'), time: 'yesterday' } })
		]
	])('%s answers "Unable to parse data"', async (_what, payload) => {
		expect(await sendTcp(host, port, payload)).toBe('Unable to parse data');
	});
});

describe('client styles (field notes)', () => {
	it('one-shot: write, half-close, read until close gets the bare reply', async () => {
		expect(
			await sendTcpRaw(host, port, [
				JSON.stringify({ command: 'create-order', order: order('O1') })
			])
		).toBe('O1');
	});

	it('one-shot with a trailing newline gets the reply with a newline', async () => {
		expect(await sendTcpRaw(host, port, [`${JSON.stringify(order('O2'))}\n`])).toBe('O2\n');
	});

	it('persistent connection with one object per line gets one reply line each, in order', async () => {
		const session = await TcpSession.open(host, port);
		expect(await session.request({ command: 'create-order', order: order('L1') })).toBe('L1');
		expect(await session.request({ command: 'create-order', order: order('L1') })).toBe(
			'DUPLICATE_ORDER_ID'
		);
		expect(await session.request('not json')).toBe('Unable to parse data');
		expect(await session.request({ command: 'cancel-order', order: { id: 'L1' } })).toBe('L1');
		await session.close();
	});

	it('pipelined lines in one write get their replies in order', async () => {
		const lines = ['PL1', 'PL2', 'PL3']
			.map((id) => JSON.stringify({ command: 'create-order', order: order(id) }))
			.join('\n');
		expect(await sendTcpRaw(host, port, [`${lines}\n`])).toBe('PL1\nPL2\nPL3\n');
	});

	it('objects back to back with no delimiter each get a reply', async () => {
		const a = JSON.stringify({ command: 'create-order', order: order('BB1') });
		const b = JSON.stringify({ command: 'create-order', order: order('BB2') });
		expect(await sendTcpRaw(host, port, [a + b])).toBe('BB1BB2');
		// Lock-step without delimiters: each reply comes without waiting for the close.
		const session = await TcpSession.open(host, port);
		const replies: string[] = [];
		session.socket.on('data', (d) => replies.push(String(d)));
		session.write(JSON.stringify({ command: 'cancel-order', order: { id: 'BB1' } }));
		await expect.poll(() => replies.join('')).toBe('BB1');
		session.write(JSON.stringify({ command: 'cancel-order', order: { id: 'BB2' } }));
		await expect.poll(() => replies.join('')).toBe('BB1BB2');
		await session.close();
	});

	it('one object split over many segments', async () => {
		const text = JSON.stringify({
			command: 'create-order',
			order: order(
				'SP1',
				Array.from({ length: 30 }, (_, i) => ({
					lineId: String(i),
					name: `Item ${i} crème brûlée`,
					qty: 1,
					mods: []
				}))
			)
		});
		const bytes = Buffer.from(text);
		const chunks: Buffer[] = [];
		for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
		expect(await sendTcpRaw(host, port, chunks, { gapMs: 1 })).toBe('SP1');
		expect(record('SP1')!.context.items[29].name).toBe('Item 29 crème brûlée');
	});

	it('garbage between valid messages on one connection is answered and skipped', async () => {
		const a = JSON.stringify({ command: 'create-order', order: order('G1') });
		const b = JSON.stringify({ command: 'create-order', order: order('G2') });
		// A line cut inside a string cannot continue on the next line: the next line is read anew.
		expect(await sendTcpRaw(host, port, [`${a}\nGARBAGE!!\n{"id":"cut\n${b}\n`])).toBe(
			'G1\nUnable to parse data\nUnable to parse data\nG2\n'
		);
		// An object left open outside a string swallows what follows until the peer closes.
		expect(await sendTcpRaw(host, port, [`{"broken":\n${b}\n`])).toBe('Unable to parse data');
	});

	it('a UTF-8 byte order mark before an object (.NET writers) is skipped: one reply, the id', async () => {
		const bom = Buffer.from([0xef, 0xbb, 0xbf]);
		const a = Buffer.from(JSON.stringify({ command: 'create-order', order: order('BOM1') }));
		expect(await sendTcpRaw(host, port, [Buffer.concat([bom, a])])).toBe('BOM1');
		// Also before each object of one connection, and split across segments.
		const b = JSON.stringify({ command: 'create-order', order: order('BOM2') });
		const c = JSON.stringify({ command: 'cancel-order', order: { id: 'BOM2' } });
		const stream = Buffer.concat([bom, Buffer.from(`${b}\n`), bom, Buffer.from(`${c}\n`)]);
		const cut = b.length + 2;
		expect(
			await sendTcpRaw(host, port, [stream.subarray(0, cut), stream.subarray(cut)], { gapMs: 5 })
		).toBe('BOM2\nBOM2\n');
		expect(record('BOM1')?.state).toBe('active');
		expect(record('BOM2')?.state).toBe('cancelled');
	});

	it('a JSON array of orders is refused once and nothing inside it takes effect', async () => {
		const wrapped = [
			{ command: 'create-order', order: order('ARR1') },
			{ command: 'create-order', order: order('ARR2') }
		];
		expect(await sendTcp(host, port, wrapped)).toBe('Unable to parse data');
		// Bare orders in an array, then a good message on the same connection.
		const next = JSON.stringify({ command: 'create-order', order: order('ARR4') });
		expect(await sendTcpRaw(host, port, [`${JSON.stringify([order('ARR3')])}\n${next}\n`])).toBe(
			'Unable to parse data\nARR4\n'
		);
		for (const id of ['ARR1', 'ARR2', 'ARR3']) expect(record(id)).toBeUndefined();
		expect(record('ARR4')?.state).toBe('active');
	});

	it('a message over 1 MiB is refused and the connection goes on', async () => {
		const huge = JSON.stringify({
			command: 'create-order',
			order: { ...order('BIG'), specialInstructions: 'x'.repeat(1100 * 1024) }
		});
		const next = JSON.stringify({ command: 'create-order', order: order('AFTER') });
		expect(await sendTcpRaw(host, port, [`${huge}\n`, `${next}\n`], { timeoutMs: 10_000 })).toBe(
			'Unable to parse data\nAFTER\n'
		);
		expect(record('BIG')).toBeUndefined();
	});

	it('a message nested deeper than 64 levels is refused once and the connection goes on', async () => {
		// A whole order with an extra field nested 20,000 levels: refused while framing, never
		// parsed (it would otherwise be accepted, the extra field ignored).
		const withExtra = (id: string, levels: number) =>
			JSON.stringify({ command: 'create-order', order: order(id) }).replace(
				/}}$/,
				`,"extra":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}}`
			);
		const bad = withExtra('DEEP', 20_000);
		// 64 levels in all is still a message: the envelope, the order and 62 levels of extra.
		const fine = withExtra('DEEP2', 62);
		expect(await sendTcpRaw(host, port, [`${bad}\n`, `${fine}\n`], { timeoutMs: 10_000 })).toBe(
			'Unable to parse data\nDEEP2\n'
		);
		expect(record('DEEP')).toBeUndefined();
		expect(record('DEEP2')?.state).toBe('active');
	});

	it('an idle half-open connection does not block other clients', async () => {
		const idle = connect({ host, port });
		await new Promise((r) => idle.once('connect', r));
		idle.write('{"command":"create-order","order":{"id":"half');
		expect(await send('create-order', order('NB1'))).toBe('NB1');
		idle.destroy();
	});
});
