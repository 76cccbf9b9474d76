/**
 * The lazy logger the simulator starts with (agent/log.ts): it writes what pino writes, costs
 * nothing for levels that are off, and hands out pino itself once loaded.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, loadLogger } from './log.ts';

/** A destination that keeps the JSON lines written to it. */
function lines() {
	const written: Array<Record<string, unknown>> = [];
	return {
		written,
		destination: { write: (line: string) => void written.push(JSON.parse(line)) }
	};
}

describe('a lazy logger', () => {
	it('writes the lines pino writes, with the same fields', () => {
		const lazy = lines();
		const eager = lines();
		createLogger('warn', { lazy: true, destination: lazy.destination }).warn(
			{ screen: 'kds-1' },
			'slow'
		);
		createLogger('warn', { destination: eager.destination }).warn({ screen: 'kds-1' }, 'slow');
		const withoutTime = ({ time: _, ...rest }: Record<string, unknown>) => rest;
		expect(lazy.written.map(withoutTime)).toEqual([{ level: 40, screen: 'kds-1', msg: 'slow' }]);
		expect(lazy.written.map(withoutTime)).toEqual(eager.written.map(withoutTime));
	});

	it('knows its level and writes nothing for the levels that are off', () => {
		const { written, destination } = lines();
		const logger = createLogger('warn', { lazy: true, destination });
		expect(logger.level).toBe('warn');
		logger.debug({ big: 'x' }, 'per-message detail');
		logger.info('started');
		logger.trace('trace');
		expect(written).toEqual([]);
		logger.error('failed');
		expect(written.map((l) => l.msg)).toEqual(['failed']);
	});

	it('writes nothing at all when silent', () => {
		const { written, destination } = lines();
		const logger = createLogger('silent', { lazy: true, destination });
		logger.fatal('x');
		logger.error('x');
		logger.silent('x');
		expect(written).toEqual([]);
	});

	it('gives child loggers that carry their bindings', () => {
		const { written, destination } = lines();
		const logger = createLogger('info', { lazy: true, destination });
		logger.child({ screen: 'kds-2' }).info('joined');
		expect(written).toMatchObject([{ level: 30, screen: 'kds-2', msg: 'joined' }]);
	});

	it('hands out pino itself once loaded, and a level set on either holds for both', async () => {
		const { written, destination } = lines();
		const logger = createLogger('warn', { lazy: true, destination });
		const real = await loadLogger(logger);
		expect(real).not.toBe(logger);
		expect(typeof real.child).toBe('function');
		logger.level = 'debug';
		expect(real.level).toBe('debug');
		logger.debug('now on');
		real.debug('from pino');
		expect(written.map((l) => l.msg)).toEqual(['now on', 'from pino']);
		expect(await loadLogger(real)).toBe(real);
	});
});
