/**
 * Start each build on a fresh copy of a filled data directory (bench/fill-orders.ts), in
 * alternating rounds, and read its resident memory 1.5 s after the ready banner: what the
 * restored orders cost (issue 28).
 *
 *   npx tsx bench/restore-memory.ts /tmp/kds-filled 3 dist/ab/before dist
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentFlags, spawnAgent } from '../tests/helpers/process.ts';
const [src, rounds, ...dists] = process.argv.slice(2);
const res: Record<string, number[]> = {};
for (let r = 0; r < Number(rounds); r++) {
	for (const dist of r % 2 ? [...dists].reverse() : dists) {
		const dir = join(tmpdir(), `kds-restore-${process.pid}`);
		rmSync(dir, { recursive: true, force: true });
		cpSync(src, dir, { recursive: true });
		const { child: c } = await spawnAgent(agentFlags(dir, 'warn'), {}, { dist });
		await new Promise((ok) => setTimeout(ok, 1500));
		const rss =
			Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${c.pid}/status`, 'utf8'))![1]) / 1024;
		(res[dist] ??= []).push(rss);
		c.kill('SIGKILL');
		await new Promise((ok) => c.once('exit', ok));
	}
}
rmSync(join(tmpdir(), `kds-restore-${process.pid}`), { recursive: true, force: true });
for (const [d, v] of Object.entries(res))
	console.log(d, 'restored RSS MiB', v.map((x) => x.toFixed(1)).join(' '));
