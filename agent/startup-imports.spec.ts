/**
 * What starting the simulator loads before the screens' TCP ports open, checked on the agent's
 * bundle as `npm run build` makes it (scripts/build-agent.js, code splitting on):
 * - Fastify and its plugins are imported only on demand, when the HTTP server is built, so the
 *   CLI's other commands (`kds-sim send`) and code that only imports the agent's modules never pay
 *   for them. That holds only while nothing imports Fastify as a value: a single
 *   `import { x } from 'fastify'` anywhere brings the whole stack in at load.
 * - The start path (the CLI entry and the chunks it imports statically) holds no HTTP route, relay
 *   or other command's code, and none of zod's locales: those load after the TCP listeners are up
 *   (agent/http-stack.ts) or never (npm run bench -- start measures the time this saves).
 */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { AGENT_BUILD } from '../scripts/build-agent.js';

const LAZY = ['fastify', '@fastify/static'];

async function metafile(): Promise<Metafile> {
	const result = await build({ ...AGENT_BUILD, write: false, metafile: true, logLevel: 'silent' });
	return result.metafile;
}

/** The output file of a module imported dynamically (a chunk of its own). */
function chunkOf(meta: Metafile, entryPoint: string): string {
	const outputs = meta.outputs;
	const file = Object.keys(outputs).find((f) => outputs[f].entryPoint === entryPoint);
	if (!file) throw new Error(`no chunk for ${entryPoint}: is it still imported dynamically?`);
	return file;
}

/** The source files in the given output files and those they import statically. */
function staticInputs(meta: Metafile, ...roots: string[]): string[] {
	const outputs = meta.outputs;
	const seen = new Set<string>();
	const todo = [...roots];
	while (todo.length) {
		const file = todo.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		for (const { path, kind } of outputs[file].imports) {
			if (kind === 'import-statement' && outputs[path]) todo.push(path);
		}
	}
	return [...seen].flatMap((file) => Object.keys(outputs[file].inputs));
}

describe('what starting the simulator loads', async () => {
	const meta = await metafile();

	it('loads Fastify only on demand, when the HTTP server is built', () => {
		const eager: string[] = [];
		let lazy = 0;
		for (const [file, input] of Object.entries(meta.inputs)) {
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

	it('installs zod/compile before any module builds a schema', () => {
		// Code splitting may run a shared chunk before the entry's own first import, so the entry
		// imports (statically) nothing but zod/compile and modules that build no schema; every
		// schema is built in the chunks the entry imports dynamically (the command that runs).
		const entry = staticInputs(meta, 'dist/agent.js');
		expect(entry).toContain('node_modules/zod/compile.js');
		expect(entry.filter((file) => !file.startsWith('node_modules/')).sort()).toEqual([
			'agent/cli/cli.ts',
			'agent/command-line.ts'
		]);
	});

	it('loads no HTTP route, relay, other command or zod locale before the TCP ports open', () => {
		const inputs = staticInputs(meta, 'dist/agent.js', chunkOf(meta, 'agent/cli/main.ts'));
		const early = inputs.filter(
			(file) =>
				/^agent\/(http\/|ws\/|http-stack\.ts$)/.test(file) ||
				/^agent\/cli\/send\.ts$|^agent\/discovery\/discover\.ts$|^agent\/fleet\/generate\.ts$/.test(
					file
				) ||
				/node_modules\/zod\/v4\/locales\/(?!en\.js$)/.test(file)
		);
		expect(early).toEqual([]);
		// The check looks at the real start path: the TCP server, the engine and the core are on it.
		expect(inputs).toEqual(
			expect.arrayContaining([
				'agent/tcp/server.ts',
				'agent/engine/engine.ts',
				'core/order-schema.ts'
			])
		);
		// ... and the HTTP stack is a chunk of the bundle, loaded later.
		expect(chunkOf(meta, 'agent/http-stack.ts')).toMatch(/^dist\/part-http-stack-/);
	});
});
