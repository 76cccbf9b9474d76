// npm start: build when the sources changed since the last build (scripts/build-stamp.js), then
// run the agent in this process, with the arguments after `npm start --`. The build's own output
// (Vite's hundred-odd lines, its "run npm run preview" advice) is kept back: one line says it is
// building and one how long it took; a failed build prints all of it and stops.
import { spawnSync } from 'node:child_process';
import { isCurrent } from './build-stamp.js';

if (isCurrent()) {
	process.stderr.write(
		'kds-sim: the build is current (nothing changed since it was made): not rebuilding\n'
	);
} else {
	process.stderr.write(
		'kds-sim: building the UI and the agent (the first start, or a source changed since the last build)...\n'
	);
	const started = Date.now();
	const build = spawnSync('npm', ['run', 'build'], {
		stdio: ['ignore', 'pipe', 'pipe'],
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024
	});
	if (build.status !== 0) {
		process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
		process.stderr.write(
			`kds-sim: the build failed (${build.error ? build.error.message : `exit ${build.status}`}): its output is above.\n`
		);
		process.exit(1);
	}
	process.stderr.write(`kds-sim: built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
process.setSourceMapsEnabled(true);
await import('../dist/agent.js');
