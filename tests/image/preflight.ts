/**
 * npm run test:image's first step, before Vitest: without podman and the other tools, or without
 * root, one sentence says so and nothing else runs (Vitest would first report its own "No test
 * files found").
 */
import { missingTools } from './podman.ts';

const missing = missingTools();
if (missing) {
	process.stderr.write(`${missing}\n`);
	process.exit(1);
}
if ((process.getuid?.() ?? 0) !== 0) {
	process.stderr.write(
		'The image tests need root (rootful podman): run them as root, as CI does.\n'
	);
	process.exit(1);
}
