/**
 * Where a relay message's script time goes with N live cards (issue 47 part 8): the screen in
 * headless Chromium, N cards, then M partial updates sent one at a time (each its own relay
 * message), under Chromium's CPU profiler (CDP). Prints the self time per function (minified
 * names, with the source text at each), the time per task's entry point (the socket's message
 * handler, Svelte's flush in a microtask, CardBoard's layout step in an animation frame) and
 * which functions it went to, and CardBoard's layout steps (performance.measure) in the window.
 * Found, 2026-12-07: every card re-reading every order for its combined parts (fixed), then
 * CardBoard's layout steps while the board settles (docs/performance.md).
 * Run: npx tsx bench/ui-profile.ts [cards=500] [updates=60]
 */
import { chromium } from '@playwright/test';
import { startAgent } from '../agent/app.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { createOrder, fill } from './ui.bench.ts';

const CARDS = Number(process.argv[2] ?? 500);
const UPDATES = Number(process.argv[3] ?? 60);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const agent = await startAgent({ memory: true, httpPort: 0, tcpPort: 0, logLevel: 'silent' });
const browser = await chromium.launch(chromiumLaunchOptions);
try {
	const screen = agent.screens.find((s) => s.id === 'kds-1')!;
	const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warning')
			console.error('page:', m.text().slice(0, 300));
	});
	page.on('pageerror', (e) => console.error('pageerror:', e.message));
	await page.goto(`${agent.httpUrl}/screens/kds-1`);
	await page.locator('[role=status][data-state=connected]').waitFor();
	const { host, port } = screen.tcp;
	await fill(
		host,
		port,
		Array.from({ length: CARDS }, (_, i) => createOrder(`P-${i}`, `Guest ${i}`, 1 + ((i * 7) % 6)))
	);
	await page
		.waitForFunction(
			(n) =>
				new Set(
					[...document.querySelectorAll('article[data-order-id]')].map((a) =>
						a.getAttribute('data-order-id')
					)
				).size === n,
			CARDS,
			{ timeout: 60_000 }
		)
		.catch(async (e) => {
			console.error(
				await page.evaluate(() => document.querySelectorAll('article[data-order-id]').length)
			);
			throw e;
		});
	await sleep(2000);
	await page.evaluate(
		`window.__steps = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'kds:board-layout') window.__steps.push(e.duration); }).observe({ type: 'measure' });`
	);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Profiler.enable');
	await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
	await cdp.send('Profiler.start');
	const session = await TcpSession.open(host, port);
	const t0 = performance.now();
	for (let k = 0; k < UPDATES; k++) {
		const id = `P-${k % 10}`;
		await session.request({
			command: 'partial-update-order',
			order: { id, itemsToUpdate: [{ lineId: '1', name: 'Cheeseburger', qty: 2 + k, mods: [] }] }
		});
		await sleep(50);
	}
	await sleep(500);
	const { profile } = await cdp.send('Profiler.stop');
	const wall = performance.now() - t0;
	const steps = await page.evaluate<number[]>('window.__steps');
	console.log(
		`layout steps in the window: ${steps.length}, ${steps.reduce((a, b) => a + b, 0).toFixed(0)} ms`
	);
	await session.close();
	const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
	const self = new Map<number, number>();
	const dts = profile.timeDeltas!;
	for (let i = 0; i < profile.samples!.length; i++)
		self.set(profile.samples![i], (self.get(profile.samples![i]) ?? 0) + (dts[i + 1] ?? 0) / 1000);
	const agg = new Map<
		string,
		{ ms: number; url: string; line: number; col: number; name: string }
	>();
	for (const [id, ms] of self) {
		const n = byNode.get(id)!;
		const f = n.callFrame;
		const key = `${f.functionName}@${f.url}:${f.lineNumber}:${f.columnNumber}`;
		const a = agg.get(key) ?? {
			ms: 0,
			url: f.url,
			line: f.lineNumber,
			col: f.columnNumber,
			name: f.functionName
		};
		a.ms += ms;
		agg.set(key, a);
	}
	// Inclusive time per entry point (the root's children's children: the task's first JS frame).
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const entry = new Map<string, number>();
	const within = new Map<string, number>();
	for (const [id, ms] of self) {
		let at = id;
		const chain: number[] = [];
		while (parent.has(at)) {
			chain.push(at);
			at = parent.get(at)!;
		}
		const top = chain.length >= 1 ? byNode.get(chain[chain.length - 1])! : byNode.get(id)!;
		const f = top.callFrame;
		const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`;
		entry.set(key, (entry.get(key) ?? 0) + ms);
		const sf = byNode.get(id)!.callFrame;
		const skey = `${key} <- ${sf.functionName || '(anon)'} ${sf.url.split('/').pop()}:${sf.lineNumber}:${sf.columnNumber}`;
		within.set(skey, (within.get(skey) ?? 0) + ms);
	}
	for (const [k, ms] of [...within].sort((a, b) => b[1] - a[1]).slice(0, 30))
		console.log(`within ${ms.toFixed(1).padStart(8)} ms  ${k}`);
	for (const [k, ms] of [...entry].sort((a, b) => b[1] - a[1]).slice(0, 12))
		console.log(`entry ${ms.toFixed(1).padStart(8)} ms  ${k}`);
	const sources = new Map<string, string>();
	const top = [...agg.values()].sort((a, b) => b.ms - a.ms).slice(0, 40);
	let scriptTotal = 0;
	for (const a of agg.values())
		if (!['(idle)', '(program)', '(garbage collector)'].includes(a.name)) scriptTotal += a.ms;
	console.log(
		`${CARDS} cards, ${UPDATES} updates over ${wall.toFixed(0)} ms; script (not idle/program/gc) ${scriptTotal.toFixed(1)} ms = ${(scriptTotal / UPDATES).toFixed(2)} ms per message`
	);
	for (const a of top) {
		let text = '';
		if (a.url.startsWith('http')) {
			if (!sources.has(a.url)) sources.set(a.url, await (await fetch(a.url)).text());
			const line = sources.get(a.url)!.split('\n')[a.line] ?? '';
			text = line.slice(a.col, a.col + 110);
		}
		console.log(
			`${a.ms.toFixed(1).padStart(8)} ms  ${(a.name || '(anon)').padEnd(20)} ${a.url.split('/').pop()}:${a.line}:${a.col}  ${text}`
		);
	}
} finally {
	await browser.close();
	await agent.close();
}
