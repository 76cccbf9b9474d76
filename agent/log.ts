/**
 * Structured logging with pino (Fastify's own logger): JSON lines on stderr, cheap when a level
 * is off, so per-message debug logs cost nothing on the hot path by default.
 *
 * Pino and its dependencies take a good part of the agent's start-up (about 30 ms of module
 * loading on the 2-core build machine), and nothing is logged before the screens' TCP ports are
 * open unless something goes wrong. So the simulator starts with a lazy logger: pino is loaded
 * at its first use, or by `loadLogger` a part per turn of the event loop once the TCP listeners
 * answer (agent/app.ts; npm run bench -- start).
 */
import { createRequire } from 'node:module';
import type { DestinationStream, Logger } from 'pino';
import { requireInSteps } from './load-in-steps.ts';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const requireHere = createRequire(import.meta.url);
let pinoModule: typeof import('pino') | undefined;

export interface LoggerOptions {
	/** Load pino only when the logger is first used, or by `loadLogger`. */
	lazy?: boolean;
	/** Where the JSON lines go (default: stderr, asynchronously). */
	destination?: DestinationStream;
}

function newPino(level: LogLevel, destination: DestinationStream | undefined): Logger {
	pinoModule ??= requireHere('pino') as typeof import('pino');
	const { pino } = pinoModule;
	return pino({ level, base: undefined }, destination ?? pino.destination({ fd: 2, sync: false }));
}

/**
 * A pino logger at `level`. With `lazy`, pino itself is loaded only when the logger is first used
 * (or by `loadLogger`); until then the logger costs nothing.
 */
export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
	if (!options.lazy) return newPino(level, options.destination);
	let real: Logger | undefined;
	const realize = () => (real ??= newPino(level, options.destination));
	/** Rank of the least severe level on (LOG_LEVELS order); -1 when silent. */
	const lowest = level === 'silent' ? -1 : LOG_LEVELS.indexOf(level);
	// Until pino is loaded, a level that is off is a no-op that does not load it (the hot path's
	// debug logs), and `level` is known; anything else loads pino. Methods are handed out bound
	// to pino, so that its own `this` (in child(), in its level methods) is pino, never this
	// stand-in; one bound copy per method, made again only when pino replaces the method (a
	// level change swaps the level methods).
	type Method = (...args: unknown[]) => unknown;
	const bound = new Map<PropertyKey, { method: Method; bound: Method }>();
	const lazy = new Proxy({} as Logger, {
		get(_, key) {
			if (!real) {
				if (key === 'level') return level;
				const rank = LOG_LEVELS.indexOf(key as LogLevel);
				if (rank >= 0 && (key === 'silent' || rank > lowest)) return noop;
			}
			const target = realize();
			const value: unknown = Reflect.get(target, key);
			if (typeof value !== 'function') return value;
			let entry = bound.get(key);
			if (entry?.method !== value) {
				entry = { method: value as Method, bound: (value as Method).bind(target) };
				bound.set(key, entry);
			}
			return entry.bound;
		},
		set: (_, key, value) => Reflect.set(realize(), key, value),
		has: (_, key) => Reflect.has(realize(), key),
		getPrototypeOf: () => Reflect.getPrototypeOf(realize())
	});
	lazyLoggers.set(lazy, realize);
	return lazy;
}

const noop = () => {};

const lazyLoggers = new WeakMap<Logger, () => Logger>();

/**
 * Pino's dependencies that take longest to load, required one per turn of the event loop from
 * pino's own directory (the very modules pino then requires), quickest first; a name that does
 * not resolve (another pino version) is skipped.
 */
export const PINO_PARTS = [
	['quick-format-unescaped'],
	['atomic-sleep'],
	['on-exit-leak-free'],
	['safe-stable-stringify'],
	['@pinojs/redact'],
	['pino-std-serializers'],
	['sonic-boom'],
	['thread-stream']
];

/**
 * The pino instance behind `logger`, loaded now if it is a lazy logger not used yet: its parts
 * one per turn of the event loop, so that an order arriving meanwhile waits for one part at
 * most. Any other logger is returned as it is.
 */
export async function loadLogger(logger: Logger): Promise<Logger> {
	const realize = lazyLoggers.get(logger);
	if (!realize) return logger;
	if (!pinoModule) {
		try {
			await requireInSteps(createRequire(requireHere.resolve('pino')), PINO_PARTS);
		} catch {
			// pino not resolvable this way (a bundler's layout): loaded in one go below
		}
	}
	return realize();
}
