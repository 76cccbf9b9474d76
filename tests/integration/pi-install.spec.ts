/**
 * The Raspberry Pi installer (deploy/pi/install.sh) against a scratch root (--root DIR): the
 * files it writes and what they say, the same tree when run twice, the user's own autostart kept,
 * a clean uninstall; unit files checked with systemd-analyze verify where it exists. Under
 * --root the installer changes nothing outside DIR: no apt, no systemctl, no users.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const INSTALLER = join(ROOT, 'deploy/pi/install.sh');
const roots: string[] = [];
afterEach(() => {
	for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Folders every Raspberry Pi OS has: the installer writes into them and leaves them in place. */
const SYSTEM_DIRS = ['/etc/systemd/system', '/usr/lib/sysusers.d', '/usr/local/bin'];

/** A scratch root holding `files` (path → content), like a fresh Pi with user pi. */
function scratch(files: Record<string, string> = {}): string {
	const root = mkdtempSync(join(tmpdir(), 'kds-pi-'));
	roots.push(root);
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

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

/** systemd-analyze verify on a copy of the unit (executables missing here replaced by /bin/sh). */
function verify(unitPath: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'kds-unit-'));
	roots.push(dir);
	const copy = join(dir, unitPath.split('/').pop()!);
	copyFileSync(unitPath, copy);
	writeFileSync(copy, readFileSync(copy, 'utf8').replace('/usr/bin/cage', '/bin/sh'));
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
			'ExecStart=/usr/bin/node $KDS_NODE_FLAGS --enable-source-maps /opt/kds-sim/dist/agent.js',
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
			KDS_KIOSK_ROTATE: '90'
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

	it.runIf(hasSystemdAnalyze)('systemd-analyze verify finds nothing to say about the unit', () => {
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
		if (hasSystemdAnalyze)
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

	it('the kiosk waits until /health answers 200, then starts Chromium full screen on the URL', async () => {
		const bin = mkdtempSync(join(tmpdir(), 'kds-kiosk-'));
		roots.push(bin);
		// A stand-in for Chromium that writes down how it was started.
		writeFileSync(join(bin, 'chromium'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${bin}/args\n`, {
			mode: 0o755
		});
		let asked = 0;
		const server = createServer((_req, res) => {
			asked += 1;
			res.writeHead(asked < 3 ? 503 : 200).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const url = `http://127.0.0.1:${port}/screens/kds-1?kiosk&cursor=none`;
			const result = await new Promise<number | null>((resolve) =>
				spawn('sh', [join(ROOT, 'deploy/pi/kds-sim-kiosk')], {
					env: {
						PATH: `${bin}:${process.env.PATH}`,
						HOME: bin,
						KDS_KIOSK_ENV: join(bin, 'none.env'),
						KDS_KIOSK_URL: url,
						KDS_KIOSK_HEALTH: `http://127.0.0.1:${port}/health`
					}
				}).on('exit', resolve)
			);
			expect(result).toBe(0);
			expect(asked).toBe(3);
			const args = readFileSync(join(bin, 'args'), 'utf8').trim().split('\n');
			expect(args.slice(0, 2)).toEqual(['--kiosk', `--app=${url}`]);
			for (const flag of [
				'--noerrdialogs',
				'--disable-session-crashed-bubble',
				'--disable-pinch',
				'--touch-events=enabled',
				'--disable-component-update'
			]) {
				expect(args).toContain(flag);
			}
		} finally {
			server.close();
		}
	});

	it('the kiosk script is valid sh, and the installer valid bash', () => {
		expect(() => execFileSync('sh', ['-n', join(ROOT, 'deploy/pi/kds-sim-kiosk')])).not.toThrow();
		expect(() => execFileSync('bash', ['-n', INSTALLER])).not.toThrow();
	});
});
