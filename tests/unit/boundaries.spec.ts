/**
 * The tree's three parts and who may import whom. The order core (core/, imported as
 * `#core/…`) is shared by the agent and the browser, so it imports neither, nor anything that only
 * one side has; the agent and the UI reach it by that name, never by a relative path, and neither
 * reaches into the other. Only specs reach into the tests (the UI's specs for the test doubles of
 * tests/doubles/). No file reaches itself again through its imports, type-only ones included: a
 * circle is always a boundary drawn in the wrong place.
 */
import { existsSync, readFileSync } from 'node:fs';
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
		// A relative import names its .ts file: the shipped declarations keep the specifiers, and
		// moduleResolution nodenext and node16 resolve no extensionless path (TS2834).
		allows: (specifier, file) =>
			((specifier.startsWith('./') || specifier.startsWith('../')) && specifier.endsWith('.ts')) ||
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
		// `#lib/…` is src/lib (package.json "imports"; SvelteKit 3 dropped its `$lib` alias).
		allows: (specifier, file) =>
			specifier.startsWith('#')
				? specifier.startsWith('#core/') || specifier.startsWith('#lib/')
				: !/(^|\/)(agent|core)\//.test(specifier) &&
					(isSpec(file) || !/(^|\/)tests\//.test(specifier))
	}
];

/**
 * The tracked file a specifier of `file` names: relative, `#core/…` or `#lib/…` (package.json
 * imports), with or without its extension; undefined for a package or a virtual module.
 */
function resolve(specifier: string, file: string): string | undefined {
	const base = specifier.startsWith('.')
		? new URL(specifier, new URL(file, root)).pathname.slice(new URL(root).pathname.length)
		: specifier.startsWith('#core/')
			? `core/${specifier.slice('#core/'.length)}`
			: specifier.startsWith('#lib/')
				? `src/lib/${specifier.slice('#lib/'.length)}`
				: undefined;
	if (base === undefined) return undefined;
	const stem = base.replace(/\.js$/, '');
	return [base, `${stem}.ts`, `${stem}.svelte.ts`, `${stem}/index.ts`].find(
		(path) => tracked.includes(path) && existsSync(new URL(path, root))
	);
}

/** Every group of files that import each other round (Tarjan's strongly connected components). */
function circles(files: string[]): string[][] {
	const edges = new Map(
		files.map((file) => [
			file,
			importsOf(file).flatMap((specifier) => resolve(specifier, file) ?? [])
		])
	);
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		for (const next of edges.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (stack.includes(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || edges.get(file)!.includes(file)) found.push(group.sort());
	};
	for (const file of files) if (!index.has(file)) visit(file);
	return found;
}

/** Every core file `file` reaches through its relative imports (type-only ones included). */
function reachOf(file: string): Set<string> {
	const seen = new Set<string>();
	const walk = (from: string) => {
		for (const specifier of importsOf(from)) {
			if (!specifier.startsWith('.')) continue;
			const target = new URL(specifier, new URL(from, root)).pathname.slice(
				new URL(root).pathname.length
			);
			if (!target.startsWith('core/') || seen.has(target)) continue;
			seen.add(target);
			walk(target);
		}
	};
	walk(file);
	return seen;
}

/**
 * The core's floors, bottom up where it matters: the shapes both sides share (a log entry, the
 * relay's messages, the rule catalogue, the envelope, the route table) sit below the judges that
 * read them (the conformance findings, the fault judgement), never above: a type taken from a
 * judge drags its whole floor in.
 */
const CORE_SHAPES = [
	'core/message-entry.ts',
	'core/relay.ts',
	'core/rules.ts',
	'core/tcp-message.ts',
	'core/integrator-routes.ts'
];
const CORE_JUDGES = ['core/conformance.ts', 'core/fault-findings.ts'];

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

	it('no circle of imports, type-only ones included, in agent/, core/ or src/', () => {
		expect(circles(tracked)).toEqual([]);
	});

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

	it("the core's shared shapes reach none of its judges (conformance, fault findings)", () => {
		const upward = CORE_SHAPES.flatMap((shape) =>
			[...reachOf(shape)]
				.filter((target) => CORE_JUDGES.includes(target))
				.map((judge) => `${shape} reaches ${judge}`)
		);
		expect(upward).toEqual([]);
	});
});

/**
 * Inside the agent, dependencies run one way, down this list of rooms (a folder, or a module at
 * agent/'s root). A room imports only rooms of lower floors, never one of its own floor (the
 * transports tcp/, http/ and ws/ know nothing of each other), never one above: the engine (the
 * commit path, its screens and its fan-out to browsers) knows none of its users, and declares
 * what it needs of them (a remote screen: engine/screens.ts RemoteScreen, which fleet/ provides);
 * nothing imports cli/ (the commands) or app.ts (the composition root, which wires the rest and
 * hands each room what it needs: the inspector's recorder to both transports, the TCP handler to
 * the admin API's re-send, the fleet's writer to the order routes). Specs may reach further.
 */
const agentFloors: string[][] = [
	['cli'],
	['app.ts'],
	// rush/: `kds-sim rush` and the admin API's rush (app.ts hands it in), a client of TCP and HTTP.
	['http-stack.ts', 'rush'],
	['tcp', 'http', 'ws'],
	// certify/: certification runs (the admin API's); reads the log, the faults and the webhooks.
	['certify'],
	['inspector', 'fleet', 'faults'],
	['notify', 'discovery'],
	['engine'],
	['store'],
	['memory-settle.ts'],
	// Tools every room may use: they import no room.
	['config.ts', 'log.ts', 'clock.ts', 'byte-budget.ts', 'command-line.ts', 'rush-options.ts'],
	// config-schema.ts: the config's schema, which config.ts reads configs with.
	['config-schema.ts', 'load-in-steps.ts']
];
const roomOf = (path: string) => path.split('/')[0];
const floorOf = (room: string) => agentFloors.findIndex((rooms) => rooms.includes(room));
const agentRoot = new URL('agent/', root).pathname;

/** A file's imports of other rooms of the agent, as `from -> to` (relative imports only). */
function agentImports(file: string): Array<{ from: string; to: string; target: string }> {
	return importsOf(file)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => new URL(specifier, new URL(file, root)).pathname)
		.filter((target) => target.startsWith(agentRoot))
		.map((target) => target.slice(agentRoot.length))
		.map((target) => ({ from: roomOf(file.slice('agent/'.length)), to: roomOf(target), target }))
		.filter(({ from, to }) => from !== to);
}

/** Stricter than the floors: rooms that must not know each other even below them. */
const agentLayers: Array<{ folder: string; mayNotReach: string[] }> = [
	{ folder: 'engine', mayNotReach: ['notify', 'ws', 'http', 'tcp', 'cli', 'discovery', 'app.ts'] },
	{ folder: 'store', mayNotReach: ['engine', 'notify', 'ws', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'notify', mayNotReach: ['ws', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'ws', mayNotReach: ['notify', 'http', 'tcp', 'cli', 'app.ts'] },
	{ folder: 'tcp', mayNotReach: ['notify', 'ws', 'http', 'cli', 'app.ts'] },
	{ folder: 'inspector', mayNotReach: ['ws', 'http', 'tcp', 'cli', 'app.ts'] }
];

describe('agent rooms', () => {
	const agentFiles = tracked.filter((f) => f.startsWith('agent/') && !isSpec(f));

	it('every module of agent/ is in a room of a floor', () => {
		const homeless = agentFiles.filter((f) => floorOf(roomOf(f.slice('agent/'.length))) === -1);
		expect(homeless).toEqual([]);
		// Every room named exists: a renamed folder cannot leave its rule checking nothing.
		const rooms = new Set(agentFiles.map((f) => roomOf(f.slice('agent/'.length))));
		expect(agentFloors.flat().filter((room) => !rooms.has(room))).toEqual([]);
	});

	it('imports run down the floors only: no loop, nothing back up, no transport into another', () => {
		const crossings = agentFiles.flatMap((file) =>
			agentImports(file)
				.filter(({ from, to }) => floorOf(to) <= floorOf(from))
				.map(({ target }) => `${file} reaches agent/${target}`)
		);
		expect(crossings).toEqual([]);
	});

	for (const { folder, mayNotReach } of agentLayers) {
		it(`agent/${folder}/ reaches none of ${mayNotReach.join(', ')}`, () => {
			const files = agentFiles.filter((f) => f.startsWith(`agent/${folder}/`));
			expect(files.length).toBeGreaterThan(0);
			const reached = files.flatMap((file) =>
				agentImports(file)
					.filter(({ to }) => mayNotReach.includes(to))
					.map(({ target }) => `${file} reaches agent/${target}`)
			);
			expect(reached).toEqual([]);
		});
	}
});
