// npm's prepare step. In this repository: only `svelte-kit sync` (types for the editor and
// svelte-check). When the package is installed as another project's dependency (from git or a
// tarball), npm runs prepare in its own copy: then also build the UI and the bundles, so
// `kds-sim/testing` and the `kds-sim` command work there.
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import { requiredRange, satisfies } from '../bin/ensure-node.js';

const run = (command) => execSync(command, { stdio: 'inherit' });
try {
	run('npx svelte-kit sync');
} catch {
	// Not fatal: the build syncs again.
}
const invokedFrom = process.env.INIT_CWD ? resolve(process.env.INIT_CWD) : resolve('.');
if (invokedFrom !== resolve('.')) run('npm run build');

// npm ran on the machine's Node (its user agent says which): older than the dev tools' engines,
// it warned EBADENGINE for each of them above. Said once what that means, rather than hiding
// every npm warning (.npmrc).
const npmNode = /\bnode\/(v[\d.]+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (npmNode && !satisfies(npmNode, requiredRange())) {
	process.stderr.write(
		`kds-sim: npm ran on Node ${npmNode.slice(1)}: its EBADENGINE warnings are about the dev tools, which run on Node 24 through bin/ensure-node.js. Nothing to do.\n`
	);
}
