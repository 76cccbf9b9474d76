/**
 * What one HTTP create costs the store's commit, beside the durable floor's (issue 28): CPU per
 * create of the commit alone, in one process, the stores taking turns batch by batch (the group
 * commit's size: ~36 creates per commit at 50 connections, counted in the agent and the floor
 * alike), each on its own SQLite file opened with the agent's settings:
 *
 * - floor: bench/floor-store.ts as the floor server runs it (the body's text as its row);
 * - agent: agent/store/store.ts's commit of the order record the core made of the HTTP bench's
 *   10-item body (the record's JSON, two columns, the upsert);
 * - agent + SMS: the same, with the customer text the demo brand sends for it written in the
 *   commit as agent/notify/sms.ts writes it (its table, INSERT and pruning: the outbox's own SQL);
 * - the SMS row's parts: without the outbox's dedupe index, without pruning, without AUTOINCREMENT.
 *
 *   npx tsx bench/commit.bench.ts [creates=40000] [batch=36]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, type ScreenBatch } from '../agent/store/store.ts';
import {
	INSERT_TEXT,
	OUTBOX_LIMIT,
	PRUNE_STEP,
	PRUNE_TEXTS,
	SMS_OUTBOX_TABLE
} from '../agent/notify/sms.ts';
import { HttpOrderSchema } from '#core/order-schema';
import { parseWith } from '#core/parse';
import { createRecord } from '#core/screen';
import { FloorStore } from './floor-store.ts';
import { benchOrder, fmt } from './lib.ts';

const CREATES = Number(process.argv[2] ?? 40_000);
const BATCH = Number(process.argv[3] ?? 36);
const dirs: string[] = [];
const dataDir = () => {
	const dir = mkdtempSync(join(tmpdir(), 'kds-bench-commit-'));
	dirs.push(dir);
	return dir;
};
/** This thread's CPU (µs): V8's helper threads' garbage collection of the batches is left out. */
const cpuUs = () => {
	const { user, system } = process.threadCpuUsage();
	return user + system;
};

let n = 0;
/** The next batch's orders: ids as the HTTP bench makes them, the body's text and the core's record. */
function nextBatch() {
	return Array.from({ length: BATCH }, () => {
		const id = `B${process.pid}-${++n}`;
		const body = JSON.stringify(benchOrder(id));
		const parsed = parseWith(HttpOrderSchema, JSON.parse(body));
		if (!parsed.ok) throw new Error('the bench body does not parse');
		const input = { order: parsed.value, at: Date.now(), seq: n };
		return { id, body, input, record: createRecord(input) };
	});
}
type Batch = ReturnType<typeof nextBatch>;

/** A store under test: commits one batch, returns the CPU it took (µs). */
type Commit = (batch: Batch) => Promise<number>;

function floor(): Commit {
	const store = new FloorStore<number>(dataDir(), () => {});
	// Its flush runs on the next turn in the server; called here at once, so that the window holds
	// nothing else (the turn's own work, garbage collection tasks); the turn then finds none.
	const flush = () => (store as unknown as { flush(): void }).flush();
	return (batch) => {
		const orders = batch.map(({ body }) => JSON.parse(body) as unknown);
		const from = cpuUs();
		batch.forEach(({ id, body }, i) => store.accept(i, id, orders[i], body));
		flush();
		return Promise.resolve(cpuUs() - from);
	};
}

type SmsVariant = 'none' | 'sms' | 'no-index' | 'no-prune' | 'no-autoincrement';

function agent(sms: SmsVariant): Commit {
	const store = new Store({ dataDir: dataDir() });
	const db = store.database;
	let within: ((batches: readonly ScreenBatch[]) => void) | undefined;
	if (sms !== 'none') {
		let table = SMS_OUTBOX_TABLE;
		if (sms === 'no-index') table = table.replace(/,\s*UNIQUE \([^)]*\)/, '');
		if (sms === 'no-autoincrement') table = table.replace(' AUTOINCREMENT', '');
		db.exec(table);
		const insert = db.prepare(INSERT_TEXT);
		const prune = db.prepare(PRUNE_TEXTS);
		let pruneAt = 0;
		within = (batches) => {
			for (const { changes } of batches) {
				for (const change of changes) {
					if (change.type !== 'order.created') continue;
					const { context } = change.record;
					const result = insert.run(
						'brand-1',
						'loc-1',
						context.id,
						'kds-1',
						'received',
						context.receivedAt,
						'+14155550123',
						'We have received your order!',
						'sent',
						null,
						Date.now(),
						null
					);
					const id = Number(result.lastInsertRowid);
					if (sms !== 'no-prune' && id > OUTBOX_LIMIT && id >= pruneAt) {
						prune.run(id - OUTBOX_LIMIT);
						pruneAt = id + PRUNE_STEP;
					}
				}
			}
		};
	}
	return (batch) => {
		const changes = batch.map(({ input, record }) => ({
			type: 'order.created' as const,
			input,
			record
		}));
		const from = cpuUs();
		store.commit([{ screenId: 'kds-1', changes }], within);
		return Promise.resolve(cpuUs() - from);
	};
}

const stores: Array<[string, Commit]> = [
	['durable floor (bench/floor-store.ts)', floor()],
	['agent: Store.commit, the record', agent('none')],
	['agent + the SMS text (agent/notify/sms.ts)', agent('sms')],
	['  … text without the dedupe index', agent('no-index')],
	['  … text without pruning', agent('no-prune')],
	['  … text without AUTOINCREMENT', agent('no-autoincrement')]
];
const spent = stores.map(() => 0);
const load = [loadavg()[0]];
try {
	for (let round = 0; round * BATCH < CREATES; round++) {
		const batch = nextBatch();
		// Each store gets the same orders (its own file); who goes first turns each batch.
		for (let k = 0; k < stores.length; k++) {
			const i = (k + round) % stores.length;
			spent[i] += await stores[i][1](batch);
		}
	}
	load.push(loadavg()[0]);
	console.log(
		`store commit alone, ${CREATES} HTTP-bench creates in batches of ${BATCH}, stores taking turns; load average ${fmt(load[0], 1)}-${fmt(load[1], 1)}`
	);
	for (const [i, [name]] of stores.entries()) {
		const us = spent[i] / CREATES;
		console.log(
			`  ${name.padEnd(44)} ${fmt(us, 1).padStart(6)} µs CPU per create  (${fmt((us / (spent[0] / CREATES)) * 100)}% of the floor's)`
		);
	}
} finally {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
