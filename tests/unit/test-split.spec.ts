/**
 * The split of the Vitest specs (tests/test-projects.ts, vite.config.ts's projects): every spec
 * runs in exactly one of `npm run test:unit` and `npm run test:integration`, so npm test, which
 * runs both, runs every spec it ran before the split (134 files on 2026-12-07); and the unit
 * project, the contributor's quick loop, opens no socket and starts no agent.
 */
import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_SPECS, SOCKET_SPECS, UNIT_SPECS } from '../test-projects.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const files = (patterns: string[]) => new Set(patterns.flatMap((p) => globSync(p, { cwd: ROOT })));
const unit = files(UNIT_SPECS);
for (const f of files(SOCKET_SPECS)) unit.delete(f);
const integration = files(INTEGRATION_SPECS);
const all = files(
	['core', 'src', 'agent', 'tests/unit', 'tests/integration'].map((d) => `${d}/**/*.spec.ts`)
);

describe('the unit and integration projects', () => {
	it('hold every spec, each in one of them', () => {
		expect(all.size).toBeGreaterThanOrEqual(134);
		expect([...unit].filter((f) => integration.has(f))).toEqual([]);
		expect([...all].filter((f) => !unit.has(f) && !integration.has(f))).toEqual([]);
		expect(unit.size + integration.size).toBe(all.size);
	});

	it('leave sockets, agents and processes out of the unit project', () => {
		const io =
			/from 'node:(net|dgram|http|https)'|startAgent|startTestAgent|agentTest\(|spawnAgent|new WebSocket\(|\.listen\(/;
		const self = 'tests/unit/test-split.spec.ts'; // its pattern names them
		expect(unit.has(self)).toBe(true);
		expect(
			[...unit].filter((f) => f !== self && io.test(readFileSync(`${ROOT}${f}`, 'utf8')))
		).toEqual([]);
	});
});
