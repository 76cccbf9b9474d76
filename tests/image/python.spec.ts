/**
 * The Python fixture of docs/ci.md as a Python team gets it: `python/kds_sim_fixture.py` taken
 * out of the package `npm pack` makes (the file the npm package and the GitHub release carry),
 * beside the team's suite, `python3 -m unittest` over tests/image/python (standard library only;
 * it knows nothing of Node), against the image.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { IMAGE, PODMAN_ENV, ROOT } from './podman.ts';

const suite = mkdtempSync(join(tmpdir(), 'kds-python-'));
afterAll(() => rmSync(suite, { recursive: true, force: true }));

it('the package holds kds_sim_fixture.py, and a stdlib unittest suite using it passes against the image', () => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', suite], {
			cwd: ROOT,
			encoding: 'utf8'
		})
	) as { filename: string; files: { path: string }[] }[];
	expect(packed.files.map((f) => f.path)).toContain('python/kds_sim_fixture.py');
	execFileSync('tar', [
		'-xzf',
		join(suite, packed.filename),
		'-C',
		suite,
		'--strip-components=2',
		'package/python/kds_sim_fixture.py'
	]);
	expect(existsSync(join(suite, 'kds_sim_fixture.py'))).toBe(true);
	copyFileSync(
		join(ROOT, 'tests/image/python/test_kds_sim_image.py'),
		join(suite, 'test_kds_sim_image.py')
	);
	const run = spawnSync('python3', ['-m', 'unittest', '-v', 'test_kds_sim_image.py'], {
		cwd: suite,
		env: { ...PODMAN_ENV, KDS_ENGINE: 'podman', KDS_IMAGE: IMAGE, PYTHONDONTWRITEBYTECODE: '1' },
		encoding: 'utf8',
		timeout: 150_000
	});
	expect(run.stderr).toMatch(/^Ran 4 tests in /m);
	expect(run.stderr).toMatch(/^OK$/m);
	expect(run.status).toBe(0);
});

it("run_image names an image that is not there with podman's own message and how to build it", () => {
	// localhost/…: podman looks for it on a registry at localhost (loopback only) and fails.
	const run = spawnSync(
		'python3',
		[
			'-c',
			[
				'from kds_sim_fixture import KdsSim, KdsSimError',
				'try:',
				'    KdsSim.run_image(image="localhost/kds-sim-missing:1")',
				'except KdsSimError as e:',
				'    print(e)'
			].join('\n')
		],
		{
			cwd: suite,
			env: { ...PODMAN_ENV, KDS_ENGINE: 'podman', PYTHONDONTWRITEBYTECODE: '1' },
			encoding: 'utf8',
			timeout: 120_000
		}
	);
	expect(run.stdout).toMatch(
		/^podman run localhost\/kds-sim-missing:1 failed \(exit 125\): .*Error: /s
	);
	expect(run.stdout).toContain(
		'The image localhost/kds-sim-missing:1 is not there: build it in a clone of kds-sim with `podman build -t kds-sim -f Containerfile .`'
	);
});
