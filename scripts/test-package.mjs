// `npm run test:package`: the package as an integrator gets it, tested on loopback only.
//
// 1. `npm pack` the built tree (npm test builds first; `prepack` builds when run alone).
// 2. Publish the tarball to a private registry on loopback: Verdaccio, installed from the npm
//    registry into .cache/verdaccio (not a project dependency), proxying the npm registry for
//    the package's own dependencies.
// 3. In an empty folder: `npx kds-sim --help`, `send --help`, `fleet-config`, `discover` (one
//    second, loopback), then `npx kds-sim` itself on free ports with --ready-file; a TCP order and
//    an HTTP order, the UI page and the screen's JSON view; data kept in ./data of that folder;
//    SIGTERM to npx stops it and frees its ports.
// 4. The Playwright example project (examples/playwright) installed there against the installed
//    package, run in Chromium; then the Python example (examples/python) in that project, against
//    the kds-sim it installed.
// 5. The README's Playwright snippet as pasted, in empty projects on the machine's older Node and
//    on Node 24 (docs/package.md#how-the-package-is-tested).
//
// Prints "N passed, N failed"; exits 1 on any failure, with a sentence naming it.
import { execFileSync, spawn } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERDACCIO_DIR = join(ROOT, '.cache/verdaccio');
const VERDACCIO = '6.10.4';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'kds-package-'));
const children = [];
let passed = 0;
let failed = 0;

function check(ok, what, detail = '') {
	if (ok) passed++;
	else failed++;
	process.stdout.write(
		`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `\n     ${detail}` : ''}\n`
	);
	return ok;
}

function fatal(sentence) {
	process.stderr.write(`test:package: ${sentence}\n`);
	cleanUp();
	process.exit(1);
}

function cleanUp() {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
	rmSync(work, { recursive: true, force: true });
}

const freePort = () =>
	new Promise((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, probe, ms) {
	const end = Date.now() + ms;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > end) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
		await sleep(100);
	}
}

function sh(command, args, options = {}) {
	return execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe', ...options });
}

// --- 1. the tarball -------------------------------------------------------------------------
if (!existsSync(join(ROOT, 'dist/agent.js')) || !existsSync(join(ROOT, 'build/handler.js')))
	fatal('the package is not built: run `npm run build` first (npm test does).');
const packed = JSON.parse(
	sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT })
)[0];
const tarball = join(work, packed.filename);
const files = packed.files.map((f) => f.path);
check(
	[
		'bin/kds-sim.js',
		'dist/agent.js',
		'dist/testing.js',
		'dist/testcontainers.js',
		'build/handler.js',
		'python/kds_sim_fixture.py',
		'python/conftest.py',
		'LICENSE'
	].every((f) => files.includes(f)) && files.some((f) => f.startsWith('dist/types/')),
	`the tarball holds the agent, the UI, the testing helpers, the Testcontainers module and their types, the Python fixture and its conftest.py (${files.length} files, ${(packed.size / 1024 / 1024).toFixed(1)} MB packed, ${(packed.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked)`,
	files.join(' ')
);
const unwanted = files.filter((f) => /\.spec\.ts$|^tests\/|^bench\/|screenshots|\.map$/.test(f));
check(
	unwanted.length === 0,
	'the tarball holds no tests, benches, screenshots or source maps',
	unwanted.join(' ')
);

// --- 2. Verdaccio on loopback ---------------------------------------------------------------
const verdaccioBin = join(VERDACCIO_DIR, 'node_modules/verdaccio/bin/verdaccio');
if (!existsSync(verdaccioBin)) {
	mkdirSync(VERDACCIO_DIR, { recursive: true });
	// node-fetch@cjs is a dist-tag the registry does not carry: pin the version it stands for.
	writeFileSync(
		join(VERDACCIO_DIR, 'package.json'),
		JSON.stringify({ private: true, overrides: { 'node-fetch': '2.7.0' } })
	);
	try {
		sh('npm', ['install', `verdaccio@${VERDACCIO}`, '--no-audit', '--no-fund'], {
			cwd: VERDACCIO_DIR
		});
	} catch (err) {
		fatal(
			`cannot install Verdaccio ${VERDACCIO} from the npm registry into .cache/verdaccio (${
				String(err.stderr ?? err)
					.trim()
					.split('\n')[0]
			}): install it there with \`npm install verdaccio@${VERDACCIO}\`.`
		);
	}
}
const registryPort = await freePort();
const registry = `http://127.0.0.1:${registryPort}`;
const upstream = sh('npm', ['config', 'get', 'registry']).trim();
writeFileSync(
	join(work, 'verdaccio.yaml'),
	[
		`storage: ${join(work, 'storage')}`,
		'auth: { htpasswd: { file: ./htpasswd, max_users: -1 } }',
		`uplinks: { upstream: { url: ${JSON.stringify(upstream)}, timeout: 60s } }`,
		'packages:',
		`  '${pkg.name}': { access: $all, publish: $all }`,
		`  '**': { access: $all, proxy: upstream }`,
		'log: { type: stdout, format: pretty, level: warn }',
		'server: { keepAliveTimeout: 60 }',
		''
	].join('\n')
);
const verdaccio = spawn(
	process.execPath,
	[verdaccioBin, '--config', join(work, 'verdaccio.yaml'), '--listen', `127.0.0.1:${registryPort}`],
	{ stdio: ['ignore', 'pipe', 'pipe'] }
);
children.push(verdaccio);
let verdaccioLog = '';
verdaccio.stdout.on('data', (d) => (verdaccioLog += d));
verdaccio.stderr.on('data', (d) => (verdaccioLog += d));
try {
	await until(
		'Verdaccio to answer',
		async () =>
			(await fetch(`${registry}/-/ping`)
				.then((r) => r.ok)
				.catch(() => false)) || undefined,
		60_000
	);
} catch (err) {
	fatal(`${err.message}:\n${verdaccioLog}`);
}
const npmrc = join(work, 'npmrc');
writeFileSync(npmrc, `registry=${registry}/\n//127.0.0.1:${registryPort}/:_authToken=local-test\n`);
const npmEnv = {
	...process.env,
	npm_config_userconfig: npmrc,
	npm_config_registry: `${registry}/`,
	npm_config_cache: join(work, 'npm-cache'),
	npm_config_update_notifier: 'false',
	npm_config_audit: 'false',
	npm_config_fund: 'false'
};
// Not npm's own variables of the `npm test` this runs under (they would point npx at this repo).
for (const name of Object.keys(npmEnv))
	if (
		/^npm_(lifecycle|package|config_(?!userconfig|registry|cache|update_notifier|audit|fund))/.test(
			name
		)
	)
		delete npmEnv[name];
sh('npm', ['publish', tarball, '--registry', `${registry}/`], { env: npmEnv, cwd: work });
const view = JSON.parse(sh('npm', ['view', pkg.name, '--json'], { env: npmEnv, cwd: work }));
check(
	view.version === pkg.version &&
		view.bin?.['kds-sim'] === 'bin/kds-sim.js' &&
		view.license === 'MIT',
	`published ${pkg.name}@${view.version} to ${registry}: bin kds-sim survives packing, license ${view.license}`,
	JSON.stringify({ bin: view.bin, license: view.license })
);

// --- 3. npx kds-sim in an empty folder ------------------------------------------------------
const empty = join(work, 'empty');
mkdirSync(empty);
const npx = (args, options = {}) =>
	sh('npx', ['--yes', `${pkg.name}@${pkg.version}`, ...args], {
		env: npmEnv,
		cwd: empty,
		timeout: 300_000,
		...options
	});
try {
	const started = Date.now();
	const help = npx(['--help']);
	check(
		help.includes('--ready-file') &&
			help.startsWith('kds-sim') &&
			['start', 'send', 'discover', 'fleet-config'].every((c) =>
				new RegExp(`^  ${c} `, 'm').test(help)
			),
		`npx kds-sim --help lists its options and the commands start, send, discover, fleet-config (first run installs it: ${((Date.now() - started) / 1000).toFixed(1)} s)`,
		help
	);
	check(npx(['send', '--help']).includes('kds-sim send'), 'npx kds-sim send --help');
	const fleet = JSON.parse(npx(['fleet-config', '--locations', '2', '--screens', '3']));
	const screens = fleet.brands?.[0]?.locations?.flatMap((l) => l.screens) ?? [];
	check(
		screens.length === 6,
		`npx kds-sim fleet-config --locations 2 --screens 3 prints a config of ${screens.length} screens`
	);
	const found = npx(['discover', '--seconds', '1', '--json', '--bind', '127.0.0.1', '--port', '0']);
	check(
		Array.isArray(JSON.parse(found)),
		'npx kds-sim discover --seconds 1 --json (loopback) lists what it heard'
	);
} catch (err) {
	check(
		false,
		'the installed kds-sim command answers',
		String(err.stderr || err.message).slice(0, 2000)
	);
}

const readyFile = join(empty, 'ready.json');
const sim = spawn(
	'npx',
	[
		'--yes',
		`${pkg.name}@${pkg.version}`,
		'--http-port',
		'0',
		'--tcp-port',
		'0',
		'--ready-file',
		readyFile
	],
	{
		env: npmEnv,
		cwd: empty,
		stdio: ['ignore', 'pipe', 'pipe']
	}
);
children.push(sim);
let simLog = '';
sim.stdout.on('data', (d) => (simLog += d));
sim.stderr.on('data', (d) => (simLog += d));
let ready;
try {
	ready = await until(
		'the ready file',
		() => (existsSync(readyFile) ? JSON.parse(readFileSync(readyFile, 'utf8')) : undefined),
		120_000
	);
	check(
		true,
		`npx kds-sim on free ports wrote its ready file (HTTP ${ready.http.url}, ${ready.screens.length} screens)`
	);
} catch (err) {
	check(false, 'npx kds-sim starts', `${err.message}\n${simLog}`);
}
if (ready) {
	check(
		ready.storage === join(empty, 'data', 'kds.sqlite') && existsSync(ready.storage),
		`outside a clone it keeps its data in ./data of the folder it was started in (${ready.storage})`
	);
	const [screen] = ready.screens;
	const reply = await new Promise((resolve) => {
		let out = '';
		const socket = connect(screen.tcp.port, screen.tcp.host, () =>
			socket.end(
				JSON.stringify({
					command: 'create-order',
					order: {
						id: 'P-1',
						name: 'Zoë 寿司 🍣',
						time: Date.now(),
						mode: 'ToGo',
						items: [{ lineId: '1', name: 'Fries', qty: 1, mods: [] }]
					}
				})
			)
		);
		socket.on('data', (d) => (out += d));
		socket.on('close', () => resolve(out.trim()));
		socket.on('error', (e) => resolve(`error: ${e.message}`));
	});
	check(reply === 'P-1', `a TCP order to ${screen.id} is acknowledged with its id`, reply);
	const http = await fetch(`${ready.http.url}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': ready.brands[0].token,
			'x-location-id': screen.location,
			'x-device-ids': screen.id
		},
		body: JSON.stringify({
			id: 'P-2',
			name: 'Sam',
			time: new Date().toISOString(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Burger', qty: 1, mods: [] }]
		})
	});
	check(
		http.status === 201,
		'an HTTP order is answered 201',
		`${http.status} ${await http.text()}`
	);
	const viewRes = await fetch(`${ready.http.url}/api/admin/screens/${screen.id}`);
	const titles = viewRes.ok ? (await viewRes.json()).cards.map((c) => c.title) : [];
	check(
		titles.includes('Zoë 寿司 🍣') && titles.includes('Sam'),
		`the screen shows both orders (${titles.join(', ')})`
	);
	const page = await fetch(screen.url);
	const html = await page.text();
	check(
		page.status === 200 && html.includes('<html') && html.includes('/_app/'),
		`the UI page ${screen.url} is served from the installed package`
	);
	const swagger = await fetch(`${ready.http.url}/docs/swagger-ui-bundle.js`);
	check(
		swagger.status === 200 && (await swagger.arrayBuffer()).byteLength > 100_000,
		'/docs serves Swagger UI from the package (dist/swagger-ui), with no swagger-ui-dist installed',
		String(swagger.status)
	);
	sim.kill('SIGTERM');
	const code = await new Promise((r) =>
		sim.exitCode !== null ? r(sim.exitCode) : sim.once('exit', r)
	);
	const stopped = await until(
		'the simulator to stop',
		() => {
			try {
				process.kill(ready.pid, 0);
				return undefined;
			} catch {
				return true;
			}
		},
		10_000
	).catch(() => false);
	check(stopped === true, `SIGTERM to npx (exit ${code}) stops the simulator (pid ${ready.pid})`);
}

// --- 4. the examples against the installed package -------------------------------------------
const project = join(work, 'example');
mkdirSync(project);
cpSync(join(ROOT, 'examples/playwright'), project, { recursive: true });
writeFileSync(
	join(project, 'package.json'),
	JSON.stringify({ name: 'kitchen-tests', private: true, type: 'module' })
);
writeFileSync(
	join(project, 'playwright.config.js'),
	`import { existsSync } from 'node:fs';
export default {
	testDir: '.',
	testMatch: '*.spec.ts',
	workers: 1,
	reporter: 'line',
	use: {
		launchOptions: {
			...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update']
		}
	}
};
`
);
try {
	const playwrightVersion = JSON.parse(
		readFileSync(join(ROOT, 'node_modules/@playwright/test/package.json'), 'utf8')
	).version;
	sh('npm', ['install', `${pkg.name}@${pkg.version}`, `@playwright/test@${playwrightVersion}`], {
		env: { ...npmEnv, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
		cwd: project,
		timeout: 300_000
	});
	const installed = JSON.parse(
		readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8')
	);
	check(
		installed.version === pkg.version &&
			!existsSync(join(project, 'node_modules', pkg.name, 'agent')),
		`the example project installed ${pkg.name}@${installed.version} from the registry (the package, not the working tree)`
	);
	const extra = ['swagger-ui-dist', '@scarf/scarf'].filter((name) =>
		existsSync(join(project, 'node_modules', name))
	);
	check(
		extra.length === 0,
		"a user's install holds no swagger-ui-dist and no @scarf/scarf (its install script)",
		extra.join(' ')
	);
	const out = sh('npx', ['playwright', 'test'], { env: npmEnv, cwd: project, timeout: 600_000 });
	check(
		/\d+ passed/.test(out) && !/failed/.test(out),
		`examples/playwright against the installed package: ${(/(\d+ passed)/.exec(out) ?? ['?'])[0]}`
	);
} catch (err) {
	check(
		false,
		'examples/playwright against the installed package',
		`${err.stdout ?? ''}${err.stderr ?? err.message}`.slice(-3000)
	);
}
try {
	// In the project that installed the package: kds_sim.py finds node_modules/.bin/kds-sim itself.
	cpSync(join(ROOT, 'examples/python'), join(project, 'python'), { recursive: true });
	const pyEnv = { ...npmEnv };
	delete pyEnv.KDS_SIM_COMMAND;
	const python = sh('python3', ['-m', 'unittest', '-v'], {
		cwd: join(project, 'python'),
		env: pyEnv,
		timeout: 300_000
	});
	check(
		true,
		"examples/python (standard library) against the project's installed kds-sim, found by itself",
		python
	);
} catch (err) {
	const missing = err.code === 'ENOENT' ? ' (python3 is missing: apt-get install python3)' : '';
	check(
		false,
		`examples/python against the installed kds-sim${missing}`,
		`${err.stdout ?? ''}${err.stderr ?? err.message}`.slice(-3000)
	);
}

// --- 5. the README's Playwright snippet, as pasted, on the machine's Node and on Node 24 -------
// An empty folder per Node: the README's install line (the tarball, @playwright/test), the
// README's snippet as a spec file, no Playwright config, `npx playwright test`. The browser: the
// one setting the README names (KDS_SIM_CHROMIUM) where Playwright's own is not installed.
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const snippet = [...README.matchAll(/```ts\n([\s\S]*?)```/g)]
	.map((m) => m[1])
	.find((b) => b.includes("from 'kds-sim/testing'"));
const installLine = /^npm install -D \.\/kds-sim-[\d.]+\.tgz @playwright\/test$/m.exec(README)?.[0];
check(
	Boolean(snippet && installLine),
	'the README has a Playwright snippet importing kds-sim/testing and the line that installs it (npm install -D ./kds-sim-<version>.tgz @playwright/test)'
);

/** Node binaries on this machine: the one PATH had before the launcher (older?) and Node 24. */
function nodesToTry() {
	const found = new Map();
	const version = (bin) => {
		try {
			return sh(bin, ['--version']).trim();
		} catch {
			return null;
		}
	};
	found.set(version(process.execPath), dirname(process.execPath));
	for (const dir of (process.env.PATH ?? '').split(delimiter)) {
		const bin = join(dir, 'node');
		const v = existsSync(bin) ? version(bin) : null;
		if (v && !found.has(v)) found.set(v, dir);
	}
	return [...found].filter(([v]) => v).map(([v, dir]) => ({ version: v, dir }));
}
const nodes = nodesToTry();
const older = nodes.find((n) => Number(n.version.slice(1).split('.')[0]) < 22);
const newer = nodes.find((n) => Number(n.version.slice(1).split('.')[0]) >= 24);
if (!older)
	process.stdout.write(
		'NOT RUN the README snippet on a Node older than 22.17: this machine has none on PATH\n'
	);
const systemChromium = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null;
for (const node of [older, newer].filter(Boolean)) {
	if (!snippet || !installLine) break;
	const dir = join(work, `readme-${node.version}`);
	mkdirSync(dir);
	const env = {
		...npmEnv,
		PATH: `${node.dir}${delimiter}${process.env.PATH}`,
		// The Node 24 the launcher fetches for an older Node: this clone's, not a second download.
		...(existsSync(join(ROOT, '.cache/node24/bin/node'))
			? { KDS_NODE_CACHE: join(ROOT, '.cache/node24') }
			: {}),
		...(systemChromium ? { KDS_SIM_CHROMIUM: systemChromium } : {})
	};
	for (const name of Object.keys(env))
		if (/^KDS_(?!NODE_CACHE$|SIM_CHROMIUM$)/.test(name)) delete env[name];
	try {
		const playwrightVersion = JSON.parse(
			readFileSync(join(ROOT, 'node_modules/@playwright/test/package.json'), 'utf8')
		).version;
		cpSync(tarball, join(dir, packed.filename));
		// The README's line, with Playwright pinned to this project's version (the registry here is
		// a proxy; the newest Playwright may not be in it).
		sh(
			'sh',
			['-c', installLine.replace('@playwright/test', `@playwright/test@${playwrightVersion}`)],
			{ env, cwd: dir, timeout: 300_000 }
		);
		writeFileSync(join(dir, 'kitchen.spec.ts'), snippet);
		const started = Date.now();
		const out = sh('npx', ['playwright', 'test', '--reporter=line'], {
			env,
			cwd: dir,
			timeout: 600_000
		});
		check(
			/1 passed/.test(out) && !/failed/.test(out),
			`the README's snippet as pasted, in an empty project on Node ${node.version} (${(
				(Date.now() - started) /
				1000
			).toFixed(
				1
			)} s; the simulator ${Number(node.version.slice(1).split('.')[0]) < 22 ? 'as a child process on the Node 24 the kds-sim command runs on' : 'in the test process'}${systemChromium ? `, KDS_SIM_CHROMIUM=${systemChromium}` : ''})`,
			out
		);
	} catch (err) {
		check(
			false,
			`the README's snippet as pasted, in an empty project on Node ${node.version}`,
			`${err.stdout ?? ''}${err.stderr ?? err.message}`.slice(-3000)
		);
	}
	if (node !== newer) continue;
	// Neither Playwright's browser nor the setting: one line naming both.
	try {
		sh('npx', ['playwright', 'test', '--reporter=line'], {
			env: { ...env, KDS_SIM_CHROMIUM: '', PLAYWRIGHT_BROWSERS_PATH: join(dir, 'no-browsers') },
			cwd: dir,
			timeout: 300_000
		});
		check(false, 'without a browser the snippet fails, naming both ways to get one');
	} catch (err) {
		const out = `${err.stdout ?? ''}${err.stderr ?? ''}`;
		check(
			out.includes(
				"kds-sim/testing: no browser: Playwright's Chromium is not installed (`npx playwright install chromium`) and KDS_SIM_CHROMIUM names no system Chromium"
			),
			'without a browser the snippet fails with one line naming `npx playwright install chromium` and KDS_SIM_CHROMIUM',
			out.slice(-2000)
		);
	}
}

cleanUp();
process.stdout.write(`test:package: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
