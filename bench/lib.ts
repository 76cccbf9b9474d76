/** Small shared pieces of the benchmarks: percentiles, RSS, child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[i];
}

/** Resident memory of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
	return kb / 1024;
}

/** Start a TypeScript file with tsx; resolves with the child and its first stdout line. */
export function spawnTs(
	file: string,
	args: string[] = []
): Promise<{ child: ChildProcess; firstLine: string }> {
	const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'inherit']
	});
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (d) => {
			out += d;
			const nl = out.indexOf('\n');
			if (nl >= 0) resolve({ child, firstLine: out.slice(0, nl) });
		});
		child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
	});
}

export function fmt(n: number, digits = 0): string {
	return Number.isFinite(n) ? n.toFixed(digits) : '-';
}
