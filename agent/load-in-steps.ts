/**
 * Loading a large CommonJS dependency tree (pino, Fastify, @fastify/static) after the screens'
 * TCP ports are open, without holding the event loop for the whole of it: the tree's slowest
 * modules are required one per turn of the event loop, before the package itself, so an order
 * that arrives meanwhile waits for one module at most (npm run bench -- start reports the
 * slowest wait while the HTTP stack loads). Kept on measurement: it roughly halves the longest
 * wait of an order in the first seconds after a start, with 0 to 100,000 stored orders, at no
 * measurable cost to the whole start (docs/architecture.md, "Machinery kept on measurement").
 */
import { createRequire } from 'node:module';

/** Let the event loop run (an order that arrived is answered) before the next step. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Require each chain, one per turn of the event loop. A chain names a package as `from` resolves
 * it, then a module as that package resolves it, and so on: `['fast-json-stringify', 'ajv']` is
 * the very ajv fast-json-stringify requires (packages may have copies of their own). Only the last
 * name of a chain is loaded; the others are only resolved. A chain that does not resolve (another
 * version of the tree, or a bundler's layout) is skipped: the package loads what it needs itself.
 */
export async function requireInSteps(from: NodeJS.Require, chains: string[][]): Promise<void> {
	for (const chain of chains) {
		try {
			let require = from;
			for (const name of chain.slice(0, -1)) require = createRequire(require.resolve(name));
			require(chain[chain.length - 1]);
		} catch {
			// not in this tree: loaded, if at all, by the package itself
		}
		await breathe();
	}
}
