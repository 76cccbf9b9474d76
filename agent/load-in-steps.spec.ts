/**
 * Loading dependency trees a module per turn of the event loop (load-in-steps.ts), and the lists
 * of steps the agent uses: each must name modules that exist in the installed trees, or its step
 * is silently skipped and the tree loads in one block again (npm run bench -- start would show
 * it as a long wait while the HTTP stack loads).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { STATIC_PARTS } from './http/integrators/docs.ts';
import { FASTIFY_PARTS } from './http/server.ts';
import { requireInSteps } from './load-in-steps.ts';
import { PINO_PARTS } from './log.ts';

const here = createRequire(import.meta.url);

describe('requireInSteps', () => {
	it('loads the last module of each chain a turn of the event loop apart, skipping what does not resolve', async () => {
		const events: string[] = [];
		const loaded: string[] = [];
		const fake = Object.assign((name: string) => loaded.push(name), {
			resolve: (name: string) => {
				if (name === 'missing') throw new Error('Cannot find module');
				return here.resolve('./load-in-steps.ts');
			}
		}) as unknown as NodeJS.Require;
		const done = requireInSteps(fake, [['a'], ['missing', 'b'], ['c']]).then(() =>
			events.push('done')
		);
		events.push(`sync: ${loaded.join(',')}`);
		// The first step runs before the caller goes on, the next ones after turns of the loop.
		await new Promise((resolve) => setImmediate(resolve));
		events.push(`after a turn: ${loaded.join(',')}`);
		await done;
		expect(events).toEqual(['sync: a', 'after a turn: a', 'done']);
		// The chain that does not resolve is skipped, without a throw.
		expect(loaded).toEqual(['a', 'c']);
	});
});

describe('the steps the agent loads its trees in resolve in this install', () => {
	const resolves = (from: NodeJS.Require, chain: string[]) => {
		let require = from;
		for (const name of chain) {
			const file = require.resolve(name);
			require = createRequire(file);
		}
		return true;
	};
	it.each([
		['Fastify', 'fastify', FASTIFY_PARTS],
		['pino', 'pino', PINO_PARTS],
		['@fastify/static', null, STATIC_PARTS]
	] as const)('%s', (_, root, parts) => {
		const from = root ? createRequire(here.resolve(root)) : here;
		const missing = parts.filter((chain) => {
			try {
				return !resolves(from, [...chain]);
			} catch {
				return true;
			}
		});
		expect(missing).toEqual([]);
	});
});
