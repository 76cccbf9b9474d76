/**
 * UI benchmark (issue 3): the kitchen screen in headless Chromium at 1920×1080, fed over TCP by an
 * agent running in this process (in-memory store, OS-chosen ports, the built UI from build/).
 *
 * 1. New order to card on screen: 200 orders, one at a time, each `priority: true` so it is the
 *    first card of page 1 (over 40 ordinary cards, so the board is not empty), bumped once seen.
 *    t0 is when Node reads the create-order's TCP reply; the page records when the card's
 *    <article> is inserted (MutationObserver), the requestAnimationFrame of the frame that will
 *    show it, and the first task after that frame's rendering (a MessageChannel message posted
 *    from that rAF: style, layout and paint of the frame are done) = "painted", the figure held
 *    to the target. Both sides read `performance.timeOrigin + performance.now()` (ms since the
 *    epoch, same machine); the offset between the two clocks is checked by round trips.
 * 2. 500 live cards, 100 partial updates (item qty) sent back to back on one TCP connection to the
 *    cards of page 1: long tasks (PerformanceObserver 'longtask') and long animation frames from
 *    the first update until 1 s after the last card shows its new qty, next to the same window
 *    with no updates (the 1 s timer tick alone); and the DOM mutations of the burst grouped by
 *    card (closest article), to check that updating an order changes only that order's card
 *    (timer text is counted apart: the 1 s clock changes every card's timer in one batch, so
 *    timer changes in smaller batches are another cause, e.g. a clock offset moving per message).
 * 3. Script cost of one relay message (issue 47 part 8: it must not grow with the cards): partial
 *    updates sent one at a time to a card of page 1 with 1, 100 and 500 live cards; each message
 *    is timed in the page from the start of the socket's message handler to the end of the
 *    microtasks it queued (Svelte's flush of the changes), by a wrapper installed before the
 *    page's scripts. Target: ≤ 5 ms (p50) at 500 cards, and the 500/1 ratio near 1.
 * 4. A screen page opened on the warm simulator (20 cards, 1280×720), median of 8 rounds
 *    (KDS_UI_OPEN_ROUNDS=n for more): navigation start to its first card in the DOM and painted
 *    (page clock), and as a Playwright test waits for it (goto + locator.waitFor, Node's clock),
 *    beside a static page served by the same agent (its sign-in page, GET /access) measured the
 *    same way, and the screen's state JSON, in alternating rounds. Target: ≤ 300 ms.
 *
 * Run: npx tsx bench/ui.bench.ts (needs build/: npm run build); KDS_UI_PART=open runs part 4 only.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../agent/app.ts';
import { chromiumLaunchOptions } from '../tests/helpers/chromium.ts';
import { TcpSession } from '../tests/helpers/tcp.ts';
import { fmt, percentile, ROOT } from './lib.ts';

const SCREEN = 'kds-1';
const LATENCY_ORDERS = 200;
const BACKGROUND_CARDS = 40;
const LIVE_CARDS = 500;
const BURST_UPDATES = 100;
const FILL_CONNECTIONS = 10;
const VIEWPORT = { width: 1920, height: 1080 };

const progress = (text: string) => process.stderr.write(`  ui bench: ${text}\n`);
/** Milliseconds since the epoch, sub-ms: the same scale as the page's. */
const wallNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ITEM_NAMES = ['Cheeseburger', 'Fries', 'Caesar Salad', 'Milkshake', 'Chicken Wrap', 'Soup'];
const MODS = [['No onion'], [], ['Extra cheese', 'No pickles'], [], ['Gluten free'], []];

function items(count: number) {
	return Array.from({ length: count }, (_, i) => ({
		lineId: String(i + 1),
		name: ITEM_NAMES[i % ITEM_NAMES.length],
		qty: 1,
		mods: MODS[i % MODS.length].map((name) => ({ name }))
	}));
}

export function createOrder(id: string, name: string, itemCount: number, over: object = {}) {
	return {
		command: 'create-order',
		order: { id, name, time: Date.now(), mode: 'ToGo', items: items(itemCount), ...over }
	};
}

export async function fill(host: string, port: number, orders: object[]): Promise<void> {
	const sessions = await Promise.all(
		Array.from({ length: FILL_CONNECTIONS }, () => TcpSession.open(host, port))
	);
	let next = 0;
	await Promise.all(
		sessions.map(async (s) => {
			while (next < orders.length) {
				const reply = await s.request(orders[next++]);
				if (reply.startsWith('{') || /^[A-Z_]+$/.test(reply)) throw new Error(`refused: ${reply}`);
			}
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
}

/**
 * Page-side instruments, plain JavaScript (a string, so nothing the TypeScript compiler adds can
 * leak into the browser). `window.__kdsBench`:
 * - arm(id, name) / seen(id): the times a card is inserted, framed and painted;
 * - gone(id): resolves when the card has left the DOM;
 * - burstStart() / burstStop(): long tasks, long animation frames and DOM mutations per card.
 */
const PAGE_SCRIPT = `(() => {
	const now = () => performance.timeOrigin + performance.now();
	const board = document.querySelector('main[aria-label="Orders"]');
	const articleOf = (node) => {
		const el = node.nodeType === 1 ? node : node.parentElement;
		return el ? el.closest('article[data-order-id]') : null;
	};
	const nameOf = (article) => {
		const ref = article.getAttribute('aria-labelledby');
		const title = (ref && document.getElementById(ref)) || article.querySelector('h2');
		return title ? title.textContent.trim() : '';
	};

	// 1. Appearance of armed cards.
	const armed = new Map();
	const results = new Map();
	const resultWaiters = new Map();
	const goneWaiters = new Map();
	const afterFrame = [];
	const channel = new MessageChannel();
	channel.port1.onmessage = () => {
		const t = now();
		for (const f of afterFrame.splice(0)) f(t);
	};
	const finish = (rec) => {
		results.set(rec.id, rec);
		const w = resultWaiters.get(rec.id);
		if (w) { resultWaiters.delete(rec.id); w(rec); }
	};
	const appear = new MutationObserver((records) => {
		if (armed.size === 0 && goneWaiters.size === 0) return;
		const t = now();
		for (const r of records) {
			for (const n of r.addedNodes) {
				if (n.nodeType !== 1 || armed.size === 0) continue;
				const list = n.matches('article[data-order-id]') ? [n] : n.querySelectorAll('article[data-order-id]');
				for (const a of list) {
					const id = a.dataset.orderId;
					const want = armed.get(id);
					if (want === undefined) continue;
					armed.delete(id);
					const name = nameOf(a);
					const rec = { id, name, nameOk: name.startsWith(want), inserted: t };
					requestAnimationFrame(() => {
						rec.frame = now();
						afterFrame.push((painted) => {
							rec.painted = painted;
							const box = a.getBoundingClientRect();
							rec.onScreen = a.isConnected && box.width > 0 && box.height > 0 &&
								box.left >= 0 && box.right <= innerWidth + 1 && box.top < innerHeight && box.bottom > 0;
							finish(rec);
						});
						channel.port2.postMessage(0);
					});
				}
			}
		}
		for (const [id, resolve] of [...goneWaiters]) {
			if (!board.querySelector('article[data-order-id="' + CSS.escape(id) + '"]')) {
				goneWaiters.delete(id);
				resolve(true);
			}
		}
	});
	appear.observe(board, { childList: true, subtree: true });

	// 2. The burst.
	let burst = null;
	const LAYOUT_MARKS = new Set(['style', 'data-layout', 'data-sized', 'data-overflow', 'data-tall']);
	const classify = (r) => {
		const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
		if (el && el.closest('[role=timer]')) return 'timer';
		// CardBoard's marks on the card itself (CardBoard.svelte: its estimate, laid out, sized,
		// cut, taller than a column): where and how it is laid out, not what it shows.
		if (r.type === 'attributes' && r.target.matches('article[data-order-id]') && LAYOUT_MARKS.has(r.attributeName)) return 'layout';
		// The card's number on its page (its bump key): it changes when a card before it on the
		// page moves to another page, e.g. an updated card above grew; the order did not change.
		if (el && el.closest('button.bump')) return 'position';
		return 'content';
	};
	const count = (id, kind, t) => {
		let c = burst.cards.get(id);
		if (!c) burst.cards.set(id, (c = { timer: 0, layout: 0, position: 0, content: 0, first: t }));
		c[kind]++;
	};

	window.__kdsBench = {
		now,
		arm(id, name) { armed.set(id, name); },
		seen(id) {
			const done = results.get(id);
			return done ? Promise.resolve(done) : new Promise((resolve) => resultWaiters.set(id, resolve));
		},
		gone(id) {
			if (!board.querySelector('article[data-order-id="' + CSS.escape(id) + '"]')) return Promise.resolve(true);
			return new Promise((resolve) => goneWaiters.set(id, resolve));
		},
		stopAppear() { appear.disconnect(); },
		/** Tickets on the board (a continued ticket's parts are one). */
		cardCount() { return new Set([...board.querySelectorAll('article[data-order-id]')].map((a) => a.dataset.orderId)).size; },
		moreText() { const el = document.querySelector('[data-testid=more-count]'); return el ? el.textContent.trim() : ''; },
		/** Ids of the cards that start on the visible page, in DOM order. */
		onScreen() {
			return [...board.querySelectorAll('article[data-order-id]')]
				.filter((a) => { const b = a.getClientRects()[0]; return b && b.left >= 0 && b.left < innerWidth; })
				.map((a) => a.dataset.orderId);
		},
		qtyOf(id) {
			const el = board.querySelector('article[data-order-id="' + CSS.escape(id) + '"] li[data-line-id="1"] .qty');
			return el ? Number(el.textContent) : NaN;
		},
		/** Resolves (time) on the first frame where every card shows its expected item-1 qty. */
		waitQty(expected) {
			return new Promise((resolve) => {
				const check = () => {
					if (Object.entries(expected).every(([id, q]) => this.qtyOf(id) === q)) resolve(now());
					else requestAnimationFrame(check);
				};
				check();
			});
		},
		burstStart(label) {
			burst = { label, start: now(), long: [], loaf: [], cards: new Map(), outside: 0, records: 0, batches: [] };
			const b = burst;
			b.onLong = (entries) => {
				for (const e of entries) b.long.push({ at: performance.timeOrigin + e.startTime, duration: e.duration });
			};
			b.longObserver = new PerformanceObserver((list) => b.onLong(list.getEntries()));
			b.longObserver.observe({ type: 'longtask', buffered: false });
			if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
				b.onLoaf = (entries) => {
					for (const e of entries) {
						b.loaf.push({
							at: performance.timeOrigin + e.startTime,
							duration: e.duration,
							blocking: e.blockingDuration,
							render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
							styleLayout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
							scripts: e.scripts.map((s) => ({
								invoker: s.invoker,
								duration: s.duration,
								forcedStyleAndLayout: s.forcedStyleAndLayoutDuration
							}))
						});
					}
				};
				b.loafObserver = new PerformanceObserver((list) => b.onLoaf(list.getEntries()));
				b.loafObserver.observe({ type: 'long-animation-frame', buffered: false });
			}
			b.onMutations = (records) => {
				const t = now();
				const touched = new Set();
				const timed = new Set();
				for (const r of records) {
					b.records++;
					const kind = classify(r);
					const article = articleOf(r.target);
					if (article) {
						count(article.dataset.orderId, kind, t);
						(kind === 'timer' ? timed : touched).add(article.dataset.orderId);
						continue;
					}
					// A card inserted or removed as a whole counts for that card; the rest is outside.
					const moved = [...r.addedNodes, ...r.removedNodes].filter((n) => n.nodeType === 1 && n.matches('article[data-order-id]'));
					for (const a of moved) { count(a.dataset.orderId, 'content', t); touched.add(a.dataset.orderId); }
					if (moved.length === 0) b.outside++;
				}
				b.batches.push({ at: t, cards: touched.size, timerCards: timed.size });
			};
			b.mutations = new MutationObserver(b.onMutations);
			b.mutations.observe(board, { childList: true, subtree: true, characterData: true, attributes: true });
		},
		burstStop() {
			const b = burst;
			b.onLong(b.longObserver.takeRecords());
			b.longObserver.disconnect();
			if (b.loafObserver) {
				b.onLoaf(b.loafObserver.takeRecords());
				b.loafObserver.disconnect();
			}
			const pending = b.mutations.takeRecords();
			if (pending.length > 0) b.onMutations(pending);
			b.mutations.disconnect();
			burst = null;
			return {
				label: b.label,
				start: b.start,
				end: now(),
				long: b.long,
				loaf: b.loaf,
				cards: Object.fromEntries(b.cards),
				outside: b.outside,
				records: b.records,
				batches: b.batches
			};
		}
	};
})()`;

/**
 * Installed before the page's own scripts: every WebSocket message handler timed from its start
 * to the end of the microtasks it queued (a chain of two behind Svelte's flush), in ms.
 */
const MESSAGE_TIMER = `(() => {
	const samples = [];
	window.__kdsMessages = samples;
	const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
	Object.defineProperty(WebSocket.prototype, 'onmessage', {
		configurable: true,
		get() { return desc.get.call(this); },
		set(fn) {
			desc.set.call(this, typeof fn !== 'function' ? fn : function (event) {
				const start = performance.now();
				try { return fn.call(this, event); }
				finally { queueMicrotask(() => queueMicrotask(() => samples.push(performance.now() - start))); }
			});
		}
	});
})()`;

const MESSAGE_UPDATES = 30;

/** Script ms per relay message: `MESSAGE_UPDATES` partial updates, one at a time, to `ids`. */
async function messageCost(page: Page, session: TcpSession, ids: string[]): Promise<Stats> {
	await page.evaluate('window.__kdsMessages.length = 0');
	for (let k = 0; k < MESSAGE_UPDATES; k++) {
		const id = ids[k % ids.length];
		const reply = await session.request({
			command: 'partial-update-order',
			order: {
				id,
				// Item 1 as every bench order has it, only its qty changed.
				itemsToUpdate: [
					{
						lineId: '1',
						name: ITEM_NAMES[0],
						qty: 2 + (k % 7),
						mods: MODS[0].map((name) => ({ name }))
					}
				]
			}
		});
		if (/^[A-Z_]+$/.test(reply)) throw new Error(`partial update refused: ${reply}`);
		await sleep(40);
	}
	await sleep(300);
	const samples = await page.evaluate<number[]>('window.__kdsMessages.splice(0)');
	return stats(samples);
}

/**
 * Installed before every page's scripts in the navigation context: the page-clock times (ms since
 * the navigation started, `performance.now()`) at which the first element of each watched kind
 * was in the DOM and the first frame showing it was rendered (the first task after that frame, as
 * in part 1), kept in `window.__kdsOpen`.
 */
const OPEN_TIMER = `(() => {
	const watched = { card: 'article[data-order-id]', form: 'form' };
	const times = (window.__kdsOpen = {});
	const channel = new MessageChannel();
	const afterFrame = [];
	channel.port1.onmessage = () => { const t = performance.now(); for (const f of afterFrame.splice(0)) f(t); };
	const check = () => {
		for (const [kind, selector] of Object.entries(watched)) {
			if (times[kind] || !document.querySelector(selector)) continue;
			const rec = (times[kind] = { inDom: performance.now() });
			requestAnimationFrame(() => { afterFrame.push((t) => (rec.painted = t)); channel.port2.postMessage(0); });
		}
	};
	new MutationObserver(check).observe(document, { childList: true, subtree: true });
})()`;

interface OpenTimes {
	/** Page clock (ms since navigation start): in the DOM / its frame rendered. */
	inDom: number;
	painted: number;
	/** Node's wall clock from page.goto() to the locator's answer, as a Playwright test waits. */
	test: number;
}

/**
 * One navigation from about:blank to `url`: when the first `kind` element was in the DOM and
 * painted (page clock from navigation start), and how long a Playwright test that goes there and
 * waits for `selector` takes (goto(commit) + locator.waitFor(), which polls at 0, 20, 70, 170,
 * 270 … ms, so this one comes in steps).
 */
async function openOnce(page: Page, url: string, kind: string, selector: string) {
	await page.goto('about:blank');
	const t = wallNow();
	await page.goto(url, { waitUntil: 'commit' });
	await page.locator(selector).first().waitFor();
	const test = wallNow() - t;
	const inPage = await page.waitForFunction((k) => {
		const rec = (window as unknown as { __kdsOpen: Record<string, { painted?: number }> })
			.__kdsOpen[k];
		return rec?.painted !== undefined && rec;
	}, kind);
	const rec = (await inPage.jsonValue()) as { inDom: number; painted: number };
	return { ...rec, test } satisfies OpenTimes;
}

/**
 * A screen page opened on the warm simulator, against a static page served by the same agent
 * (its sign-in page, GET /access: one HTML response, no script to wait for) and the screen's state
 * JSON, in alternating rounds (2 unmeasured first): median ms.
 */
async function navigation(browser: Browser, base: string, screenId: string, rounds = 8) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
	await context.addInitScript(OPEN_TIMER);
	try {
		const page = await context.newPage();
		const screen: OpenTimes[] = [];
		const staticPage: OpenTimes[] = [];
		const jsonMs: number[] = [];
		for (let round = -2; round < rounds; round++) {
			const still = await openOnce(page, `${base}/access`, 'form', 'form');
			await page.goto('about:blank');
			const t = wallNow();
			await page.goto(`${base}/api/screens/${screenId}/state`);
			const json = wallNow() - t;
			const open = await openOnce(
				page,
				`${base}/screens/${screenId}`,
				'card',
				'article[data-order-id]'
			);
			if (round >= 0) {
				staticPage.push(still);
				jsonMs.push(json);
				screen.push(open);
			}
		}
		return { screen: summary(screen), static: summary(staticPage), json: stats(jsonMs) };
	} finally {
		await context.close();
	}
}

function summary(list: OpenTimes[]) {
	const of = (key: keyof OpenTimes) => stats(list.map((o) => o[key]));
	return { inDom: of('inDom'), painted: of('painted'), test: of('test') };
}

/**
 * The same opens, each in a new browser context, as each Playwright test gets one: nothing in the
 * browser's cache (every module fetched and compiled again), the simulator still warm.
 */
async function freshNavigation(browser: Browser, base: string, screenId: string, rounds = 8) {
	const screen: OpenTimes[] = [];
	const staticPage: OpenTimes[] = [];
	const inContext = async (url: string, kind: string, selector: string) => {
		const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
		try {
			await context.addInitScript(OPEN_TIMER);
			return await openOnce(await context.newPage(), url, kind, selector);
		} finally {
			await context.close();
		}
	};
	for (let round = -1; round < rounds; round++) {
		const still = await inContext(`${base}/access`, 'form', 'form');
		const open = await inContext(`${base}/screens/${screenId}`, 'card', 'article[data-order-id]');
		if (round >= 0) {
			staticPage.push(still);
			screen.push(open);
		}
	}
	return { screen: summary(screen), static: summary(staticPage) };
}

/** Part 4's screen: 20 cards on the agent's second screen (the first one's board is part 1–3's). */
async function openScreen(agent: RunningAgent, browser: Browser, runId: string) {
	const other = agent.screens.find((s) => s.id !== SCREEN) ?? agent.screens[0];
	progress(`opening /screens/${other.id} (20 cards) against a static page and its JSON`);
	await fill(
		other.tcp.host,
		other.tcp.port,
		Array.from({ length: 20 }, (_, i) =>
			createOrder(`N-${runId}-${i}`, `Nav ${i + 1}`, 1 + (i % 5))
		)
	);
	const rounds = Number(process.env.KDS_UI_OPEN_ROUNDS) || 8;
	const warm = await navigation(browser, agent.httpUrl, other.id, rounds);
	const fresh = await freshNavigation(browser, agent.httpUrl, other.id, rounds);
	return { id: other.id, rounds, ...warm, fresh };
}

type Opened = Awaited<ReturnType<typeof openScreen>>;

/** Part 4's report lines and JSON. */
function openReport(nav: Opened, row: Row, lines: string[]) {
	const ms = (s: Stats) => `${fmt(s.p50, 1)} / ${fmt(s.p95, 1)} / ${fmt(s.max, 1)}`;
	const ok = (good: boolean) => (good ? 'ok' : 'MISSED');
	lines.push(
		`4. /screens/${nav.id} with 20 cards at 1280x720 on the warm simulator, ${nav.rounds} rounds, p50 / p95 / max ms:`,
		'   (page clock from navigation start; "test": page.goto(commit) + locator.waitFor() in Node, which polls at 0/20/70/170/270 ms)'
	);
	row('   static page (GET /access): form in the DOM', ms(nav.static.inDom), '');
	row('   static page: painted', ms(nav.static.painted), '');
	row('   static page: as a test waits for it', ms(nav.static.test), '');
	row('   the state JSON in the browser (load event)', ms(nav.json), '');
	row('   screen: first card in the DOM', ms(nav.screen.inDom), '');
	row(
		'   screen: first card painted',
		ms(nav.screen.painted),
		'p50 <= 300 ms',
		ok(nav.screen.painted.p50 <= 300)
	);
	row(
		'   screen: as a test waits for it',
		ms(nav.screen.test),
		'p50 <= 300 ms',
		ok(nav.screen.test.p50 <= 300)
	);
	row(
		'   screen / static page, painted (p50)',
		`${fmt(nav.screen.painted.p50 / nav.static.painted.p50, 2)}x`,
		''
	);
	lines.push(
		'   each open in a new browser context (as each Playwright test: the browser cache empty):'
	);
	row('   static page: painted', ms(nav.fresh.static.painted), '');
	row('   static page: as a test waits for it', ms(nav.fresh.static.test), '');
	row('   screen: first card painted', ms(nav.fresh.screen.painted), '');
	row('   screen: as a test waits for it', ms(nav.fresh.screen.test), '');
	row(
		'   screen / static page, as a test waits (p50)',
		`${fmt(nav.fresh.screen.test.p50 / nav.fresh.static.test.p50, 2)}x`,
		''
	);
	return {
		cards: 20,
		viewport: '1280x720',
		rounds: nav.rounds,
		measured:
			'page clock from navigation start to the first card (static page: its form) in the DOM and painted; "test": Node wall clock of page.goto(commit) + locator.waitFor()',
		screen: nav.screen,
		staticPage: nav.static,
		jsonMs: nav.json,
		ratioPainted: nav.screen.painted.p50 / nav.static.painted.p50,
		freshContext: nav.fresh,
		target: { paintedP50Ms: 300 },
		pass: nav.screen.painted.p50 <= 300 && nav.screen.test.p50 <= 300
	};
}

interface Appearance {
	id: string;
	name: string;
	nameOk: boolean;
	onScreen: boolean;
	inserted: number;
	frame: number;
	painted: number;
}

interface CardMutations {
	timer: number;
	layout: number;
	position: number;
	content: number;
	first: number;
}

interface BurstWindow {
	label: string;
	start: number;
	end: number;
	long: Array<{ at: number; duration: number }>;
	loaf: Array<{
		at: number;
		duration: number;
		blocking: number;
		render: number;
		styleLayout: number;
		scripts: Array<{ invoker: string; duration: number; forcedStyleAndLayout: number }>;
	}>;
	cards: Record<string, CardMutations>;
	outside: number;
	records: number;
	batches: Array<{ at: number; cards: number; timerCards: number }>;
}

/** Page clock minus Node clock (ms), from the tightest of several round trips. */
async function clockOffset(page: Page): Promise<{ offset: number; uncertainty: number }> {
	let best = { offset: NaN, uncertainty: Infinity };
	for (let i = 0; i < 40; i++) {
		const t1 = wallNow();
		const p = await page.evaluate<number>('performance.timeOrigin + performance.now()');
		const t2 = wallNow();
		if ((t2 - t1) / 2 < best.uncertainty)
			best = { offset: p - (t1 + t2) / 2, uncertainty: (t2 - t1) / 2 };
	}
	return best;
}

interface Stats {
	p50: number;
	p95: number;
	max: number;
	min: number;
}

function stats(values: number[]): Stats {
	const sorted = [...values].sort((a, b) => a - b);
	return {
		p50: percentile(sorted, 50),
		p95: percentile(sorted, 95),
		max: sorted[sorted.length - 1] ?? NaN,
		min: sorted[0] ?? NaN
	};
}

async function newOrderLatency(agent: RunningAgent, page: Page, session: TcpSession) {
	const runId = Date.now().toString(36);
	const samples: Array<Appearance & { sent: number; replied: number }> = [];
	// A few unmeasured rounds first: code paths warm, fonts loaded.
	for (let i = -10; i < LATENCY_ORDERS; i++) {
		const id = `L-${runId}-${i + 10}`;
		const name = `Rush ${i + 10}`;
		const checkNumber = String(1000 + i + 10);
		await page.evaluate(
			`window.__kdsBench.arm(${JSON.stringify(id)}, ${JSON.stringify(`${name} #${checkNumber}`)})`
		);
		const sent = wallNow();
		const reply = await session.request(
			createOrder(id, name, 1 + (i & 3), { priority: true, checkNumber })
		);
		const replied = wallNow();
		if (reply !== id) throw new Error(`create-order ${id}: ${reply}`);
		const seen = await page.evaluate<Appearance>(`window.__kdsBench.seen(${JSON.stringify(id)})`);
		if (i >= 0) samples.push({ ...seen, sent, replied });
		if (!agent.engine.runAction(SCREEN, 'bump', id)) throw new Error(`bump ${id} refused`);
		await page.evaluate(`window.__kdsBench.gone(${JSON.stringify(id)})`);
	}
	await page.evaluate('window.__kdsBench.stopAppear()');
	return samples;
}

function summariseBurst(w: BurstWindow, updated: Set<string>) {
	const long = w.long.map((e) => e.duration);
	const cards = Object.entries(w.cards);
	const content = cards.filter(([, c]) => c.content > 0).map(([id]) => id);
	const layout = cards.filter(([, c]) => c.layout > 0).map(([id]) => id);
	const renumbered = cards.filter(([, c]) => c.position > 0).map(([id]) => id);
	const timer = cards.filter(([, c]) => c.timer > 0).map(([id]) => id);
	// The 1 s ticker changes every card's timer in one batch; anything else changing timers is not it.
	const ticks = w.batches.filter((b) => b.timerCards >= 0.8 * LIVE_CARDS);
	const strayTimer = w.batches.filter((b) => b.timerCards > 0 && b.timerCards < 0.8 * LIVE_CARDS);
	// Per relay message (LoAF script entries over 5 ms): script time and the forced layout in it.
	const messages = w.loaf.flatMap((f) => f.scripts.filter((x) => x.invoker.includes('onmessage')));
	const perMessage = stats(messages.map((x) => x.duration));
	const perMessageLayout = stats(messages.map((x) => x.forcedStyleAndLayout));
	return {
		seconds: (w.end - w.start) / 1000,
		timerTicks: ticks.length,
		strayTimerBatches: strayTimer.length,
		strayTimerCards: strayTimer.reduce((a, b) => a + b.timerCards, 0),
		slowMessages: messages.length,
		slowMessageMs: perMessage,
		slowMessageForcedLayoutMs: perMessageLayout,
		longTasks: long.length,
		longestTaskMs: long.length ? Math.max(...long) : 0,
		longTaskTotalMs: long.reduce((a, b) => a + b, 0),
		longFrames: w.loaf.length,
		longestFrameMs: w.loaf.length ? Math.max(...w.loaf.map((f) => f.duration)) : 0,
		/** Cards whose own content (not the timer, not CardBoard's layout marks) changed. */
		contentCards: content.length,
		contentCardsNotUpdated: content.filter((id) => !updated.has(id)).length,
		updatedWithoutChange: [...updated].filter((id) => !content.includes(id)).length,
		layoutMarkCards: layout.length,
		/** Cards whose number on their page changed (a card before them moved page), order unchanged. */
		renumberedCards: renumbered.length,
		timerCards: timer.length,
		mutationRecords: w.records,
		outsideRecords: w.outside
	};
}

/** KDS_UI_PART=open runs only part 4 (a screen page opened); unset: every part. */
const PART = process.env.KDS_UI_PART ?? 'all';
if (PART !== 'all' && PART !== 'open') throw new Error(`KDS_UI_PART: expected open, got ${PART}`);

type Row = (name: string, value: string, target: string, verdict?: string) => void;
const rowTo =
	(lines: string[]): Row =>
	(name, value, target, verdict = '') =>
		lines.push(`${name.padEnd(58)} ${value.padStart(22)}   ${target.padEnd(16)} ${verdict}`);

export async function runUiBench(): Promise<{ lines: string[]; json: object }> {
	if (!existsSync(join(ROOT, 'build', 'handler.js'))) {
		progress('building the UI (npm run build)');
		execSync('npm run --silent build', { cwd: ROOT, stdio: 'inherit' });
	}
	// KDS_UI_BUILD=<dir>: another build of the UI (an A/B of two builds in alternating runs).
	const agent = await startAgent({
		memory: true,
		httpPort: 0,
		tcpPort: 0,
		logLevel: 'silent',
		...(process.env.KDS_UI_BUILD ? { uiDir: process.env.KDS_UI_BUILD } : {})
	});
	let browser: Browser | undefined;
	const sessions: TcpSession[] = [];
	try {
		const screen = agent.screens.find((s) => s.id === SCREEN);
		if (!screen) throw new Error(`no screen ${SCREEN}`);
		const { host, port } = screen.tcp;
		browser = await chromium.launch(chromiumLaunchOptions);
		if (PART === 'open') {
			const lines = [
				`UI in headless Chromium ${browser.version()}, part 4 only (KDS_UI_PART=open); agent in-process, in-memory store`
			];
			const nav = await openScreen(agent, browser, Date.now().toString(36));
			const navigation = openReport(nav, rowTo(lines), lines);
			return { lines, json: { bench: 'ui', part: 'open', browser: browser.version(), navigation } };
		}
		const page = await browser.newPage({ viewport: VIEWPORT });
		const browserVersion = browser.version();
		await page.addInitScript(MESSAGE_TIMER);
		await page.goto(`${agent.httpUrl}/screens/${SCREEN}`);
		await page.locator('main[aria-label="Orders"]').waitFor();
		await page.locator('[role=status][data-state=connected]').waitFor();
		await page.evaluate(PAGE_SCRIPT);

		const runId = Date.now().toString(36);
		// ---- 3. (first) one relay message's script, 1 card ----
		progress('message cost, 1 card');
		const costSession = await TcpSession.open(host, port);
		sessions.push(costSession);
		const lone = `M-${runId}`;
		await fill(host, port, [createOrder(lone, 'Lone', 3)]);
		await page.locator(`article[data-order-id="${lone}"]`).first().waitFor();
		await sleep(500);
		const costOne = await messageCost(page, costSession, [lone]);
		if (!agent.engine.runAction(SCREEN, 'bump', lone)) throw new Error(`bump ${lone} refused`);
		await page.locator(`article[data-order-id="${lone}"]`).first().waitFor({ state: 'detached' });

		// ---- 1. TCP reply to card on screen ----
		progress(`${BACKGROUND_CARDS} background cards`);
		await fill(
			host,
			port,
			Array.from({ length: BACKGROUND_CARDS }, (_, i) =>
				createOrder(`G-${runId}-${i}`, `Table ${i + 1}`, 1 + (i % 6))
			)
		);
		await page.waitForFunction(
			(n) =>
				new Set(
					[...document.querySelectorAll('article[data-order-id]')].map((a) =>
						a.getAttribute('data-order-id')
					)
				).size === n,
			BACKGROUND_CARDS
		);
		const clockBefore = await clockOffset(page);
		progress(`${LATENCY_ORDERS} orders, one at a time`);
		const session = await TcpSession.open(host, port);
		sessions.push(session);
		const samples = await newOrderLatency(agent, page, session);
		const clockAfter = await clockOffset(page);
		const offset = (clockBefore.offset + clockAfter.offset) / 2;
		// Page times in Node's clock: subtract the measured offset.
		const since = (t: number, s: { replied: number }) => t - offset - s.replied;
		const inserted = stats(samples.map((s) => since(s.inserted, s)));
		const framed = stats(samples.map((s) => since(s.frame, s)));
		const painted = stats(samples.map((s) => since(s.painted, s)));
		const paintedRaw = stats(samples.map((s) => s.painted - s.replied));
		const roundTrip = stats(samples.map((s) => s.replied - s.sent));
		const badName = samples.filter((s) => !s.nameOk).length;
		const offScreen = samples.filter((s) => !s.onScreen).length;

		// ---- 2. 500 cards, 100 updates ----
		const current = await page.evaluate<number>('window.__kdsBench.cardCount()');
		const toAdd = LIVE_CARDS - current;
		progress(
			`filling to ${LIVE_CARDS} cards (${toAdd} orders over ${FILL_CONNECTIONS} connections)`
		);
		const fillStart = wallNow();
		await fill(
			host,
			port,
			Array.from({ length: toAdd }, (_, i) =>
				createOrder(`F-${runId}-${i}`, `Guest ${i + 1}`, 1 + ((i * 7) % 6), {
					checkNumber: String(5000 + i)
				})
			)
		);
		const fillReplied = wallNow();
		await page.waitForFunction(
			(n) =>
				new Set(
					[...document.querySelectorAll('article[data-order-id]')].map((a) =>
						a.getAttribute('data-order-id')
					)
				).size === n,
			LIVE_CARDS,
			{ timeout: 60_000 }
		);
		const fillShown = wallNow();
		await page.getByTestId('more-count').waitFor();
		const moreText = await page.evaluate<string>('window.__kdsBench.moreText()');
		// CardBoard lays the new cards out in full a few a frame (their real sizes, the pages):
		// settled when every card is (a continued card's parts always are). The burst below is
		// measured on a settled board, so what it counts is the updates' own work.
		await page.waitForFunction(
			() =>
				[...document.querySelectorAll('article[data-order-id]')].every(
					(a) => a.hasAttribute('data-sized') || a.hasAttribute('data-part-index')
				),
			undefined,
			{ timeout: 180_000, polling: 100 }
		);
		const fillSettled = wallNow();
		await sleep(1500);

		progress('idle window (no updates)');
		await page.evaluate('window.__kdsBench.burstStart("idle")');
		await sleep(2000);
		const idle = await page.evaluate<BurstWindow>('window.__kdsBench.burstStop()');

		const visible = await page.evaluate<string[]>('window.__kdsBench.onScreen()');
		if (visible.length === 0) throw new Error('no card on page 1');
		progress(`${BURST_UPDATES} updates to the ${visible.length} cards on page 1`);
		const expected: Record<string, number> = {};
		const updateLines: string[] = [];
		for (let k = 0; k < BURST_UPDATES; k++) {
			const id = visible[k % visible.length];
			const qty = 2 + Math.floor(k / visible.length);
			expected[id] = qty;
			const item = {
				lineId: '1',
				name: ITEM_NAMES[0],
				qty,
				mods: MODS[0].map((name) => ({ name }))
			};
			updateLines.push(
				`${JSON.stringify({ command: 'partial-update-order', order: { id, itemsToUpdate: [item] } })}\n`
			);
		}
		const burstSession = await TcpSession.open(host, port);
		sessions.push(burstSession);
		await page.evaluate('window.__kdsBench.burstStart("burst")');
		const burstSent = wallNow();
		burstSession.write(updateLines.join(''));
		for (let k = 0; k < BURST_UPDATES; k++) {
			const reply = await burstSession.nextLine();
			if (/^[A-Z_]+$/.test(reply)) throw new Error(`partial update refused: ${reply}`);
		}
		const burstReplied = wallNow();
		const burstShown =
			(await page.evaluate<number>(`window.__kdsBench.waitQty(${JSON.stringify(expected)})`)) -
			offset;
		await sleep(1000);
		const burst = await page.evaluate<BurstWindow>('window.__kdsBench.burstStop()');
		// After the burst, so that its cards are as the burst found them before (these updates
		// change the same cards of page 1).
		progress(`message cost, ${LIVE_CARDS} cards`);
		const costFull = await messageCost(page, costSession, visible.slice(-4));
		progress('message cost, 100 cards');
		const keep = 100 - BACKGROUND_CARDS;
		for (let i = keep; i < toAdd; i++) agent.engine.runAction(SCREEN, 'bump', `F-${runId}-${i}`);
		await page.waitForFunction(
			() =>
				new Set(
					[...document.querySelectorAll('article[data-order-id]')].map((a) =>
						a.getAttribute('data-order-id')
					)
				).size === 100,
			undefined,
			{ timeout: 60_000 }
		);
		await sleep(1500);
		const costHundred = await messageCost(page, costSession, visible.slice(-4));
		// Parts 1–3's page (100 cards, its clock and layout running) closed first: a test opening a
		// screen has no such page beside it, and its renderer would share the two cores.
		await page.close();

		const nav = await openScreen(agent, browser, runId);

		const updated = new Set(Object.keys(expected));
		const idleSummary = summariseBurst(idle, new Set());
		const burstSummary = summariseBurst(burst, updated);
		const worstFrame = [...burst.loaf].sort((a, b) => b.duration - a.duration)[0];

		// ---- report ----
		const ok = (good: boolean) => (good ? 'ok' : 'MISSED');
		const lines: string[] = [];
		const row = rowTo(lines);
		lines.push(
			`UI in headless Chromium ${browserVersion}, ${VIEWPORT.width}x${VIEWPORT.height}, /screens/${SCREEN} (default columns); agent in-process, in-memory store`,
			`1. TCP reply -> new card on screen: ${samples.length} priority orders one at a time over ${BACKGROUND_CARDS} cards, each bumped when seen`,
			`   clocks: page - node = ${fmt(clockBefore.offset, 2)} / ${fmt(clockAfter.offset, 2)} ms (±${fmt(clockBefore.uncertainty, 2)} / ±${fmt(clockAfter.uncertainty, 2)}), corrected`
		);
		const ms = (s: Stats) => `${fmt(s.p50, 1)} / ${fmt(s.p95, 1)} / ${fmt(s.max, 1)}`;
		row('   create-order TCP round trip  p50/p95/max ms', ms(roundTrip), '');
		row('   reply -> <article> inserted (MutationObserver)', ms(inserted), '');
		row('   reply -> rAF of the frame showing it', ms(framed), '');
		row(
			'   reply -> that frame rendered ("painted")',
			ms(painted),
			'p95 <= 50 ms',
			ok(painted.p95 <= 50)
		);
		row('   (same, uncorrected wall clocks)', ms(paintedRaw), '');
		lines.push(
			`   cards named as sent: ${samples.length - badName}/${samples.length}; on the visible page: ${samples.length - offScreen}/${samples.length}`,
			`2. ${LIVE_CARDS} live cards ("${moreText}" in the header): ${toAdd} orders over ${FILL_CONNECTIONS} connections replied in ${fmt(fillReplied - fillStart)} ms, all in the DOM ${fmt(fillShown - fillReplied)} ms after the last reply`,
			`   the board settled (every card laid out in full, a few a frame) ${fmt(fillSettled - fillReplied)} ms after the last reply`,
			`   burst: ${BURST_UPDATES} partial updates (item qty) to ${updated.size} cards on page 1, pipelined on one connection: replies in ${fmt(burstReplied - burstSent)} ms, last card updated ${fmt(burstShown - burstSent)} ms after the first send`
		);
		const win = (s: ReturnType<typeof summariseBurst>) =>
			`${s.longTasks} (${fmt(s.longTaskTotalMs)} ms), max ${fmt(s.longestTaskMs)} ms`;
		row(
			`   long tasks, idle ${fmt(idleSummary.seconds, 1)} s (timer tick only)`,
			win(idleSummary),
			''
		);
		row(
			`   long tasks, burst + 1 s (${fmt(burstSummary.seconds, 1)} s)`,
			win(burstSummary),
			'none > 50 ms',
			ok(burstSummary.longestTaskMs <= 50)
		);
		row(
			'   long animation frames, idle / burst (max ms)',
			`${idleSummary.longFrames} (${fmt(idleSummary.longestFrameMs)}) / ${burstSummary.longFrames} (${fmt(burstSummary.longestFrameMs)})`,
			''
		);
		if (worstFrame) {
			const scripts = [...worstFrame.scripts]
				.sort((a, b) => b.duration - a.duration)
				.slice(0, 3)
				.map(
					(s) => `${s.invoker} ${fmt(s.duration)} ms (forced layout ${fmt(s.forcedStyleAndLayout)})`
				)
				.join('; ');
			lines.push(
				`   worst burst frame: ${fmt(worstFrame.duration)} ms, rendering ${fmt(worstFrame.render)} ms (style+layout ${fmt(worstFrame.styleLayout)}); scripts: ${scripts || '-'}`
			);
		}
		row(
			'   cards whose content changed / orders updated',
			`${burstSummary.contentCards} / ${updated.size}`,
			'equal',
			ok(burstSummary.contentCards === updated.size && burstSummary.contentCardsNotUpdated === 0)
		);
		lines.push(
			`   other DOM changes in the burst window: timers of ${burstSummary.timerCards} cards in ${burstSummary.timerTicks} ticks of the 1 s clock (idle window: ${idleSummary.timerCards} cards, ${idleSummary.timerTicks} ticks) and ${burstSummary.strayTimerCards} timer changes outside ticks; ${burstSummary.layoutMarkCards} cards re-marked by CardBoard (data-layout/-sized/-overflow/-tall, estimate); ${burstSummary.renumberedCards} cards renumbered on their page (a card before them moved page); ${burstSummary.outsideRecords} of ${burstSummary.mutationRecords} mutation records outside the cards`,
			`   relay messages over 5 ms in long frames: ${burstSummary.slowMessages}, script p50 ${fmt(burstSummary.slowMessageMs.p50, 1)} ms (forced style+layout p50 ${fmt(burstSummary.slowMessageForcedLayoutMs.p50, 1)} ms), max ${fmt(burstSummary.slowMessageMs.max, 1)} ms`
		);
		const ratio = costFull.p50 / costOne.p50;
		lines.push(
			`3. script of one relay message (handler + its microtasks), ${MESSAGE_UPDATES} partial updates one at a time, p50 / p95 / max ms:`
		);
		row('   1 card', ms(costOne), '');
		row('   100 cards', ms(costHundred), '');
		row(`   ${LIVE_CARDS} cards`, ms(costFull), 'p50 <= 5 ms', ok(costFull.p50 <= 5));
		row(`   ${LIVE_CARDS} cards / 1 card (p50)`, `${fmt(ratio, 2)}x`, '(flat: ~1x)', '');
		row(
			`   456-order fill: all in the DOM after the last reply`,
			`${fmt(fillShown - fillReplied)} ms`,
			'<= 2000 ms',
			ok(fillShown - fillReplied <= 2000)
		);
		const navigationJson = openReport(nav, row, lines);
		const json = {
			bench: 'ui',
			messageCost: {
				measured: 'socket message handler start -> end of the microtasks it queued (ms)',
				oneCard: costOne,
				hundredCards: costHundred,
				fullCards: costFull,
				cards: LIVE_CARDS,
				ratioFullToOne: ratio,
				target: { p50Ms: 5 },
				pass: costFull.p50 <= 5
			},
			navigation: navigationJson,
			browser: browserVersion,
			latency: {
				orders: samples.length,
				measured: 'TCP reply (Node) -> first task after the frame that renders the new card',
				clockOffsetMs: offset,
				roundTripMs: roundTrip,
				insertedMs: inserted,
				frameMs: framed,
				paintedMs: painted,
				target: { p95Ms: 50 },
				pass: painted.p95 <= 50
			},
			burst: {
				cards: LIVE_CARDS,
				updates: BURST_UPDATES,
				updatedCards: updated.size,
				repliesMs: burstReplied - burstSent,
				lastShownMs: burstShown - burstSent,
				...burstSummary,
				idle: idleSummary,
				target: { longestTaskMs: 50 },
				pass: burstSummary.longestTaskMs <= 50,
				onlyUpdatedCardsChanged:
					burstSummary.contentCards === updated.size && burstSummary.contentCardsNotUpdated === 0
			},
			fill: {
				orders: toAdd,
				repliedMs: fillReplied - fillStart,
				shownAfterMs: fillShown - fillReplied,
				settledAfterMs: fillSettled - fillReplied,
				target: { shownAfterMs: 2000 },
				pass: fillShown - fillReplied <= 2000
			}
		};
		return { lines: lines, json };
	} finally {
		await Promise.all(sessions.map((s) => s.close()));
		await browser?.close();
		await agent.close();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { lines, json } = await runUiBench();
	console.log(lines.join('\n'));
	console.log(JSON.stringify(json));
}
