// Bundles the test helpers integrators import as `kds-sim/testing` (tests/helpers/index.ts) into
// dist/testing.js: their packages stay imports (they are the package's dependencies), and of
// package.json only the fields the agent reads are carried (scripts/build-agent.js).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { packageFieldsOnly } from './build-agent.js';

/** @type {import('esbuild').BuildOptions} */
export const TESTING_BUILD = {
	absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
	entryPoints: ['tests/helpers/index.ts'],
	bundle: true,
	platform: 'node',
	format: 'esm',
	packages: 'external',
	target: 'node22',
	sourcemap: true,
	outfile: 'dist/testing.js',
	logLevel: 'warning',
	plugins: [packageFieldsOnly]
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await build(TESTING_BUILD);
