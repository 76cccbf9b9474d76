/**
 * One decision of what a TCP message carries (#core/tcp-message `envelopeOf`), seen from both
 * ends: the reply bytes the screen's listener writes on a real socket, and the inspector's field
 * view of the message it logged. `{"command":"create-order","order":null}` is an envelope with no
 * order: refused, and nothing reads the envelope itself as an order.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import type { MessageEntry } from '../../agent/inspector/message-log.ts';
import { readOrderFields } from '#core/view/order-fields';
import { startTestAgent } from '../helpers/test-agent.ts';
import { sendTcpRaw } from '../helpers/tcp.ts';

let agent: RunningAgent;
let tcp: { host: string; port: number };
beforeAll(async () => {
	agent = await startTestAgent();
	tcp = agent.screens[0].tcp;
}, 120_000);
afterAll(() => agent?.close());
beforeEach(async () => {
	expect((await fetch(`${agent.httpUrl}/api/admin/reset`, { method: 'POST' })).status).toBe(200);
});

const lastEntry = async (): Promise<MessageEntry> => {
	let entries: MessageEntry[] = [];
	await expect
		.poll(async () => {
			const res = await fetch(`${agent.httpUrl}/api/admin/messages`);
			entries = (await res.json()) as MessageEntry[];
			return entries.length;
		})
		.toBe(1);
	return entries[0];
};

const activeIds = async (): Promise<string[]> => {
	const res = await fetch(`${agent.httpUrl}/api/screens/kds-1/state`);
	const { records } = (await res.json()) as { records: Array<{ context: { id: string } }> };
	return records.map((r) => r.context.id);
};

describe('an envelope whose order is null', () => {
	const message = '{"command":"create-order","order":null}\n';

	it('is refused on the socket, and the inspector reads it as the same refusal', async () => {
		expect(await sendTcpRaw(tcp.host, tcp.port, [message])).toBe('Unable to parse data\n');
		const entry = await lastEntry();
		expect(entry).toMatchObject({ interface: 'tcp', ok: false, result: 'Unable to parse data' });
		expect(entry.findings.map((f) => f.code)).toContain('KDS-TCP-ORDER-INVALID');

		const reading = readOrderFields(entry)!;
		expect(reading.command).toBe('create-order');
		expect(reading.errors).toEqual([{ path: 'order', message: 'expected an object, got null' }]);
		// The envelope's own keys are not read as the fields of an order.
		expect(reading.rows).toEqual([]);
		expect(await activeIds()).toEqual([]);
	});

	it('is told apart from a bare order, which is a create', async () => {
		const bare = JSON.stringify({
			id: 'B-1',
			name: 'Ana',
			time: 1795338000000,
			mode: 'For Here',
			items: [{ lineId: '1', name: 'Ramen 🍜', qty: 1, mods: ['No egg'] }]
		});
		expect(await sendTcpRaw(tcp.host, tcp.port, [`${bare}\n`])).toBe('B-1\n');
		const reading = readOrderFields(await lastEntry())!;
		expect(reading.command).toBe('create-order');
		expect(reading.errors).toEqual([]);
		expect(reading.rows.map((r) => r.field)).toContain('items[0]');
		expect(await activeIds()).toEqual(['B-1']);
	});
});
