/**
 * The tree's three parts and who may import whom. The order core (core/, imported as
 * `#core/…`) is shared by the agent and the browser, so it imports neither, nor anything that only
 * one side has; the agent and the UI reach it by that name, never by a relative path, and neither
 * reaches into the other. Only specs reach into the tests (the UI's specs for the test doubles of
 * tests/doubles/).
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const tracked = execFileSync('git', ['ls-files', 'agent', 'core', 'src'], {
	cwd: root,
	encoding: 'utf8'
})
	.split('\n')
	.filter((path) => /\.(ts|svelte)$/.test(path));

function importsOf(path: string): string[] {
	let source = readFileSync(new URL(path, root), 'utf8');
	if (path.endsWith('.svelte')) {
		source = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
	}
	return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

interface Part {
	name: string;
	files: string[];
	/** What a file of this part may import; anything else is a crossing. */
	allows: (specifier: string, file: string) => boolean;
}

const isSpec = (file: string) => file.endsWith('.spec.ts');
const testTools = (specifier: string) =>
	specifier === 'vitest' || specifier === 'fast-check' || specifier.startsWith('node:');

const parts: Part[] = [
	{
		name: 'the order core (core/)',
		files: tracked.filter((f) => f.startsWith('core/')),
		allows: (specifier, file) =>
			specifier.startsWith('./') ||
			specifier.startsWith('../') ||
			specifier === 'zod' ||
			specifier === 'xstate' ||
			(isSpec(file) && testTools(specifier))
	},
	{
		name: 'the agent (agent/)',
		files: tracked.filter((f) => f.startsWith('agent/')),
		allows: (specifier) =>
			specifier.startsWith('.')
				? !/(^|\/)(src|tests)\//.test(specifier)
				: specifier.startsWith('#')
					? specifier.startsWith('#core/')
					: !specifier.startsWith('$')
	},
	{
		name: 'the UI (src/routes, src/lib/ui)',
		files: tracked.filter((f) => f.startsWith('src/')),
		allows: (specifier, file) =>
			specifier.startsWith('#')
				? specifier.startsWith('#core/')
				: !/(^|\/)(agent|core)\//.test(specifier) &&
					(isSpec(file) || !/(^|\/)tests\//.test(specifier))
	}
];

describe('module boundaries', () => {
	for (const part of parts) {
		it(`${part.name} imports only what it may`, () => {
			expect(part.files.length).toBeGreaterThan(5);
			const crossings = part.files.flatMap((file) =>
				importsOf(file)
					.filter((specifier) => !part.allows(specifier, file))
					.map((specifier) => `${file} imports ${specifier}`)
			);
			expect(crossings).toEqual([]);
		});
	}

	it('the core relative imports stay inside the core (its specs may use the test helpers)', () => {
		const inside = (file: string, target: string) =>
			target.startsWith(new URL('core/', root).pathname) ||
			(isSpec(file) && target.startsWith(new URL('tests/helpers/', root).pathname));
		const escaping = parts[0].files.flatMap((file) =>
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => new URL(specifier, new URL(file, root)).pathname)
				.filter((target) => !inside(file, target))
				.map((target) => `${file} reaches ${target}`)
		);
		expect(escaping).toEqual([]);
	});
});

/**
 * Inside the agent, dependencies run one way: the engine (the commit path, its screens and its
 * fan-out to browsers) knows none of the modules that use it; notifications and SMS subscribe to
 * it and know no transport; the WebSocket relay knows no notification; only the CLI starts the
 * agent (app.ts, the composition root, wires the rest). Specs may reach further.
 */
const agentLayers: Array<{ folder: string; mayNotReach: string[] }> = [
	{ folder: 'engine', mayNotReach: ['notify', 'ws', 'http', 'tcp', 'cli', 'discovery', 'app.ts'] },
	{ folder: 'store', mayNotReach: ['engine', 'notify', 'ws', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'notify', mayNotReach: ['ws', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'ws', mayNotReach: ['notify', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'tcp', mayNotReach: ['notify', 'ws', 'http', 'cli', 'app.ts'] },
	{ folder: 'inspector', mayNotReach: ['ws', 'http', 'tcp', 'cli', 'app.ts'] }
];

describe('agent layers', () => {
	const agentRoot = new URL('agent/', root).pathname;
	for (const { folder, mayNotReach } of agentLayers) {
		it(`agent/${folder}/ reaches none of ${mayNotReach.join(', ')}`, () => {
			const files = tracked.filter((f) => f.startsWith(`agent/${folder}/`) && !isSpec(f));
			expect(files.length).toBeGreaterThan(0);
			const reached = files.flatMap((file) =>
				importsOf(file)
					.filter((specifier) => specifier.startsWith('.'))
					.map((specifier) =>
						new URL(specifier, new URL(file, root)).pathname.slice(agentRoot.length)
					)
					.filter((target) =>
						mayNotReach.some((name) => target === name || target.startsWith(`${name}/`))
					)
					.map((target) => `${file} reaches agent/${target}`)
			);
			expect(reached).toEqual([]);
		});
	}
});
