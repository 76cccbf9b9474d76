/**
 * docs/architecture.md stays true of the tree: every module it names exists. A path written out
 * (`agent/tcp/listeners.ts`, `core/view/tracker.ts`, `#core/relay`) must be that file; a bare
 * module name (`engine.ts`, `webhook-log.ts`, in the tree drawing or in the text) must be the
 * name of a tracked file somewhere. A module renamed or removed without the page fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const page = readFileSync(new URL('docs/architecture.md', root), 'utf8');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
	.split('\n')
	.filter(Boolean);
const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard'], {
	cwd: root,
	encoding: 'utf8'
})
	.split('\n')
	.filter(Boolean);
const names = new Set([...tracked, ...untracked].map((f) => basename(f)));

const MODULE = String.raw`[\w.$\[\]-]+\.(?:ts|js|mjs|svelte|sh)`;
/** Full paths from the tree's top folders, and #core/… specifiers. */
const PATHS = new RegExp(
	String.raw`\b((?:agent|core|src|tests|bench|bin|scripts)/(?:[\w.$\[\]-]+/)*${MODULE})`,
	'g'
);
const SPECIFIERS = /#core\/([\w/-]+)/g;
/** A module's name on its own (not a glob such as `*-api.ts`). */
const BARE = new RegExp(
	String.raw`(?<![\w/.*-])([\w$\[][\w.$\[\]-]*\.(?:ts|js|mjs|svelte|sh))(?![\w/-])`,
	'g'
);

describe('docs/architecture.md', () => {
	it('names only modules that exist', () => {
		const missing: string[] = [];
		for (const [, path] of page.matchAll(PATHS)) {
			if (!existsSync(new URL(path, root))) missing.push(path);
		}
		for (const [, specifier] of page.matchAll(SPECIFIERS)) {
			const path = `core/${specifier}.ts`;
			if (!specifier.endsWith('/') && !existsSync(new URL(path, root)))
				missing.push(`#core/${specifier}`);
		}
		for (const [, name] of page.matchAll(BARE)) {
			if (!names.has(name)) missing.push(name);
		}
		expect([...new Set(missing)]).toEqual([]);
	});

	it('is read by this check: it names the rooms and the new homes of the contract', () => {
		// A page cut down to nothing would pass the check above.
		for (const module of [
			'core/integrator-routes.ts',
			'core/tcp-message.ts',
			'agent/http/integrators/orders.ts',
			'agent/tcp/listeners.ts',
			'agent/fleet/acknowledged.ts'
		]) {
			expect(page).toContain(module);
		}
		expect([...page.matchAll(PATHS)].length).toBeGreaterThan(40);
		expect([...page.matchAll(BARE)].length).toBeGreaterThan(100);
	});
});
