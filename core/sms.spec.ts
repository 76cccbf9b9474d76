import { describe, expect, it } from 'vitest';
import {
	DEFAULT_SMS,
	isE164,
	smsSettings,
	smsText,
	smsTriggered,
	undeliverableReason,
	wantsSms
} from './sms.ts';

describe('customer SMS rules', () => {
	it('the default "received" text is the real product’s', () => {
		expect(DEFAULT_SMS.received).toBe('We have received your order!');
	});

	it('off unless enabled; then "received" and "bumped" on, "ready" (Take Out) off', () => {
		const off = smsSettings({});
		expect(off.enabled).toBe(false);
		expect(smsTriggered(off, 'received')).toBe(false);
		const on = smsSettings({ enabled: true });
		expect(['received', 'bumped', 'ready'].map((k) => smsTriggered(on, k as 'ready'))).toEqual([
			true,
			true,
			false
		]);
		expect(on.texts).toEqual(DEFAULT_SMS);
	});

	it('a location overrides its brand part by part', () => {
		const brand = { enabled: true, triggers: { bumped: false }, received: 'Got it' };
		expect(smsSettings(brand, { triggers: { ready: true }, ready: 'Pick up!' })).toEqual({
			enabled: true,
			triggers: { received: true, bumped: false, ready: true },
			texts: { received: 'Got it', bumped: DEFAULT_SMS.bumped, ready: 'Pick up!' }
		});
		expect(smsSettings(brand, { enabled: false }).enabled).toBe(false);
		expect(smsSettings({ enabled: false }, { enabled: true }).enabled).toBe(true);
	});

	it.each([['+15551234567'], ['+447911123456'], ['+12']])('%s is E.164', (phone) => {
		expect(isE164(phone)).toBe(true);
		expect(undeliverableReason(phone)).toBeNull();
	});

	it.each([
		['555-123-4567'],
		['15551234567'],
		['+0123456'],
		['+1 555 123 4567'],
		['+1234567890123456']
	])('%s is not E.164: undeliverable, with the reason', (phone) => {
		expect(isE164(phone)).toBe(false);
		expect(undeliverableReason(phone)).toBe(
			`phoneNumber ${JSON.stringify(phone)} is not in E.164 format (expected + then 2-15 digits, e.g. +15551234567)`
		);
	});

	it('texts only with a phone number and no opt-out (optInForSms defaults to true)', () => {
		expect(wantsSms({ phoneNumber: '+15551234567' })).toBe(true);
		expect(wantsSms({ phoneNumber: '+15551234567', optInForSms: true })).toBe(true);
		expect(wantsSms({ phoneNumber: '+15551234567', optInForSms: false })).toBe(false);
		expect(wantsSms({})).toBe(false);
		expect(wantsSms({ phoneNumber: '  ' })).toBe(false);
	});

	it('customerArrivedUrl is appended when present', () => {
		expect(smsText('Ready!', undefined)).toBe('Ready!');
		expect(smsText('Ready!', '')).toBe('Ready!');
		expect(smsText('Ready!', 'https://x.test/a/1')).toBe('Ready! https://x.test/a/1');
	});
});
