// The release workflow's first step (.github/workflows/release.yml, docs/release.md): what a
// version tag releases, or one sentence saying why it must not.
//
//   node scripts/release-plan.mjs --tag v0.1.0 --repository owner/name [--registry-check]
//   node scripts/release-plan.mjs --bump-fixture   (npm version's `version` script)
//
// Refuses (exit 1): a tag that is not `v` + package.json's version; a package.json whose
// repository is not the repository the workflow runs in (npm refuses the provenance of such a
// package); a Python fixture whose default image is not this release's; with --registry-check
// (`npm view`, the public registry), a version already published, or a `kds-sim` there that
// names another repository (someone else's package under this name: publish nothing).
// Prints the plan (version, npm dist-tag, pre-release or not, image name) and, under GitHub
// Actions, writes it to $GITHUB_OUTPUT.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * @typedef {string | { url?: string }} Repository
 * @typedef {{ name: string, version: string, repository?: Repository }} Package
 * @typedef {{ versions?: string | string[], repository?: Repository }} Published
 */

/**
 * `git+https://github.com/Owner/Name.git` and the like as `owner/name`; null: not GitHub.
 * @param {Repository | undefined} repository
 */
export function githubRepository(repository) {
	const url = typeof repository === 'string' ? repository : repository?.url;
	const match = /github\.com[/:]([^/]+)\/([^/#]+?)(?:\.git)?\/?(?:#.*)?$/i.exec(url ?? '');
	return match ? `${match[1]}/${match[2]}`.toLowerCase() : null;
}

/**
 * The plan for `tag` of `pkg` (package.json) released from GitHub `repository` (owner/name),
 * with `fixture` the text of python/kds_sim_fixture.py and `published` what the registry says
 * of the name (npm view's JSON: { versions, repository }), null when it has no such package
 * and undefined when it was not asked. Throws an Error of one sentence when the tag must not
 * be released.
 * @param {{ pkg: Package, tag: string, repository: string, fixture?: string, published?: Published | null }} options
 */
export function releasePlan({ pkg, tag, repository, fixture, published }) {
	if (tag !== `v${pkg.version}`) {
		throw new Error(
			`The tag ${tag} is not package.json's version ${pkg.version}: tag v${pkg.version}, or set "version" to ${tag.replace(/^v/, '')} (npm version ${tag.replace(/^v/, '')}) and tag that commit.`
		);
	}
	const declared = githubRepository(pkg.repository);
	if (declared !== repository.toLowerCase()) {
		throw new Error(
			`package.json's repository is ${declared ?? 'not a GitHub repository'}, but this release runs in ${repository}: npm refuses provenance for a package that names another repository; set "repository.url" to "git+https://github.com/${repository}.git".`
		);
	}
	const [, major, , prereleasePart] = /^(\d+)\.(\d+)\.\d+(-.+)?$/.exec(pkg.version) ?? [];
	if (major === undefined) {
		throw new Error(
			`package.json's version ${pkg.version} is not a semantic version (1.2.3 or 1.2.3-rc.1).`
		);
	}
	const prerelease = prereleasePart !== undefined;
	const image = `ghcr.io/${repository.split('/')[0].toLowerCase()}/${pkg.name}`;
	const fixtureImage = /^DEFAULT_IMAGE = "([^"]*)"$/m.exec(fixture ?? '')?.[1];
	const expectedFixtureImage = fixtureImageOf(pkg, repository);
	if (fixtureImage !== expectedFixtureImage) {
		throw new Error(
			`python/kds_sim_fixture.py starts ${fixtureImage ?? 'no DEFAULT_IMAGE'} by default, not this release's image: set DEFAULT_IMAGE = "${expectedFixtureImage}".`
		);
	}
	if (published) {
		const owner = githubRepository(published.repository);
		if (owner !== repository.toLowerCase()) {
			throw new Error(
				`${pkg.name} on the registry names the repository ${owner ?? '(none)'}, not ${repository}: it is another project's package, so nothing is published under its name (docs/release.md: the name).`
			);
		}
		const versions = [published.versions ?? []].flat();
		if (versions.includes(pkg.version)) {
			throw new Error(
				`${pkg.name}@${pkg.version} is on the registry already: a version is published once; release ${pkg.name} with a new version.`
			);
		}
	}
	return {
		version: pkg.version,
		'dist-tag': prerelease ? 'next' : 'latest',
		prerelease,
		image
	};
}

/**
 * The image the Python fixture starts by default for `pkg`'s version: the release's
 * `major.minor` tag (which later patch releases move), a pre-release's own version.
 * @param {Package} pkg
 * @param {string} repository
 */
export function fixtureImageOf(pkg, repository) {
	const [, major, minor, prerelease] = /^(\d+)\.(\d+)\.\d+(-.+)?$/.exec(pkg.version) ?? [];
	const image = `ghcr.io/${repository.split('/')[0].toLowerCase()}/${pkg.name}`;
	return `${image}:${prerelease ? pkg.version : `${major}.${minor}`}`;
}

/**
 * The fixture's text with DEFAULT_IMAGE set to `image`.
 * @param {string} fixture
 * @param {string} image
 */
export function withFixtureImage(fixture, image) {
	return fixture.replace(/^DEFAULT_IMAGE = "[^"]*"$/m, `DEFAULT_IMAGE = "${image}"`);
}

/**
 * What the public registry says of `name`: npm view's JSON, or null when it has none.
 * @param {string} name
 * @returns {Published | null}
 */
function registryView(name) {
	try {
		return JSON.parse(
			execFileSync('npm', ['view', name, 'versions', 'repository', '--json'], {
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe']
			})
		);
	} catch (caught) {
		const err = /** @type {{ stderr?: string, stdout?: string, message?: string }} */ (caught);
		if (/E404|404 Not Found/.test(String(err.stderr ?? err.stdout ?? ''))) return null;
		throw new Error(`npm view ${name} failed: ${String(err.stderr ?? err.message).trim()}`, {
			cause: caught
		});
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	try {
		const { values } = parseArgs({
			options: {
				tag: { type: 'string' },
				repository: { type: 'string' },
				'registry-check': { type: 'boolean' },
				'bump-fixture': { type: 'boolean' }
			},
			strict: true
		});
		const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
		if (values['bump-fixture']) {
			// npm version's `version` script: package.json has the new version already.
			const file = `${ROOT}python/kds_sim_fixture.py`;
			const image = fixtureImageOf(pkg, githubRepository(pkg.repository) ?? '');
			writeFileSync(file, withFixtureImage(readFileSync(file, 'utf8'), image));
			process.stdout.write(`python/kds_sim_fixture.py: DEFAULT_IMAGE = "${image}"\n`);
			process.exit(0);
		}
		if (!values.tag || !values.repository) {
			throw new Error(
				'Usage: node scripts/release-plan.mjs --tag v1.2.3 --repository owner/name [--registry-check]'
			);
		}
		const plan = releasePlan({
			pkg,
			tag: values.tag,
			repository: values.repository,
			fixture: readFileSync(`${ROOT}python/kds_sim_fixture.py`, 'utf8'),
			published: values['registry-check'] ? registryView(pkg.name) : undefined
		});
		const lines = Object.entries(plan).map(([key, value]) => `${key}=${value}`);
		process.stdout.write(`${lines.join('\n')}\n`);
		if (process.env.GITHUB_OUTPUT)
			appendFileSync(process.env.GITHUB_OUTPUT, `${lines.join('\n')}\n`);
	} catch (err) {
		process.stderr.write(`release: ${/** @type {Error} */ (err).message}\n`);
		process.exit(1);
	}
}
