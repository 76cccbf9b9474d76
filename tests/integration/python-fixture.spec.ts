/**
 * The Python fixture (python/kds_sim_fixture.py) and its pytest conftest.py, as a Python team
 * copies them beside its suite: attached to a running simulator the way docs/ci.md's recipes set
 * it (KDS_SIM_URL, KDS_SIM_ADMIN_TOKEN), and started from the installed package
 * (node_modules/.bin/kds-sim, found by itself); and every failure saying why. The image way runs
 * in npm run test:image (tests/image/python.spec.ts). pytest: Debian's python3-pytest
 * (scripts/setup.sh installs it).
 */
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnAgent, type AgentProcess } from '../helpers/process.ts';

const suite = mkdtempSync(join(tmpdir(), 'kds-pytest-'));
for (const file of ['python/kds_sim_fixture.py', 'python/conftest.py'])
	copyFileSync(join(ROOT, file), join(suite, file.split('/')[1]));
for (const file of ['test_kitchen_pytest.py', 'test_failures.py'])
	copyFileSync(join(ROOT, 'tests/integration/python', file), join(suite, file));
afterAll(() => rmSync(suite, { recursive: true, force: true }));

/** The test runner's environment without the kds-sim settings a developer may have set. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { PYTHONDONTWRITEBYTECODE: '1' };
	for (const [name, value] of Object.entries(process.env))
		if (!/^KDS_(?!NODE_)/.test(name)) env[name] = value;
	return { ...env, ...extra };
}

function python(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
	const run = spawnSync('python3', args, {
		cwd,
		env: cleanEnv(env),
		encoding: 'utf8',
		timeout: 180_000
	});
	if (run.error)
		throw new Error(`python3: ${run.error.message} (apt-get install python3 python3-pytest)`);
	return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('attached to a running simulator (KDS_SIM_URL, KDS_SIM_ADMIN_TOKEN)', () => {
	let agent: AgentProcess;
	beforeAll(async () => {
		agent = await spawnAgent(
			['--memory', '--http-port', '0', '--tcp-port', '0', '--log-level', 'silent'],
			{ KDS_ADMIN_TOKEN: 'admin-token-1234' },
			{ bundle: true }
		);
	});
	afterAll(() => agent?.child.kill('SIGTERM'));

	it('the pytest suite passes through conftest.py, and the simulator runs on', async () => {
		const run = python(
			['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_kitchen_pytest.py'],
			suite,
			{
				KDS_SIM_URL: agent.httpUrl,
				KDS_SIM_ADMIN_TOKEN: 'admin-token-1234',
				KDS_EXPECT_WAY: 'attach'
			}
		);
		expect(run.out).toMatch(/5 passed/);
		expect(run.status).toBe(0);
		expect((await fetch(`${agent.httpUrl}/health`)).status).toBe(200);
	});

	it('with a wrong admin token, attach says which setting to fix', () => {
		const run = python(
			[
				'-c',
				'from kds_sim_fixture import KdsSim\ntry:\n    KdsSim.attach()\nexcept Exception as e:\n    print(e)'
			],
			suite,
			{ KDS_SIM_URL: agent.httpUrl, KDS_SIM_ADMIN_TOKEN: 'wrong-token-5678' }
		);
		expect(run.out).toMatch(/answered 403 .*set KDS_SIM_ADMIN_TOKEN to its KDS_ADMIN_TOKEN/s);
	});
});

describe('started from the installed package (node_modules/.bin/kds-sim, found by itself)', () => {
	it('the same pytest suite passes, and the simulator is stopped after it', () => {
		const project = mkdtempSync(join(suite, 'project-'));
		mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
		// As npm links an installed package's bin: node_modules/.bin/kds-sim -> the launcher.
		symlinkSync(join(ROOT, 'bin/kds-sim.js'), join(project, 'node_modules/.bin/kds-sim'));
		for (const file of ['kds_sim_fixture.py', 'conftest.py', 'test_kitchen_pytest.py'])
			copyFileSync(join(suite, file), join(project, file));
		const run = python(['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], project, {
			KDS_EXPECT_WAY: 'package'
		});
		expect(run.out).toMatch(/5 passed/);
		expect(run.status).toBe(0);
	});
});

describe('every failure says why', () => {
	it('no URL, nothing answering, no package, no engine, the engine refusing a missing image', () => {
		// A stand-in engine: what podman 4 prints for an image it cannot pull, and its exit code.
		const engine = join(suite, 'fake-podman');
		writeFileSync(
			engine,
			'#!/bin/sh\nfor a; do last=$a; done\n' +
				'echo "Trying to pull docker.io/library/$last..." >&2\n' +
				'echo "Error: initializing source docker://$last: reading manifest 1 in docker.io/library/kds-sim-missing: requested access to the resource is denied" >&2\nexit 125\n'
		);
		chmodSync(engine, 0o755);
		const run = python(['-m', 'unittest', '-v', 'test_failures.py'], suite, {
			KDS_FAKE_ENGINE: engine
		});
		expect(run.out).toMatch(/^Ran 5 tests in /m);
		expect(run.out).toMatch(/^OK$/m);
		expect(run.status).toBe(0);
	});
});
