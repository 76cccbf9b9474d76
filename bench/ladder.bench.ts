/**
 * Where an HTTP create's time goes (`npm run bench:ladder`): the agent's bundle, and copies of it
 * with parts cut out one after the other, each measured as the HTTP bench measures create (50
 * connections, a valid 10-item order, a new id per request) in alternating rounds with the bare
 * server. The copies are experiments, not modes: each cut replaces one line of dist/agent.js, and
 * a cut that no longer matches exactly one line stops the bench, naming it.
 *
 * The durable floor of the HTTP bench is measured with and without its commit, as the bottom of
 * the ladder; one more copy of the agent moves the order commit to a worker thread, to measure
 * whether handing work to another thread buys throughput on this machine.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
	BARE_SERVER,
	CONNECTIONS,
	createRequests,
	run,
	startAgentChild,
	startChild,
	stop,
	summarise,
	type CannonResult
} from './http.bench.ts';
import { ORDERS_TABLE, PUT_ORDER } from '../agent/store/store.ts';
import { compileBenchFile, fmt, ROOT } from './lib.ts';

const SECONDS = Number(process.env.KDS_BENCH_SECONDS ?? 5);

/** One line of the bundle and what replaces it. */
interface Cut {
	what: string;
	from: string | RegExp;
	to: string;
}

const CUTS = {
	inspector: {
		what: "the inspector's log entry and its findings",
		// (esbuild may rename `record`, e.g. record2, when a bundled package has one too.)
		from: /if \(logged\(req\.url\)\) record\d*\(req, reply\.statusCode\);/,
		to: ''
	},
	sms: {
		what: "the SMS outbox's rows (the order has a phone number)",
		from: 'written = this.writeMany(texts);',
		to: 'written = [];'
	},
	validation: {
		what: 'validation (the body is used as it came)',
		from: 'const value = parseBody(schema, req.body, { timeZone }, (list) => req.kdsOutcomes = list);',
		to: 'const value = req.body;'
	},
	budget: {
		what: "the byte budget's count of each body",
		from: 'if (options.limits) registerBodyLimits(app, { ...options.limits, logger: options.logger });',
		to: ''
	},
	drain: {
		what: 'the drain-before-close hook',
		from: 'registerDrainBeforeClose(app);',
		to: ''
	},
	fastPath: {
		what: "the order step's fast path (XState's initialTransition and transition instead)",
		from: /fastPathOf\(orderMachine, \{[^}]*\}\)/,
		to: 'null'
	},
	responses: {
		what: 'the declared response schemas (agent/http/responses.ts)',
		from: /schema: \{ response: ROUTE_RESPONSES\[route\] \},\s*serializerCompiler: \w+/,
		to: ''
	},
	zodCompile: {
		what: "zod's compiled parsers (zod/compile; its runtime parser instead)",
		from: 'globalConfig.postProcessor = (inst) => {',
		to: 'globalConfig.notInstalled = (inst) => {'
	},
	commit: {
		what: 'the order commit',
		from: 'this.store.commit(work.flatMap((w) => w.batches));',
		to: ''
	}
} satisfies Record<string, Cut>;

/** The order commit on a worker thread: the acknowledgement waits for the worker's commit. */
function commitOnWorker(): Cut {
	const worker = `
		const { parentPort, workerData } = require('node:worker_threads');
		const { DatabaseSync } = require('node:sqlite');
		const db = new DatabaseSync(workerData);
		db.exec('PRAGMA journal_mode = WAL');
		db.exec('PRAGMA synchronous = NORMAL');
		db.exec(${JSON.stringify(`CREATE TABLE IF NOT EXISTS orders (${ORDERS_TABLE})`)});
		const put = db.prepare(${JSON.stringify(PUT_ORDER)});
		const commit = (rows) => { db.exec('BEGIN'); for (const r of rows) put.run(r[0], r[1], r[2], r[3], r[4]); db.exec('COMMIT'); };
		parentPort.on('message', ({ id, rows }) => { commit(rows); parentPort.postMessage(id); });`;
	return {
		what: 'the order commit moved to a worker thread',
		// The whole try/catch around the commit: the rest of flush() becomes the continuation.
		from: /try \{\s*this\.store\.commit\(work\.flatMap\(\(w\) => w\.batches\)\);\s*\} catch \(err\) \{[\s\S]*?return;\s*\}/,
		to: `
			const rows = [];
			for (const w of work) for (const { screenId, changes } of w.batches) for (const c of changes) {
				if (!c.record) continue;
				const { items, ...rest } = c.record.context;
				rows.push([screenId, c.record.context.id, c.record.state, JSON.stringify(rest), JSON.stringify(items)]);
			}
			const thread = (globalThis.__ladderCommit ??= (() => {
				const { Worker } = process.getBuiltinModule('node:worker_threads');
				const t = { worker: new Worker(${JSON.stringify(worker)}, { eval: true, workerData: this.store.file + '.ladder' }), next: 0, waiting: new Map() };
				t.worker.on('message', (id) => { const go = t.waiting.get(id); t.waiting.delete(id); go(); });
				t.worker.unref();
				return t;
			})());
			const id = ++thread.next;
			thread.waiting.set(id, () => this.afterLadderCommit(work));
			thread.worker.postMessage({ id, rows });
			return;
		}
		afterLadderCommit(work) {`
	};
}

interface Variant {
	name: string;
	/** The agent's bundle, or the durable floor of the HTTP bench (bench/floor-http-server.ts). */
	server: 'agent' | 'floor';
	cuts: Cut[];
}

const { inspector, sms, validation, budget, drain, fastPath, responses, zodCompile, commit } = CUTS;
const FLOOR_COMMIT: Cut = { what: "the floor's commit", from: 'this.commit(work);', to: '' };
const VARIANTS: Variant[] = [
	{
		name: 'durable floor: parse, keep in memory, commit one row, answer',
		server: 'floor',
		cuts: []
	},
	{ name: '... without its commit', server: 'floor', cuts: [FLOOR_COMMIT] },
	{ name: 'agent', server: 'agent', cuts: [] },
	{ name: `without ${budget.what}`, server: 'agent', cuts: [budget] },
	{ name: `without ${drain.what}`, server: 'agent', cuts: [drain] },
	{ name: `without ${responses.what}`, server: 'agent', cuts: [responses] },
	{ name: `without ${fastPath.what}`, server: 'agent', cuts: [fastPath] },
	{ name: `without ${zodCompile.what}`, server: 'agent', cuts: [zodCompile] },
	{ name: `without ${inspector.what}`, server: 'agent', cuts: [inspector] },
	{ name: `... and ${sms.what}`, server: 'agent', cuts: [inspector, sms] },
	{ name: `... and ${validation.what}`, server: 'agent', cuts: [inspector, sms, validation] },
	{
		name: `... and ${commit.what}`,
		server: 'agent',
		cuts: [inspector, sms, validation, commit]
	},
	{
		name: `without the inspector and SMS, ${commitOnWorker().what}`,
		server: 'agent',
		cuts: [inspector, sms, commitOnWorker()]
	}
];

/**
 * The agent's bundle with `cuts` applied: the whole bundle (dist/agent.js, the store's worker and
 * the chunks they import) copied into a directory of its own, dist/ladder-<index>/, each cut
 * applied in the one file where it matches. Returns the copy's entry.
 */
function buildAgentVariant(entry: string, index: number, cuts: Cut[]): string {
	const from = dirname(entry);
	const dir = join(from, `ladder-${index}`);
	mkdirSync(dir, { recursive: true });
	const files = readdirSync(from).filter((f) => f === 'agent.js' || /^part-.*\.js$/.test(f));
	const code = new Map(files.map((f) => [f, readFileSync(join(from, f), 'utf8')]));
	for (const cut of cuts) {
		const pattern =
			typeof cut.from === 'string'
				? new RegExp(cut.from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')
				: new RegExp(cut.from.source, 'g');
		const matches = [...code].flatMap(([file, text]) =>
			[...text.matchAll(pattern)].map((m) => ({ file, at: m.index, length: m[0].length }))
		);
		if (matches.length !== 1)
			throw new Error(`bench/ladder: "${cut.what}" no longer matches exactly once in ${from}`);
		const [{ file, at, length }] = matches;
		const text = code.get(file)!;
		code.set(file, text.slice(0, at) + cut.to + text.slice(at + length));
	}
	for (const [file, text] of code) writeFileSync(join(dir, file), text);
	return join(dir, 'agent.js');
}

/** The floor with `cuts` applied, written next to it. */
function buildFloorVariant(source: string, index: number, cuts: Cut[]): string {
	let code = readFileSync(source, 'utf8');
	for (const cut of cuts) {
		if (typeof cut.from !== 'string' || code.split(cut.from).length !== 2)
			throw new Error(`bench/ladder: "${cut.what}" no longer matches exactly once in ${source}`);
		code = code.replace(cut.from, cut.to);
	}
	const file = join(dirname(source), `ladder-${index}.js`);
	writeFileSync(file, code);
	return file;
}

export async function runLadderBench(): Promise<{ lines: string[]; json: object }> {
	const sources = {
		agent: join(ROOT, 'dist/agent.js'),
		floor: compileBenchFile('bench/floor-http-server.ts')
	};
	const files = VARIANTS.map((v, i) =>
		v.server === 'agent'
			? buildAgentVariant(sources.agent, i, v.cuts)
			: buildFloorVariant(sources.floor, i, v.cuts)
	);
	const dataDir = mkdtempSync(join(tmpdir(), 'kds-bench-ladder-'));
	const children: ChildProcess[] = [];
	try {
		const bare = await startChild(['-e', BARE_SERVER], /^(http:\S+)\n/);
		children.push(bare.child);
		const urls: string[] = [];
		for (const [i, file] of files.entries()) {
			const dir = join(dataDir, String(i));
			mkdirSync(dir);
			const started =
				VARIANTS[i].server === 'floor'
					? await startChild([file, dir], /^(http:\S+)\n/)
					: await startAgentChild([file], dir);
			children.push(started.child);
			urls.push(started.url);
		}
		for (const url of [bare.url, ...urls]) await run(url, createRequests(), 1);
		const bareRounds: CannonResult[] = [];
		const rounds: CannonResult[][] = urls.map(() => []);
		for (let round = 0; round < SECONDS; round++) {
			bareRounds.push(await run(bare.url, createRequests(), 1));
			for (const [i, url] of urls.entries()) rounds[i].push(await run(url, createRequests(), 1));
		}
		const bareRow = summarise(bareRounds);
		const rows = rounds.map(summarise);
		const lines = [
			`HTTP create (10 items), ${CONNECTIONS} connections, ${SECONDS} x 1 s rounds, every copy and the bare server alternating; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`,
			'copies of dist/agent.js and of the durable floor with parts cut out (experiments, not modes); bare: node:http, 201 with a fixed body',
			'',
			`${'build'.padEnd(84)} ${'req/s'.padStart(7)}  ${'p99 ms'.padStart(6)}  of bare`,
			`${'bare node:http server'.padEnd(84)} ${fmt(bareRow.perSecond).padStart(7)}  ${fmt(bareRow.p99, 1).padStart(6)}`,
			...rows.map(
				(row, i) =>
					`${VARIANTS[i].name.padEnd(84)} ${fmt(row.perSecond).padStart(7)}  ${fmt(row.p99, 1).padStart(6)}  ${fmt((row.perSecond / bareRow.perSecond) * 100).padStart(6)}%` +
					(row.failed ? `   (${row.failed} requests failed!)` : '')
			)
		];
		const json = {
			bench: 'ladder',
			connections: CONNECTIONS,
			seconds: SECONDS,
			bare: bareRow,
			builds: rows.map((row, i) => ({
				name: VARIANTS[i].name,
				...row,
				ratio: row.perSecond / bareRow.perSecond
			}))
		};
		return { lines, json };
	} finally {
		await Promise.all(children.map(stop));
		rmSync(dataDir, { recursive: true, force: true });
		for (const [i, file] of files.entries())
			rmSync(VARIANTS[i].server === 'agent' ? dirname(file) : file, {
				recursive: true,
				force: true
			});
	}
}
