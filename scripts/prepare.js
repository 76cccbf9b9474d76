// npm's prepare step. In this repository: only `svelte-kit sync` (types for the editor and
// svelte-check). When the package is installed as another project's dependency (from git or a
// tarball), npm runs prepare in its own copy: then also build the UI and the bundles, so
// `kds-sim/testing` and the `kds-sim` command work there.
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';

const run = (command) => execSync(command, { stdio: 'inherit' });
try {
	run('npx svelte-kit sync');
} catch {
	// Not fatal: the build syncs again.
}
const invokedFrom = process.env.INIT_CWD ? resolve(process.env.INIT_CWD) : resolve('.');
if (invokedFrom !== resolve('.')) run('npm run build');
