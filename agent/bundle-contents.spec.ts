/**
 * What the agent's bundles carry of the project's package.json (scripts/build-agent.js and
 * scripts/build-testing.js, as `npm run build` makes dist/): the version the agent reports
 * (/health, the OpenAPI document), and not the rest of the file (dependency lists, scripts), which
 * the agent never reads.
 */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { AGENT_BUILD, PACKAGE_FIELDS } from '../scripts/build-agent.js';
import { TESTING_BUILD } from '../scripts/build-testing.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
	version: string;
	scripts: Record<string, string>;
	devDependencies: Record<string, string>;
};

describe.each([
	['dist/agent.js and its chunks', AGENT_BUILD],
	['dist/testing.js (kds-sim/testing)', TESTING_BUILD]
])('%s and package.json', async (_name, options) => {
	const result = await build({ ...options, write: false, logLevel: 'silent' });
	const code = result.outputFiles
		.filter((f) => f.path.endsWith('.js'))
		.map((f) => f.text)
		.join('\n');

	it('keeps only the fields the agent reads', () => {
		expect(PACKAGE_FIELDS).toEqual(['version']);
		expect(code).toContain(JSON.stringify(pkg.version));
	});

	it('leaves out the dependency lists and the scripts', () => {
		expect(code).not.toContain('devDependencies');
		expect(code).not.toContain(pkg.scripts['build:agent']);
		for (const name of Object.keys(pkg.devDependencies)) {
			expect(code, name).not.toContain(`"${name}": "${pkg.devDependencies[name]}"`);
		}
	});
});
