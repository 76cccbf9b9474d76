import { describe, expect, it } from 'vitest';
import type { MessageEntry } from './message-entry.ts';
import { formatSessionErrors, readSession, sessionOf, writeSession } from './session.ts';

const entry = (
	e: Partial<MessageEntry> & Pick<MessageEntry, 'id' | 'at' | 'raw'>
): MessageEntry => ({
	interface: 'tcp',
	source: '127.0.0.1:5000',
	screenIds: ['kds-1'],
	command: 'create-order',
	orderId: '1',
	result: '1',
	reply: '1\n',
	ok: true,
	findings: [],
	...e
});

const source = {
	simulator: '9.9.9',
	now: Date.parse('2026-12-07T05:00:00Z'),
	locationOf: (id: string) => (id.startsWith('kds-') ? 'loc-1' : null)
};

describe('session files', () => {
	const entries = [
		entry({
			id: 7,
			at: 1000,
			raw: '{"command":"create-order","order":{"id":"1","name":"Chloé 🌮","items":[{"lineId":"1","name":"抹茶ラテ","mods":["Oat"]}]}}'
		}),
		entry({
			id: 9,
			at: 1850,
			interface: 'http',
			command: 'PATCH /integrators/kds-orders',
			screenIds: ['kds-1', 'kds-2'],
			raw: '{"id":"1","itemsToRemove":["1"]}',
			result: '200',
			reply: '{"deliveryStatus":[]}',
			contentType: 'application/json'
		})
	];

	it('writes a header and one line per message, oldest first, redacted, and reads it back', () => {
		const session = sessionOf([...entries].reverse(), source);
		const file = writeSession(session);
		const lines = file
			.trimEnd()
			.split('\n')
			.map((l) => JSON.parse(l));
		expect(lines[0]).toEqual({
			format: 'kds-sim-session',
			version: 1,
			simulator: '9.9.9',
			createdAt: '2026-12-07T05:00:00.000Z',
			redacted: true,
			messages: 2,
			locations: ['loc-1'],
			screens: [
				{ id: 'kds-1', location: 'loc-1' },
				{ id: 'kds-2', location: 'loc-1' }
			]
		});
		expect(lines[1]).toEqual({
			seq: 1,
			offsetMs: 0,
			transport: 'tcp',
			screen: 'kds-1',
			text: '{"command":"create-order","order":{"id":"1","name":"Customer 1","items":[{"lineId":"1","name":"抹茶ラテ","mods":["Oat"]}]}}',
			reply: '1\n',
			ok: true
		});
		expect(lines[2]).toMatchObject({
			seq: 2,
			offsetMs: 850,
			transport: 'http',
			method: 'PATCH',
			route: '/integrators/kds-orders',
			location: 'loc-1',
			devices: ['kds-1', 'kds-2'],
			contentType: 'application/json',
			reply: '200 {"deliveryStatus":[]}'
		});
		const read = readSession(file);
		expect(read).toEqual({ ok: true, session });
		expect(file).not.toContain('Chloé');
	});

	it('keeps customer data when told not to redact', () => {
		const file = writeSession(sessionOf(entries, { ...source, redact: false }));
		expect(file).toContain('Chloé 🌮');
		expect(JSON.parse(file.split('\n')[0]).redacted).toBe(false);
	});

	it('names the line and the field of each problem of a bad file', () => {
		const good = writeSession(sessionOf(entries, source)).trimEnd().split('\n');
		const bad = [
			good[0].replace('"version":1', '"version":2'),
			good[1].replace('"offsetMs":0', '"offsetMs":"soon"'),
			good[2].replace('"transport":"http"', '"transport":"udp"'),
			'{not json'
		].join('\n');
		const read = readSession(bad);
		expect(read.ok).toBe(false);
		expect(formatSessionErrors(read.ok ? [] : read.errors, 'x.jsonl')).toBe(
			[
				'x.jsonl:1: version: expected 1 (this simulator reads version 1 files), got 2',
				'x.jsonl:2: offsetMs: expected a number of milliseconds, got "soon"',
				'x.jsonl:3: transport: expected "tcp" or "http", got "udp"',
				'x.jsonl:4: not JSON (' + errorOf('{not json') + ')'
			].join('\n')
		);
		expect(readSession('{"format":"csv"}\n')).toMatchObject({
			ok: false,
			errors: expect.arrayContaining([
				{
					line: 1,
					path: 'format',
					message: 'expected "kds-sim-session" (this is not a kds-sim session file), got "csv"'
				}
			])
		});
		expect(readSession('')).toEqual({
			ok: false,
			errors: [{ line: 1, path: '', message: 'empty file (expected a header line)' }]
		});
	});

	it('finds a file cut short and messages out of order', () => {
		const good = writeSession(sessionOf(entries, source)).trimEnd().split('\n');
		expect(readSession(`${good[0]}\n${good[1]}\n`)).toEqual({
			ok: false,
			errors: [
				{
					line: 1,
					path: 'messages',
					message: 'the header counts 2 messages, the file has 1 (cut short?)'
				}
			]
		});
		const late = good[1].replace('"offsetMs":0', '"offsetMs":5000');
		expect(readSession([good[0], late, good[2]].join('\n'))).toMatchObject({
			ok: false,
			errors: [{ line: 3, path: 'offsetMs' }]
		});
	});
});

function errorOf(text: string): string {
	try {
		JSON.parse(text);
	} catch (err) {
		return (err as Error).message;
	}
	return '';
}
