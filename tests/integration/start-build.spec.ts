/**
 * npm start (scripts/start.js) builds only when what the build reads changed since the last build
 * (scripts/build-stamp.js). Run in a copy of the project's layout whose `npm` stands in for the
 * build: it logs each `npm run build`, writes the outputs and, as the real build's last step does,
 * the stamp; the "agent" it writes prints the ready banner.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_INPUTS } from '../../scripts/build-stamp.js';
import { ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function project(): { root: string; builds: () => number; start: () => string } {
	const root = tempDir('kds-start-build-');
	mkdirSync(join(root, 'scripts'));
	for (const file of ['start.js', 'build-stamp.js']) {
		copyFileSync(join(ROOT, 'scripts', file), join(root, 'scripts', file));
	}
	const files: Record<string, string> = {
		'package.json': JSON.stringify({ name: 'kds-sim', type: 'module' }),
		'core/order.ts': 'export const order = 1;\n',
		'core/order.spec.ts': "it('passes', () => {});\n",
		'agent/main.ts': 'export {};\n',
		'src/routes/+page.svelte': '<h1>KDS</h1>\n',
		'tests/helpers/index.ts': 'export {};\n'
	};
	for (const [file, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, file)), { recursive: true });
		writeFileSync(join(root, file), text);
	}
	const bin = join(root, 'fake-bin');
	mkdirSync(bin);
	writeFileSync(
		join(bin, 'npm'),
		[
			'#!/bin/sh',
			'echo "npm $*" >> build.log',
			// What Vite prints: a hundred-odd lines, "Run npm run preview" among them.
			'i=0; while [ $i -lt 110 ]; do echo "vite: chunk $i built"; i=$((i+1)); done',
			'echo "Run npm run preview to preview your production build locally." >&2',
			'[ -f fail-build ] && { echo "src/routes/+page.svelte: unexpected token" >&2; exit 1; }',
			'mkdir -p build dist',
			`echo "console.log('KDS simulator ready')" > dist/agent.js`,
			': > build/handler.js; : > dist/testing.js',
			'node scripts/build-stamp.js write',
			''
		].join('\n'),
		{ mode: 0o755 }
	);
	const builds = () =>
		existsSync(join(root, 'build.log'))
			? readFileSync(join(root, 'build.log'), 'utf8').split('\n').filter(Boolean).length
			: 0;
	const start = () =>
		execFileSync(process.execPath, ['scripts/start.js'], {
			cwd: root,
			env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` },
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe']
		});
	return { root, builds, start };
}

describe('npm start builds only when the sources changed', () => {
	it('builds the first time, then starts at once until a source changes', () => {
		const { root, builds, start } = project();
		expect(start()).toBe('KDS simulator ready\n');
		expect(builds()).toBe(1);

		expect(start()).toBe('KDS simulator ready\n');
		expect(builds()).toBe(1);

		// A touch, a checkout, a copy: new times, the same contents.
		const later = new Date(Date.now() + 60_000);
		utimesSync(join(root, 'core/order.ts'), later, later);
		start();
		expect(builds()).toBe(1);

		// A spec is not built.
		writeFileSync(join(root, 'core/order.spec.ts'), "it('still passes', () => {});\n");
		start();
		expect(builds()).toBe(1);

		writeFileSync(join(root, 'core/order.ts'), 'export const order = 2;\n');
		start();
		expect(builds()).toBe(2);
		start();
		expect(builds()).toBe(2);

		writeFileSync(join(root, 'src/routes/new.svelte'), '<p>new</p>\n');
		start();
		expect(builds()).toBe(3);
	});

	it('builds again when an output is missing', () => {
		const { root, builds, start } = project();
		start();
		rmSync(join(root, 'dist/testing.js'));
		start();
		expect(builds()).toBe(2);
	});

	it("says that it skipped the build, on stderr (the banner's stdout stays the agent's)", () => {
		const { root, start } = project();
		start();
		const second = spawnSync(process.execPath, ['scripts/start.js'], {
			cwd: root,
			encoding: 'utf8'
		});
		expect(second.stdout).toBe('KDS simulator ready\n');
		expect(second.stderr).toBe(
			'kds-sim: the build is current (nothing changed since it was made): not rebuilding\n'
		);
	});

	it("the first start prints two lines for the build, not the build's own output", () => {
		const { root } = project();
		const first = spawnSync(process.execPath, ['scripts/start.js'], {
			cwd: root,
			env: { PATH: `${join(root, 'fake-bin')}:${dirname(process.execPath)}:/usr/bin:/bin` },
			encoding: 'utf8'
		});
		expect(first.stdout).toBe('KDS simulator ready\n');
		expect(first.stderr).toMatch(
			/^kds-sim: building the UI and the agent \(the first start, or a source changed since the last build\)\.\.\.\nkds-sim: built in \d+ s\n$/
		);
	});

	it('a failed build prints its output and stops', () => {
		const { root } = project();
		writeFileSync(join(root, 'fail-build'), '');
		const first = spawnSync(process.execPath, ['scripts/start.js'], {
			cwd: root,
			env: { PATH: `${join(root, 'fake-bin')}:${dirname(process.execPath)}:/usr/bin:/bin` },
			encoding: 'utf8'
		});
		expect(first.status).toBe(1);
		expect(first.stdout).toBe('');
		expect(first.stderr).toContain('vite: chunk 109 built');
		expect(first.stderr).toContain('src/routes/+page.svelte: unexpected token');
		expect(first.stderr).toMatch(/kds-sim: the build failed \(exit 1\): its output is above\.\n$/);
	});

	it('lists inputs that exist in this project (the stamp does not miss a renamed folder)', () => {
		for (const input of BUILD_INPUTS) expect(existsSync(join(ROOT, input))).toBe(true);
	});
});
