/**
 * 1,000 screens in one agent (issue 18): the production bundle (dist/agent.js, durable store in a
 * new temporary directory) started with a generated config of 100 locations × 10 screens
 * (kds-sim fleet-config, every TCP port chosen by the OS), against the embedded 2-screen config in
 * the same run. For each:
 * - start: spawn → the "ready" banner (every screen's TCP port and the HTTP port open);
 * - fill: 100 live orders per screen, by HTTP create to `all` in each location (8 at a time);
 *   RSS after the fill (the 1,000-screen agent then holds 100,000 live orders);
 * - TCP round trips (after 200 untimed): one connection, one create-order per line, to one screen (in the middle
 *   location), mean per order;
 * - HTTP create to `all` in that screen's location (after 200 untimed): sequential, keep-alive, mean per request and
 *   per screen reached;
 * - the home page (`/`, every location and screen with live counts) in Chromium: navigation
 *   until every screen's count is shown, median of 5.
 * Targets: RSS ≤ 500 MB with 100,000 live orders; start ≤ 5 s; the per-order figures (TCP round
 * trip, HTTP create per screen reached) at least 80% of the 2-screen agent's rate.
 *
 * Run: npm run bench -- fleet   (KDS_BENCH_FLEET=20x10 for another shape)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { chromium } from '@playwright/test';
import { DEFAULT_CONFIG } from '../agent/config.ts';
import { fleetConfig } from '../agent/fleet/generate.ts';
import { TcpSession } from '../agent/tcp/client.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { waitForExit } from '../tests/helpers/process.ts';
import { fmt, ROOT, rssMiB } from './lib.ts';

const [LOCATIONS, SCREENS] = (process.env.KDS_BENCH_FLEET ?? '100x10').split('x').map(Number);
const ORDERS_PER_SCREEN = 100;
const TCP_ORDERS = Number(process.env.KDS_BENCH_FLEET_TCP ?? 2000);
const HTTP_CREATES = Number(process.env.KDS_BENCH_FLEET_HTTP ?? 300);
const PAGE_LOADS = 5;
/** Untimed requests before each timed series. */
const WARM_UP = 200;
const TARGETS = { rssMiB: 500, startMs: 5000, ratio: 0.8 };
const TOKEN = 'kds-demo-token';
const progress = (text: string) => process.stderr.write(`  fleet bench: ${text}\n`);

interface Running {
	child: ChildProcess;
	httpUrl: string;
	tcp: Map<string, { host: string; port: number }>;
	startMs: number;
}

/** Spawn dist/agent.js with `configFile`; resolves at its ready banner (every port open). */
function startBundle(configFile: string, dataDir: string): Promise<Running> {
	const t0 = performance.now();
	const child = spawn(
		process.execPath,
		[
			'dist/agent.js',
			'--config',
			configFile,
			'--data-dir',
			dataDir,
			'--http-port',
			'0',
			'--tcp-port',
			'0',
			'--log-level',
			'warn'
		],
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
	);
	let out = '';
	let err = '';
	child.stderr!.on('data', (d) => (err += d));
	return new Promise((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`agent exited with ${code}\n${err}`)));
		child.stdout!.on('data', (d) => {
			out += d;
			const url = /UI and HTTP API\s+(\S+?)\/?\n/.exec(out);
			// The banner is written at once: wait for its last screen line.
			if (!url || !out.endsWith('\n')) return;
			const screens = [...out.matchAll(/screen (\S+)\s+.*?TCP (\S+):(\d+)/g)];
			if (screens.length === 0) return;
			child.removeAllListeners('exit');
			resolve({
				child,
				httpUrl: url[1],
				tcp: new Map(screens.map((m) => [m[1], { host: m[2], port: Number(m[3]) }])),
				startMs: performance.now() - t0
			});
		});
	});
}

const order = (id: string) => ({
	id,
	name: `Guest ${id}`,
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	items: [
		{ lineId: '1', name: 'Double Burger', qty: 1, mods: [{ name: 'No onion' }] },
		{ lineId: '2', name: 'Fries', qty: 2, mods: [] }
	]
});

/** POST one order to `all` screens of `location` over a keep-alive connection of `agent`. */
function createAll(agent: Agent, httpUrl: string, location: string, id: string): Promise<void> {
	const body = JSON.stringify(order(id));
	return new Promise((resolve, reject) => {
		const req = request(
			`${httpUrl}/integrators/kds-orders`,
			{
				agent,
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					'x-integration-token': TOKEN,
					'x-location-id': location,
					'x-device-ids': 'all'
				}
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () =>
					res.statusCode === 201
						? resolve()
						: reject(new Error(`create ${id}: ${res.statusCode} ${text}`))
				);
			}
		);
		req.on('error', reject);
		req.end(body);
	});
}

interface Figures {
	screens: number;
	startMs: number;
	liveOrders: number;
	rssMiB: number;
	fillMs: number;
	tcpUsPerOrder: number;
	httpMsPerRequest: number;
	httpUsPerScreenOrder: number;
	homeMs: number;
}

async function measure(
	name: string,
	config: object,
	locations: string[],
	screensPerLocation: number
): Promise<Figures> {
	const dir = mkdtempSync(join(tmpdir(), 'kds-bench-fleet-'));
	const configFile = join(dir, 'config.json');
	writeFileSync(configFile, JSON.stringify(config));
	progress(`${name}: starting`);
	const agent = await startBundle(configFile, join(dir, 'data'));
	const dispatcher = new Agent({ keepAlive: true, maxSockets: 8 });
	try {
		// Fill: 100 orders to `all` in every location, 8 requests at a time.
		progress(
			`${name}: filling ${locations.length * screensPerLocation * ORDERS_PER_SCREEN} live orders`
		);
		const jobs = locations.flatMap((loc) =>
			Array.from({ length: ORDERS_PER_SCREEN }, (_, i) => [loc, `${loc}-F${i}`] as const)
		);
		const t0 = performance.now();
		let next = 0;
		await Promise.all(
			Array.from({ length: 8 }, async () => {
				while (next < jobs.length) {
					const [loc, id] = jobs[next++];
					await createAll(dispatcher, agent.httpUrl, loc, id);
				}
			})
		);
		const fillMs = performance.now() - t0;
		if (global.gc) global.gc();
		await new Promise((r) => setTimeout(r, 1000));
		const rss = rssMiB(agent.child.pid!);

		// TCP round trips to one screen of the middle location.
		const location = locations[Math.floor(locations.length / 2)];
		const screenId = [...agent.tcp.keys()].find((id) =>
			screensPerLocation === 2 ? true : id.startsWith(`kds-${location.slice(4)}-`)
		)!;
		const { host, port } = agent.tcp.get(screenId)!;
		progress(`${name}: ${TCP_ORDERS} TCP round trips to ${screenId}`);
		const session = await TcpSession.open(host, port);
		// Warm-up (the JIT), not timed: the 2-screen agent has had far fewer requests by now.
		for (let i = 0; i < WARM_UP; i++) {
			await session.request({
				command: 'create-order',
				order: { ...order(`W-${i}`), time: Date.now() }
			});
		}
		const tcpStart = performance.now();
		for (let i = 0; i < TCP_ORDERS; i++) {
			const id = `T-${i}`;
			const reply = await session.request({
				command: 'create-order',
				order: { ...order(id), time: Date.now() }
			});
			if (reply !== id) throw new Error(`TCP ${id}: ${reply}`);
		}
		const tcpUsPerOrder = ((performance.now() - tcpStart) * 1000) / TCP_ORDERS;
		await session.close();

		progress(`${name}: ${HTTP_CREATES} HTTP creates to all in ${location}`);
		const one = new Agent({ keepAlive: true, maxSockets: 1 });
		for (let i = 0; i < WARM_UP; i++) await createAll(one, agent.httpUrl, location, `HW-${i}`);
		const httpStart = performance.now();
		for (let i = 0; i < HTTP_CREATES; i++) await createAll(one, agent.httpUrl, location, `H-${i}`);
		const httpMs = performance.now() - httpStart;
		one.destroy();

		progress(`${name}: home page x${PAGE_LOADS} in Chromium`);
		const browser = await chromium.launch(chromiumLaunchOptions);
		const homes: number[] = [];
		try {
			const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
			const total = locations.length * screensPerLocation;
			for (let i = 0; i < PAGE_LOADS; i++) {
				const start = performance.now();
				await page.goto(`${agent.httpUrl}/`, { waitUntil: 'commit' });
				await page.waitForFunction(
					(n) => document.querySelectorAll('[data-testid="order-count"]').length === n,
					total,
					{ timeout: 60_000, polling: 20 }
				);
				homes.push(performance.now() - start);
			}
		} finally {
			await browser.close();
		}
		homes.sort((a, b) => a - b);
		return {
			screens: locations.length * screensPerLocation,
			startMs: agent.startMs,
			liveOrders: locations.length * screensPerLocation * ORDERS_PER_SCREEN,
			rssMiB: rss,
			fillMs,
			tcpUsPerOrder,
			httpMsPerRequest: httpMs / HTTP_CREATES,
			httpUsPerScreenOrder: (httpMs * 1000) / (HTTP_CREATES * screensPerLocation),
			homeMs: homes[homes.length >> 1]
		};
	} finally {
		dispatcher.destroy();
		agent.child.kill('SIGTERM');
		await waitForExit(agent.child);
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function runFleetBench(): Promise<{ lines: string[]; json: object }> {
	const two = await measure('2 screens', DEFAULT_CONFIG, ['loc-1'], 2);
	const shape = { locations: LOCATIONS, screens: SCREENS, tcpPort: 0, tcpHost: '127.0.0.1' };
	const fleet = await measure(
		`${LOCATIONS * SCREENS} screens`,
		fleetConfig({ ...shape, token: TOKEN }),
		Array.from({ length: LOCATIONS }, (_, i) => `loc-${i + 1}`),
		SCREENS
	);
	// Rates: the fleet's as a share of the 2-screen agent's (1 = as fast; target >= 0.8).
	const tcpRatio = two.tcpUsPerOrder / fleet.tcpUsPerOrder;
	const httpRatio = two.httpUsPerScreenOrder / fleet.httpUsPerScreenOrder;
	const row = (label: string, f: Figures) =>
		`${label.padEnd(12)} start ${fmt(f.startMs)} ms; ${f.liveOrders} live orders: RSS ${fmt(f.rssMiB)} MiB (fill ${fmt(f.fillMs / 1000)} s); TCP ${fmt(f.tcpUsPerOrder)} µs/order; HTTP create to all ${fmt(f.httpMsPerRequest)} ms/request = ${fmt(f.httpUsPerScreenOrder)} µs per screen reached; home page ${fmt(f.homeMs)} ms`;
	const ok = (pass: boolean) => (pass ? 'met' : 'MISSED');
	return {
		lines: [
			`dist/agent.js, durable store, 100 live orders per screen; the 2-screen agent (embedded config) in the same run:`,
			row('2 screens', two),
			row(`${fleet.screens} screens`, fleet),
			`targets (${fleet.screens} screens): RSS ${fmt(fleet.rssMiB)} <= ${TARGETS.rssMiB} MiB ${ok(fleet.rssMiB <= TARGETS.rssMiB)}; start ${fmt(fleet.startMs)} <= ${TARGETS.startMs} ms ${ok(fleet.startMs <= TARGETS.startMs)}; TCP rate ${fmt(tcpRatio * 100)}% of 2-screen ${ok(tcpRatio >= TARGETS.ratio)}; HTTP rate per screen reached ${fmt(httpRatio * 100)}% ${ok(httpRatio >= TARGETS.ratio)}; home page ${fmt(fleet.homeMs / two.homeMs)}x the 2-screen page`
		],
		json: {
			bench: 'fleet',
			shape: { locations: LOCATIONS, screens: SCREENS },
			two,
			fleet,
			tcpRatio,
			httpRatio,
			targets: TARGETS
		}
	};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines, json } = await runFleetBench();
	console.log(lines.join('\n'));
	console.log(JSON.stringify(json));
}
