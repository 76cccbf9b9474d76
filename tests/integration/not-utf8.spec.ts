/**
 * Bytes that are not UTF-8 (ISO-8859-1 from Java's getBytes() on a machine whose default charset is
 * not UTF-8, an old PHP source file): accepted over HTTP and TCP as the real screen takes them, each
 * such byte read as U+FFFD, and the inspector names where (KDS-TEXT-NOT-UTF8). The same text sent
 * as UTF-8 has no such finding.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent.close());

/** The order as a Latin-1 client sends it: "Müller" and "Crème brûlée" one byte per letter. */
function order(id: string): string {
	return JSON.stringify({
		id,
		name: 'Müller',
		time: new Date().toISOString(),
		mode: 'Pickup',
		items: [{ lineId: '1', name: 'Crème brûlée', qty: 1, mods: [] }]
	});
}

interface Entry {
	findings: Array<{ code: string; path: string; message: string }>;
}
async function entryOf(id: string): Promise<Entry> {
	const read = async () =>
		(
			(await (await fetch(`${agent.httpUrl}/api/admin/messages?orderId=${id}`)).json()) as Entry[]
		)[0];
	await expect.poll(read).toBeDefined();
	return read();
}
async function namesOnScreen(id: string): Promise<[string, string]> {
	const state = (await (await fetch(`${agent.httpUrl}/api/screens/kds-1/state`)).json()) as {
		records: Array<{
			context: { id: string; fields: { name: string }; items: Array<{ name: string }> };
		}>;
	};
	const record = state.records.find((r) => r.context.id === id)!;
	return [record.context.fields.name, record.context.items[0].name];
}
const notUtf8 = (e: Entry) => e.findings.filter((f) => f.code === 'KDS-TEXT-NOT-UTF8');

function post(body: Buffer): Promise<Response> {
	return fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-1',
			'content-type': 'application/json; charset=ISO-8859-1'
		},
		body: new Uint8Array(body)
	});
}

function sendTcp(bytes: Buffer): Promise<string> {
	const { host, port } = agent.screens[0].tcp;
	return new Promise((done, fail) => {
		const socket = connect(port, host, () => socket.end(bytes));
		let reply = '';
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => (reply += chunk));
		socket.on('end', () => done(reply));
		socket.on('error', fail);
	});
}

it('HTTP: a Latin-1 body is taken, shows U+FFFD for each letter, and the inspector names each text', async () => {
	const res = await post(Buffer.from(order('latin-http'), 'latin1'));
	expect([res.status, await res.json()]).toEqual([
		201,
		expect.objectContaining({ orderId: 'latin-http' })
	]);
	expect(await namesOnScreen('latin-http')).toEqual(['M\uFFFDller', 'Cr\uFFFDme br\uFFFDl\uFFFDe']);
	expect(notUtf8(await entryOf('latin-http'))).toEqual([
		{
			code: 'KDS-TEXT-NOT-UTF8',
			path: 'name',
			severity: 'warning',
			message:
				'the text "M\uFFFDller" holds �: bytes that are not UTF-8 (ISO-8859-1 or Windows-1252?) were read as U+FFFD and show so; send the text as UTF-8'
		},
		expect.objectContaining({ code: 'KDS-TEXT-NOT-UTF8', path: 'items[0].name' })
	]);
});

it('TCP: the same bytes in an envelope, the paths inside the envelope', async () => {
	const message = `{"command":"create-order","order":${order('latin-tcp')}}`;
	expect(await sendTcp(Buffer.from(message, 'latin1'))).toBe('latin-tcp');
	expect(await namesOnScreen('latin-tcp')).toEqual(['M\uFFFDller', 'Cr\uFFFDme br\uFFFDl\uFFFDe']);
	expect(notUtf8(await entryOf('latin-tcp')).map((f) => f.path)).toEqual([
		'order.name',
		'order.items[0].name'
	]);
});

it('the same text as UTF-8: shown as sent, no such finding, over both', async () => {
	const res = await post(Buffer.from(order('utf8-http'), 'utf8'));
	expect(res.status).toBe(201);
	expect(await namesOnScreen('utf8-http')).toEqual(['Müller', 'Crème brûlée']);
	expect(notUtf8(await entryOf('utf8-http'))).toEqual([]);
	const message = `{"command":"create-order","order":${order('utf8-tcp')}}`;
	expect(await sendTcp(Buffer.from(message, 'utf8'))).toBe('utf8-tcp');
	expect(notUtf8(await entryOf('utf8-tcp'))).toEqual([]);
});
