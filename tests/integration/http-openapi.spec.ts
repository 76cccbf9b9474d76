/**
 * The OpenAPI 3.1 document at /openapi.json (validated against the official schema) and the
 * readable reference at /docs, served from the installed swagger-ui-dist, no CDN.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { CancelOrderSchema, HttpOrderSchema, PartialOrderSchema } from '#core/order-schema';

let agent: RunningAgent;
interface Schema {
	properties: Record<string, { items?: unknown }>;
	required: string[];
}
interface Document {
	paths: Record<
		string,
		Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
	>;
	components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

let doc: Document;

beforeAll(async () => {
	agent = await startTestAgent();
	doc = await (await fetch(`${agent.httpUrl}/openapi.json`)).json();
});
afterAll(() => agent.close());

describe('/openapi.json', () => {
	it('is a valid OpenAPI 3.1 document', async () => {
		const validator = new Validator();
		const result = await validator.validate(doc as unknown as Record<string, unknown>);
		expect(result.errors).toBeUndefined();
		expect(result.valid).toBe(true);
		expect(validator.version).toBe('3.1');
	});

	const operations = (tags: string[]) =>
		Object.entries(doc.paths)
			.flatMap(([path, item]) =>
				Object.entries(item)
					.filter(([, op]) => tags.includes((op as { tags: string[] }).tags[0]))
					.map(([method]) => `${method.toUpperCase()} ${path}`)
			)
			.sort();

	it('documents every integrator route of the contract, with the methods it answers', () => {
		expect(operations(['Orders', 'Information', 'Notifications', 'Health'])).toEqual(
			[
				'GET /health',
				'GET /integrators/kds-orders/active',
				'POST /integrators/kds-orders',
				'PUT /integrators/kds-orders',
				'PUT /integrators/kds-orders/partial',
				'PUT /integrators/kds-orders/cancel',
				'GET /integrators/kds-information',
				'GET /integrators/kds-information/locations',
				'GET /integrators/kds-information/locations/{locationId}/devices',
				'POST /integrators/kds-notifications/customer-arrived',
				'POST /integrators/kds-notifications/estimated-arrival-update',
				'POST /integrators/kds-notifications/send-message'
			].sort()
		);
		expect(
			operations([
				'Orders',
				'Information',
				'Notifications',
				'Health',
				'Simulator',
				'Admin',
				'Faults',
				'Certify'
			])
		).toEqual(
			Object.entries(doc.paths)
				.flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
				.sort()
		);
		expect(doc.components.securitySchemes.integrationToken).toMatchObject({
			type: 'apiKey',
			in: 'header',
			name: 'x-integration-token'
		});
	});

	it('documents the simulator and admin API apart, under tags of their own, with the admin token', () => {
		expect(operations(['Admin'])).toEqual(
			[
				'GET /api/admin/integration',
				'POST /api/admin/reset',
				'GET /api/admin/screens',
				'GET /api/admin/screens/{id}',
				'DELETE /api/admin/screens/{id}',
				'PUT /api/admin/screens/{id}/communication',
				'POST /api/admin/locations/{id}/clear',
				'POST /api/admin/rush',
				'DELETE /api/admin/rush',
				'GET /api/admin/messages',
				'GET /api/admin/messages/stream',
				'GET /api/admin/messages/session',
				'POST /api/admin/messages/{id}/resend'
			].sort()
		);
		expect(operations(['Simulator'])).toEqual(
			[
				'GET /api/locations',
				'GET /api/screens/{id}',
				'GET /api/screens/{id}/state',
				'GET /api/tracker/{location}',
				'POST /api/screens/{id}/actions'
			].sort()
		);
		const tags = (doc as unknown as { tags: { name: string; description?: string }[] }).tags;
		expect(tags.find((t) => t.name === 'Admin')?.description).toMatch(/not the kitchen display/);
		expect(doc.components.securitySchemes.adminToken).toMatchObject({
			type: 'apiKey',
			in: 'header',
			name: 'x-admin-token'
		});
		// Loopback needs no token (the empty requirement), other hosts the admin token; never the
		// integration token.
		const reset = doc.paths['/api/admin/reset'].post as unknown as { security: unknown[] };
		expect(reset.security).toEqual([{}, { adminToken: [] }]);
		const actions = doc.paths['/api/screens/{id}/actions'].post;
		expect(actions.requestBody?.content['application/json'].schema).toEqual({
			$ref: '#/components/schemas/ScreenAction'
		});
		expect(doc.components.schemas.ScreenAction.properties.action).toMatchObject({
			enum: [
				'bump',
				'recall',
				'fire',
				'fire-course',
				'item-done',
				'item-undo',
				'start',
				'start-undo'
			]
		});
	});

	it('the admin API answers with the documented shapes: reset, a refused query, the JSON view of a screen', async () => {
		const base = agent.httpUrl;
		const reset = await fetch(`${base}/api/admin/reset`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({})
		});
		expect([reset.status, await reset.json()]).toEqual([200, { reset: 'all' }]);
		const messages = doc.paths['/api/admin/messages'].get as unknown as {
			parameters: { name: string; in: string; schema: { enum?: string[] } }[];
		};
		expect(messages.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
			'query screen',
			'query order',
			'query severity',
			'query result',
			'query limit'
		]);
		expect(messages.parameters.find((p) => p.name === 'result')?.schema.enum).toEqual([
			'refused',
			'accepted'
		]);
		const bad = await fetch(`${base}/api/admin/messages?severity=loud`);
		expect(bad.status).toBe(422);
		const refusal = (await bad.json()) as Record<string, unknown>;
		expect(refusal.message).toMatch(/severity/);
		const errorFields = Object.keys(doc.components.schemas.SimulatorError.properties);
		for (const key of Object.keys(refusal)) expect(errorFields).toContain(key);
		const screen = await fetch(`${base}/api/admin/screens/kds-1`);
		const body = (await screen.json()) as Record<string, unknown>;
		expect(screen.status).toBe(200);
		expect(Object.keys(body).sort()).toEqual(
			Object.keys(doc.components.schemas.ScreenJson.properties).sort()
		);
	});

	it('documents GET /health as needing no token, with the fields it answers', async () => {
		const operation = doc.paths['/health'].get as unknown as {
			security: unknown[];
			responses: Record<string, unknown>;
		};
		expect(operation.security).toEqual([]);
		expect(Object.keys(operation.responses).sort()).toEqual(['200', '401', '503']);
		const res = await fetch(`${agent.httpUrl}/health`);
		expect(res.status).toBe(200);
		const body = (await res.json()) as { screens: object[] };
		const schema = doc.components.schemas.Health;
		expect(Object.keys(body).sort()).toEqual(Object.keys(schema.properties).sort());
		const screen = (schema.properties.screens.items as { properties: object }).properties;
		expect(Object.keys(body.screens[0]).sort()).toEqual(Object.keys(screen).sort());
	});

	it('describes the request bodies with the schemas that validate them', () => {
		const schemas = doc.components.schemas;
		for (const [name, schema] of [
			['Order', HttpOrderSchema],
			['PartialOrder', PartialOrderSchema],
			['CancelOrder', CancelOrderSchema]
		] as const) {
			expect(Object.keys(schemas[name].properties).sort()).toEqual(
				Object.keys(schema.shape).sort()
			);
		}
		expect(schemas.Order.required.sort()).toEqual(['id', 'items', 'mode', 'name', 'time']);
		expect(schemas.PartialOrder.required).toEqual(['id']);
		expect(schemas.Order.properties.items.items).toEqual({
			$ref: '#/components/schemas/OrderItem'
		});
		expect(schemas.OrderItem.required.sort()).toEqual(['mods', 'name', 'qty']);
		expect(schemas.KdsItem.required.sort()).toEqual(['lineId', 'mods', 'name', 'qty']);
		expect(
			doc.paths['/integrators/kds-orders'].post.requestBody?.content['application/json'].schema
		).toEqual({
			$ref: '#/components/schemas/Order'
		});
	});
});

describe('/docs', () => {
	it('serves a Swagger UI page that loads only local assets and this document', async () => {
		const res = await fetch(`${agent.httpUrl}/docs`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await res.text();
		expect(html).not.toMatch(/https?:\/\//);
		// Scripts, styles and icons: the header's links (back to the UI) are pages, not assets.
		const assets = [...html.matchAll(/(?:src="|<link [^>]*href=")([^"]+)"/g)].map((m) => m[1]);
		expect([...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([
			'/',
			'/inspector',
			'/openapi.json'
		]);
		expect(assets).toContain('/docs/swagger-ui-bundle.js');
		for (const asset of assets) {
			const got = await fetch(`${agent.httpUrl}${asset}`);
			expect([asset, got.status]).toEqual([asset, 200]);
			await got.arrayBuffer();
		}
		const init = await (await fetch(`${agent.httpUrl}/docs/init.js`)).text();
		expect(init).toContain("url: '/openapi.json'");
	});

	it('serves nothing else from the package directory', async () => {
		expect((await fetch(`${agent.httpUrl}/docs/package.json`)).status).toBe(404);
	});
});
