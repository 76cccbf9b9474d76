// The build's stamp: a hash of everything `npm run build` reads, written when a build ends, so
// `npm start` skips the build when nothing changed since (scripts/start.js).
//
//   node scripts/build-stamp.js write   after a build (the last step of npm run build)
//   node scripts/build-stamp.js check   exit 0 when the build is current, 1 when it must run
//
// A hash of the contents, not the files' times: a checkout, a copy or a `touch` moves times without
// changing what the build makes. Specs (*.spec.ts) are left out: they are not built.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the build reads: folders walked whole, and single files. */
export const BUILD_INPUTS = [
	'agent',
	'core',
	'src',
	'static',
	'tests/helpers',
	'package.json',
	'package-lock.json',
	'vite.config.ts',
	'tsconfig.json',
	'tsconfig.testing.json',
	'scripts/build-agent.js',
	'scripts/build-testing.js'
];

/** What the build makes: a stamp over missing outputs is not current. */
export const BUILD_OUTPUTS = ['build/handler.js', 'dist/agent.js', 'dist/testing.js'];

/**
 * The files under `rel` (a folder walked in name order, or one file), specs left out.
 * @param {string} root
 * @param {string} rel
 * @returns {Generator<string>}
 */
function* files(root, rel) {
	const path = join(root, rel);
	if (!existsSync(path)) return;
	if (!statSync(path).isDirectory()) {
		yield rel;
		return;
	}
	for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) =>
		a.name < b.name ? -1 : 1
	)) {
		const child = `${rel}/${entry.name}`;
		if (entry.isDirectory()) yield* files(root, child);
		else if (entry.isFile() && !entry.name.endsWith('.spec.ts')) yield child;
	}
}

/**
 * The hash of the build's inputs under `root`.
 * @param {string} root
 */
export function inputsHash(root = ROOT) {
	const hash = createHash('sha256');
	for (const input of BUILD_INPUTS) {
		for (const file of files(root, input)) {
			hash.update(`${file}\0`);
			hash.update(readFileSync(join(root, file)));
			hash.update('\0');
		}
	}
	return hash.digest('hex');
}

/** @param {string} root */
const stampFile = (root) => join(root, '.cache', 'build-stamp');

/**
 * Whether the last build under `root` was made from the inputs as they are now.
 * @param {string} root
 */
export function isCurrent(root = ROOT) {
	if (!BUILD_OUTPUTS.every((f) => existsSync(join(root, f)))) return false;
	if (!existsSync(stampFile(root))) return false;
	return readFileSync(stampFile(root), 'utf8').trim() === inputsHash(root);
}

/**
 * Record that the build under `root` is current.
 * @param {string} root
 */
export function writeStamp(root = ROOT) {
	mkdirSync(join(root, '.cache'), { recursive: true });
	writeFileSync(stampFile(root), `${inputsHash(root)}\n`);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
	const [command, root = ROOT] = process.argv.slice(2);
	if (command === 'write') writeStamp(root);
	else if (command === 'check') process.exit(isCurrent(root) ? 0 : 1);
	else {
		process.stderr.write('usage: node scripts/build-stamp.js write|check [root]\n');
		process.exit(2);
	}
}
