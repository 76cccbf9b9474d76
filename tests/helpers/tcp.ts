/**
 * TCP clients for a screen's order interface (port 9104), in the styles real POS code uses.
 * Exported for integrators' own test suites; they live with the agent (agent/tcp/client.ts), which
 * uses the same client for `kds-sim send`.
 */
export { sendTcp, sendTcpRaw, TcpSession } from '../../agent/tcp/client.ts';

/** A minimal TCP create-order for order `id`: one soup, ToGo, named `Crash <id>` (the crash specs). */
export const crashOrder = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: `Crash ${id}`,
		time: 1795338000000,
		mode: 'ToGo',
		items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
	}
});
