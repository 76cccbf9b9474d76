import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerHealth, type ScreenListener } from './health.ts';

const screen = (id: string, listening: boolean): ScreenListener => ({
	id,
	name: id,
	locationId: 'loc-1',
	tcp: { host: '127.0.0.1', port: 9104 },
	listening
});

async function get(listeners: ScreenListener[], headers: Record<string, string> = {}) {
	const app = Fastify();
	registerHealth(
		app,
		() => listeners,
		(token) => token === 'good-token'
	);
	const res = await app.inject({ method: 'GET', url: '/health', headers });
	await app.close();
	return { status: res.statusCode, body: res.json() };
}

describe('GET /health', () => {
	it('is 200 ok while every screen listens', async () => {
		const got = await get([screen('kds-1', true), screen('kds-2', true)]);
		expect(got.status).toBe(200);
		expect(got.body.status).toBe('ok');
	});

	it('is 503 unavailable, naming the screen, when a listener is closed', async () => {
		const got = await get([screen('kds-1', true), screen('kds-2', false)]);
		expect(got.status).toBe(503);
		expect(got.body).toMatchObject({
			status: 'unavailable',
			screens: [
				{ id: 'kds-1', listening: true },
				{ id: 'kds-2', listening: false }
			]
		});
	});

	it('is 401 for a token that is sent but not valid, naming the header; 200 for a valid one or none', async () => {
		const up = [screen('kds-1', true)];
		expect(await get(up, { 'x-integration-token': 'wrong-token' })).toEqual({
			status: 401,
			body: {
				code: 'UNAUTHORIZED',
				message: 'x-integration-token: not a valid integration token'
			}
		});
		const empty = await get(up, { 'x-integration-token': '  ' });
		expect(empty.status).toBe(401);
		expect(empty.body.message).toMatch(/^x-integration-token: empty/);
		expect((await get(up, { 'x-integration-token': 'good-token' })).status).toBe(200);
		expect((await get(up)).status).toBe(200);
	});
});
