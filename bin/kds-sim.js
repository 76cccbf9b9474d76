#!/usr/bin/env node
// The kds-sim command: runs the production bundle (npm run build makes it).
import { existsSync } from 'node:fs';
import { NODE_FLAGS } from './node-flags.js';

const bundle = new URL('../dist/agent.js', import.meta.url);
if (!existsSync(bundle)) {
	process.stderr.write('kds-sim is not built yet: run "npm run build" in its folder first.\n');
	process.exit(2);
}

/**
 * V8 reads the young generation's cap (bin/node-flags.js) only at start, so the command replaces
 * itself (execve: the same process id, signals, stdio and parent) with `node` given the flags,
 * unless a cap was given already (`node --max-semi-space-size=…`, NODE_OPTIONS), KDS_NO_REEXEC is
 * set, or the platform cannot (Windows: it runs without the cap). The other commands (send,
 * discover, fleet-config, --help) are short: they run as they are.
 */
const command = process.argv[2];
const short = ['send', 'discover', 'fleet-config', '--help', '-h', 'help'].includes(command ?? '');
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) =>
	a.startsWith('--max-semi-space-size')
);
if (!short && !given && typeof process.execve === 'function' && !process.env.KDS_NO_REEXEC) {
	process.execve(process.execPath, [
		process.execPath,
		...NODE_FLAGS,
		...process.execArgv,
		...process.argv.slice(1)
	]);
}
await import(bundle.href);
