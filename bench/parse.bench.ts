/**
 * The order parse of one HTTP create (core/fast-parse.ts): `parseWith(HttpOrderSchema, …)` of the
 * HTTP bench's 10-item body, and with a modifier sent as a plain string in each item (a transform
 * the reader runs), as the agent parses a request's body. CPU time and bytes allocated per parse,
 * for this tree's core and, when given, another copy of it (a directory holding the core's files,
 * e.g. an earlier commit's: `git archive <commit> core | tar -x -C dist/ab/before-core`), in
 * alternating rounds in one process, so that the machine's load falls on both alike.
 *
 *   node --expose-gc --import tsx bench/parse.bench.ts [other-core-dir] [rounds]
 */
import 'zod/compile';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchOrder, fmt, inProcessRounds, median, ROOT } from './lib.ts';

const [otherDir, roundsArg = '9'] = process.argv.slice(2);
const PARSES = 20000;

const plain = benchOrder('B-1');
const withStrings = {
	...plain,
	items: (plain.items as Array<{ mods: unknown[] }>).map((item) => ({
		...item,
		mods: [...item.mods, 'Well done']
	}))
};
// Fresh inputs, as each request's body is a fresh JSON.parse.
const copies = (body: unknown) =>
	Array.from({ length: 64 }, () => JSON.parse(JSON.stringify(body)));

interface Core {
	name: string;
	parse: (input: unknown) => boolean;
}

async function load(dir: string, name: string): Promise<Core> {
	const url = (file: string) => pathToFileURL(resolve(ROOT, dir, file)).href;
	const { parseWith } = (await import(url('parse.ts'))) as typeof import('../core/parse.ts');
	const { HttpOrderSchema } = (await import(
		url('order-schema.ts')
	)) as typeof import('../core/order-schema.ts');
	for (const body of [plain, withStrings]) {
		const parsed = parseWith(HttpOrderSchema, body, [], { timeZone: 'UTC' });
		if (!parsed.ok || !parsed.plain) throw new Error(`${name}: the bench body is not read fast`);
	}
	return {
		name,
		parse: (input) => parseWith(HttpOrderSchema, input, [], { timeZone: 'UTC' }).ok
	};
}

const cores = [await load('core', 'this tree')];
if (otherDir) cores.push(await load(otherDir, otherDir));
for (const [label, body] of [
	['10-item body', plain],
	['10-item body, a string modifier in each item', withStrings]
] as const) {
	const inputs = copies(body);
	const samples = inProcessRounds(
		cores.map((core) => (k) => core.parse(inputs[k & 63])),
		PARSES,
		Number(roundsArg)
	);
	console.log(label);
	cores.forEach((core, i) => {
		const us = median(samples[i].us);
		console.log(
			`  ${core.name}: ${fmt(us, 2)} µs CPU per parse, ${fmt(median(samples[i].bytes), 0)} bytes (median of ${roundsArg} rounds of ${PARSES}), rounds ${samples[i].us.map((v) => fmt(v, 2)).join(' ')}`
		);
		if (i > 0)
			console.log(`  this tree / ${core.name}: ${fmt((median(samples[0].us) / us) * 100, 1)}%`);
	});
}
