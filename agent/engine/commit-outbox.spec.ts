/**
 * The one transactional outbox (commit-outbox.ts) on a real engine and store: rows decided by a
 * commit are written in the orders' own transaction and sent only once it is committed, before
 * the command is acknowledged; a commit that fails sends nothing, now or later; rows queued
 * outside a commit are written and sent at once. The SMS outbox and the webhooks are its users
 * (agent/notify/sms.spec.ts, tests/integration/webhooks-commit.spec.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderCommand } from '#core/order-schema';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { createLogger } from '../log.ts';
import { transaction } from '../store/sqlite.ts';
import { Store } from '../store/store.ts';
import { CommitOutbox } from './commit-outbox.ts';
import { Engine } from './engine.ts';

const create = (id: string): OrderCommand => ({
	command: 'create-order',
	order: { id, name: id, time: '2026-11-22T18:00:00Z', mode: 'ToGo', items: [] }
});

let store: Store;
let engine: Engine;
let outbox: CommitOutbox<string, string>;
/** What happened, in order: SQL statements that open/close transactions, sends, acks. */
let log: string[];
/** The outbox rows the store holds now. */
const rows = () =>
	(
		store.database.prepare('SELECT text FROM outbox ORDER BY id').all() as Array<{ text: string }>
	).map((r) => r.text);

beforeEach(() => {
	store = new Store({ dataDir: null });
	engine = new Engine({
		config: parseConfig(DEFAULT_CONFIG),
		store,
		logger: createLogger('silent')
	});
	const db = store.database;
	db.exec('CREATE TABLE outbox (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
	log = [];
	const exec = db.exec.bind(db);
	db.exec = (sql: string) => {
		if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/.test(sql)) log.push(sql);
		exec(sql);
	};
	const insert = db.prepare('INSERT OR IGNORE INTO outbox (text) VALUES (?)');
	const insertAll = (texts: string[]) => texts.filter((t) => insert.run(t).changes > 0);
	const ownTransaction = transaction(db, insertAll);
	outbox = new CommitOutbox<string, string>(engine, {
		decide: (batches) => {
			for (const { changes } of batches)
				for (const change of changes)
					if (change.type === 'order.created') outbox.queue(`created ${change.record.context.id}`);
		},
		write: (texts, inCommit) => (inCommit ? insertAll(texts) : ownTransaction(texts)),
		send: (written) => log.push(`send ${written.join(', ')} (on disk: ${rows().join(', ')})`)
	});
});
afterEach(() => {
	outbox.close();
	store.close();
});

const run = (id: string) =>
	new Promise<void>((resolve) =>
		engine.runCommand('kds-1', create(id), (decision) => {
			log.push(`ack ${id} ${decision ? 'committed' : 'not committed'}`);
			resolve();
		})
	);

describe('the transactional outbox', () => {
	it('writes the rows of a commit in the orders transaction and sends them after it, before the ack', async () => {
		await Promise.all([run('A1'), run('A2')]);
		expect(log).toEqual([
			'BEGIN',
			'COMMIT',
			'send created A1, created A2 (on disk: created A1, created A2)',
			'ack A1 committed',
			'ack A2 committed'
		]);
	});

	it('a row already written is not sent again', async () => {
		await run('B1');
		engine.reset();
		log = [];
		await run('B1');
		expect(log).toEqual(['BEGIN', 'COMMIT', 'ack B1 committed']);
	});

	it('a commit that fails sends nothing, then or with the next commit', async () => {
		const db = store.database;
		const exec = db.exec.bind(db);
		let failNextCommit = true;
		db.exec = (sql: string) => {
			if (sql === 'COMMIT' && failNextCommit) {
				failNextCommit = false;
				log.push('COMMIT fails');
				throw new Error('disk full');
			}
			exec(sql);
		};
		await run('C1');
		await run('C2');
		expect(log).toEqual([
			'BEGIN',
			'COMMIT fails',
			'ROLLBACK',
			'ack C1 not committed',
			'BEGIN',
			'COMMIT',
			'send created C2 (on disk: created C2)',
			'ack C2 committed'
		]);
	});

	it('rows queued outside a commit are written in a transaction of their own and sent at once', () => {
		outbox.queue('device D1');
		outbox.queue('device D2');
		expect(log).toEqual([]);
		outbox.flush();
		expect(log).toEqual([
			'BEGIN',
			'COMMIT',
			'send device D1, device D2 (on disk: device D1, device D2)'
		]);
		outbox.flush(); // nothing queued: nothing written, nothing sent
		expect(log).toHaveLength(3);
	});
});
