#!/usr/bin/env node
// The kds-sim command: runs the production bundle (npm run build makes it). On a Node older than
// engines.node it first re-runs itself on Node 24 from the npm registry (bin/ensure-node.js), or
// says in one sentence why it cannot; nothing else runs before that.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureNode, envWith, runToEnd } from './ensure-node.js';

let chosen;
try {
	chosen = ensureNode();
} catch (err) {
	process.stderr.write(`${err.message}\n`);
	process.exit(1);
}
// KDS_NODE_REEXEC: the re-run itself never re-runs again, whatever that Node says it is.
if (chosen.node !== process.execPath && !process.env.KDS_NODE_REEXEC) {
	if (chosen.note) process.stderr.write(`${chosen.note}\n`);
	const self = fileURLToPath(import.meta.url);
	runToEnd(
		spawn(chosen.node, [...process.execArgv, self, ...process.argv.slice(2)], {
			stdio: 'inherit',
			env: { ...envWith(chosen.node), KDS_NODE_REEXEC: '1' }
		})
	);
} else {
	const bundle = new URL('../dist/agent.js', import.meta.url);
	if (!existsSync(bundle)) {
		process.stderr.write('kds-sim is not built yet: run "npm run build" in its folder first.\n');
		process.exit(2);
	}
	await import(bundle.href);
}
