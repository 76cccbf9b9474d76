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

async function get(listeners: ScreenListener[]) {
	const app = Fastify();
	registerHealth(app, () => listeners);
	const res = await app.inject({ method: 'GET', url: '/health' });
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
});
