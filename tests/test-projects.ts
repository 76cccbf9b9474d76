// The Vitest projects of vite.config.ts: which spec runs in `npm run test:unit` and which in
// `npm run test:integration` (both in npm test). tests/unit/test-split.spec.ts holds the split.

/**
 * The quick loop (`npm run test:unit`, docs/contributing.md): the pure and component specs of the
 * core, the UI's state and the agent's modules, with no socket, no process and no browser.
 */
export const UNIT_SPECS = [
	'core/**/*.spec.ts',
	'src/**/*.spec.ts',
	'agent/**/*.spec.ts',
	'tests/unit/**/*.spec.ts'
];
/** Agent specs that open sockets (TCP, UDP, HTTP, WebSocket): with the integration suites. */
export const SOCKET_SPECS = [
	'agent/discovery/discovery.spec.ts',
	'agent/fleet/remote-link.spec.ts',
	'agent/http/drain.spec.ts',
	'agent/notify/webhook.spec.ts',
	'agent/tcp/server.spec.ts',
	'agent/tcp/shutdown.spec.ts',
	'agent/ws/browser-relay.spec.ts'
];
/** `npm run test:integration`: real sockets, processes, the client zoo, the CLI. */
export const INTEGRATION_SPECS = ['tests/integration/**/*.spec.ts', ...SOCKET_SPECS];
