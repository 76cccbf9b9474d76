/**
 * Orders real clients send (field notes): items without lineId are accepted over TCP and HTTP as
 * the real screens show them; the JSON view (the inspector) shows the line id each was given, and
 * the message log a KDS-LINEID-MISSING warning per item, and item `notes` as an unknown field.
 */
import { describe, expect } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { agentTest } from '../helpers/agent-test.ts';
import { sendTcp } from '../helpers/tcp.ts';

const it = agentTest();

const bridgeOrder = (id: string) => ({
	id,
	name: 'Food truck',
	time: '2026-11-24T02:00:59.729233',
	mode: 'ToGo',
	server: null,
	items: [
		{ name: 'Wings', qty: 1, mods: ['Buffalo (+$0.50)'], notes: 'extra crispy' },
		{ name: 'Fries', qty: 2, mods: [] }
	]
});

async function cardOf(agent: RunningAgent, screen: string, id: string) {
	const view = await (await fetch(`${agent.httpUrl}/api/admin/screens/${screen}`)).json();
	return view.cards.find((c: { id: string }) => c.id === id);
}

async function findingsOf(agent: RunningAgent, id: string) {
	const log = await (await fetch(`${agent.httpUrl}/api/admin/messages?order=${id}`)).json();
	return log[0].findings.map((f: { code: string; path: string }) => `${f.code} ${f.path}`);
}

describe('items without lineId', () => {
	it('over TCP (a bare order, as the bridge writes it and closes): accepted, #1 and #2 shown', async ({
		agent
	}) => {
		const { host, port } = agent.screens[0].tcp;
		expect(await sendTcp(host, port, bridgeOrder('FT-1'))).toBe('FT-1');
		const card = await cardOf(agent, 'kds-1', 'FT-1');
		const items = card.sections.flatMap((s: { entries: Array<{ item: object }> }) =>
			s.entries.map((e) => e.item)
		);
		expect(items.map((i: { lineId: string; name: string }) => [i.lineId, i.name])).toEqual([
			['#1', 'Wings'],
			['#2', 'Fries']
		]);
		await agent.engine.settled();
		await new Promise((r) => setTimeout(r, 50));
		const findings = await findingsOf(agent, 'FT-1');
		expect(findings).toEqual(
			expect.arrayContaining([
				'KDS-LINEID-MISSING items[0].lineId',
				'KDS-LINEID-MISSING items[1].lineId',
				'KDS-FIELD-UNKNOWN items[0].notes'
			])
		);
	});

	it('over HTTP: 201, the same line ids, a warning per item', async ({ agent }) => {
		const headers = {
			'content-type': 'application/json',
			'x-integration-token': agent.token,
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-2'
		};
		const res = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers,
			body: JSON.stringify(bridgeOrder('FT-2'))
		});
		expect(res.status).toBe(201);
		const card = await cardOf(agent, 'kds-2', 'FT-2');
		expect(JSON.stringify(card)).toContain('"lineId":"#1"');
		await new Promise((r) => setTimeout(r, 50));
		expect(await findingsOf(agent, 'FT-2')).toEqual(
			expect.arrayContaining(['KDS-LINEID-MISSING items[0].lineId'])
		);
	});
});
