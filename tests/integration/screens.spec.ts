/**
 * Several screens on one host: each on its own loopback address at the same port, as real
 * screens each have their own IP with port 9104. And the store failing: nothing acknowledged.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestAgent } from '../helpers/test-agent.ts';
import { DEFAULT_CONFIG } from '../../agent/config.ts';
import { sendTcp, TcpSession } from '../helpers/tcp.ts';
import { failNextCommit } from './store-faults.ts';

function freePort(host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer().once('error', reject);
		server.listen(0, host, () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

const order = (id: string) => ({
	command: 'create-order',
	order: { id, name: id, time: 1795338000000, mode: 'ToGo', items: [] }
});

describe('several screens on one host', () => {
	it.runIf(process.platform === 'linux')(
		'each screen on its own loopback address, same port',
		async () => {
			const port = await freePort('127.0.0.2');
			const config = structuredClone(DEFAULT_CONFIG);
			const [a, b] = config.brands[0].locations[0].screens as Array<{
				tcp: { host?: string; port: number };
			}>;
			a.tcp = { host: '127.0.0.2', port };
			b.tcp = { host: '127.0.0.3', port };
			// The config's own ports: every screen listens on the same port, on its own address.
			const agent = await startTestAgent({ tcpPort: undefined, config });
			try {
				expect(agent.screens.map((s) => `${s.tcp.host}:${s.tcp.port}`)).toEqual([
					`127.0.0.2:${port}`,
					`127.0.0.3:${port}`
				]);
				expect(await sendTcp('127.0.0.2', port, order('X1'))).toBe('X1');
				expect(await sendTcp('127.0.0.3', port, order('X1'))).toBe('X1');
				expect(await sendTcp('127.0.0.2', port, order('X1'))).toBe('DUPLICATE_ORDER_ID');
			} finally {
				await agent.close();
			}
		}
	);

	it('a TCP port already taken is refused at start-up with one sentence', async () => {
		const first = await startTestAgent();
		try {
			const taken = first.screens[0].tcp.port;
			await expect(startTestAgent({ tcpPort: taken })).rejects.toThrow(
				`Cannot listen for screen kds-1 on TCP 127.0.0.1:${taken}: EADDRINUSE`
			);
		} finally {
			await first.close();
		}
	});
});

describe('when the store cannot commit', () => {
	it('acknowledges nothing: the connection closes without a reply and the order is not shown', async () => {
		const agent = await startTestAgent();
		try {
			const { host, port } = agent.screens[0].tcp;
			expect(await sendTcp(host, port, order('OK1'))).toBe('OK1');
			failNextCommit(agent);
			const session = await TcpSession.open(host, port);
			const closed = new Promise((r) => session.socket.once('close', r));
			session.write(`${JSON.stringify(order('LOST'))}\n`);
			await closed;
			expect(agent.engine.queue('kds-1').map((r) => r.context.id)).toEqual(['OK1']);
			// The store works again: the same order can be sent again.
			expect(await sendTcp(host, port, order('LOST'))).toBe('LOST');
		} finally {
			await agent.close();
		}
	});
});
