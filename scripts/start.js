// npm start: build when the sources changed since the last build (scripts/build-stamp.js), then
// run the agent in this process, with the arguments after `npm start --`.
import { execSync } from 'node:child_process';
import { isCurrent } from './build-stamp.js';

if (isCurrent()) {
	process.stderr.write(
		'kds-sim: the build is current (nothing changed since it was made): not rebuilding\n'
	);
} else {
	execSync('npm run build', { stdio: 'inherit' });
}
process.setSourceMapsEnabled(true);
await import('../dist/agent.js');
