/**
 * The agent as the integration specs start it: loopback, OS-chosen ports (HTTP and every
 * screen's TCP), no UI, logs off, orders in memory unless a dataDir is given. Any option can be
 * overridden. Not part of kds-sim/testing (tests/helpers/index.ts): the project's own specs only.
 */
import { startAgent, type AgentOptions, type RunningAgent } from '../../agent/app.ts';

export const TEST_AGENT_OPTIONS = {
	httpPort: 0,
	tcpPort: 0,
	uiDir: null,
	logLevel: 'silent'
} as const satisfies AgentOptions;

export function startTestAgent(options: AgentOptions = {}): Promise<RunningAgent> {
	return startAgent({
		...TEST_AGENT_OPTIONS,
		memory: options.dataDir === undefined,
		...options
	});
}
