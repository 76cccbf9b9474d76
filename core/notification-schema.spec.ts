import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	CustomerArrivedSchema,
	EstimatedArrivalSchema,
	SendMessageSchema
} from './notification-schema.ts';
import { parseWith } from './parse.ts';

const sample = (name: string): unknown =>
	JSON.parse(readFileSync(new URL(`../tests/fixtures/samples/${name}`, import.meta.url), 'utf8'));

describe('notification bodies (2.13)', () => {
	it.each([
		['2026-11-22T12:45:00.123456', '2026-11-22T12:45:00.123-06:00'],
		['2026-11-22T18:45:00+05', '2026-11-22T18:45:00+05:00'],
		['2026-11-22T18:45:00Z', '2026-11-22T18:45:00Z']
	])('retry.expiration %s is read as %s (location in Chicago)', (sent, read) => {
		for (const schema of [CustomerArrivedSchema, EstimatedArrivalSchema]) {
			const body = { id: 'C-1', minutes: 5, retry: { expiration: sent } };
			const parsed = parseWith(schema, body, [], { timeZone: 'America/Chicago' });
			if (!parsed.ok) throw new Error('refused');
			expect(parsed.value.retry?.expiration).toBe(read);
			expect(Number.isNaN(Date.parse(read))).toBe(false);
		}
	});

	it('the samples parse', () => {
		expect(
			parseWith(CustomerArrivedSchema, sample('http-notification-customer-arrived.json'))
		).toEqual({
			ok: true,
			value: {
				id: 'C-3107',
				retry: {
					notificationUrl: 'http://127.0.0.1:9999/kds-callback',
					expiration: '2026-11-22T18:45:00Z'
				}
			}
		});
		expect(parseWith(EstimatedArrivalSchema, sample('http-notification-eta.json'))).toEqual({
			ok: true,
			value: { id: 'C-3107', minutes: 6 }
		});
		expect(parseWith(SendMessageSchema, sample('http-notification-message.json'))).toEqual({
			ok: true,
			value: { message: '86 the salmon: out of stock' }
		});
	});

	it('null retry fields are absent, as everywhere', () => {
		expect(
			parseWith(CustomerArrivedSchema, {
				id: 'A',
				retry: { notificationUrl: null, expiration: null }
			})
		).toEqual({ ok: true, value: { id: 'A', retry: {} } });
		expect(parseWith(CustomerArrivedSchema, { id: 'A', retry: null })).toEqual({
			ok: true,
			value: { id: 'A' }
		});
	});

	it('a callback URL must be absolute http or https', () => {
		for (const url of ['https://pos.example.com/cb', 'http://[::1]:8080/x?y=1']) {
			expect(
				parseWith(CustomerArrivedSchema, { id: 'A', retry: { notificationUrl: url } }).ok
			).toBe(true);
		}
		for (const url of [
			'file:///etc/passwd',
			'ftp://x/y',
			'data:,x',
			'example.com/cb',
			'http://',
			42
		]) {
			const parsed = parseWith(CustomerArrivedSchema, { id: 'A', retry: { notificationUrl: url } });
			expect(parsed.ok ? [] : parsed.errors.map((e) => e.path)).toEqual(['retry.notificationUrl']);
		}
	});
});
