import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';
import { INTEGRATION_SPECS, SOCKET_SPECS, UNIT_SPECS } from './tests/test-projects.ts';

// `npm run dev` serves the UI with hot reload and forwards the agent's routes to a running agent.
const agent = process.env.KDS_AGENT_URL ?? 'http://127.0.0.1:8104';

export default defineConfig({
	plugins: [
		tailwindcss(),
		// SvelteKit 3 takes its configuration here (svelte.config.js is gone). The agent mounts
		// build/handler.js on its own HTTP port (see agent/http/).
		sveltekit({ preprocess: vitePreprocess(), adapter: adapter({ out: 'build' }) })
	],
	server: {
		proxy: {
			'/ws': { target: agent, ws: true },
			'/api': agent,
			'/integrators': agent,
			'/openapi.json': agent
		}
	},
	test: {
		// As the agent runs them (agent/app.ts): every schema compiled on its first parse.
		setupFiles: ['zod/compile'],
		expect: { requireAssertions: true },
		testTimeout: 20_000,
		hookTimeout: 20_000,
		// `npm run test:unit` is the unit project, `npm run test:integration` the other; `vitest
		// run` (and npm test, through both scripts) runs every spec of both. tests/unit/test-split.spec.ts
		// holds the split: each spec in exactly one project, no socket in the unit one.
		projects: [
			{ extends: true, test: { name: 'unit', include: UNIT_SPECS, exclude: SOCKET_SPECS } },
			{ extends: true, test: { name: 'integration', include: INTEGRATION_SPECS } }
		]
	}
});
