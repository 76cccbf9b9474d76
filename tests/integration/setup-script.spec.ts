/**
 * scripts/setup.sh, npm test's first step, where it cannot install: the one block naming each
 * missing thing and the command that installs it, and exit 1. The machine is simulated through
 * PATH (a folder holding only some tools) and KDS_SETUP_INSTALL=0 (report, never install). npm test
 * runs the script before this spec, so everything but what a PATH leaves out is there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SCRIPT = join(ROOT, 'scripts/setup.sh');
const DEBIAN = existsSync('/etc/debian_version');
const ROOT_USER = process.getuid?.() === 0;
const HEADER =
	'kds-sim set-up: npm test needs what this machine lacks (Debian package, and what needs it):';

/** A folder of links to every program on this PATH except `leaveOut`. */
function pathWithout(leaveOut: string[]): string {
	const bin = join(tempDir('kds-setup-path-'), 'bin');
	mkdirSync(bin);
	for (const dir of (process.env.PATH ?? '').split(':')) {
		if (!dir.startsWith('/') || !existsSync(dir)) continue;
		for (const name of readdirSync(dir)) {
			if (leaveOut.includes(name) || existsSync(join(bin, name))) continue;
			symlinkSync(join(dir, name), join(bin, name));
		}
	}
	return bin;
}

/** A folder holding only the given programs. */
function pathWith(tools: string[]): string {
	const bin = join(tempDir('kds-setup-path-'), 'bin');
	mkdirSync(bin);
	for (const tool of tools) {
		const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
		if (found) symlinkSync(found, join(bin, tool));
	}
	return bin;
}

function setup(path: string) {
	return spawnSync('/bin/bash', [SCRIPT], {
		env: { PATH: path, KDS_SETUP_INSTALL: '0', HOME: '/nonexistent' },
		encoding: 'utf8'
	});
}

describe('scripts/setup.sh where it does not install', () => {
	it('names exactly the missing tools, with their Debian packages and the command that installs them', () => {
		const result = setup(pathWithout(['ruby', 'nc']));
		const packages = 'netcat-openbsd ruby';
		expect(result.status).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			[
				HEADER,
				"  netcat-openbsd             the home page's pasted `nc -N` example (tests/e2e/home.e2e.ts)",
				'  ruby                       the client zoo (Ruby clients)',
				...(ROOT_USER
					? []
					: [
							'  root                       the image tests (rootful podman): run npm test as root'
						]),
				...(DEBIAN
					? [
							'Install them, then run npm test again:',
							`  sudo apt-get install -y ${packages}`,
							...(ROOT_USER ? [] : ['(as root, npm test installs them itself)'])
						]
					: [
							"This is not Debian/Ubuntu (no apt-get): install the same tools with this system's package",
							'manager, then run npm test again. The image tests need Linux with rootful podman; the other',
							'suites run on their own: npm run test:local (docs/contributing.md).'
						]),
				''
			].join('\n')
		);
	});

	it('on a system without apt-get, lists every tool the suites need and how to run the rest', () => {
		const result = setup(pathWith(['bash', 'id', 'grep', 'cat']));
		expect(result.status).toBe(1);
		const lines = result.stderr.split('\n');
		expect(lines[0]).toBe(HEADER);
		const packages = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.slice(2, 28).trim());
		expect(packages).toEqual(
			expect.arrayContaining([
				'python3',
				'openjdk-17-jdk-headless',
				'curl',
				'perl',
				'netcat-openbsd',
				'php-cli php-curl',
				'ruby',
				'iproute2',
				'systemd',
				'fonts-noto-cjk',
				'fonts-noto-color-emoji',
				'fonts-noto-core',
				'podman',
				'runc',
				'mmdebstrap',
				'iptables',
				'docker-compose',
				'python3-yaml'
			])
		);
		expect(result.stderr).toContain(
			'This is not Debian/Ubuntu (no apt-get): install the same tools with this system'
		);
		expect(result.stderr).not.toContain('apt-get install');
	});
});

describe('npm run test:image without podman', () => {
	it('says first, in one sentence, what is missing, and runs no test', () => {
		const result = spawnSync('npm', ['run', '--silent', 'test:image'], {
			cwd: ROOT,
			env: { ...process.env, PATH: pathWithout(['podman']) },
			encoding: 'utf8'
		});
		expect(result.status).not.toBe(0);
		expect(result.stdout).toBe('');
		expect(result.stderr.split('\n')[0]).toBe(
			'The image tests need podman: apt-get install podman runc mmdebstrap python3 python3-yaml docker-compose as root (npm test does it itself, as root on Debian/Ubuntu).'
		);
		expect(result.stderr).not.toContain('No test files found');
	});
});
