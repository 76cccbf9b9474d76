/**
 * The image as a CI job runs it (docs/container.md): started with a token from the environment,
 * ports published on 127.0.0.1 only, orders in a named volume. What a user would see: /health,
 * a TCP create-order answered with its id, an HTTP create answered 201, the orders still there
 * after stop and start, a process that is not root, a stop that takes less than 2 s, and the one
 * sentence a start without a token ends with.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendTcp } from '../../agent/tcp/client.ts';
import { hostPort, IMAGE, PODMAN_ENV, podman, waitFor200 } from './podman.ts';

const TOKEN = 'image-test-token';
const ADMIN_TOKEN = 'image-test-admin';
const tag = `kds-image-${process.pid}`;
const volume = `${tag}-data`;
const started: string[] = [];

function start(name: string, ...args: string[]): string {
	started.push(name);
	return podman(
		'run',
		'-d',
		'--name',
		name,
		'-p',
		'127.0.0.1::8104',
		'-p',
		'127.0.0.1::9104',
		'-e',
		`KDS_TOKEN=${TOKEN}`,
		'-e',
		`KDS_ADMIN_TOKEN=${ADMIN_TOKEN}`,
		'-v',
		`${volume}:/data`,
		...args,
		IMAGE
	);
}

const order = (id: string) => ({
	id,
	name: `Image ${id}`,
	time: new Date().toISOString(),
	mode: 'ToGo',
	items: [{ lineId: '1', name: 'Falafel wrap ü', qty: 1, mods: ['no onion'] }]
});

async function adminScreen(http: string) {
	const res = await fetch(`${http}/api/admin/screens/kds-1`, {
		headers: { 'x-admin-token': ADMIN_TOKEN }
	});
	expect(res.status).toBe(200);
	return (await res.json()) as { cards: { id: string; title: string }[] };
}

beforeAll(() => {
	podman('volume', 'create', volume);
});
afterAll(() => {
	for (const name of started) podman('rm', '-f', '-t', '0', name);
	podman('volume', 'rm', '-f', volume);
});

describe('the image', () => {
	let http = '';
	let tcpPort = 0;

	it('starts as the node user, not root, and answers /health on the published port', async () => {
		start(`${tag}-a`);
		http = `http://127.0.0.1:${hostPort(`${tag}-a`, 8104)}`;
		tcpPort = hostPort(`${tag}-a`, 9104);
		const res = await waitFor200(`${http}/health`);
		const body = (await res.json()) as { status: string; screens: { id: string }[] };
		expect(body.status).toBe('ok');
		expect(body.screens.map((s) => s.id)).toEqual(['kds-1', 'kds-2']);
		expect(podman('exec', `${tag}-a`, 'node', '-p', 'process.getuid()')).toBe('1000');
		// Every process of the container, as ps shows them: the node user.
		const users = podman('top', `${tag}-a`, 'user').split('\n').slice(1);
		expect(users.length).toBeGreaterThan(0);
		expect(new Set(users.map((u) => u.trim()))).toEqual(new Set(['node']));
		const config = JSON.parse(podman('image', 'inspect', IMAGE))[0].Config;
		expect(config.User).toBe('node');
		expect(Object.keys(config.Volumes)).toEqual(['/data']);
		expect(Object.keys(config.ExposedPorts).sort()).toEqual(['8104/tcp', '9104/tcp', '9105/tcp']);
	});

	it('its HEALTHCHECK passes', () => {
		// podman runs health checks with systemd timers, absent here: run the check once by hand.
		expect(podman('healthcheck', 'run', `${tag}-a`)).toBe('');
	});

	it('answers a TCP create-order with its id, and an HTTP create with the token of the environment', async () => {
		expect(
			await sendTcp('127.0.0.1', tcpPort, { command: 'create-order', order: order('tcp-1') })
		).toBe('tcp-1');
		const res = await fetch(`${http}/integrators/kds-orders`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-integration-token': TOKEN,
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			},
			body: JSON.stringify(order('http-1'))
		});
		expect([res.status, await res.text()]).toEqual([201, expect.stringContaining('http-1')]);
		const demo = await fetch(`${http}/integrators/kds-orders/active`, {
			headers: {
				'x-integration-token': 'kds-demo-token',
				'x-location-id': 'loc-1',
				'x-device-ids': 'kds-1'
			}
		});
		expect(demo.status).toBe(401);
		expect((await adminScreen(http)).cards.map((c) => c.id)).toEqual(['tcp-1', 'http-1']);
	});

	it('stops within 2 s of SIGTERM, and keeps the orders in its volume for the next start', async () => {
		// `stop -t 2`: SIGTERM, then SIGKILL if the container still runs 2 s later (exit 137).
		// Exit 0 is the simulator closing on SIGTERM within those 2 s, counted by podman from the
		// signal on (the podman command's own start-up, seconds under load, is not counted).
		const before = Date.now();
		podman('stop', '-t', '2', `${tag}-a`);
		const finished = Date.parse(
			podman('inspect', '-f', '{{.State.FinishedAt}}', `${tag}-a`)
				.replace(/ \+0000 UTC$/, 'Z')
				.replace(' ', 'T')
		);
		process.stdout.write(
			`image tests: exit ${finished - before} ms after \`podman stop\` was started\n`
		);
		expect(podman('inspect', '-f', '{{.State.ExitCode}}', `${tag}-a`)).toBe('0');
		expect(podman('logs', `${tag}-a`)).toContain('KDS simulator ready');

		start(`${tag}-b`);
		const again = `http://127.0.0.1:${hostPort(`${tag}-b`, 8104)}`;
		await waitFor200(`${again}/health`);
		expect((await adminScreen(again)).cards.map((c) => c.id)).toEqual(['tcp-1', 'http-1']);
		podman('rm', '-f', '-t', '0', `${tag}-b`);
	});

	it('without a token it stops at once with the one sentence of a start off loopback', () => {
		const name = `${tag}-c`;
		started.push(name);
		podman('run', '-d', '--name', name, IMAGE);
		expect(podman('wait', name)).toBe('2');
		// The container's own output (podman's notes about health-check timers are not in it).
		const out = spawnSync('podman', ['logs', name], { env: PODMAN_ENV, encoding: 'utf8' });
		expect(out.stdout).toBe('');
		expect(out.stderr).toBe(
			'Refusing to serve the demo integration token kds-demo-token on 0.0.0.0, where other hosts can use it: set a token of your own with --token <at least 8 characters> (KDS_TOKEN) or in the config file (brands[].token).\n'
		);
	});

	it('takes a whole config file mounted in (KDS_CONFIG): its screens on their ports, its token', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'kds-image-config-'));
		const file = join(dir, 'kds.json');
		const config = {
			brands: [
				{
					id: 'b-1',
					name: 'Pho \u{1F35C} Café',
					token: 'config-file-token',
					locations: [
						{
							id: 'shop-7',
							number: '7',
							name: 'Ladbroke Grove',
							address: { line1: '1 Rd', line2: null, city: 'London', state: 'LDN', zip: 'W10' },
							timezone: 'Europe/London',
							activeSubscription: true,
							screens: [
								{ id: 'wok', name: 'Wok', type: 'android', version: '2.21.30', tcp: { port: 9200 } }
							]
						}
					]
				}
			]
		};
		writeFileSync(file, JSON.stringify(config));
		chmodSync(dir, 0o755);
		chmodSync(file, 0o644);
		const name = `${tag}-d`;
		started.push(name);
		try {
			podman(
				'run',
				'-d',
				'--name',
				name,
				'-p',
				'127.0.0.1::8104',
				'-p',
				'127.0.0.1::9200',
				'-v',
				`${file}:/config/kds.json:ro`,
				'-e',
				'KDS_CONFIG=/config/kds.json',
				'-e',
				'KDS_MEMORY=1',
				IMAGE
			);
			const base = `http://127.0.0.1:${hostPort(name, 8104)}`;
			const health = (await (await waitFor200(`${base}/health`)).json()) as {
				screens: { id: string }[];
			};
			expect(health.screens.map((s) => s.id)).toEqual(['wok']);
			expect(
				await sendTcp('127.0.0.1', hostPort(name, 9200), {
					command: 'create-order',
					order: order('w-1')
				})
			).toBe('w-1');
			const locations = await fetch(`${base}/integrators/kds-information/locations`, {
				headers: { 'x-integration-token': 'config-file-token' }
			});
			expect(locations.status).toBe(200);
			expect(await locations.json()).toMatchObject([{ id: 'shop-7', name: 'Ladbroke Grove' }]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
