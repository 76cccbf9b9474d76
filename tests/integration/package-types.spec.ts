/**
 * The declarations `kds-sim/testing` ships, as an integrator's TypeScript project reads them:
 * the Playwright example (examples/playwright) type-checked against the package under each
 * moduleResolution a project may have, `nodenext`, `node16` and `bundler`, with the library's
 * .d.ts files checked too (no skipLibCheck). Under nodenext and node16 every relative import of
 * a declaration must name its file (TS2834 otherwise): core's sources write `./x.ts`, which
 * the emitted declarations keep.
 *
 * The declarations are emitted here from the sources with the build's own tsconfig
 * (tsconfig.testing.json, the tsc step of `npm run build:testing`) into a package folder laid
 * out as the tarball lays it out, so the test needs no build and never reads a stale dist/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
let project: string;

beforeAll(() => {
	project = mkdtempSync(join(tmpdir(), 'kds-types-'));
	const pkg = join(project, 'node_modules/kds-sim');
	mkdirSync(pkg, { recursive: true });
	copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
	execFileSync(
		process.execPath,
		[TSC, '-p', join(ROOT, 'tsconfig.testing.json'), '--outDir', join(pkg, 'dist/types')],
		{ cwd: ROOT, stdio: 'pipe' }
	);
	// The package's dependencies (zod, fastify, …), @playwright/test and @types/node, as an
	// install would put them beside it.
	for (const name of readdirSync(join(ROOT, 'node_modules'))) {
		if (name === '.bin' || name === 'kds-sim' || name.startsWith('.')) continue;
		symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
	}
	writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
	copyFileSync(join(ROOT, 'examples/playwright/kitchen.spec.ts'), join(project, 'kitchen.spec.ts'));
}, 300_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("an integrator's project type-checks against the shipped declarations, without skipLibCheck", () => {
	for (const [resolution, module] of [
		['nodenext', 'nodenext'],
		['node16', 'node16'],
		['bundler', 'esnext']
	]) {
		it(`"moduleResolution": "${resolution}"`, () => {
			const config = `tsconfig.${resolution}.json`;
			writeFileSync(
				join(project, config),
				JSON.stringify({
					compilerOptions: {
						strict: true,
						noEmit: true,
						module,
						moduleResolution: resolution,
						target: 'es2022',
						types: ['node'],
						skipLibCheck: false
					},
					files: ['kitchen.spec.ts']
				})
			);
			// --listFiles: the files it read, one a line, before any diagnostic.
			const run = spawnSync(process.execPath, [TSC, '-p', config, '--listFiles'], {
				cwd: project,
				encoding: 'utf8'
			});
			const diagnostics = `${run.stdout}${run.stderr}`
				.split('\n')
				.filter((line) => line !== '' && !line.startsWith('/'));
			expect(diagnostics).toEqual([]);
			expect(run.status).toBe(0);
			// It read the package's declarations, core's among them (what TS2834 was about).
			expect(run.stdout).toMatch(
				/node_modules\/kds-sim\/dist\/types\/tests\/helpers\/index\.d\.ts$/m
			);
			expect(run.stdout).toMatch(/node_modules\/kds-sim\/dist\/types\/core\/order-schema\.d\.ts$/m);
		}, 300_000);
	}
});
