/**
 * /openapi.json and a readable reference at /docs: Swagger UI from the installed
 * swagger-ui-dist package (no CDN: the simulator must work offline), under the product's own
 * header with the way back to the screens and the inspector.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireInSteps } from '../../load-in-steps.ts';
import { buildOpenApiDocument } from '../openapi-document.ts';

const require = createRequire(import.meta.url);

/** @fastify/static's slowest dependencies, each a step of its own (agent/load-in-steps.ts). */
export const STATIC_PARTS = [
	['@fastify/static', '@fastify/accept-negotiator'],
	['@fastify/static', 'fastq'],
	['@fastify/static', 'fastify-plugin'],
	['@fastify/static', 'content-disposition'],
	['@fastify/static', '@fastify/error'],
	['@fastify/static', 'glob'],
	['@fastify/static', '@fastify/send']
];

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>kds-sim: integrator, simulator and admin API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<style>
/* The product's header (the UI's dark bar, its type and link colour) over Swagger UI's reference. */
body { margin: 0; background: #fafafa; }
.kds-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.6rem 1.25rem;
  background: #0a0a0a; color: #fafafa; font: 16px/1.4 ui-sans-serif, system-ui, sans-serif; }
.kds-bar a { color: #7dd3fc; text-decoration: underline; padding: 0.5rem 0; }
.kds-bar h1 { margin: 0; font-size: 1.5rem; font-weight: 800; }
.kds-bar span { color: #a3a3a3; }
</style>
</head>
<body>
<header class="kds-bar">
<a href="/">◀ Screens</a>
<h1>KDS simulator: API reference</h1>
<span>integrator API (the contract), simulator and admin API</span>
<a href="/inspector">Inspector</a>
<a href="/openapi.json">openapi.json</a>
</header>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
	url: '/openapi.json',
	dom_id: '#swagger-ui',
	deepLinking: true,
	layout: 'BaseLayout'
});
`;

export async function registerDocs(app: FastifyInstance, version: string): Promise<void> {
	// Built on the first request: generating it from the schemas costs start-up time and memory.
	let document: string | undefined;
	app.get('/openapi.json', async (_req, reply) =>
		reply
			.type('application/json; charset=utf-8')
			.send((document ??= JSON.stringify(buildOpenApiDocument(version))))
	);

	const page = async (_req: unknown, reply: FastifyReply) =>
		reply.type('text/html; charset=utf-8').send(PAGE);
	app.get('/docs', page); // and /docs/: the router ignores a trailing slash (server.ts)
	app.get('/docs/init.js', async (_req, reply) =>
		reply.type('text/javascript; charset=utf-8').send(INIT)
	);

	// The production bundle carries the page's files in dist/swagger-ui/ (scripts/build-agent.js
	// copies them there), so swagger-ui-dist, and its @scarf/scarf install script, stays out of a
	// user's install; run from the sources, they come from the devDependency itself.
	const bundled = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
	const getAbsoluteFSPath = existsSync(join(bundled, 'swagger-ui-bundle.js'))
		? () => bundled
		: (require('swagger-ui-dist/absolute-path.js') as () => string);
	// Loaded here rather than at the top: only when an HTTP server is built (see server.ts), and
	// its slowest dependencies a step at a time (about 60 ms in one block otherwise).
	await requireInSteps(require, STATIC_PARTS);
	const { default: fastifyStatic } = await import('@fastify/static');
	await app.register(fastifyStatic, {
		root: getAbsoluteFSPath(),
		prefix: '/docs/',
		index: false,
		decorateReply: false,
		allowedPath: (path) => /^\/[\w.-]+\.(js|css|png|map)$/.test(path)
	});
}
