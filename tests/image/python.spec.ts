/**
 * The Python fixture of docs/ci.md, as a Python team runs it: `python3 -m unittest` over
 * tests/image/python (standard library only; it knows nothing of Node), against the image.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { IMAGE, PODMAN_ENV, ROOT } from './podman.ts';

it('the stdlib unittest suite of a Python POS team passes against the image', () => {
	const run = spawnSync('python3', ['-m', 'unittest', '-v', 'test_kds_sim_image.py'], {
		cwd: `${ROOT}tests/image/python`,
		env: { ...PODMAN_ENV, KDS_ENGINE: 'podman', KDS_IMAGE: IMAGE, PYTHONDONTWRITEBYTECODE: '1' },
		encoding: 'utf8',
		timeout: 150_000
	});
	expect(run.stderr).toMatch(/^Ran 4 tests in /m);
	expect(run.stderr).toMatch(/^OK$/m);
	expect(run.status).toBe(0);
});
