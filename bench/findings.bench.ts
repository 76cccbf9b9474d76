/**
 * The inspector's findings for one HTTP create (issue 28), as the agent computes them after each
 * reply: checkConformance on the HTTP bench's 10-item body, its schema already passed, read as the
 * common case (`plain`) and decided by the route (`decided`, which a core before 2026-11-26 12:20
 * ignores: it decides the message itself, as the UI still does). CPU time
 * and bytes allocated per check, for this tree's core and, when given, another copy of it (a
 * directory holding the core's files, e.g. an earlier commit's), in alternating rounds in one
 * process, so that the machine's load falls on both alike.
 *
 *   npx tsx bench/findings.bench.ts [other-core-dir] [rounds]
 */
import 'zod/compile';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchOrder, fmt, inProcessRounds, median, ROOT } from './lib.ts';

const [otherDir, roundsArg = '9'] = process.argv.slice(2);
const CHECKS = 4000;

const body = benchOrder('B-1');

interface Core {
	name: string;
	check: () => number;
}

async function load(dir: string, name: string): Promise<Core> {
	const url = (file: string) => pathToFileURL(resolve(ROOT, dir, file)).href;
	const { checkConformance } = (await import(
		url('conformance.ts')
	)) as typeof import('../core/conformance.ts');
	const { parseWith } = (await import(url('parse.ts'))) as typeof import('../core/parse.ts');
	const { HttpOrderSchema } = (await import(
		url('order-schema.ts')
	)) as typeof import('../core/order-schema.ts');
	const { createScreenState, decide } = (await import(
		url('screen.ts')
	)) as typeof import('../core/screen.ts');
	const parsed = parseWith(HttpOrderSchema, body, [], { timeZone: 'UTC' });
	if (!parsed.ok) throw new Error('the bench body does not pass the schema');
	const at = Date.UTC(2026, 10, 22, 18);
	const command = { command: 'create-order' as const, order: parsed.value };
	const decision = decide(createScreenState(), command, at, { explain: true });
	return {
		name,
		check: () =>
			checkConformance({
				interface: 'http',
				command: 'create-order',
				raw: body,
				autoHold: false,
				schemaValid: true,
				parsed: parsed.value,
				outcomes: parsed.outcomes ?? [],
				plain: parsed.plain === true,
				decided: { decision, at }
			}).length
	};
}

const cores = [await load('core', 'this tree')];
if (otherDir) cores.push(await load(otherDir, otherDir));
// A check's findings are counted, so that no call is optimised away.
const samples = inProcessRounds(
	cores.map((core) => () => core.check() >= 0),
	CHECKS,
	Number(roundsArg)
);
cores.forEach((core, i) => {
	const us = median(samples[i].us);
	console.log(
		`${core.name}: ${fmt(us, 1)} µs CPU per check (median of ${roundsArg} rounds of ${CHECKS}), rounds ${samples[i].us.map((v) => fmt(v, 1)).join(' ')}`
	);
	if (i > 0)
		console.log(`  this tree / ${core.name}: ${fmt((median(samples[0].us) / us) * 100, 1)}%`);
});
