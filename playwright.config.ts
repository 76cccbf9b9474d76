import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/helpers/chromium.ts';

/**
 * Browser tests of the kitchen screen. There is no webServer: each test starts its own agent
 * (in-memory store, OS-chosen ports) through the `simulator` fixture in tests/helpers/fixtures.ts,
 * so tests run in parallel without sharing orders. Run `npm run build` first: the agent serves
 * the built UI.
 */
const chromium = {
	browserName: 'chromium' as const,
	viewport: { width: 1280, height: 720 },
	launchOptions: chromiumLaunchOptions
};

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.e2e.ts',
	outputDir: 'test-results',
	workers: 2,
	retries: 0,
	fullyParallel: true,
	timeout: 60_000,
	// A 2-core CI machine runs two workers, each with an agent and a Chromium: first paint after a
	// cold start can take more than 5 s there. Every assertion still has to come true.
	expect: { timeout: 10_000 },
	reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
	use: {
		screenshot: 'only-on-failure',
		trace: 'retain-on-failure'
	},
	projects: [
		{ name: 'chromium', use: chromium },
		{
			// docs/testing.md's example, importing the built `kds-sim/testing` as an integrator would.
			name: 'integrator-example',
			testDir: 'examples/playwright',
			testMatch: '**/*.spec.ts',
			use: chromium
		}
	]
});
