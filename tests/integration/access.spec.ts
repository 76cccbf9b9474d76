/**
 * Customer data behind the admin guard: from off loopback (here: a simulator that does not trust
 * loopback, so this test counts as any host on the LAN), every route that returns what customers
 * sent or were sent, the screen actions, and the WebSocket relay refuse a caller without the
 * admin token; the token (header) or a browser signed in at /access gets in; from loopback,
 * nothing changes for the UI and the kiosk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { sendTcp } from '../helpers/tcp.ts';

const ADMIN = 'admin-secret-lan';

const start = (options: AgentOptions) =>
	startTestAgent({
		...options
	});

const order = {
	command: 'create-order',
	order: {
		id: 'P1',
		name: 'Maria',
		time: 1795338000000,
		mode: 'ToGo',
		phoneNumber: '+15555550123',
		items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
	}
};

/** Every guarded route: method, path, body. */
const ROUTES: Array<[string, string, object?]> = [
	['GET', '/api/screens/kds-1/state'],
	['GET', '/api/sms'],
	['GET', '/api/sms?order=P1'],
	['GET', '/api/screens/kds-1/notifications'],
	['POST', '/api/screens/kds-1/actions', { action: 'bump', orderId: 'P1' }],
	['POST', '/api/screens/kds-1/popups/nope/ack', {}],
	['GET', '/api/admin/screens/kds-1']
];

async function call(
	base: string,
	[method, path, body]: [string, string, object?],
	headers: Record<string, string> = {}
) {
	const res = await fetch(`${base}${path}`, {
		method,
		headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
		body: body ? JSON.stringify(body) : undefined
	});
	return { status: res.status, text: await res.text() };
}

/** Open the relay for kds-1: the first message (a snapshot), or the refused upgrade's status. */
function relay(base: string, headers: Record<string, string> = {}) {
	return new Promise<{ status: number; first?: string; body?: string }>((resolve, reject) => {
		const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?screen=kds-1`, { headers });
		ws.once('message', (data) => {
			resolve({ status: 101, first: String(data) });
			ws.close();
		});
		ws.once('unexpected-response', (_req, res) => {
			let body = '';
			res.on('data', (d) => (body += d));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		ws.once('error', reject);
	});
}

describe('from off loopback, customer data needs the admin token', () => {
	let lan: RunningAgent;
	beforeAll(async () => {
		lan = await start({ trustLoopback: false, adminToken: ADMIN });
		const { host, port } = lan.screens[0].tcp;
		expect(await sendTcp(host, port, order)).toBe('P1');
	});
	afterAll(() => lan.close());

	it('every route with customer data or a screen action is refused, naming the way in; nothing changes', async () => {
		for (const route of ROUTES) {
			for (const headers of [{}, { 'x-integration-token': 'kds-demo-token' }] as Array<
				Record<string, string>
			>) {
				const { status, text } = await call(lan.httpUrl, route, headers);
				expect([route[0], route[1], status]).toEqual([route[0], route[1], 403]);
				expect(text).not.toContain('Maria');
				expect(JSON.parse(text)).toEqual({
					code: 'ADMIN_ONLY',
					message:
						'This route shows customer data or runs the simulator: call it from the simulator host (loopback), send x-admin-token, or sign this browser in at /access with the admin token. An integration token is not enough.'
				});
			}
		}
		expect(lan.engine.screen('kds-1')!.state.orders.get('P1')?.state).toBe('active');
	});

	it('the WebSocket relay refuses the upgrade: no snapshot with the orders', async () => {
		const refused = await relay(lan.httpUrl);
		expect(refused.status).toBe(403);
		expect(JSON.parse(refused.body!)).toMatchObject({ code: 'ADMIN_ONLY' });
	});

	it('a screen name and the list of locations stay open (no customer data), so a browser can say what it needs', async () => {
		expect((await fetch(`${lan.httpUrl}/api/screens/kds-1`)).status).toBe(200);
		expect((await fetch(`${lan.httpUrl}/api/locations`)).status).toBe(200);
		expect(await (await fetch(`${lan.httpUrl}/api/access`)).json()).toEqual({ granted: false });
	});

	it('the admin token in x-admin-token gets in everywhere, the relay too', async () => {
		const headers = { 'x-admin-token': ADMIN };
		const state = await call(lan.httpUrl, ROUTES[0], headers);
		expect(state.status).toBe(200);
		expect(state.text).toContain('+15555550123');
		expect((await call(lan.httpUrl, ROUTES[1], headers)).status).toBe(200);
		expect((await call(lan.httpUrl, ROUTES[3], headers)).status).toBe(200);
		const ws = await relay(lan.httpUrl, headers);
		expect(ws.status).toBe(101);
		expect(JSON.parse(ws.first!)).toMatchObject({ type: 'snapshot' });
	});

	it('a browser signs in once at /access and then reads with its cookie; a wrong token gets no cookie', async () => {
		const page = await fetch(`${lan.httpUrl}/access`);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Admin token');

		const wrong = await fetch(`${lan.httpUrl}/api/access`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ token: 'kds-demo-token' })
		});
		expect(wrong.status).toBe(403);
		expect(wrong.headers.get('set-cookie')).toBeNull();
		expect(await wrong.json()).toEqual({
			code: 'ADMIN_ONLY',
			message: 'x-admin-token: not the admin token'
		});

		const right = await fetch(`${lan.httpUrl}/api/access`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ token: ADMIN })
		});
		expect(right.status).toBe(204);
		const setCookie = right.headers.get('set-cookie')!;
		expect(setCookie).toMatch(
			/^kds-access=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/
		);
		expect(setCookie).not.toContain(ADMIN);
		const cookie = { cookie: setCookie.split(';')[0] };
		expect(await (await fetch(`${lan.httpUrl}/api/access`, { headers: cookie })).json()).toEqual({
			granted: true
		});
		const sms = await call(lan.httpUrl, ROUTES[1], cookie);
		expect(sms.status).toBe(200);
		expect((await relay(lan.httpUrl, cookie)).status).toBe(101);
		// A forged cookie is worth nothing.
		const forged = await call(lan.httpUrl, ROUTES[0], { cookie: 'kds-access=forged' });
		expect(forged.status).toBe(403);
	});
});

describe('from loopback (the kiosk on the simulator host, the UI, test suites)', () => {
	let local: RunningAgent;
	beforeAll(async () => {
		local = await start({ adminToken: ADMIN });
		const { host, port } = local.screens[0].tcp;
		expect(await sendTcp(host, port, order)).toBe('P1');
	});
	afterAll(() => local.close());

	it('every guarded route and the relay answer without a token, as before', async () => {
		for (const route of ROUTES.slice(0, 4)) {
			expect([route[1], (await call(local.httpUrl, route)).status]).toEqual([route[1], 200]);
		}
		expect((await relay(local.httpUrl)).status).toBe(101);
		expect(await (await fetch(`${local.httpUrl}/api/access`)).json()).toEqual({ granted: true });
	});
});
