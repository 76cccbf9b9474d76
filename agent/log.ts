/**
 * Structured logging with pino (Fastify's own logger): JSON lines on stderr, cheap when a level
 * is off, so per-message debug logs cost nothing on the hot path by default.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function createLogger(level: LogLevel = 'info'): Logger {
	return pino({ level, base: undefined }, pino.destination({ fd: 2, sync: false }));
}
