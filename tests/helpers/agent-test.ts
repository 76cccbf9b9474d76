/**
 * Vitest's `test` with the agent as a fixture, for the integration specs that share one agent
 * across a file: `agentTest()` starts it (startTestAgent: loopback, OS-chosen ports, orders in
 * memory) before the file's first test that asks for `agent`, and closes it after the last one.
 *
 *   const it = agentTest({ config: CONFIG });
 *   it.beforeEach(({ agent }) => agent.reset());
 *   it('answers the id', async ({ agent }) => { … });
 *
 * Specs that start an agent per test (a crash, a clock, a restart) start it themselves.
 */
import { test } from 'vitest';
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import { startTestAgent } from './test-agent.ts';

export function agentTest(options: AgentOptions = {}) {
	return test.extend(
		'agent',
		{ scope: 'file' },
		// Vitest reads a fixture's dependencies from its first parameter's pattern: none here.
		// eslint-disable-next-line no-empty-pattern
		async ({}, { onCleanup }): Promise<RunningAgent> => {
			const agent = await startTestAgent(options);
			onCleanup(() => agent.close());
			return agent;
		}
	);
}
