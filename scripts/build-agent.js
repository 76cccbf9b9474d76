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
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The fields of the project's package.json that the agent reads (agent/http/health.ts and
 * agent/http/integrators/index.ts import it for `version`): the bundle carries these and not the
 * rest (dependency lists, scripts, the files list). Code that reads another field adds it here;
 * agent/bundle-contents.spec.ts checks what the bundle holds.
 */
export const PACKAGE_FIELDS = ['version'];

/** @type {import('esbuild').Plugin} */
export const packageFieldsOnly = {
	name: 'package-json-fields',
	setup(b) {
		const file = join(ROOT, 'package.json');
		b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
			if (args.path !== file) return undefined; // a bundled dependency's own: as it is
			const pkg = JSON.parse(readFileSync(file, 'utf8'));
			const kept = Object.fromEntries(PACKAGE_FIELDS.map((field) => [field, pkg[field]]));
			return { contents: JSON.stringify(kept), loader: 'json' };
		});
	}
};

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
	logLevel: 'warning',
	plugins: [packageFieldsOnly]
};

/**
 * The files of swagger-ui-dist the /docs page loads (agent/http/integrators/docs.ts), with its
 * licence: copied into dist/swagger-ui/, so that swagger-ui-dist is a devDependency and its
 * dependency @scarf/scarf (an install script, a download counter) is not in a user's install.
 */
export const SWAGGER_UI_FILES = [
	'swagger-ui-bundle.js',
	'swagger-ui.css',
	'favicon-32x32.png',
	'favicon-16x16.png',
	'LICENSE',
	'NOTICE'
];

export function copySwaggerUi() {
	const from = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js')();
	const to = join(ROOT, 'dist', 'swagger-ui');
	rmSync(to, { recursive: true, force: true });
	mkdirSync(to, { recursive: true });
	for (const file of SWAGGER_UI_FILES) copyFileSync(join(from, file), join(to, file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const result = await build({ ...AGENT_BUILD, sourcemap: true, metafile: true });
	copySwaggerUi();
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
