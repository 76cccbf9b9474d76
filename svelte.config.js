import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// The agent mounts build/handler.js on its own HTTP port (see agent/http/).
		adapter: adapter({ out: 'build' })
	}
};

export default config;
