/**
 * Four places where the contract, the README and the code disagreed (issue 15), each decided
 * against the integrator contract and tested over real sockets:
 * 1. the active-orders query answers the name given at create (2.9);
 * 2. a partial update judges every item list against the order before the request (4.2 rules 4-6);
 * 3. a config needs only ids, names, tokens and TCP ports (docs/configuration.md);
 * 4. a cancel of a bumped order answers the id while the screen still has it (recall list), and
 *    ORDER_DOES_NOT_EXIST once it has left (section 3: no order with that id).
 */
import { describe, expect } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { agentTest } from '../helpers/agent-test.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { RECALL_LIMIT } from '#core/screen';
import { sendTcp } from '../helpers/tcp.ts';

const order = (id: string, name = `Guest ${id}`, lineIds = ['1', '2']) => ({
	id,
	name,
	time: 1795338000000,
	mode: 'ToGo',
	items: lineIds.map((lineId) => ({ lineId, name: `Item ${lineId}`, qty: 1, mods: [] }))
});

function client(agent: RunningAgent, screen = 0) {
	const { host, port } = agent.screens[screen].tcp;
	return (command: string, body: object) => sendTcp(host, port, { command, order: body });
}

async function http(agent: RunningAgent, method: string, path: string, body?: object) {
	const res = await fetch(`${agent.httpUrl}${path}`, {
		method,
		headers: {
			'x-integration-token': agent.token,
			'x-location-id': agent.config.brands[0].locations[0].id,
			'x-device-ids': agent.screens[0].id,
			...(body ? { 'content-type': 'application/json' } : {})
		},
		body: body ? JSON.stringify(body) : undefined
	});
	return { status: res.status, body: (await res.json()) as unknown };
}

/** The stored record of order `id` on the agent's first screen. */
const record = (agent: RunningAgent, id: string) =>
	agent.engine.screen(agent.screens[0].id)!.state.orders.get(id);

/** Tests that ask for `agent` share one agent (reset after each); the others start their own. */
const it = agentTest();

describe('contract decisions', () => {
	it.afterEach(({ agent }) => agent.reset());

	it('2. itemsToUpdate and itemsToRemove of a lineId only the same request adds are ignored (TCP and HTTP)', async ({
		agent
	}) => {
		const send = client(agent);
		expect(await send('create-order', order('P1'))).toBe('P1');
		const item = (lineId: string, qty: number) => ({
			lineId,
			name: `Item ${lineId}`,
			qty,
			mods: []
		});
		expect(
			await send('partial-update-order', {
				id: 'P1',
				itemsToAdd: [item('3', 1), item('4', 1)],
				itemsToUpdate: [item('3', 5), item('1', 2)],
				itemsToRemove: ['4', '2']
			})
		).toBe('P1');
		const lines = () =>
			record(agent, 'P1')!.context.items.map((i) => [i.lineId, i.qty, i.deleted ?? false]);
		expect(lines()).toEqual([
			['1', 2, false],
			['2', 1, true],
			['3', 1, false],
			['4', 1, false]
		]);
		const res = await http(agent, 'PUT', '/integrators/kds-orders/partial', {
			id: 'P1',
			itemsToAdd: [item('5', 1)],
			itemsToUpdate: [item('5', 9)],
			itemsToRemove: ['5']
		});
		expect(res.status).toBe(200);
		expect(lines()).toContainEqual(['5', 1, false]);
	});

	it(`4. cancel of a bumped order: the id while it is in the recall list, ORDER_DOES_NOT_EXIST after ${RECALL_LIMIT} more bumps`, async ({
		agent
	}) => {
		const send = client(agent);
		const screenId = agent.screens[0].id;
		for (let i = 0; i <= RECALL_LIMIT; i++) {
			expect(await send('create-order', order(`B${i}`))).toBe(`B${i}`);
			expect(agent.engine.runAction(screenId, 'bump', `B${i}`)).toBe(true);
		}
		// B0 was pushed out by the 51st bump; B1 is the oldest still in the recall list.
		expect(record(agent, 'B0')).toBeUndefined();
		expect(await send('cancel-order', { id: 'B0' })).toBe('ORDER_DOES_NOT_EXIST');
		expect(await send('cancel-order', { id: 'B1' })).toBe('B1');
		expect(record(agent, 'B1')?.state).toBe('bumped');
		expect((await http(agent, 'PUT', '/integrators/kds-orders/cancel', { id: 'B0' })).status).toBe(
			404
		);
		expect((await http(agent, 'PUT', '/integrators/kds-orders/cancel', { id: 'B2' })).status).toBe(
			200
		);
		// Forgotten means forgotten: its id can be created again.
		expect(await send('create-order', order('B0'))).toBe('B0');
	});
});

describe('1. active orders answer the id and name given at create', () => {
	it('after a full and a partial update renamed the order, and after a restart', async () => {
		const dataDir = tempDir('kds-active-');
		let agent = await startTestAgent({ dataDir });
		const send = client(agent);
		expect(await send('create-order', order('N1', 'Maria'))).toBe('N1');
		expect(await send('create-order', order('N2', 'Sam'))).toBe('N2');
		expect(await send('update-order', order('N1', 'Maria G.'))).toBe('N1');
		expect(await send('partial-update-order', { id: 'N2', name: 'Samuel' })).toBe('N2');
		const active = async () =>
			(
				(await http(agent, 'GET', '/integrators/kds-orders/active')).body as Array<{
					orders: unknown[];
				}>
			)[0].orders;
		const expected = [
			{ orderId: 'N1', orderName: 'Maria' },
			{ orderId: 'N2', orderName: 'Sam' }
		];
		expect(await active()).toEqual(expected);
		// The card shows the current name.
		expect(
			agent.engine.screen(agent.screens[0].id)!.state.orders.get('N1')?.context.fields.name
		).toBe('Maria G.');
		await agent.close();
		agent = await startTestAgent({ dataDir });
		try {
			expect(await active()).toEqual(expected);
		} finally {
			await agent.close();
		}
	});
});

describe('3. a config with only ids, names, tokens and TCP ports', () => {
	it('starts, and the information routes show the defaults', async () => {
		const agent = await startTestAgent({
			tcpPort: undefined,
			config: {
				brands: [
					{
						id: 'b1',
						name: 'Brand',
						token: 'minimal-token',
						locations: [
							{
								id: 'l1',
								name: 'Kitchen',
								screens: [{ id: 's1', name: 'Grill', tcp: { port: 0 } }]
							}
						]
					}
				]
			}
		});
		try {
			const res = await fetch(`${agent.httpUrl}/integrators/kds-information`, {
				headers: { 'x-integration-token': 'minimal-token' }
			});
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual([
				{
					id: 'l1',
					number: '1',
					name: 'Kitchen',
					address: { line1: '', line2: null, city: '', state: '', zip: '' },
					timezone: 'UTC',
					devices: [
						expect.objectContaining({
							id: 's1',
							name: 'Grill',
							type: 'android',
							version: '2.21.30'
						})
					]
				}
			]);
			expect(await client(agent)('create-order', order('M1'))).toBe('M1');
		} finally {
			await agent.close();
		}
	});
});
