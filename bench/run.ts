/**
 * `npm run bench`: every benchmark, one after the other so they do not compete for the CPU.
 * Each compares the simulator with a bare baseline measured in the same run; the ratios are the
 * figures that count. Prints each bench's lines, then one JSON line with everything, and writes
 * that JSON to bench/results/<time>.json. `npm run bench -- tcp ui` runs only those; `ladder`
 * (npm run bench:ladder), `order-step` and `profile` (where the time goes,
 * docs/performance.md) run only when named.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.ts';
import { runFixtureBench } from './fixture.bench.ts';
import { runFleetBench } from './fleet.bench.ts';
import { runHttpBench } from './http.bench.ts';
import { runLadderBench } from './ladder.bench.ts';
import { runLayoutBench } from './layout.bench.ts';
import { runOrderStepBench } from './order-step.bench.ts';
import { runPeersBench } from './peers.bench.ts';
import { runProfileBench } from './profile.bench.ts';
import { runStartBench } from './start.bench.ts';
import { runTcpBench } from './tcp.bench.ts';
import { runUiBench } from './ui.bench.ts';

type Bench = () => Promise<{ lines: string[]; json: object }>;
const BENCHES: Record<string, Bench> = {
	tcp: runTcpBench,
	http: runHttpBench,
	ui: runUiBench,
	layout: runLayoutBench,
	start: runStartBench,
	fleet: runFleetBench,
	fixture: runFixtureBench,
	ladder: runLadderBench,
	'order-step': runOrderStepBench,
	profile: runProfileBench,
	peers: runPeersBench
};
/** What `npm run bench` runs with no names: the targets' benches (ladder, order-step, profile: analyses). */
const DEFAULTS = ['tcp', 'http', 'ui', 'layout', 'start', 'fleet', 'fixture'];

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
	console.error(
		`Unknown bench ${unknown.join(', ')}; expected any of ${Object.keys(BENCHES).join(', ')}`
	);
	process.exit(2);
}
for (const file of ['dist/agent.js', 'build/handler.js']) {
	if (!existsSync(join(ROOT, file))) {
		console.error(`${file} is missing: run \`npm run build\` first (npm run bench does).`);
		process.exit(2);
	}
}

const results: Record<string, object> = {};
for (const name of wanted.length > 0 ? wanted : DEFAULTS) {
	console.log(`\n== ${name} ==`);
	const { lines, json } = await BENCHES[name]();
	console.log(lines.join('\n'));
	results[name] = json;
}

const report = { at: new Date().toISOString(), node: process.version, results };
const dir = join(ROOT, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `${report.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\n${JSON.stringify(report)}`);
console.log(`(saved to ${file})`);
