/**
 * The HTTP stack is loaded only when startAgent builds the HTTP server, so the CLI's other
 * commands (`kds-sim send`) and code that only imports the agent's modules never pay for it.
 * That holds only while nothing imports Fastify (or its plugins) as a value: a single
 * `import { x } from 'fastify'` anywhere brings the whole stack in at load. Checked on the
 * agent's bundle, as esbuild builds it.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAZY = ['fastify', '@fastify/static'];

it('loads Fastify only on demand, when the HTTP server is built', async () => {
	const result = await build({
		entryPoints: [`${ROOT}/agent/cli/cli.ts`],
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'esm',
		packages: 'external',
		logLevel: 'silent',
		outdir: 'out'
	});
	const eager: string[] = [];
	let lazy = 0;
	for (const [file, input] of Object.entries(result.metafile.inputs)) {
		for (const { path, kind } of input.imports) {
			if (!LAZY.includes(path)) continue;
			if (kind === 'dynamic-import') lazy += 1;
			else eager.push(`${file} imports ${path} (${kind})`);
		}
	}
	expect(eager).toEqual([]);
	// The check looks at the right imports: the HTTP server's and the docs page's.
	expect(lazy).toBeGreaterThanOrEqual(2);
});
