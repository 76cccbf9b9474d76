/**
 * The inspector's log on disk (message-file.ts): what one run appends, the next run reads back,
 * bounded by two files used in turn; a line cut short by a kill costs that line only.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { MessageEntry } from '#core/message-entry';
import { createLogger } from '../log.ts';
import { RAW_IS_JSON } from '#core/message-entry';
import { MESSAGE_FILES, MessageFile } from './message-file.ts';

const logger = createLogger('silent');
let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kds-message-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(
	id: number,
	raw = `{"command":"create-order","order":{"id":"A${id}"}}`
): MessageEntry {
	return {
		id,
		at: 1_700_000_000_000 + id,
		interface: 'tcp',
		source: '127.0.0.1:5000',
		screenIds: ['kds-1'],
		command: 'create-order',
		orderId: `A${id}`,
		result: `A${id}`,
		ok: true,
		raw,
		findings: []
	};
}

const open = (retention = 100, payloadBudget = 1_000_000) =>
	new MessageFile(dir, logger, { retention, payloadBudget });
const ids = (entries: MessageEntry[]) => entries.map((e) => e.id);

it('reads back, in order, what an earlier run appended, payloads exactly as they came', () => {
	const raws = ['{"name":"Zoë 🍔 \\u2028"}', 'line\nbreak "quoted" \\ back', '\ud800 lone', ''];
	const first = open();
	expect(first.load()).toEqual([]);
	first.appendMessages([entry(1, raws[0]), entry(2, raws[1])], 1);
	first.appendMessages([entry(3, raws[2]), entry(4, raws[3])], 1);
	first.close();
	const saved = open().load();
	expect(ids(saved)).toEqual([1, 2, 3, 4]);
	// A lone surrogate cannot be kept in UTF-8: JSON keeps it escaped, and it reads back as sent.
	expect(saved.map((e) => e.raw)).toEqual(raws);
	expect(saved[0]).toEqual(entry(1, raws[0]));
});

it('uses its two files in turn: never fewer than the retention kept, never more than twice', () => {
	const file = open(10);
	for (let id = 1; id <= 95; id += 5)
		file.appendMessages(
			[1, 2, 3, 4, 5].map((k) => entry(id + k - 1)),
			id
		);
	file.close();
	const saved = open(10).load();
	expect(saved.length).toBeGreaterThanOrEqual(10);
	expect(saved.length).toBeLessThanOrEqual(20);
	expect(ids(saved).at(-1)).toBe(95);
	expect(ids(saved)).toEqual(Array.from({ length: saved.length }, (_, i) => 96 - saved.length + i));
});

it('turns over by payload too: huge payloads never pile up beyond twice the budget', () => {
	const file = open(1000, 10_000);
	for (let id = 1; id <= 40; id++) file.appendMessages([entry(id, 'x'.repeat(3_000))], id);
	file.close();
	const bytes = MESSAGE_FILES.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
	expect(bytes).toBeLessThan(2 * 10_000 + 4 * 3_500);
	expect(ids(open(1000, 10_000).load()).at(-1)).toBe(40);
});

it('skips a line cut short by a kill, and the next run writes on a line of its own', () => {
	const first = open();
	first.appendMessages([entry(1), entry(2)], 1);
	first.close();
	const [name] = MESSAGE_FILES;
	appendFileSync(join(dir, name), JSON.stringify(entry(3)).slice(0, 40));
	const second = open();
	expect(ids(second.load())).toEqual([1, 2]);
	second.appendMessages([entry(4)], 1);
	second.close();
	expect(ids(open().load())).toEqual([1, 2, 4]);
	expect(readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
});

it('a clear empties both files for good', () => {
	const file = open(3);
	for (let id = 1; id <= 10; id++) file.appendMessages([entry(id)], id);
	file.clearMessages();
	file.appendMessages([entry(11)], 11);
	file.close();
	expect(ids(open(3).load())).toEqual([11]);
});

it("moves an earlier version's messages.sqlite in once, and removes it", () => {
	const legacy = new DatabaseSync(join(dir, 'messages.sqlite'));
	legacy.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)');
	for (const id of [5, 6, 7])
		legacy.prepare('INSERT INTO messages VALUES (?, ?)').run(id, JSON.stringify(entry(id)));
	legacy.close();
	const first = open(2);
	expect(ids(first.load())).toEqual([6, 7]);
	first.close();
	expect(() => statSync(join(dir, 'messages.sqlite'))).toThrow();
	expect(ids(open(2).load())).toEqual([6, 7]);
});

it('whatever the batches, a restart reads back at least the newest `retention`, in order (seeded)', () => {
	fc.assert(
		fc.property(
			fc.integer({ min: 1, max: 20 }),
			fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 30 }),
			(retention, sizes) => {
				rmSync(dir, { recursive: true, force: true });
				dir = mkdtempSync(join(tmpdir(), 'kds-message-file-'));
				const file = open(retention);
				file.load();
				let next = 1;
				for (const size of sizes) {
					file.appendMessages(
						Array.from({ length: size }, () => entry(next++)),
						next
					);
				}
				file.close();
				const written = next - 1;
				const saved = ids(open(retention).load());
				expect(saved.length).toBeGreaterThanOrEqual(Math.min(retention, written));
				expect(saved).toEqual(
					Array.from({ length: saved.length }, (_, i) => written - saved.length + 1 + i)
				);
			}
		),
		{ seed: 2811, numRuns: 200 }
	);
});

/** An entry whose payload a transport parsed as JSON: the line may carry it as it came. */
function jsonEntry(id: number, raw: string): MessageEntry {
	return Object.assign(entry(id, raw), { [RAW_IS_JSON]: true });
}

it('a payload parsed as JSON is written as it came, and read back exactly', () => {
	const raws = [
		'{"id":"A1","name":"Zoë 🍔 \\u2028 \u2028","items":[]}',
		'  {\t"id" : "x" ,"note":",\\"rawJson\\":1}"}  ',
		'{"findings":[{"code":"KDS"}],"rawJson":{"rawJson":2}}',
		'[1, 2.50, -0, 1e400]',
		'"just a string"',
		'{"id":"big","pad":"' + 'x'.repeat(30_000) + '"}'
	];
	const file = open();
	file.load();
	file.appendMessages(
		raws.map((raw, i) => jsonEntry(i + 1, raw)),
		1
	);
	file.close();
	const text = readFileSync(join(dir, MESSAGE_FILES[0]), 'utf8');
	// The usual payload is not escaped into a string (the one of 30,000 characters is: too big
	// for the write buffer as is, it goes the ordinary way).
	expect(text.split('\n').filter((l) => l.includes(',"rawJson":'))).toHaveLength(5);
	expect(text).toContain(`,"rawJson":${raws[0]}}`);
	const saved = open().load();
	expect(saved.map((e) => e.raw)).toEqual(raws);
	expect(saved[0]).toEqual(entry(1, raws[0]));
	expect(Object.keys(saved[0])).not.toContain('rawJson');
});

it('a JSON payload with a line break or a byte order mark is escaped as any other', () => {
	const raws = ['{\n"id": "A"\n}', '{"id":"B"}\r\n', '\ufeff{"id":"C"}'];
	const file = open();
	file.load();
	file.appendMessages(
		raws.map((raw, i) => jsonEntry(i + 1, raw)),
		1
	);
	file.close();
	const lines = readFileSync(join(dir, MESSAGE_FILES[0]), 'utf8').split('\n').filter(Boolean);
	expect(lines).toHaveLength(3);
	expect(lines.some((l) => l.includes('rawJson'))).toBe(false);
	expect(
		open()
			.load()
			.map((e) => e.raw)
	).toEqual(raws);
});

it('any JSON text, however spaced, mixed with other payloads, reads back exactly (seeded)', () => {
	const spaced = fc
		.tuple(fc.json(), fc.constantFrom('', ' ', '\t', '  \t'))
		.map(([json, pad]) => `${pad}${json.replaceAll(',', `${pad},${pad}`)}${pad}`)
		// What the body parser took; whitespace inside strings is content and stays.
		.filter((text) => {
			try {
				JSON.parse(text);
				return true;
			} catch {
				return false;
			}
		});
	fc.assert(
		fc.property(
			fc.array(
				fc.oneof(
					spaced.map((raw) => ({ raw, json: true })),
					fc.string().map((raw) => ({ raw, json: false }))
				),
				{
					minLength: 1,
					maxLength: 12
				}
			),
			(payloads) => {
				rmSync(dir, { recursive: true, force: true });
				dir = mkdtempSync(join(tmpdir(), 'kds-message-file-'));
				const file = open();
				file.load();
				file.appendMessages(
					payloads.map(({ raw, json }, i) => (json ? jsonEntry(i + 1, raw) : entry(i + 1, raw))),
					1
				);
				file.close();
				const saved = open().load();
				const lines = readFileSync(join(dir, MESSAGE_FILES[0]), 'utf8').split('\n');
				expect(lines.filter((l) => l.includes(',"rawJson":'))).toHaveLength(
					payloads.filter((p) => p.json).length
				);
				expect(saved.map((e) => e.raw)).toEqual(payloads.map(({ raw }) => raw));
				expect(saved.map((e) => e.id)).toEqual(payloads.map((_, i) => i + 1));
			}
		),
		{ seed: 2831, numRuns: 300 }
	);
});
