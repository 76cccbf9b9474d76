/**
 * npm's warnings in a clone: none hidden (.npmrc sets no loglevel), and on a Node older than the
 * dev tools' engines `npm install` ends (scripts/prepare.js, its prepare step) with one line
 * saying what its EBADENGINE warnings mean, instead of every warning going quiet.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

/** The environment without what an npm script run passes down (npm_config_*). */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (!k.toLowerCase().startsWith('npm_')) env[k] = v;
	}
	return { ...env, ...extra };
}

describe('npm in a clone', () => {
	it('keeps its warnings: the clone sets no loglevel of its own', () => {
		const level = execFileSync('npm', ['config', 'get', 'loglevel'], {
			cwd: ROOT,
			env: cleanEnv(),
			encoding: 'utf8'
		}).trim();
		expect(level).toBe('notice');
	});

	it('says once what the EBADENGINE warnings of an old Node mean, and nothing on a new one', () => {
		const prepare = (agent: string) =>
			spawnSync(process.execPath, ['scripts/prepare.js'], {
				cwd: ROOT,
				env: cleanEnv({ INIT_CWD: ROOT, npm_config_user_agent: agent }),
				encoding: 'utf8'
			});
		const old = prepare('npm/11.6.2 node/v20.19.0 linux x64 workspaces/false');
		expect(old.status).toBe(0);
		expect(old.stderr).toContain(
			'kds-sim: npm ran on Node 20.19.0: its EBADENGINE warnings are about the dev tools, which run on Node 24 through bin/ensure-node.js. Nothing to do.\n'
		);
		const current = prepare('npm/11.6.2 node/v24.11.0 linux x64 workspaces/false');
		expect(current.status).toBe(0);
		expect(current.stderr).not.toContain('EBADENGINE');
	}, 60_000);
});
