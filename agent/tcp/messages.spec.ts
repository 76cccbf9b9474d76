/**
 * The inspector's findings of a TCP message take the engine's own decision of it (runCommand with
 * `explain`, handed over as CheckContext.decided) instead of deciding the message a second time:
 * they must be the findings the check decides on a screen of its own (what the UI does, and what
 * the handler did before). Seeded, over runs of TCP messages to one screen through the handler,
 * an engine, its store and the inspector's log: creates (enveloped or bare), full and partial
 * updates and cancels of a few ids (so duplicates and orders that do not exist are refused),
 * messages the schema refuses and text that is not JSON, on a screen with other orders or none,
 * auto hold on or off, the clock standing still or moving between messages.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConformance, type Finding } from '#core/conformance';
import { decodeTcpMessage, TCP_COMMANDS, type TcpCommandName } from '#core/tcp-message';
import { ManualClock } from '../clock.ts';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { MessageLog, type MessageEntry } from '../inspector/message-log.ts';
import { MessageRecorder } from '../inspector/recorder.ts';
import { createLogger } from '../log.ts';
import { MESSAGE_FILES, MessageFile } from '../store/message-file.ts';
import { Store } from '../store/store.ts';
import { tcpMessageHandler } from './messages.ts';

const T0 = 1_795_338_000_000;
const SCREEN = 'kds-1';
const IDS = ['A-1', 'A-2'];
const LINE_IDS = ['1', '2', '3'];

const itemArb = fc
	.record(
		{
			lineId: fc.constantFrom(...LINE_IDS),
			name: fc.constantFrom('Burger', 'Fries', 'Ünïcode 🍔', ''),
			qty: fc.constantFrom(1, 2, 0, -1),
			mods: fc.constantFrom([], [{ name: 'No onion' }], [{ name: 'Extra', qty: 2 }]),
			itemGroup: fc.constantFrom({ id: 'g1', name: 'Combo' }, { id: 'g2', name: 'Meal' }),
			course: fc.constantFrom('Starters', 'Mains'),
			courseStatus: fc.constantFrom('hold', 'straightFire'),
			extra: fc.constantFrom('x', null)
		},
		{ requiredKeys: ['lineId', 'name', 'qty', 'mods'] }
	)
	.map(defined);

const orderArb = fc
	.record(
		{
			name: fc.constantFrom('Robin', 'Ålesund', ''),
			time: fc.constantFrom('2026-11-22T18:00:00Z', '2026-11-22T18:00:00'),
			mode: fc.constantFrom('ToGo', 'DineIn', 'Delivery'),
			items: fc.array(itemArb, { maxLength: 4 }),
			pickupTime: fc.constantFrom('2026-11-22T19:00:00Z', '2030-01-01T00:00:00Z'),
			prepTimeDuration: fc.constantFrom('PT30M', 'PT1H'),
			phoneNumber: fc.constantFrom('+14155550123', '555-0100', null),
			priority: fc.boolean(),
			unknownField: fc.constantFrom(1, 'x')
		},
		{ requiredKeys: ['name', 'time', 'mode', 'items'] }
	)
	.map(defined);

const patchArb = fc
	.record(
		{
			itemsToAdd: fc.array(itemArb, { maxLength: 2 }),
			itemsToUpdate: fc.array(itemArb, { maxLength: 2 }),
			itemsToRemove: fc.array(fc.constantFrom(...LINE_IDS), { maxLength: 2 }),
			name: fc.constantFrom('Sam', null),
			priority: fc.boolean(),
			unknownField: fc.constantFrom(true)
		},
		{ requiredKeys: [] }
	)
	.map(defined);

function defined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** One TCP message as a POS writes it (its text), and how long after the one before it came. */
const messageArb = fc
	.tuple(
		fc.constantFrom(
			'create-order',
			'bare-create',
			'update-order',
			'partial-update-order',
			'cancel-order',
			'remove-line',
			'schema-refused',
			'not-json'
		),
		fc.constantFrom(...IDS),
		orderArb,
		patchArb,
		fc.constantFrom(0, 0, 1, 60_000)
	)
	.map(([kind, id, order, patch, after]) => {
		let text: string;
		if (kind === 'not-json') text = `{"command":"create-order","order":{"id":"${id}"`;
		else if (kind === 'remove-line') {
			const order = { id, itemsToRemove: [LINE_IDS[after % 2]] };
			text = JSON.stringify({ command: 'partial-update-order', order });
		} else if (kind === 'bare-create') text = JSON.stringify({ ...order, id });
		else if (kind === 'schema-refused')
			text = JSON.stringify({ command: 'create-order', order: { id, items: 'none' } });
		else {
			const body = kind === 'partial-update-order' ? patch : kind === 'cancel-order' ? {} : order;
			text = JSON.stringify({ command: kind, order: { ...body, id } });
		}
		return { text, after };
	});

/** The findings as the check decides them on a screen of its own (no decision handed over). */
function ownFindings(engine: Engine, text: string): Finding[] {
	const screen = engine.screen(SCREEN)!;
	const { json, result } = decodeTcpMessage(text, { timeZone: screen.location.timezone });
	if (json === undefined) return [];
	const raw = json as { command?: unknown; order?: { id?: unknown }; id?: unknown } | null;
	const id = raw?.order?.id ?? raw?.id;
	const named = raw?.command;
	return checkConformance({
		interface: 'tcp',
		command: (TCP_COMMANDS as readonly unknown[]).includes(named)
			? (named as TcpCommandName)
			: 'create-order',
		raw: json,
		autoHold: screen.config.settings.autoHoldFutureOrders,
		existing: typeof id === 'string' ? screen.state.orders.get(id) : undefined,
		schemaValid: result.ok,
		parsed: result.ok ? result.value.order : undefined,
		outcomes: result.ok ? (result.outcomes ?? []) : []
	});
}

/** The inspector's work of the turn is done (it runs once the replies are written). */
const written = () => new Promise((done) => setImmediate(done));

let store: Store;
let engine: Engine;
let clock: ManualClock;
let log: MessageLog;
let entries: MessageEntry[];
beforeEach(() => {
	store = new Store({ dataDir: null });
	clock = new ManualClock(T0);
	engine = new Engine({
		config: parseConfig(DEFAULT_CONFIG),
		store,
		logger: createLogger('silent'),
		clock
	});
	log = new MessageLog();
	entries = [];
	log.subscribe((entry) => entries.push(entry));
});
afterEach(() => store.close());

describe('TCP findings from the engine’s decision equal those the check decides itself', () => {
	it('on generated runs of messages, screens and clocks (seeded)', async () => {
		let messages = 0;
		let withFindings = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.array(messageArb, { minLength: 1, maxLength: 8 }),
				fc.boolean(),
				fc.boolean(),
				async (run, others, autoHold) => {
					store.close();
					store = new Store({ dataDir: null });
					engine = new Engine({
						config: parseConfig(DEFAULT_CONFIG),
						store,
						logger: createLogger('silent'),
						clock
					});
					engine.screen(SCREEN)!.config.settings.autoHoldFutureOrders = autoHold;
					log.clear();
					entries = [];
					const handler = tcpMessageHandler(engine, new MessageRecorder(log, clock));
					const send = (text: string, source = 'pos') =>
						new Promise<string | null>((done) => handler(SCREEN, text, source, done));
					if (others) {
						const other = { id: 'X', name: 'X', time: '2026-11-22T18:00:00Z', mode: 'ToGo' };
						await send(JSON.stringify({ ...other, items: [] }));
					}
					const expected: Finding[][] = [];
					const replies: Array<Promise<string | null>> = [];
					for (const [i, { text, after }] of run.entries()) {
						clock.advance(after);
						// Read before the message is handled: the order as the message finds it.
						expected.push(ownFindings(engine, text));
						// Sent in one turn, as messages of many connections are: decided in turn,
						// committed together.
						replies.push(send(text, `pos-${i}`));
					}
					await Promise.all(replies);
					await engine.settled();
					await written();
					// A refusal of the parser is logged at once, the others once committed: by source.
					const got = run.map((_, i) => entries.find((e) => e.source === `pos-${i}`)?.findings);
					expect(got).toEqual(expected);
					messages += got.length;
					withFindings += got.filter((f) => f !== undefined && f.length > 0).length;
				}
			),
			{ seed: 28_0032, numRuns: 300 }
		);
		// The runs hold messages with findings (else this test would show little).
		expect(withFindings).toBeGreaterThan(messages * 0.3);
	});

	it('a line struck through in the same millisecond before: the second remove is still ignored', async () => {
		const handler = tcpMessageHandler(engine, new MessageRecorder(log, clock));
		const send = (text: string) =>
			new Promise<string | null>((done) => handler(SCREEN, text, 'pos', done));
		const items = [{ lineId: '3', name: 'Burger', qty: 1, mods: [] }];
		const order = { id: 'S-1', name: 'Robin', time: T0, mode: 'ToGo', items };
		const remove = JSON.stringify({
			command: 'partial-update-order',
			order: { id: 'S-1', itemsToRemove: ['3'] }
		});
		// The clock stands still: the line's change and the second remove carry the same time.
		expect(await send(JSON.stringify({ command: 'create-order', order }))).toBe('S-1');
		expect(await send(remove)).toBe('S-1');
		const expected = ownFindings(engine, remove);
		expect(await send(remove)).toBe('S-1');
		await written();
		expect(entries[2].findings).toEqual(expected);
		expect(entries[2].findings.map((f) => `${f.code} ${f.path}`)).toContain(
			'KDS-LINEID-UNKNOWN order.itemsToRemove[0]'
		);
	});

	it('a duplicate create and an update of an order that does not exist: the refusals’ findings', async () => {
		const handler = tcpMessageHandler(engine, new MessageRecorder(log, clock));
		const send = (text: string) =>
			new Promise<string | null>((done) => handler(SCREEN, text, 'pos', done));
		const items = [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }];
		const order = { id: 'D-1', name: 'Robin', time: T0, mode: 'ToGo', items };
		const create = JSON.stringify({ command: 'create-order', order });
		const update = JSON.stringify({ command: 'update-order', order: { ...order, id: 'D-2' } });
		expect(await send(create)).toBe('D-1');
		expect(await Promise.all([send(create), send(update)])).toEqual([
			'DUPLICATE_ORDER_ID',
			'ORDER_DOES_NOT_EXIST'
		]);
		await engine.settled();
		await written();
		expect(entries.map((e) => [e.result, e.findings.map((f) => f.code)])).toEqual([
			['D-1', []],
			['DUPLICATE_ORDER_ID', ['KDS-ORDER-DUPLICATE']],
			['ORDER_DOES_NOT_EXIST', ['KDS-ORDER-UNKNOWN']]
		]);
	});
});

describe('TCP entries in the message file: read back after a restart as the live log showed them', () => {
	it('compact, unicode, spaced over lines, a byte order mark, a lone surrogate, huge, not JSON', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'kds-tcp-messages-'));
		try {
			const limits = { retention: 100, payloadBudget: 10_000_000 };
			const file = new MessageFile(dir, createLogger('silent'), limits);
			const disk = new MessageLog({ disk: file, retention: 100 });
			disk.subscribe((entry) => entries.push(entry));
			const handler = tcpMessageHandler(engine, new MessageRecorder(disk, clock));
			const item = { lineId: '1', name: 'Zoë 🍔 "quoted" \\ \u2028', qty: 1, mods: [] };
			const order = (id: string) => ({
				id,
				name: 'Ålesund',
				time: T0,
				mode: 'ToGo',
				items: [item]
			});
			const texts = [
				JSON.stringify({ command: 'create-order', order: order('U-1') }),
				JSON.stringify({ command: 'create-order', order: order('U-2') }, null, 2),
				// JSON.parse takes no byte order mark: refused, and kept as text.
				`\uFEFF${JSON.stringify(order('U-3'))}`,
				// Only an edited re-send can carry one: JSON text with a lone surrogate in a string.
				`{"command":"create-order","order":${JSON.stringify(order('U-4')).replace('Zoë', 'Zo\uD800')}}`,
				JSON.stringify({
					command: 'create-order',
					order: { ...order('U-5'), name: 'x'.repeat(70_000) }
				}),
				JSON.stringify({
					command: 'create-order',
					order: { ...order('U-6'), name: 'y'.repeat(5_000) }
				}),
				JSON.stringify({ command: 'update-order', order: { id: 'U-7', items: 'none' } }),
				'<xml>not json</xml>',
				JSON.stringify({ command: 'create-order', order: order('U-1') })
			];
			for (const [i, text] of texts.entries())
				await new Promise((done) =>
					handler(SCREEN, text, `pos-${i}`, done, { terminator: () => '\n' })
				);
			await engine.settled();
			await written();
			disk.flush();
			file.close();
			expect(entries).toHaveLength(texts.length);
			// The compact text is written as it came, not escaped into a string.
			const lines = readFileSync(join(dir, MESSAGE_FILES[0]), 'utf8');
			expect(lines).toContain(`,"rawJson":${texts[0]}}`);
			expect(lines).toContain(`,"rawJson":${texts[5]}}`);
			const saved = new MessageFile(dir, createLogger('silent'), limits).load();
			expect(saved).toEqual(JSON.parse(JSON.stringify(entries)));
			expect(saved.map((e) => e.raw)).toEqual(entries.map((e) => e.raw));
			expect(saved[3].raw).toBe(texts[3]);
			expect(saved.map((e) => e.result)).toEqual([
				'U-1',
				'U-2',
				'Unable to parse data',
				'U-4',
				'U-5',
				'U-6',
				'Unable to parse data',
				'Unable to parse data',
				'DUPLICATE_ORDER_ID'
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
