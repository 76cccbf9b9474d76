/**
 * Test helpers for integrators' own Playwright suites (`import … from 'kds-sim/testing'`):
 * an isolated simulator per test, clients that speak TCP and HTTP like a POS, locators for a
 * screen's cards, and assertions about what a cook would see. The simulator's own suite uses
 * the same helpers.
 */
export * from './fixtures.ts';
export { sendTcp, sendTcpRaw, TcpSession } from './tcp.ts';
export type { AgentOptions, RunningAgent } from '../../agent/app.ts';
export type { SimConfig, SimConfigInput } from '../../agent/config.ts';
export { ManualClock, offsetClock } from '../../agent/clock.ts';
export {
	faultHelpers,
	type FaultHelpers,
	type Fault,
	type FaultSpecInput,
	type ResilienceReport
} from './faults.ts';
export {
	certifyHelpers,
	type CertifyHelpers,
	type CertifyOptions,
	type CertifyStep
} from './certify.ts';
