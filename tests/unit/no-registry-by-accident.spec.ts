/**
 * No command on a page reaches the public npm registry by accident (issue 45): kds-sim is not
 * published there yet, so an `npx` of the bare name answers 404 or runs whatever someone else
 * published under it. Every `npx … kds-sim` in the README, the docs, the examples, the Python
 * fixture and the UI says where it runs: `--no-install` (a clone, or a project that installed the
 * package) or `--package <tarball>`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLACES = ['README.md', 'docs', 'examples', 'python', 'src/routes', 'deploy'];
const TEXT = /\.(md|py|ts|js|mjs|svelte|sh|ya?ml|json|cs|java)$/;

function files(path: string): string[] {
	const full = join(ROOT, path);
	if (!statSync(full, { throwIfNoEntry: false })) return [];
	if (statSync(full).isFile()) return [path];
	return readdirSync(full).flatMap((name) =>
		name === 'node_modules' || name === '__pycache__' ? [] : files(join(path, name))
	);
}

/** Each `npx` that runs kds-sim (to the end of its line) that says neither --no-install nor --package. */
export function bareNpx(text: string): string[] {
	const found: string[] = [];
	for (const line of text.split('\n')) {
		// npx, its options (and their values), then kds-sim as the command: not `kds-sim/testing`.
		for (const m of line.matchAll(
			/\bnpx((?:\s+-{1,2}[\w-]+(?:[= ](?!kds-sim\b)[^\s-]\S*)?)*)\s+kds-sim(?![\w/.-])/g
		))
			if (!/--no-install|--package\b/.test(m[0])) found.push(m[0]);
		for (const m of line.matchAll(/["']npx["'],\s*["']kds-sim["']/g)) found.push(m[0]);
	}
	return found;
}

describe('no page runs the bare npx kds-sim', () => {
	it('finds the bare forms it is meant to find, and passes the safe ones', () => {
		expect(bareNpx('run `npx kds-sim send x.json`')).toEqual(['npx kds-sim']);
		expect(bareNpx('npx --yes kds-sim@0.1.0')).toEqual(['npx --yes kds-sim']);
		expect(bareNpx('cmd = ["npx", "kds-sim"]')).toEqual(['"npx", "kds-sim"']);
		expect(bareNpx('npx --no-install kds-sim send order.json')).toEqual([]);
		expect(bareNpx('npx --yes --package ./kds-sim-0.1.0.tgz kds-sim')).toEqual([]);
		expect(bareNpx('npx playwright test # kds-sim/testing')).toEqual([]);
	});

	const all = PLACES.flatMap(files).filter((f) => TEXT.test(f));

	it('reads the README, the docs, the examples, the Python fixture and the home page', () => {
		expect(all).toEqual(
			expect.arrayContaining([
				'README.md',
				'docs/package.md',
				'examples/python/kds_sim.py',
				'python/kds_sim_fixture.py'
			])
		);
	});

	it.each(all)('%s', (file) => {
		const text = readFileSync(join(ROOT, file), 'utf8');
		expect(bareNpx(text), `${relative(ROOT, join(ROOT, file))}: say where it runs`).toEqual([]);
	});
});
