// npm run test:image: the container image built from the Containerfile and driven as a CI job
// drives it (docs/container.md, docs/ci.md). Apart from `vitest run`: it needs root and podman,
// and building the image takes minutes.
import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		root: new URL('../..', import.meta.url).pathname,
		include: ['tests/image/**/*.spec.ts'],
		globalSetup: ['tests/image/setup.ts'],
		expect: { requireAssertions: true },
		// One engine, one image: the specs run one after another.
		fileParallelism: false,
		testTimeout: 180_000,
		hookTimeout: 180_000
	}
});
