import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

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
		include: [
			'core/**/*.spec.ts',
			'src/**/*.spec.ts',
			'agent/**/*.spec.ts',
			'tests/unit/**/*.spec.ts',
			'tests/integration/**/*.spec.ts'
		],
		// As the agent runs them (agent/app.ts): every schema compiled on its first parse.
		setupFiles: ['zod/compile'],
		expect: { requireAssertions: true },
		testTimeout: 20_000,
		hookTimeout: 20_000
	}
});
