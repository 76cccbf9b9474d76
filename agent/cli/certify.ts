/**
 * `kds-sim certify` (docs/certify.md): a certification run on a running simulator, through its
 * admin API (/api/admin/certify), then the report written as files. Each step is performed by
 * the POS: by a command run once per step (`--exec`, the CI way: the step as JSON in the
 * environment variable CERTIFY_STEP), or by a person, who answers on standard input. The exit
 * code is the verdict: 0 PASS (or WARN), 1 FAIL, 2 a usage error or a simulator that cannot be
 * reached.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CAPABILITIES } from '#core/certify/catalog';
import { readCommandLine, UsageError } from '../command-line.ts';

export const CERTIFY_HELP = `Usage: kds-sim certify --capabilities <list> [options]

Grade a POS on the good day and the bad, scenario by scenario, on a running simulator (its admin
API), and write the report: report.json, report.junit.xml, report.html. The simulator arms each
step's faults itself; the POS performs each step. Not the vendor's certification (docs/certify.md).

Options:
  --capabilities <list>  what the POS does, comma-separated: tcp, http, courses, itemGroups,
                         notifications, webhooks, scheduled (at least tcp or http)
  --url <url>            the simulator (default http://127.0.0.1:8104)
  --seed <n>             seed of the faults' draws (default: chosen, and printed)
  --screen <id>          the screen to certify on (default: the first)
  --scenarios <ids>      only these scenario ids, comma-separated
  --exec <command>       run this shell command for each step, with the step as JSON in
                         CERTIFY_STEP; exit 0: done, exit 3: skipped (its last line of output is
                         the reason); anything else: done (the judge says what was missing)
  --out <dir>            where the report files go (default ./kds-cert-report)
  --admin-token <t>      x-admin-token, for a simulator on another host
  -h, --help             this text

Without --exec, each step's instruction is printed and a line on standard input answers it:
an empty line (or "done") when the POS did it, "skip <reason>", or "stop".

Exit code: 0 PASS (WARN too, said on stderr), 1 FAIL, 2 usage or the simulator unreachable.
`;

export interface CertifyOptions {
	url: string;
	capabilities: string[];
	seed?: number;
	screen?: string;
	scenarios?: string[];
	exec?: string;
	out: string;
	adminToken?: string;
}

const list = (text: string) =>
	text
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);

export function readCertifyArgs(argv: string[]): CertifyOptions {
	const { values } = readCommandLine(
		{
			args: argv,
			options: {
				url: { type: 'string' },
				capabilities: { type: 'string' },
				seed: { type: 'string' },
				screen: { type: 'string' },
				scenarios: { type: 'string' },
				exec: { type: 'string' },
				out: { type: 'string' },
				'admin-token': { type: 'string' }
			},
			allowPositionals: false
		},
		{ before: 'kds-sim certify: ', after: '. See --help.' }
	);
	const url = (values.url ?? 'http://127.0.0.1:8104').replace(/\/+$/, '');
	if (!/^https?:\/\/[^/]+$/.test(url))
		throw new UsageError(`kds-sim certify: invalid --url "${url}" (expected http://host:port)`);
	if (values.capabilities === undefined)
		throw new UsageError(
			`kds-sim certify: --capabilities is required (some of ${CAPABILITIES.join(', ')}). See --help.`
		);
	const capabilities = list(values.capabilities);
	const unknown = capabilities.filter((c) => !(CAPABILITIES as readonly string[]).includes(c));
	if (unknown.length > 0 || capabilities.length === 0)
		throw new UsageError(
			`kds-sim certify: invalid --capabilities "${values.capabilities}" (expected some of ${CAPABILITIES.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''})`
		);
	if (!capabilities.includes('tcp') && !capabilities.includes('http'))
		throw new UsageError(
			'kds-sim certify: --capabilities must name tcp or http (the interface the POS speaks)'
		);
	let seed: number | undefined;
	if (values.seed !== undefined) {
		if (!/^\d+$/.test(values.seed) || Number(values.seed) > 2 ** 32 - 1)
			throw new UsageError(
				`kds-sim certify: invalid --seed "${values.seed}" (expected a whole number 0-4294967295)`
			);
		seed = Number(values.seed);
	}
	return {
		url,
		capabilities,
		seed,
		screen: values.screen,
		scenarios: values.scenarios === undefined ? undefined : list(values.scenarios),
		exec: values.exec,
		out: resolve(values.out ?? 'kds-cert-report'),
		adminToken: values['admin-token']
	};
}

/** A refusal of the simulator: exit code 2 (the run cannot be made). */
export class SimulatorError extends Error {}

interface RunState {
	runId: string;
	seed: number;
	state: 'running' | 'finished';
	verdict: string;
	target: unknown;
	current: ExecStep | null;
	steps: Array<{ id: string; verdict: string | null; reason: string | null }>;
}

export interface CertifyIo {
	out(line: string): void;
	err(line: string): void;
	/** The next line a person types (without --exec); null at the end of input. */
	ask(): Promise<string | null>;
}

/** Run the whole suite; the report's files written; the run's verdict. */
export async function certify(options: CertifyOptions, io: CertifyIo): Promise<string> {
	const token: Record<string, string> = options.adminToken
		? { 'x-admin-token': options.adminToken }
		: {};
	const call = async (method: string, path: string, body?: unknown) => {
		let res: Response;
		try {
			res = await fetch(`${options.url}${path}`, {
				method,
				headers: body === undefined ? token : { ...token, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body)
			});
		} catch (err) {
			throw new SimulatorError(
				`cannot reach the simulator at ${options.url}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`
			);
		}
		const text = await res.text();
		if (!res.ok) throw new SimulatorError(`${method} ${path}: ${res.status} ${text}`);
		return text;
	};
	const json = async (method: string, path: string, body?: unknown) =>
		JSON.parse(await call(method, path, body)) as RunState;

	let state = await json('POST', '/api/admin/certify', {
		capabilities: options.capabilities,
		...(options.seed === undefined ? {} : { seed: options.seed }),
		...(options.screen ? { screen: options.screen } : {}),
		...(options.scenarios ? { scenarios: options.scenarios } : {})
	});
	io.err(`Certification run ${state.runId}, seed ${state.seed}, on ${options.url}`);
	while (state.state === 'running' && state.current) {
		const step = state.current;
		io.err(`\n${step.id} ${step.title}\n  ${step.instruction}\n  (simulator: ${step.simulator})`);
		let answer: { skip?: string; stop?: true } = {};
		if (options.exec) answer = await runStep(options.exec, step, state, options.url);
		else {
			const line = (await io.ask())?.trim() ?? 'stop';
			if (line === 'stop') answer = { stop: true };
			else if (line.startsWith('skip')) answer = { skip: line.slice(4).trim() || 'skipped' };
		}
		if (answer.stop) state = await json('POST', '/api/admin/certify/stop');
		else if (answer.skip !== undefined)
			state = await json('POST', '/api/admin/certify/skip', { reason: answer.skip });
		else state = await json('POST', '/api/admin/certify/advance');
		const done = state.steps.find((s) => s.id === step.id);
		if (done) io.err(`  → ${done.verdict}: ${done.reason}`);
	}
	mkdirSync(options.out, { recursive: true });
	const files = [
		['report.json', 'json'],
		['report.junit.xml', 'junit'],
		['report.html', 'html']
	] as const;
	for (const [name, format] of files) {
		const text = await call('GET', `/api/admin/certify/report?format=${format}`);
		writeFileSync(
			join(options.out, name),
			format === 'json' ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text
		);
	}
	const counts: Record<string, number> = {};
	for (const s of state.steps) if (s.verdict) counts[s.verdict] = (counts[s.verdict] ?? 0) + 1;
	io.out(
		`Verdict: ${state.verdict} (${Object.entries(counts)
			.map(([k, n]) => `${n} ${k}`)
			.join(', ')}); report in ${options.out}`
	);
	for (const s of state.steps.filter((s) => s.verdict === 'FAIL'))
		io.out(`FAIL ${s.id}: ${s.reason}`);
	return state.verdict;
}

/** A step as the admin API's run state gives it (`current`): what an --exec command is told. */
export interface ExecStep {
	index: number;
	id: string;
	title: string;
	instruction: string;
	step: unknown;
	simulator: string;
}

/**
 * The POS's command for one step, as `--exec` runs it: a shell command with the step as JSON in
 * CERTIFY_STEP (`{index, id, title, instruction, step, simulator, run, target}`) and the
 * simulator's URL in CERTIFY_URL; exit 3 skips it (its last line of output the reason), anything
 * else is done. Exported for a harness that runs the same commands another way (the Playwright
 * fixture's onStep in tests/e2e/certify-clients.e2e.ts).
 */
export function runStep(
	command: string,
	step: ExecStep,
	run: { runId: string; target: unknown },
	url: string
): Promise<{ skip?: string }> {
	const { index, id, title, instruction, simulator } = step;
	const told = { index, id, title, instruction, step: step.step, simulator };
	return new Promise((resolveStep, reject) => {
		const child = spawn(command, {
			shell: true,
			stdio: ['ignore', 'pipe', 'inherit'],
			env: {
				...process.env,
				CERTIFY_URL: url,
				CERTIFY_STEP: JSON.stringify({ ...told, run: run.runId, target: run.target })
			}
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString('utf8');
			process.stderr.write(chunk);
		});
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 3)
				resolveStep({
					skip:
						output.trim().split('\n').filter(Boolean).at(-1)?.slice(0, 500) || 'skipped by the POS'
				});
			else resolveStep({});
		});
	});
}

/** Lines of standard input, one per ask. */
export function stdinLines(): () => Promise<string | null> {
	const rl = createInterface({ input: process.stdin });
	const lines: string[] = [];
	const waiting: Array<(line: string | null) => void> = [];
	let ended = false;
	rl.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)));
	rl.on('close', () => {
		ended = true;
		for (const w of waiting.splice(0)) w(null);
	});
	return () =>
		lines.length > 0
			? Promise.resolve(lines.shift()!)
			: ended
				? Promise.resolve(null)
				: new Promise((r) => waiting.push(r));
}
