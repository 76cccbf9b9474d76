// Bundles the agent for production: dist/agent.js (the CLI), with its shared code and every
// dynamically imported module in chunks of their own (dist/part-*.js). Code splitting is what keeps start-up short: starting the simulator loads
// only what a screen's TCP port needs to answer; the HTTP stack (agent/http-stack.ts) and the
// CLI's other commands are chunks loaded when they are used (npm run bench -- start).
//
// Packages are bundled (zod, xstate: fewer files to resolve at each start) except those that must
// stay files: packages loaded lazily or by file path
// (pino, Fastify and its plugins, ws, swagger-ui-dist, tsx).
//
// `node scripts/build-agent.js` builds; agent/startup-imports.spec.ts imports AGENT_BUILD to
// check what the start-up path loads, as built.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** @type {import('esbuild').BuildOptions} */
export const AGENT_BUILD = {
	absWorkingDir: ROOT,
	entryPoints: { agent: 'agent/cli/cli.ts' },
	bundle: true,
	splitting: true,
	chunkNames: 'part-[name]-[hash]',
	platform: 'node',
	format: 'esm',
	target: 'node22',
	external: ['pino', 'fastify', '@fastify/*', 'ws', 'swagger-ui-dist', 'tsx'],
	outdir: 'dist',
	logLevel: 'warning'
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const result = await build({ ...AGENT_BUILD, sourcemap: true, metafile: true });
	// Chunk names carry a content hash: remove the earlier builds' chunks (and the store's worker
	// of builds before 2026-11-26) after the build, so
	// that an agent already running from dist/ keeps its chunks until the new ones are there).
	const written = new Set(
		Object.keys(result.metafile.outputs).map((f) => f.replace(/^dist\//, ''))
	);
	const dist = new URL('../dist/', import.meta.url);
	for (const name of readdirSync(dist)) {
		if (/^(part-.*|store-worker)\.js(\.map)?$/.test(name) && !written.has(name))
			rmSync(new URL(name, dist));
	}
}
