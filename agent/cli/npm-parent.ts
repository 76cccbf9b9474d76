/**
 * Stop with npm: `npm start` and `npm run agent` start the simulator through npm, a shell (and
 * tsx), and npm passes no signal on, so a SIGTERM to npm from a process manager or a test harness
 * would leave the simulator running and holding its ports. When started by npm, the simulator
 * finds npm among its ancestors (Linux: /proc; elsewhere its parent) and stops when npm is gone.
 */
import { readFileSync } from 'node:fs';

/** How often the simulator checks that npm is still there. */
export const NPM_CHECK_MS = 250;

function parentOf(pid: number): number | null {
	try {
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
	} catch {
		return null;
	}
}

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return '';
	}
}

/** The process id of the npm that started this one, if npm did (null otherwise). */
export function npmAncestor(env: NodeJS.ProcessEnv = process.env): number | null {
	const npmCli = env.npm_execpath;
	if (!env.npm_lifecycle_event || !npmCli) return null;
	for (let pid = parentOf(process.pid), hops = 0; pid !== null && hops < 8; hops++) {
		// npm names its process "npm run <script> …" (process.title); node npm-cli.js … otherwise.
		const command = commandLine(pid);
		if (/^npm\b/.test(command) || command.includes(npmCli)) return pid;
		pid = parentOf(pid);
	}
	// No /proc (macOS, Windows): the parent is the best guess.
	return process.ppid > 1 ? process.ppid : null;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Call `stop` once npm (when it started this process) has exited. */
export function stopWithNpm(stop: () => void, env: NodeJS.ProcessEnv = process.env): void {
	const npm = npmAncestor(env);
	if (npm === null) return;
	const timer = setInterval(() => {
		// A zombie npm (exited, not yet reaped) still answers kill(0): its /proc entry says Z.
		if (!alive(npm) || zombie(npm)) {
			clearInterval(timer);
			stop();
		}
	}, NPM_CHECK_MS);
	timer.unref();
}

function zombie(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
	} catch {
		return false;
	}
}
