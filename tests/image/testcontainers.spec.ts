/**
 * Testcontainers for Node against podman's Docker-compatible API, as a Node team's test would
 * start the image (docs/ci.md): GenericContainer, wait for /health, then an order over HTTP and
 * one over TCP on the mapped ports.
 *
 * Three settings make it work here, each a finding of this test:
 * - DOCKER_HOST: podman's API socket (tests/image/setup.ts serves it).
 * - TESTCONTAINERS_RYUK_DISABLED: the reaper is an image of its own that cannot be pulled here;
 *   the test stops its container itself.
 * - TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1: this machine has /.dockerenv, so Testcontainers
 *   believes it runs inside a container and reaches mapped ports through the podman network's
 *   gateway (10.88.0.1), where ports published on 127.0.0.1 do not answer: /health never did.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { sendTcp } from '../../agent/tcp/client.ts';
import { IMAGE, podman } from './podman.ts';

process.env.DOCKER_HOST = inject('dockerHost');
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
const { GenericContainer, Wait } = await import('testcontainers');
type Started = Awaited<ReturnType<InstanceType<typeof GenericContainer>['start']>>;

const TOKEN = 'testcontainers-token';

/** Publishes on 127.0.0.1 only (Testcontainers publishes on every interface by default). */
class LoopbackContainer extends GenericContainer {
	protected override async beforeContainerCreated(): Promise<void> {
		const bindings = Object.values(this.hostConfig.PortBindings ?? {}) as { HostIp?: string }[][];
		for (const list of bindings) for (const binding of list) binding.HostIp = '127.0.0.1';
	}
}

let kds: Started | undefined;

beforeAll(async () => {
	kds = await new LoopbackContainer(IMAGE)
		// Every port the image EXPOSEs: podman 4.3's API reports the others as bindings with no
		// host port, and Testcontainers waits for each binding to get one.
		.withExposedPorts(8104, 9104, 9105)
		.withEnvironment({ KDS_TOKEN: TOKEN })
		.withWaitStrategy(Wait.forHttp('/health', 8104).forStatusCode(200))
		.withStartupTimeout(60_000)
		.start();
});
afterAll(async () => {
	const id = kds?.getId();
	await kds?.stop({ timeout: 2000 });
	// stop() removes the container: nothing of it may be left behind.
	if (id) expect(podman('ps', '-a', '-q', '--filter', `id=${id}`)).toBe('');
});

it('starts the image, waits for /health, and the mapped ports take orders', async () => {
	expect(kds?.getHost()).toBe('127.0.0.1');
	const base = `http://${kds!.getHost()}:${kds!.getMappedPort(8104)}`;
	const res = await fetch(`${base}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': TOKEN,
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-1'
		},
		body: JSON.stringify({
			id: 'tc-1',
			name: 'Testcontainers \u{1F35C}',
			time: new Date().toISOString(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Soup', qty: 1, mods: [] }]
		})
	});
	expect([res.status, await res.text()]).toEqual([201, expect.stringContaining('tc-1')]);
	const reply = await sendTcp('127.0.0.1', kds!.getMappedPort(9104), {
		command: 'create-order',
		order: {
			id: 'tc-2',
			name: 'TCP',
			time: Date.now(),
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Tea', qty: 1, mods: [] }]
		}
	});
	expect(reply).toBe('tc-2');
});
