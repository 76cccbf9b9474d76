/**
 * Stations and expo (screen communication, docs/screens.md) through the real interfaces: the
 * three-screen kitchen of docs/examples/three-screen-kitchen.json, orders written over TCP to the
 * stations and over HTTP to the expo, bumps through the simulator API, what the expo shows read
 * from the admin JSON view, the webhooks a receiver gets, and a rule changed at run time.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningAgent } from '../../agent/app.ts';
import { ConfigError, loadConfigFile, parseConfig } from '../../agent/config.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const EXAMPLE = fileURLToPath(
	new URL('../../docs/examples/three-screen-kitchen.json', import.meta.url)
);

const agents: RunningAgent[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
	await Promise.all(agents.splice(0).map((a) => a.close()));
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function kitchen(webhookUrl?: string): Promise<RunningAgent> {
	const config = loadConfigFile(EXAMPLE);
	if (webhookUrl) {
		config.brands[0].webhooks = parseConfig({
			brands: [{ ...config.brands[0], webhooks: [{ url: webhookUrl, secondsBetweenAttempts: 1 }] }]
		}).brands[0].webhooks;
	}
	const agent = await startTestAgent({ config });
	agents.push(agent);
	return agent;
}

const BURGER = {
	lineId: 'L1',
	name: 'Double Burger 🍔',
	qty: 2,
	mods: ['No onion', { name: 'Bacon', qty: 2 }]
};
const FRIES = { lineId: 'L2', name: 'Fries', qty: 1, mods: ['Extra salt'] };
const SHAKE = {
	lineId: 'L3',
	name: '抹茶シェイク (matcha shake, large, extra whipped cream)',
	qty: 1,
	mods: []
};
const ORDER = { id: 'K-501', name: 'Ana', time: '2026-12-02T12:00:00Z', mode: 'ToGo' };

function tcpOf(agent: RunningAgent, id: string) {
	const screen = agent.screens.find((s) => s.id === id)!;
	return screen.tcp;
}
async function toStation(
	agent: RunningAgent,
	id: string,
	items: object[],
	command = 'create-order'
) {
	const { host, port } = tcpOf(agent, id);
	return sendTcp(host, port, { command, order: { ...ORDER, items } });
}
async function toExpo(agent: RunningAgent, items: object[], id = ORDER.id) {
	const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'expo'
		},
		body: JSON.stringify({ ...ORDER, id, items })
	});
	expect(res.status, await res.clone().text()).toBe(201);
}
async function act(agent: RunningAgent, screen: string, action: string, orderId?: string) {
	const res = await fetch(`${agent.httpUrl}/api/screens/${screen}/actions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action, orderId })
	});
	expect(res.status, await res.clone().text()).toBe(200);
}

interface ExpoCard {
	id: string;
	state: string;
	stations: Array<{ station: string; name: string; items: number; done: boolean }>;
	sections: Array<{ entries: Array<{ item: { name: string; doneBy: string | null } }> }>;
}
async function expoView(agent: RunningAgent) {
	const res = await fetch(`${agent.httpUrl}/api/admin/screens/expo`);
	expect(res.status).toBe(200);
	const view = (await res.json()) as { role: string; cards: ExpoCard[] };
	return view;
}
/** [item name, doneBy] of the expo's card for the order; the stations' progress. */
async function expoCard(agent: RunningAgent, id = ORDER.id) {
	const card = (await expoView(agent)).cards.find((c) => c.id === id);
	if (!card) return null;
	return {
		items: card.sections.flatMap((s) => s.entries.map((e) => [e.item.name, e.item.doneBy])),
		stations: card.stations.map((s) => `${s.name} ${s.items} ${s.done ? 'done' : 'working'}`)
	};
}

describe('a three-screen kitchen (grill, fry, expo) from one config', () => {
	it('the expo ticks off each station’s items as it bumps; its own bump clears the card', async () => {
		const receiver = await startReceiver();
		receivers.push(receiver);
		const agent = await kitchen(receiver.url);
		expect((await expoView(agent)).role).toBe('expo');
		await toExpo(agent, [BURGER, FRIES, SHAKE]);
		expect(await toStation(agent, 'grill', [BURGER])).toBe(ORDER.id);
		expect(await toStation(agent, 'fry', [FRIES, SHAKE])).toBe(ORDER.id);
		expect(await expoCard(agent)).toEqual({
			items: [
				[BURGER.name, null],
				[FRIES.name, null],
				[SHAKE.name, null]
			],
			stations: ['Grill 1 working', 'Fry 2 working']
		});

		await act(agent, 'grill', 'bump', ORDER.id);
		expect(await expoCard(agent)).toEqual({
			items: [
				[BURGER.name, 'Grill'],
				[FRIES.name, null],
				[SHAKE.name, null]
			],
			stations: ['Grill 1 done', 'Fry 2 working']
		});
		await act(agent, 'fry', 'bump', ORDER.id);
		expect((await expoCard(agent))!.items.map(([, by]) => by)).toEqual(['Grill', 'Fry', 'Fry']);

		await act(agent, 'expo', 'bump', ORDER.id);
		expect(await expoCard(agent)).toBeNull();

		// KDS Order Bumped: once per screen, the stations' bumps not repeated for the expo.
		const received = await receiver.waitFor(4);
		const events = received.map((r) => {
			const body = r.body as { triggeredAction: string; data: { deviceId?: string } };
			return `${body.triggeredAction} ${body.data.deviceId ?? ''}`.trim();
		});
		expect(events.sort()).toEqual([
			'KDS Order Bumped expo',
			'KDS Order Bumped fry',
			'KDS Order Bumped grill',
			'KDS Order Created'
		]);
		const deliveries = await fetch(
			`${agent.httpUrl}/api/admin/webhooks/brand-1-webhook-1/deliveries`
		).then((r) => r.json() as Promise<unknown[]>);
		expect(deliveries).toHaveLength(4);
	});

	it('a station recall takes its marks back on the expo; an update of the station changes its part', async () => {
		const agent = await kitchen();
		await toExpo(agent, [BURGER, FRIES]);
		await toStation(agent, 'grill', [BURGER]);
		await act(agent, 'grill', 'bump', ORDER.id);
		await act(agent, 'grill', 'recall');
		expect(await expoCard(agent)).toEqual({
			items: [
				[BURGER.name, null],
				[FRIES.name, null]
			],
			stations: ['Grill 1 working']
		});
		// The grill takes the fries too (an update over TCP), and bumps both.
		expect(await toStation(agent, 'grill', [BURGER, FRIES], 'update-order')).toBe(ORDER.id);
		await act(agent, 'grill', 'bump', ORDER.id);
		expect(await expoCard(agent)).toEqual({
			items: [
				[BURGER.name, 'Grill'],
				[FRIES.name, 'Grill']
			],
			stations: ['Grill 2 done']
		});
	});

	it('an order the expo never got: the station bumps alone; sent to the expo later, it arrives ticked off', async () => {
		const agent = await kitchen();
		await toStation(agent, 'grill', [{ name: 'Grilled Cheese', qty: 1, mods: [] }]);
		await act(agent, 'grill', 'bump', ORDER.id);
		expect((await expoView(agent)).cards).toEqual([]);
		// Sent without line ids, on both sides: matched by name.
		await toExpo(agent, [
			{ name: 'Grilled Cheese', qty: 1, mods: [] },
			{ name: 'Soup', qty: 1, mods: [] }
		]);
		expect(await expoCard(agent)).toEqual({
			items: [
				['Grilled Cheese', 'Grill'],
				['Soup', null]
			],
			stations: ['Grill 1 done']
		});
	});

	it('a cancel reaches each screen as sent: the expo card turns cancelled, its marks kept', async () => {
		const agent = await kitchen();
		await toExpo(agent, [BURGER, FRIES]);
		await toStation(agent, 'grill', [BURGER]);
		await act(agent, 'grill', 'bump', ORDER.id);
		const { host, port } = tcpOf(agent, 'expo');
		expect(await sendTcp(host, port, { command: 'cancel-order', order: { id: ORDER.id } })).toBe(
			ORDER.id
		);
		const card = (await expoView(agent)).cards[0];
		expect(card.state).toBe('cancelled');
		expect(card.stations).toEqual([{ station: 'grill', name: 'Grill', items: 1, done: true }]);
	});
});

describe('communication rules', () => {
	it('a config naming no expo is refused with the field path', () => {
		const config = JSON.parse(JSON.stringify(loadConfigFile(EXAMPLE)));
		config.brands[0].locations[0].screens[1].communication.bumpsTo = ['grill'];
		expect(() => parseConfig(config, 'config file kitchen.json')).toThrow(ConfigError);
		expect(() => parseConfig(config, 'config file kitchen.json')).toThrow(
			'Invalid config file kitchen.json: brands[0].locations[0].screens[1].communication.bumpsTo[0]: "grill" is a station, not an expo; expected the id of an expo screen of the same location'
		);
		config.brands[0].locations[0].screens[1].communication.bumpsTo = ['expo'];
		config.brands[0].locations[0].screens[2].role = 'pass';
		expect(() => parseConfig(config, 'config file kitchen.json')).toThrow(
			'brands[0].locations[0].screens[2].role: expected one of station, expo, got "pass"'
		);
	});

	it('a rule changed at run time: the screen drops its browsers and shows its reconnect', async () => {
		const agent = await kitchen();
		const ws = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=fry`);
		await new Promise((resolve) => ws.once('message', resolve));
		const closed = new Promise((resolve) => ws.once('close', resolve));
		const put = (body: object) =>
			fetch(`${agent.httpUrl}/api/admin/screens/fry/communication`, {
				method: 'PUT',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body)
			});

		const refused = await put({ role: 'station', bumpsTo: ['grill'] });
		expect(refused.status).toBe(409);
		expect(await refused.json()).toEqual({
			code: 'ACTION_REFUSED',
			message:
				'bumpsTo[0]: "grill" is a station, not an expo; expected the id of an expo screen of the same location'
		});
		const invalid = await put({ role: 'station', bumpsTo: 'expo', reconnectSeconds: -1 });
		expect(invalid.status).toBe(422);
		expect(((await invalid.json()) as { message: string }).message).toBe(
			'bumpsTo: expected an array of expo screen ids, got "expo"; reconnectSeconds: expected a number of seconds 0-120'
		);

		// The fry station stops sending to the expo.
		const res = await put({ role: 'station', bumpsTo: [], reconnectSeconds: 60 });
		expect(res.status).toBe(200);
		const body = (await res.json()) as {
			role: string;
			bumpsTo: string[];
			reconnectingUntil: number;
		};
		expect(body).toMatchObject({ id: 'fry', role: 'station', bumpsTo: [] });
		expect(body.reconnectingUntil).toBeGreaterThan(agent.engine.now());
		await closed;
		const again = new WebSocket(`${agent.httpUrl.replace('http', 'ws')}/ws?screen=fry`);
		const error = await new Promise<Error>((resolve) => again.once('error', resolve));
		expect(error.message).toBe('Unexpected server response: 503');

		// Its bumps no longer reach the expo; the grill's still do.
		await toExpo(agent, [BURGER, FRIES]);
		await toStation(agent, 'grill', [BURGER]);
		await toStation(agent, 'fry', [FRIES]);
		await act(agent, 'fry', 'bump', ORDER.id);
		await act(agent, 'grill', 'bump', ORDER.id);
		expect(await expoCard(agent)).toEqual({
			items: [
				[BURGER.name, 'Grill'],
				[FRIES.name, null]
			],
			stations: ['Grill 1 done']
		});
	});
});
