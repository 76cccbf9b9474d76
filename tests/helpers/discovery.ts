/**
 * Simulators whose screens a POS can discover, for tests: each screen on TCP 9104 (the port a
 * POS sends to) at a loopback address of its own, 127.a.b.c, drawn at random so that parallel
 * test runs on one machine do not collide (retried when one is taken).
 */
import { DEFAULT_CONFIG, type SimConfigInput } from '../../agent/config.ts';
import { startAgent, type AgentOptions, type RunningAgent } from '../../agent/app.ts';

const randomLoopback = () => {
	const octet = () => 1 + Math.floor(Math.random() * 254);
	// 127.0.x.x is left alone: 127.0.0.1 and its neighbours are what other tests and tools use.
	return `127.${octet()}.${octet()}.${octet()}`;
};

/** The embedded demo's brand and location with `names.length` screens, kds-1…, on `hosts`:9104. */
export function discoverableConfig(hosts: string[], names: string[]): SimConfigInput {
	const config: SimConfigInput = structuredClone(DEFAULT_CONFIG);
	config.brands[0].locations[0].screens = names.map((name, i) => ({
		id: `kds-${i + 1}`,
		name,
		type: 'android',
		version: '2.21.30',
		tcp: { host: hosts[i], port: 9104 }
	}));
	return config;
}

/** Start an in-memory simulator with one screen per name, each on <its own 127.a.b.c>:9104. */
export async function startDiscoverable(
	names: string[],
	options: AgentOptions = {}
): Promise<RunningAgent> {
	for (let attempt = 1; ; attempt++) {
		const hosts = names.map(randomLoopback);
		try {
			return await startAgent({
				memory: true,
				httpPort: 0,
				logLevel: 'silent',
				...options,
				config: discoverableConfig(hosts, names)
			});
		} catch (err) {
			if (attempt >= 5 || !/EADDRINUSE/.test((err as Error).message)) throw err;
		}
	}
}
