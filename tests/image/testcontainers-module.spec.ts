/**
 * `kds-sim/testcontainers` (docs/testcontainers.md), the package's Testcontainers module, as a
 * Node team imports it (the package's own export, dist/testcontainers.js), against the image the
 * image tests build, through podman's Docker-compatible API: the image's ports exposed, the wait
 * on /health, the getters (base URL, token, each screen's TCP endpoint), and the admin helpers
 * (reset, faults) with the admin token the module set.
 *
 * The settings of tests/image/testcontainers.spec.ts: DOCKER_HOST (podman's API socket),
 * TESTCONTAINERS_RYUK_DISABLED (the reaper is an image that cannot be pulled here),
 * TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 (this machine has /.dockerenv).
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { sendTcp } from '../../agent/tcp/client.ts';
import { IMAGE, podman } from './podman.ts';

process.env.DOCKER_HOST = inject('dockerHost');
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
// The package's own export at run time; its types from the source it is built from, so the type
// check (npm test runs it before the build makes dist/types) needs no build.
const MODULE: string = 'kds-sim/testcontainers';
const { KdsSimContainer, KDS_SIM_IMAGE } = (await import(
	MODULE
)) as typeof import('../helpers/testcontainers.ts');

const TOKEN = 'tc-module-token';
let kds: Awaited<ReturnType<InstanceType<typeof KdsSimContainer>['start']>>;

const order = (id: string, name: string) => ({
	id,
	name,
	time: new Date().toISOString(),
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Bánh mì 🥖', qty: 2, mods: [{ name: 'No chili' }] }]
});

beforeAll(async () => {
	expect(KDS_SIM_IMAGE).toBe('ghcr.io/kds-sim/kds-sim:0.1');
	kds = await new KdsSimContainer(IMAGE).withHostIp('127.0.0.1').withToken(TOKEN).start();
});
afterAll(async () => {
	const id = kds?.getId();
	await kds?.stop({ timeout: 2000 });
	if (id) expect(podman('ps', '-a', '-q', '--filter', `id=${id}`)).toBe('');
});

it('is healthy once start() resolves, at the base URL it gives, with the token it was given', async () => {
	expect(kds.getBaseUrl()).toBe(`http://127.0.0.1:${kds.getMappedPort(8104)}`);
	expect((await fetch(`${kds.getBaseUrl()}/health`)).status).toBe(200);
	expect(kds.getToken()).toBe(TOKEN);
	expect(kds.getAdminToken()).toMatch(/^kds-admin-[0-9a-f]{16}$/);
	expect(kds.getScreens().map((s) => s.id)).toEqual(['kds-1', 'kds-2']);
});

it("takes a POS's orders on each screen's TCP endpoint and over HTTP, and shows them", async () => {
	const grill = kds.getScreenEndpoint('kds-1');
	expect(grill).toEqual({ host: '127.0.0.1', port: kds.getMappedPort(9104) });
	expect(
		await sendTcp(grill.host, grill.port, {
			command: 'create-order',
			order: order('T-1', 'Zoë 寿司')
		})
	).toBe('T-1');
	const expo = kds.getScreenEndpoint('kds-2');
	expect(
		await sendTcp(expo.host, expo.port, { command: 'create-order', order: order('T-2', 'Expo') })
	).toBe('T-2');
	const res = await fetch(`${kds.getBaseUrl()}/integrators/kds-orders`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-integration-token': kds.getToken(),
			'x-location-id': 'loc-1',
			'x-device-ids': 'kds-1'
		},
		body: JSON.stringify(order('H-1', 'Web'))
	});
	expect(res.status).toBe(201);
	expect((await kds.screenJson('kds-1')).cards.map((c) => c.title)).toEqual(['Zoë 寿司', 'Web']);
	expect((await kds.screenJson('kds-2')).cards.map((c) => c.title)).toEqual(['Expo']);
	expect(() => kds.getScreenEndpoint('kds-9')).toThrow('No screen kds-9');
});

it('the admin helpers carry the admin token; without it the container refuses', async () => {
	const bare = await fetch(`${kds.getBaseUrl()}/api/admin/screens/kds-1`);
	expect(bare.status).toBe(403);
	const fault = await kds.addFault({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
	expect(fault).toMatchObject({ kind: 'lost-reply', screen: 'kds-1', count: 1 });
	const grill = kds.getScreenEndpoint('kds-1');
	// Committed and shown, the reply lost: the connection closes with nothing read.
	expect(
		await sendTcp(grill.host, grill.port, { command: 'create-order', order: order('L-1', 'Lost') })
	).toBe('');
	expect((await kds.screenJson('kds-1')).cards.map((c) => c.title)).toContain('Lost');
	expect((await kds.listFaults())[0]).toMatchObject({ kind: 'lost-reply', fired: 1 });
	await kds.resetFaults();
	expect(await kds.listFaults()).toEqual([]);
	await kds.reset('kds-2');
	expect((await kds.screenJson('kds-2')).cards).toEqual([]);
	expect((await kds.screenJson('kds-1')).cards.length).toBe(3);
	await kds.reset();
	expect((await kds.screenJson('kds-1')).cards).toEqual([]);
});
