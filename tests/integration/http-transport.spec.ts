/**
 * The HTTP port as clients meet it: every route with or without a trailing slash, GET /health
 * without a token, and a 413 that a client which writes its whole body before reading still
 * reads (the rest of the body is drained, up to a bound, before the connection closes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { DRAIN_LIMIT_BYTES } from '../../agent/http/drain.ts';
import { HTTP_BODY_LIMIT } from '../../agent/http/server.ts';

let agent: RunningAgent;
let headers: Record<string, string>;

beforeAll(async () => {
	agent = await startTestAgent();
	headers = {
		'x-integration-token': agent.token,
		'x-location-id': 'loc-1',
		'x-device-ids': 'kds-1',
		'content-type': 'application/json'
	};
});
afterAll(() => agent.close());

const order = (id: string) => ({
	id,
	name: 'Slash',
	time: new Date().toISOString(),
	mode: 'Pickup',
	items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
});

function call(method: string, path: string, body?: object) {
	return fetch(`${agent.httpUrl}${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body)
	});
}

describe('a trailing slash', () => {
	it('reaches the same order routes, and the screen shows the order', async () => {
		const created = await call('POST', '/integrators/kds-orders/', order('slash-1'));
		expect(created.status).toBe(201);
		expect(await created.json()).toMatchObject({ orderId: 'slash-1' });
		const partial = await call('PUT', '/integrators/kds-orders/partial/', {
			id: 'slash-1',
			name: 'Slash Two'
		});
		expect(partial.status).toBe(200);
		// The active list names an order as it was created (contract 2.9); the screen shows the rename.
		const active = await call('GET', '/integrators/kds-orders/active/');
		expect(await active.json()).toEqual([
			expect.objectContaining({ orders: [{ orderId: 'slash-1', orderName: 'Slash' }] })
		]);
		const state = await fetch(`${agent.httpUrl}/api/screens/kds-1/state/`);
		expect((await state.json()).records).toEqual([
			expect.objectContaining({
				context: expect.objectContaining({
					id: 'slash-1',
					fields: expect.objectContaining({ name: 'Slash Two' })
				})
			})
		]);
		const cancel = await call('PUT', '/integrators/kds-orders/cancel/', { id: 'slash-1' });
		expect(cancel.status).toBe(200);
	});

	it('gets the same inspector findings as without it (the path shown as sent)', async () => {
		const local = { ...order('slash-findings'), time: '2026-11-24T02:00:59', loyalty: 'gold' };
		const created = await call('POST', '/integrators/kds-orders/', local);
		expect(created.status).toBe(201);
		const entry = async () => {
			const res = await fetch(`${agent.httpUrl}/api/admin/messages?orderId=slash-findings`);
			return (
				(await res.json()) as Array<{ command: string; findings: Array<{ code: string }> }>
			)[0];
		};
		await expect.poll(entry).toBeDefined();
		const { command, findings } = await entry();
		expect(command).toBe('POST /integrators/kds-orders/');
		expect(findings.map((f) => f.code).sort()).toEqual(['KDS-FIELD-UNKNOWN', 'KDS-TIME-NO-OFFSET']);
	});

	it('reaches the information routes', async () => {
		const devices = await call('GET', '/integrators/kds-information/locations/loc-1/devices/');
		expect(devices.status).toBe(200);
		expect(((await devices.json()) as Array<{ id: string }>).map((d) => d.id)).toEqual([
			'kds-1',
			'kds-2'
		]);
		expect((await call('GET', '/integrators/kds-information/')).status).toBe(200);
	});

	it('answers a wrong method 405 as without the slash, and an unknown path 404', async () => {
		const wrong = await call('DELETE', '/integrators/kds-orders/');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('POST, PUT, OPTIONS');
		const unknown = await call('GET', '/integrators/kds-nothing/');
		expect(unknown.status).toBe(404);
		expect(await unknown.json()).toEqual({
			code: 'NOT_FOUND',
			message: 'No route GET /integrators/kds-nothing/'
		});
	});

	it('reaches the docs and the simulator API', async () => {
		const docs = await fetch(`${agent.httpUrl}/docs/`);
		expect(docs.status).toBe(200);
		expect(await docs.text()).toContain('swagger-ui-bundle.js');
		expect((await fetch(`${agent.httpUrl}/api/screens/kds-1/state/`)).status).toBe(200);
	});
});

describe('a trailing slash on a path of the UI', () => {
	it('reaches the UI as sent: the router only folds the slash of its own routes', async () => {
		// A stand-in for the built SvelteKit handler that answers with the path it was given.
		const uiDir = mkdtempSync(join(tmpdir(), 'kds-ui-'));
		writeFileSync(
			join(uiDir, 'handler.js'),
			'export const handler = (req, res) => res.end(`ui ${req.url}`);\n'
		);
		const withUi = await startTestAgent({ uiDir });
		try {
			for (const path of ['/screens/kds-1/', '/screens/kds-1', '/inspector/', '/']) {
				expect(await (await fetch(`${withUi.httpUrl}${path}`)).text()).toBe(`ui ${path}`);
			}
			expect((await fetch(`${withUi.httpUrl}/health/`)).status).toBe(200);
		} finally {
			await withUi.close();
			rmSync(uiDir, { recursive: true, force: true });
		}
	});
});

describe('GET /health', () => {
	it('answers 200 without a token: status, version and each screen listening', async () => {
		for (const path of ['/health', '/health/']) {
			const res = await fetch(`${agent.httpUrl}${path}`);
			expect(res.status).toBe(200);
			expect(res.headers.get('cache-control')).toBe('no-store');
			expect(await res.json()).toEqual({
				status: 'ok',
				version: expect.stringMatching(/^\d+\.\d+\.\d+/),
				screens: agent.screens.map((s) => ({
					id: s.id,
					name: s.name,
					locationId: s.locationId,
					tcp: s.tcp,
					listening: true
				}))
			});
		}
	});
});

/**
 * Like Python's http.client, Java's HttpClient or any blocking client: write the request and the
 * whole body, and only then read. Resolves with the reply bytes, rejects on EPIPE/ECONNRESET.
 */
function writeThenRead(headerLines: string[], body: Buffer): Promise<string> {
	const url = new URL(agent.httpUrl);
	return new Promise((resolve, reject) => {
		const socket = connect({ host: url.hostname, port: Number(url.port) });
		const received: Buffer[] = [];
		socket.pause();
		socket.on('error', reject);
		socket.on('end', () => resolve(Buffer.concat(received).toString('latin1')));
		socket.on('data', (chunk) => received.push(chunk));
		socket.write(`${headerLines.join('\r\n')}\r\n\r\n`);
		socket.write(body, () => socket.resume());
	});
}

const requestHead = (length: number | null) => [
	'POST /integrators/kds-orders HTTP/1.1',
	`Host: ${new URL(agent.httpUrl).host}`,
	...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
	length === null ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
];

describe('a body over the limit', () => {
	// Bigger than the loopback socket buffers, so the close would reset a client still writing.
	const size = 8 * 1024 * 1024;
	const body = Buffer.alloc(size, 'a');

	it('is answered 413 after the rest of it is read, so a client that writes first reads it', async () => {
		const reply = await writeThenRead(requestHead(size), body);
		expect(reply).toMatch(/^HTTP\/1\.1 413 /);
		expect(reply).toMatch(/\r\nconnection: close\r\n/i);
		expect(reply).toContain(
			`{"code":"PAYLOAD_TOO_LARGE","message":"body: larger than the limit of ${HTTP_BODY_LIMIT} bytes"}`
		);
	});

	it('is read to its end when chunked too', async () => {
		const chunked = Buffer.concat([
			Buffer.from(`${size.toString(16)}\r\n`),
			body,
			Buffer.from('\r\n0\r\n\r\n')
		]);
		const reply = await writeThenRead(requestHead(null), chunked);
		expect(reply).toMatch(/^HTTP\/1\.1 413 /);
	});

	it('is answered at once, without reading, when it declares more than the drain bound', async () => {
		// A client that reads while it writes (curl, fetch) sees the 413 before sending the body.
		const url = new URL(agent.httpUrl);
		const reply = await new Promise<string>((resolve, reject) => {
			const socket = connect({ host: url.hostname, port: Number(url.port) });
			let text = '';
			socket.on('error', reject);
			socket.on('data', (chunk) => (text += chunk.toString('latin1')));
			socket.on('end', () => resolve(text));
			socket.write(`${requestHead(DRAIN_LIMIT_BYTES + 1).join('\r\n')}\r\n\r\n`);
		});
		expect(reply).toMatch(/^HTTP\/1\.1 413 /);
	});

	it('leaves other connections and the agent serving', async () => {
		const created = await call('POST', '/integrators/kds-orders', order('after-413'));
		expect(created.status).toBe(201);
	});
});

describe('a request asking to upgrade to HTTP/2 (h2c), as Java HttpClient sends every one', () => {
	/** Java 17's own request heads, byte for byte but the host. */
	const javaHead = (method: string, path: string, length: number, extra: string[] = []) =>
		[
			`${method} ${path} HTTP/1.1`,
			'Connection: Upgrade, HTTP2-Settings',
			`Content-Length: ${length}`,
			`Host: ${new URL(agent.httpUrl).host}`,
			'HTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAAAAYABgAA',
			'Upgrade: h2c',
			'User-Agent: Java-http-client/17.0.15',
			...extra
		].join('\r\n') + '\r\n\r\n';

	it('is answered in HTTP/1.1 like any other, on a connection that stays open', async () => {
		const url = new URL(agent.httpUrl);
		const socket = connect({ host: url.hostname, port: Number(url.port) });
		let text = '';
		socket.on('data', (chunk) => (text += chunk.toString('latin1')));
		const until = (pattern: RegExp) =>
			new Promise<void>((resolve, reject) => {
				const check = () => (pattern.test(text) ? resolve() : undefined);
				socket.on('data', check);
				socket.once('error', reject);
				check();
			});
		socket.write(javaHead('GET', '/health', 0));
		await until(/"status":"ok"/);
		expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
		const body = JSON.stringify(order('java-h2c'));
		text = '';
		socket.write(
			javaHead('POST', '/integrators/kds-orders', Buffer.byteLength(body), [
				...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
			]) + body
		);
		await until(/deliveryStatuses/);
		expect(text).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
		expect(text).toContain('"orderId":"java-h2c"');
		socket.destroy();
	});
});

describe('a compressed body', () => {
	it('is refused naming Content-Encoding, not the JSON; the same body uncompressed is taken', async () => {
		const body = JSON.stringify(order('gzip-1'));
		const gz = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers: { ...headers, 'content-encoding': 'gzip' },
			body: gzipSync(body)
		});
		expect(gz.status).toBe(415);
		expect(await gz.json()).toEqual({
			code: 'UNSUPPORTED_MEDIA_TYPE',
			message: 'Content-Encoding: "gzip" is not supported; send the JSON body uncompressed'
		});
		const plain = await call('POST', '/integrators/kds-orders', order('gzip-1'));
		expect(plain.status).toBe(201);
		const broken = await fetch(`${agent.httpUrl}/integrators/kds-orders`, {
			method: 'POST',
			headers,
			body: '{"id": '
		});
		expect(broken.status).toBe(400);
		expect(((await broken.json()) as { code: string }).code).toBe('INVALID_JSON');
	});
});
