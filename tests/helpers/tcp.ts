/**
 * TCP clients for a screen's order interface (port 9104), in the styles real POS code uses.
 * Exported for integrators' own test suites; they live with the agent (agent/tcp/client.ts), which
 * uses the same client for `kds-sim send`.
 */
export { sendTcp, sendTcpRaw, TcpSession } from '../../agent/tcp/client.ts';
