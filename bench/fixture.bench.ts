/**
 * The `simulator` fixture's cost per test (kds-sim/testing, docs/testing.md#any-node): what a
 * Playwright test pays before and after its own work, both ways the fixture runs the simulator.
 * One round: startSimulator() (in memory, OS-chosen ports), one TCP create-order answered with its
 * id, close(). Medians of the rounds:
 * - in the test process (a test runner on Node 22.17+): the agent imported once, then started;
 * - as a child process (a test runner on an older Node; KDS_SIM_RUN=child here): the package's
 *   `kds-sim` command spawned, its ready line read, SIGTERM and the exit waited for.
 * No target: the figure to watch, and what the child process costs over the in-process start.
 *
 * Run: npm run bench -- fixture   (or npm run bench:fixture; needs npm run build: the child runs dist/)
 */
import { startSimulator } from '../tests/helpers/fixtures.ts';
import { fmt, median, times } from './lib.ts';

const ROUNDS = Number(process.env.KDS_BENCH_FIXTURE_ROUNDS ?? 7);

async function round(n: number): Promise<{ start: number; total: number }> {
	const t0 = performance.now();
	const simulator = await startSimulator({ logLevel: 'silent' });
	const start = performance.now() - t0;
	const id = `F-${n}`;
	const reply = await simulator.sendTcp('kds-1', {
		command: 'create-order',
		order: {
			id,
			name: 'Bench',
			time: Date.now(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
		}
	});
	if (reply !== id) throw new Error(`fixture bench: the screen answered ${reply}, not ${id}`);
	await simulator.close();
	return { start, total: performance.now() - t0 };
}

async function rounds(mode: 'process' | 'child') {
	const before = process.env.KDS_SIM_RUN;
	if (mode === 'child') process.env.KDS_SIM_RUN = 'child';
	else delete process.env.KDS_SIM_RUN;
	try {
		await round(0); // warm: the agent's import, the launcher's first look for a Node
		const all = [];
		for (let i = 1; i <= ROUNDS; i++) all.push(await round(i));
		return { start: median(all.map((r) => r.start)), total: median(all.map((r) => r.total)) };
	} finally {
		if (before === undefined) delete process.env.KDS_SIM_RUN;
		else process.env.KDS_SIM_RUN = before;
	}
}

export async function runFixtureBench() {
	const inProcess = await rounds('process');
	const child = await rounds('child');
	return {
		lines: [
			`fixture per test, in the test process: start ${fmt(inProcess.start)} ms, start + one TCP order + close ${fmt(inProcess.total)} ms (median of ${ROUNDS})`,
			`fixture per test, as a child process:  start ${fmt(child.start)} ms, start + one TCP order + close ${fmt(child.total)} ms (${times(child.total / inProcess.total)} the in-process round)`
		],
		json: { rounds: ROUNDS, inProcess, child }
	};
}
