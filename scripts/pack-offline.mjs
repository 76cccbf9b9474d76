// The package for a machine that reaches no registry: kds-sim-<version>-offline.tgz, the tarball
// `npm pack` makes with every production dependency inside it (npm's `bundleDependencies`), at
// the versions of package-lock.json. It installs with npm and no network at all:
//
//   npm install --global --offline ./kds-sim-0.1.0-offline.tgz       (any machine, Node 22.17+)
//   sudo deploy/pi/install.sh --node … --npm … --package ./kds-sim-0.1.0-offline.tgz   (a Pi)
//
//   npm run pack:offline                        builds, packs, writes ./kds-sim-<v>-offline.tgz
//   node scripts/pack-offline.mjs --from kds-sim-0.1.0.tgz [--pack-destination <dir>]
//                                               from a tarball `npm pack` made; nothing built
//
// The registry's package stays without them (docs/package.md says why). The dependencies are
// JavaScript only (storage is node:sqlite), so one offline tarball serves x64 and arm64: this
// script fails if a native addon (a .node file or binding.gyp) ever enters the production tree.
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function fail(sentence) {
	process.stderr.write(`pack-offline: ${sentence}\n`);
	process.exit(1);
}

let values;
try {
	({ values } = parseArgs({
		options: { from: { type: 'string' }, 'pack-destination': { type: 'string', default: '.' } }
	}));
} catch (error) {
	fail(
		`${error.message} (usage: node scripts/pack-offline.mjs [--from kds-sim-x.y.z.tgz] [--pack-destination dir])`
	);
}
const destination = resolve(values['pack-destination']);
if (values.from && !existsSync(values.from)) fail(`no such tarball: ${values.from} (--from)`);

/** Run npm in `cwd`; its output goes to ours only when it fails. */
function npm(args, cwd) {
	try {
		return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (error) {
		fail(`npm ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
	}
}

const work = mkdtempSync(join(tmpdir(), 'kds-pack-offline-'));
// Also when fail() exits, which skips the finally below.
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
try {
	// 1. The package as the registry gets it: built (as prepack would; a failed build stops here),
	// then packed.
	let tarball = values.from && resolve(values.from);
	if (!tarball) {
		try {
			execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
		} catch {
			fail('the build failed (above): nothing was packed');
		}
		const [packed] = JSON.parse(
			npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)
		);
		tarball = join(work, packed.filename);
	}
	const stage = join(work, 'stage');
	mkdirSync(stage);
	try {
		execFileSync('tar', ['xzf', tarball, '-C', stage, '--strip-components=1'], { stdio: 'pipe' });
	} catch {
		fail(`${tarball} is not a tarball npm pack made`);
	}
	if (!existsSync(join(stage, 'package.json'))) fail(`${tarball} is not a tarball npm pack made`);
	const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
	if (manifest.name !== 'kds-sim') fail(`${tarball} is ${manifest.name}, not kds-sim`);

	// 2. Its production dependencies at the tested versions (npm ci: the lockfile or nothing).
	copyFileSync(join(ROOT, 'package-lock.json'), join(stage, 'package-lock.json'));
	npm(
		['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
		stage
	);
	const native = [];
	const walk = (dir) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith('.node') || name === 'binding.gyp') native.push(path);
		}
	};
	walk(join(stage, 'node_modules'));
	if (native.length)
		fail(`a native addon is in the production tree (one tarball per machine would be needed):
${native.join('\n')}`);

	// 3. Packed with all of them inside.
	manifest.bundleDependencies = Object.keys(manifest.dependencies ?? {});
	writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
	rmSync(join(stage, 'package-lock.json'));
	const [offline] = JSON.parse(
		npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], stage)
	);
	const name = `kds-sim-${manifest.version}-offline.tgz`;
	mkdirSync(destination, { recursive: true });
	const out = join(destination, name);
	// Not rename: the work folder may sit on another file system (tmpfs).
	copyFileSync(join(work, offline.filename), out);
	// MB as npm pack and test:package print them (2^20 bytes).
	const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
	process.stdout.write(
		`${out}\n  ${offline.entryCount} files, ${mb(offline.size)} MB packed, ${mb(offline.unpackedSize)} MB unpacked; ` +
			`dependencies inside: ${offline.bundled.length} packages (${manifest.bundleDependencies.join(', ')} and theirs)\n`
	);
} finally {
	rmSync(work, { recursive: true, force: true });
}
