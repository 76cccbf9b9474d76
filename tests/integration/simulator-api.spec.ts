/**
 * The simulator API that the UI uses (not part of the integrator contract): locations and screens
 * with live order counts, a screen's state, and screen actions with clear refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { startSimulator, type Simulator } from '../helpers/fixtures.ts';

let sim: Simulator;
beforeAll(async () => {
	const config = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG;
	config.brands[0].locations[0].screens.push({
		id: 'kds-old',
		name: 'Old fryer',
		type: 'android',
		version: '2.21.30',
		tcp: { port: 9106 },
		deleted: true
	} as (typeof config.brands)[0]['locations'][0]['screens'][0]);
	sim = await startSimulator({ config, uiDir: null, logLevel: 'silent' });
});
afterAll(() => sim.close());

const get = (path: string) => fetch(`${sim.httpUrl}${path}`);
const act = (screen: string, body: object) =>
	fetch(`${sim.httpUrl}/api/screens/${screen}/actions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
const order = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: `Guest ${id}`,
		time: Date.now(),
		mode: 'For Here',
		items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
	}
});

describe('simulator API', () => {
	it('lists locations with their live screens, order counts and TCP endpoints', async () => {
		expect(await sim.sendTcp('kds-1', order('1'))).toBe('1');
		const res = await get('/api/locations');
		expect(res.status).toBe(200);
		const [location] = (await res.json()) as Array<{ id: string; screens: Array<object> }>;
		expect(location).toMatchObject({
			id: 'loc-1',
			name: 'Demo Kitchen',
			timezone: 'America/Chicago'
		});
		expect(location.screens).toEqual([
			{ id: 'kds-1', name: 'Grill', orderCount: 1, tcp: sim.screens[0].tcp },
			{ id: 'kds-2', name: 'Expo', orderCount: 0, tcp: sim.screens[1].tcp }
		]);
	});

	it('answers 404 naming the screen for an unknown or deleted screen, on every route', async () => {
		for (const id of ['nope', 'kds-old']) {
			for (const res of [
				await get(`/api/screens/${id}`),
				await get(`/api/screens/${id}/state`),
				await act(id, { action: 'recall' })
			]) {
				expect(res.status).toBe(404);
				expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: `Unknown screen ${id}` });
			}
		}
	});

	it('bumps and recalls; a refused action says which order and why', async () => {
		expect(await sim.sendTcp('kds-2', order('7'))).toBe('7');
		expect(await (await act('kds-2', { action: 'bump', orderId: '7' })).json()).toEqual({
			ok: true
		});
		const again = await act('kds-2', { action: 'bump', orderId: '7' });
		expect(again.status).toBe(409);
		expect(await again.json()).toEqual({
			code: 'ACTION_REFUSED',
			message: 'bump: order 7 cannot be changed so'
		});
		expect((await act('kds-2', { action: 'recall' })).status).toBe(200);
		const state = (await (await get('/api/screens/kds-2/state')).json()) as {
			type: string;
			records: Array<{ state: string; context: { id: string; recalledAt?: number } }>;
		};
		expect(state.type).toBe('snapshot');
		expect(state.records.map((r) => [r.context.id, r.state])).toEqual([['7', 'active']]);
		expect(state.records[0].context.recalledAt).toEqual(expect.any(Number));
	});

	it('refuses an unknown action and a fire-course without its course, naming the fields', async () => {
		const unknown = await act('kds-1', { action: 'explode' });
		expect(unknown.status).toBe(422);
		expect(await unknown.json()).toMatchObject({
			message:
				'action: expected one of bump, recall, fire, fire-course, item-done, item-undo, start, start-undo'
		});
		const fire = await act('kds-1', { action: 'fire-course' });
		expect(fire.status).toBe(422);
		expect((await fire.json()).errors.map((e: { path: string }) => e.path)).toEqual([
			'orderId',
			'course'
		]);
		const tick = await act('kds-1', { action: 'item-done', orderId: '7' });
		expect(tick.status).toBe(422);
		expect((await tick.json()).errors.map((e: { path: string }) => e.path)).toEqual(['lineId']);
	});
});
