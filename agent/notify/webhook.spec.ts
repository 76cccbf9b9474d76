/**
 * The agent's one outbound webhook, on its own and through both of its users (the takeout
 * notification callback and the SMS forwarder): a receiver on 127.0.0.1 that fails twice and then
 * answers 200 gets exactly three tries, 2 s and 10 s apart on the engine's clock, and no log line
 * holds any part of the URL's secrets (userinfo, query, a token in the path).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { Store } from '../store/store.ts';
import { Notifications } from './notification-state.ts';
import { SmsOutbox } from './sms.ts';
import {
	redact,
	WEBHOOK_ATTEMPTS,
	WEBHOOK_BACKOFF_MS,
	WebhookSender,
	type WebhookOutcome
} from './webhook.ts';

const T0 = Date.parse('2026-11-22T18:00:00Z');
const SECRETS = ['hunter2', 'Tk9xQ2Vb7LmPzR4s', 'qs-secret-42'];
/** The receiver's path holds a token, its userinfo a password, its query another token. */
const secretUrl = (port: number) =>
	`http://hook:hunter2@127.0.0.1:${port}/hooks/Tk9xQ2Vb7LmPzR4s?token=qs-secret-42`;

/** A pino logger whose lines (every level) are kept. */
function capturedLogger() {
	const lines: string[] = [];
	const logger = pino({ level: 'trace', base: undefined }, { write: (line) => lines.push(line) });
	return { logger, lines };
}

/** A receiver that answers 500 to its first `failures` requests, then 200. */
async function flakyReceiver(failures: number) {
	const bodies: unknown[] = [];
	const authorizations: Array<string | undefined> = [];
	const server: Server = createServer((req, res) => {
		authorizations.push(req.headers.authorization);
		let data = '';
		req.on('data', (chunk) => (data += chunk));
		req.on('end', () => {
			bodies.push(JSON.parse(data));
			res.statusCode = bodies.length <= failures ? 500 : 200;
			res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	closing.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
	return { port: (server.address() as AddressInfo).port, bodies, authorizations };
}

let closing: Array<() => unknown> = [];
afterEach(async () => {
	for (const close of closing.reverse()) await close();
	closing = [];
});

function expectNoSecret(lines: string[]) {
	expect(lines.length).toBeGreaterThan(0);
	for (const secret of SECRETS) expect(lines.filter((l) => l.includes(secret))).toEqual([]);
}

describe('redact', () => {
	it.each([
		['http://u:p@host:8080/sms/webhook?token=x#f', 'http://host:8080/sms/webhook'],
		[
			'https://hooks.example.com/services/T0ABCDEFG/B0HIJKLMN/abcdefghijklmnopqrstuvwx',
			'https://hooks.example.com/services/…/…/…'
		],
		['https://example.com/', 'https://example.com'],
		['https://example.com/api/v1/callback-2026', 'https://example.com/api/v1/callback-2026'],
		['https://example.com/cb/0123456789', 'https://example.com/cb/…'],
		['not a url', '(invalid URL)']
	])('%s → %s', (url, shown) => {
		expect(redact(url)).toBe(shown);
	});
});

describe('WebhookSender', () => {
	it('tries a failing receiver 3 times, 2 s then 10 s apart, and logs the URL redacted', async () => {
		const receiver = await flakyReceiver(2);
		const clock = new ManualClock(T0);
		const { logger, lines } = capturedLogger();
		const sender = new WebhookSender({ clock, logger, name: 'test webhook' });
		closing.push(() => sender.close());
		const outcomes: WebhookOutcome[] = [];
		const tries: Array<{ attempt: number; at: number }> = [];
		sender.send({
			log: { job: 'J-1' },
			prepare: (attempt) => {
				tries.push({ attempt, at: clock.now() });
				return { url: secretUrl(receiver.port), body: { attempt } };
			},
			settle: (outcome) => outcomes.push(outcome)
		});
		await expect.poll(() => outcomes.length).toBe(1);
		expect(outcomes[0]).toEqual({ ok: false, attempt: 1, error: 'HTTP 500', retryAt: T0 + 2_000 });
		clock.advance(WEBHOOK_BACKOFF_MS[0] - 1);
		await sender.idle();
		expect(tries).toHaveLength(1); // not a millisecond early
		clock.advance(1);
		await expect.poll(() => outcomes.length).toBe(2);
		expect(outcomes[1]).toMatchObject({ ok: false, attempt: 2, retryAt: T0 + 12_000 });
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => outcomes.length).toBe(3);
		expect(outcomes[2]).toEqual({ ok: true, attempt: WEBHOOK_ATTEMPTS });
		expect(tries).toEqual([
			{ attempt: 1, at: T0 },
			{ attempt: 2, at: T0 + 2_000 },
			{ attempt: 3, at: T0 + 12_000 }
		]);
		expect(receiver.bodies).toEqual([{ attempt: 1 }, { attempt: 2 }, { attempt: 3 }]);
		// The userinfo went as HTTP Basic credentials, as curl sends it.
		const basic = `Basic ${Buffer.from('hook:hunter2').toString('base64')}`;
		expect(receiver.authorizations).toEqual([basic, basic, basic]);
		expectNoSecret(lines);
		expect(lines.join('')).toContain('test webhook sent');
		expect(lines.join('')).toContain(`"url":"http://127.0.0.1:${receiver.port}/hooks/…"`);
	});

	it('gives up after the last try, and logs that redacted too', async () => {
		const receiver = await flakyReceiver(Infinity);
		const clock = new ManualClock(T0);
		const { logger, lines } = capturedLogger();
		const sender = new WebhookSender({ clock, logger, name: 'test webhook' });
		closing.push(() => sender.close());
		const outcomes: WebhookOutcome[] = [];
		sender.send({
			log: {},
			prepare: () => ({ url: secretUrl(receiver.port), body: {} }),
			settle: (outcome) => outcomes.push(outcome)
		});
		for (const wait of [...WEBHOOK_BACKOFF_MS, 0]) {
			const seen = outcomes.length + 1;
			await expect.poll(() => outcomes.length).toBe(seen);
			clock.advance(wait);
		}
		await sender.idle();
		expect(receiver.bodies).toHaveLength(WEBHOOK_ATTEMPTS);
		expect(outcomes.at(-1)).toEqual({ ok: false, attempt: 3, error: 'HTTP 500', retryAt: null });
		expect(lines.join('')).toMatch(/test webhook given up after 3 tries: HTTP 500/);
		expectNoSecret(lines);
	});
});

describe('its users', () => {
	function engineWith(webhookUrl: string | undefined, clock: ManualClock, logger: pino.Logger) {
		const config = parseConfig(DEFAULT_CONFIG);
		if (webhookUrl) config.brands[0].sms.webhookUrl = webhookUrl;
		const store = new Store({ dataDir: null });
		const engine = new Engine({ config, store, logger, clock });
		closing.push(() => store.close());
		return { engine, store };
	}

	it('the SMS forwarder: 3 tries, the text forwarded, no secret in any log line', async () => {
		const receiver = await flakyReceiver(2);
		const clock = new ManualClock(T0);
		const { logger, lines } = capturedLogger();
		const { engine, store } = engineWith(secretUrl(receiver.port), clock, logger);
		const outbox = new SmsOutbox(engine, store.database, logger);
		closing.push(() => outbox.close());
		const order = {
			id: 'S-1',
			name: 'S-1',
			time: new Date(T0).toISOString(),
			mode: 'ToGo' as const,
			phoneNumber: '+15551234567',
			items: []
		};
		await new Promise((resolve) =>
			engine.runCommand('kds-1', { command: 'create-order', order }, resolve)
		);
		await expect.poll(() => receiver.bodies.length).toBe(1);
		await expect.poll(() => outbox.list()[0].forwardAttempts).toBe(1);
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => outbox.list()[0].forwardAttempts).toBe(2);
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect
			.poll(() => outbox.list()[0])
			.toMatchObject({ forwarded: 'delivered', forwardAttempts: 3, forwardError: null });
		expect(receiver.bodies).toHaveLength(3);
		expect(receiver.bodies[2]).toMatchObject({ orderId: 'S-1', kind: 'received' });
		expectNoSecret(lines);
	});

	it('the notification callback: 3 tries, then forgotten, no secret in any log line', async () => {
		const receiver = await flakyReceiver(2);
		const clock = new ManualClock(T0);
		const { logger, lines } = capturedLogger();
		const { engine, store } = engineWith(undefined, clock, logger);
		const notifications = new Notifications({
			engine,
			database: store.database,
			logger
		});
		closing.push(() => notifications.close());
		notifications.start();
		const order = {
			id: 'N-1',
			name: 'N-1',
			time: new Date(T0).toISOString(),
			mode: 'ToGo' as const,
			items: []
		};
		await new Promise((resolve) =>
			engine.runCommand('kds-1', { command: 'create-order', order }, resolve)
		);
		const sent = notifications.takeout({
			kind: 'customer-arrived',
			orderId: 'N-1',
			locationId: 'loc-1',
			screenIds: ['kds-1'],
			retry: { notificationUrl: secretUrl(receiver.port) }
		});
		expect(sent.screens).toEqual([{ screenId: 'kds-1', outcome: 'queued' }]);
		engine.fanout.join('kds-1'); // a browser opens the screen: delivered, the callback goes
		await expect.poll(() => receiver.bodies.length).toBe(1);
		await notifications.idle();
		clock.advance(WEBHOOK_BACKOFF_MS[0]);
		await expect.poll(() => receiver.bodies.length).toBe(2);
		await notifications.idle();
		clock.advance(WEBHOOK_BACKOFF_MS[1]);
		await expect.poll(() => receiver.bodies.length).toBe(3);
		await notifications.idle();
		expect(receiver.bodies[2]).toMatchObject({ orderId: 'N-1', outcome: 'delivered' });
		expect(notifications.deliveries()).toEqual([]);
		expect(lines.join('')).toMatch(/notification callback sent \(delivered\)/);
		expectNoSecret(lines);
	});
});
