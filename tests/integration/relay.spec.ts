/**
 * The agent's WebSocket relay: a browser showing a screen gets a snapshot, then every change in
 * order; its actions (bump, recall) go through the agent to every browser on that screen.
 */
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import type { RunningAgent } from '../../agent/app.ts';
import type { ServerMessage } from '#core/relay';
import { agentTest } from '../helpers/agent-test.ts';
import { sendTcp } from '../helpers/tcp.ts';

const it = agentTest();
it.beforeEach(({ agent }) => agent.engine.reset());

/** A WebSocket client on `screen` that records every message. */
async function watch(agent: RunningAgent, screen: string) {
	const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=${screen}`);
	const messages: ServerMessage[] = [];
	ws.on('message', (data) => messages.push(JSON.parse(String(data))));
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
	return { ws, messages, send: (m: object) => ws.send(JSON.stringify(m)) };
}

const create = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: `Relay ${id}`,
		time: 1795338000000,
		mode: 'ToGo',
		items: [{ lineId: '1', name: 'Tea', qty: 1, mods: [] }]
	}
});

describe('relay', () => {
	it('sends a snapshot first, then each change with the next seq', async ({ agent }) => {
		const { host, port } = agent.screens[0].tcp;
		await sendTcp(host, port, create('R1'));
		const client = await watch(agent, 'kds-1');
		await expect.poll(() => client.messages.length).toBe(1);
		const snapshot = client.messages[0];
		expect(snapshot.type).toBe('snapshot');
		if (snapshot.type !== 'snapshot') return;
		expect(snapshot.records.map((r) => r.context.id)).toEqual(['R1']);
		expect(snapshot.screen).toMatchObject({
			id: 'kds-1',
			name: 'Grill',
			locationId: 'loc-1',
			timezone: 'America/Chicago'
		});

		expect(await sendTcp(host, port, create('R2'))).toBe('R2');
		expect(await sendTcp(host, port, { command: 'cancel-order', order: { id: 'R1' } })).toBe('R1');
		await expect.poll(() => client.messages.length).toBe(3);
		const [, created, cancelled] = client.messages;
		expect(created).toMatchObject({
			type: 'change',
			seq: snapshot.seq + 1,
			change: { type: 'order.created', id: 'R2' }
		});
		expect(cancelled).toMatchObject({
			type: 'change',
			seq: snapshot.seq + 2,
			change: { type: 'order.event', id: 'R1', event: { type: 'order.cancelled' } }
		});
		client.ws.close();
	});

	it('a bump from one browser reaches every browser on the screen; recall brings it back', async ({
		agent
	}) => {
		const { host, port } = agent.screens[0].tcp;
		await sendTcp(host, port, create('R3'));
		const a = await watch(agent, 'kds-1');
		const b = await watch(agent, 'kds-1');
		a.send({ type: 'action', action: 'bump', orderId: 'R3' });
		for (const c of [a, b]) {
			await expect
				.poll(() => c.messages.at(-1))
				.toMatchObject({ change: { id: 'R3', event: { type: 'order.bumped' } } });
		}
		b.send({ type: 'action', action: 'recall' });
		for (const c of [a, b]) {
			await expect
				.poll(() => c.messages.at(-1))
				.toMatchObject({ change: { id: 'R3', event: { type: 'order.recalled' } } });
		}
		expect(agent.engine.queue('kds-1').map((r) => r.context.id)).toEqual(['R3']);
		a.ws.close();
		b.ws.close();
	});

	it('refuses an impossible action with an error message and changes nothing', async ({
		agent
	}) => {
		const client = await watch(agent, 'kds-1');
		client.send({ type: 'action', action: 'bump', orderId: 'ghost' });
		client.send({ type: 'hello' });
		await expect.poll(() => client.messages.length).toBe(3);
		expect(client.messages[1]).toMatchObject({ type: 'error', code: 'ACTION_REFUSED' });
		expect(client.messages[2]).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
		client.ws.close();
	});

	it('a ping gets a pong with the agent clock', async ({ agent }) => {
		const client = await watch(agent, 'kds-2');
		client.send({ type: 'ping' });
		await expect.poll(() => client.messages.map((m) => m.type)).toEqual(['snapshot', 'pong']);
		expect(client.messages[1]).toMatchObject({ type: 'pong', now: expect.any(Number) });
		client.ws.close();
	});

	it('a resync request gets a fresh snapshot', async ({ agent }) => {
		const client = await watch(agent, 'kds-2');
		client.send({ type: 'resync' });
		await expect.poll(() => client.messages.map((m) => m.type)).toEqual(['snapshot', 'snapshot']);
		client.ws.close();
	});

	it('an unknown screen is refused at the upgrade with 404', async ({ agent }) => {
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=nope`);
		const status = await new Promise<number>((resolve) =>
			ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
		);
		expect(status).toBe(404);
	});

	it('counts the browsers showing each screen', async ({ agent }) => {
		const a = await watch(agent, 'kds-2');
		await expect.poll(() => agent.relay.connected('kds-2')).toBe(1);
		a.ws.close();
		await expect.poll(() => agent.relay.connected('kds-2')).toBe(0);
	});
});
