// `npm run test:local`: every suite this machine can run, for a developer on Linux or macOS as
// any user (docs/contributing.md). It asks scripts/setup.sh what is missing (KDS_SETUP_LIST=1:
// Debian package names, and `root`), runs each suite whose needs are all there, in npm test's
// order, and ends with a summary that names, loudly, each suite it could not run and what that
// suite needs. Exit 1 when a suite that ran failed; 0 otherwise, NOT RUN lines and all (npm test,
// as root on Debian/Ubuntu, is the full gate CI runs). Nothing is installed. `-- --plan` prints
// which suites would run and which not, and runs none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What setup.sh says is missing: Debian package names (`php-cli php-curl` split), `root`. */
function missing() {
	const run = spawnSync('bash', ['scripts/setup.sh'], {
		cwd: ROOT,
		env: { ...process.env, KDS_SETUP_LIST: '1', KDS_SETUP_INSTALL: '0' },
		encoding: 'utf8'
	});
	return new Set(run.stdout.split(/\s+/).filter(Boolean));
}

/** A Chromium the browser suites can launch: the system's, or Playwright's own. */
function chromium() {
	if (existsSync('/usr/bin/chromium')) return true;
	const run = spawnSync(
		process.execPath,
		[
			'-e',
			"import('@playwright/test').then(({ chromium }) => process.exit(require('node:fs').existsSync(chromium.executablePath()) ? 0 : 1))"
		],
		{ cwd: ROOT }
	);
	return run.status === 0;
}

const absent = missing();
const hasChromium = chromium();
if (hasChromium) absent.delete('chromium');

/** Each suite: its npm script, and what it needs (Debian packages, `root`), with a word on why. */
const SUITES = [
	{ script: 'check', needs: [] },
	{ script: 'build', needs: [] },
	{ script: 'test:unit', needs: [] },
	{
		script: 'test:integration',
		needs: [
			'python3',
			'python3-pytest',
			'openjdk-17-jdk-headless',
			'curl',
			'perl',
			'php-cli',
			'php-curl',
			'ruby',
			'netcat-openbsd',
			'iproute2',
			'systemd'
		],
		why: 'the client zoo, the Python fixture, the README examples, the Pi installer',
		after: 'build'
	},
	{ script: 'check:example', needs: [], after: 'build' },
	{
		script: 'test:e2e',
		needs: [
			'chromium',
			'netcat-openbsd',
			'fonts-noto-cjk',
			'fonts-noto-color-emoji',
			'fonts-noto-core'
		],
		why: "a Chromium (Debian's, or `npx playwright install chromium`) and the fonts the cards are drawn in",
		after: 'build'
	},
	{
		script: 'test:package',
		needs: ['python3', 'chromium'],
		why: 'Verdaccio from the npm registry, a Chromium, python3',
		after: 'build'
	},
	{
		script: 'test:image',
		needs: ['root', 'podman', 'runc', 'mmdebstrap', 'iptables', 'docker-compose', 'python3-yaml'],
		why: 'Linux, root (rootful podman) and the image tools',
		after: 'build'
	}
];

const plan = process.argv.includes('--plan');
const results = [];
const line = (text) => process.stdout.write(`${text}\n`);
for (const suite of SUITES) {
	const lacking = suite.needs.filter((need) => absent.has(need));
	const blocked =
		suite.after &&
		results.find((r) => r.script === suite.after && !['passed', 'would run'].includes(r.status));
	if (lacking.length || blocked) {
		const what = blocked
			? `needs a passing \`npm run ${suite.after}\``
			: `needs ${lacking.join(', ')} (${suite.why})`;
		results.push({ script: suite.script, status: 'NOT RUN', what });
		line(`\n==== npm run ${suite.script}: NOT RUN, ${what}`);
		continue;
	}
	if (plan) {
		results.push({ script: suite.script, status: 'would run', what: '' });
		continue;
	}
	line(`\n==== npm run ${suite.script}`);
	const started = Date.now();
	const run = spawnSync('npm', ['run', suite.script], { cwd: ROOT, stdio: 'inherit' });
	const seconds = ((Date.now() - started) / 1000).toFixed(0);
	results.push({
		script: suite.script,
		status: run.status === 0 ? 'passed' : 'FAILED',
		what: `${seconds} s`
	});
}

const notRun = results.filter((r) => r.status === 'NOT RUN');
const failed = results.filter((r) => r.status === 'FAILED');
line('\n==== npm run test:local: summary');
for (const r of results)
	line(`  ${r.status.padEnd(9)} npm run ${r.script.padEnd(18)} ${r.what}`.trimEnd());
if (notRun.length) {
	const packages = [...absent].filter((p) => p !== 'root');
	line('');
	line('!'.repeat(78));
	line(
		`!! ${notRun.length} suite(s) NOT RUN on this machine: ${notRun.map((r) => r.script).join(', ')}`
	);
	if (packages.length)
		line(
			`!! Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')} (elsewhere: the same tools)`
		);
	if (absent.has('root'))
		line('!! The image tests need root: sudo -E npm run test:image, as CI does (npm test).');
	line('!! CI runs every suite (npm test, as root): what was not run here runs there.');
	line('!'.repeat(78));
}
process.exit(failed.length ? 1 : 0);
