#!/usr/bin/env node
// The kds-sim command: runs the production bundle (npm run build makes it).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/agent.js', import.meta.url);
if (!existsSync(bundle)) {
	process.stderr.write('kds-sim is not built yet: run "npm run build" in its folder first.\n');
	process.exit(2);
}
await import(bundle.href);
