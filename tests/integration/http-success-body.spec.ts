/**
 * The success answer of an order write to local screens is made as text by the route
 * (agent/http/integrators/orders.ts `answer`, from a tail made once per screen): it must be the
 * very bytes the route's serializer (JSON.stringify) made of `{ orderId, deliveryStatuses }`,
 * with the same content type, and the inspector must log that reply. Seeded ids of any characters
 * the contract accepts (unicode, quotes, backslashes, lone surrogates), one screen and two, create
 * (each screen's type) and the writes that answer without it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import type { MessageEntry } from '#core/message-entry';
import { startTestAgent } from '../helpers/test-agent.ts';

let agent: RunningAgent;
beforeAll(async () => {
	agent = await startTestAgent();
});
afterAll(() => agent.close());

async function call(method: string, path: string, devices: string, body: unknown) {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': devices
		},
		body: JSON.stringify(body)
	});
	return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const expected = (orderId: string, devices: string[], withType: boolean) =>
	JSON.stringify({
		orderId,
		deliveryStatuses: devices.map((device) =>
			withType ? { device, status: 'SUCCESS', type: 'android' } : { device, status: 'SUCCESS' }
		)
	});

// Ids the contract takes: no control characters or line breaks (the TCP reply is the id on a line).
const ids = fc
	.string({
		unit: fc.oneof(
			fc.constantFrom('"', '\\', '/', 'é', '😀', '\ud800', '\u2028'),
			fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })
		),
		maxLength: 40
	})
	.filter(
		(s) =>
			s.trim().length > 0 &&
			![...s].some((c) => {
				const code = c.codePointAt(0)!;
				return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
			})
	);

let n = 0;
it('answers every write to local screens with the bytes JSON.stringify makes, and logs them', async () => {
	await fc.assert(
		fc.asyncProperty(ids, fc.boolean(), async (raw, both) => {
			const id = `${raw}#${++n}`;
			const devices = both ? ['kds-1', 'kds-2'] : ['kds-1'];
			const header = devices.join(',');
			const order = {
				id,
				name: 'Guest',
				time: '2026-11-22T18:00:00Z',
				mode: 'ToGo',
				items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
			};
			const created = await call('POST', '', header, order);
			expect(created).toEqual({
				status: 201,
				type: 'application/json; charset=utf-8',
				text: expected(id, devices, true)
			});
			for (const [path, body] of [
				['', { ...order, name: 'Guest 2' }],
				['/partial', { id, priority: true }],
				['/cancel', { id }]
			] as const) {
				expect(await call('PUT', path, header, body)).toEqual({
					status: 200,
					type: 'application/json; charset=utf-8',
					text: expected(id, devices, false)
				});
			}
			const log = (await (
				await fetch(`${agent.httpUrl}/api/admin/messages`)
			).json()) as MessageEntry[];
			const replies = log.filter((e) => e.orderId === id).map((e) => e.reply);
			expect(replies.sort()).toEqual(
				[expected(id, devices, true), ...Array(3).fill(expected(id, devices, false))].sort()
			);
		}),
		{ seed: 32, numRuns: 40 }
	);
});
