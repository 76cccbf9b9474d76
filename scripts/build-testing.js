// Bundles the test helpers integrators import as `kds-sim/testing` (tests/helpers/index.ts) into
// dist/testing.js: their packages stay imports (they are the package's dependencies), and of
// package.json only the fields the agent reads are carried (scripts/build-agent.js).
//
// Split: the agent (and node:sqlite with it) is a chunk of its own (dist/testing-*.js), imported
// only when a simulator starts in the test's process (tests/helpers/fixtures.ts). Importing
// `kds-sim/testing` on a Node without node:sqlite (20) loads none of it; the simulator then runs
// as a child process (tests/helpers/child-simulator.ts).
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageFieldsOnly } from './build-agent.js';

/** @type {import('esbuild').BuildOptions} */
export const TESTING_BUILD = {
	absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
	// kds-sim/testcontainers: the Testcontainers module (testcontainers, an optional peer, stays an import).
	entryPoints: {
		testing: 'tests/helpers/index.ts',
		testcontainers: 'tests/helpers/testcontainers.ts'
	},
	bundle: true,
	splitting: true,
	chunkNames: 'testing-[name]-[hash]',
	platform: 'node',
	format: 'esm',
	packages: 'external',
	target: 'node22',
	sourcemap: true,
	outdir: 'dist',
	logLevel: 'warning',
	plugins: [packageFieldsOnly]
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const result = await build({ ...TESTING_BUILD, metafile: true });
	// Chunk names carry a content hash: remove the earlier builds' chunks.
	const written = new Set(
		Object.keys(result.metafile.outputs).map((f) => f.replace(/^dist\//, ''))
	);
	const dist = new URL('../dist/', import.meta.url);
	for (const name of readdirSync(dist))
		if (/^testing-.*\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(new URL(name, dist));
}
