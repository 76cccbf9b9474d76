/**
 * Playwright fixtures and helpers for testing what a kitchen screen shows. Meant for the
 * simulator's own suite and for integrators' suites: drive a POS through the real TCP or HTTP
 * interface, then look at the screen the way a cook would.
 *
 *   import { test, expect, screenPage, card, item } from './fixtures.ts';
 *
 *   test('a new order shows', async ({ page, simulator }) => {
 *     await screenPage(page, simulator, 'kds-1');
 *     await simulator.sendTcp('kds-1', { command: 'create-order', order: { ... } });
 *     await expect(item(card(page, 'Maria'), 'Cheeseburger')).toBeVisible();
 *   });
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';
// Types only: the agent (and with it node:sqlite) is imported when a simulator starts in this
// process, never when a test file imports these helpers (a Node 20 test runner imports them too).
import type { AgentOptions, RunningAgent } from '../../agent/app.ts';
import type { screenJson } from '../../agent/inspector/screen-view.ts';
import type { SimConfig } from '../../agent/config.ts';
import { sendTcp } from './tcp.ts';
import { faultHelpers, type FaultHelpers } from './faults.ts';
import { certifyHelpers, type CertifyHelpers } from './certify.ts';
import { startChild } from './child-simulator.ts';
import { launchOptionsWithBrowser } from './browser.ts';

export { expect };

/** A running agent plus shortcuts to talk to its screens. */
export interface Simulator extends RunningAgent {
	/** Send one TCP message (object or raw text) to a screen; resolves with the reply. */
	sendTcp(screenId: string, payload: string | object): Promise<string>;
	/** The URL of a screen's page; `kiosk` adds ?kiosk. */
	screenUrl(screenId: string, options?: { kiosk?: boolean }): string;
	/**
	 * Call the HTTP integrator API as a POS would, with the first brand's token and its first
	 * location; `devices` defaults to `all`. `route`: create, update, partial, cancel, active,
	 * customer-arrived, estimated-arrival-update or send-message. Resolves with the status and
	 * the parsed body.
	 */
	sendHttp(
		route: HttpRoute,
		body?: object,
		options?: { devices?: string; location?: string; token?: string }
	): Promise<{ status: number; body: unknown }>;
	/**
	 * What a screen shows now, as JSON: cards in order (items, groups, courses, findings), holds,
	 * recall list, takeout view, open pop-ups and the customer texts it triggered.
	 */
	screenJson(screenId: string): Promise<ScreenJson>;
	/**
	 * Faults on cue (docs/faults.md), through the admin API: `addFault({kind: 'lost-reply',
	 * screen: 'kds-1', count: 1})`, `faultReport()` for what the client did next. The fixture
	 * removes every fault after each test.
	 */
	addFault: FaultHelpers['addFault'];
	addFaults: FaultHelpers['addFaults'];
	listFaults: FaultHelpers['listFaults'];
	removeFault: FaultHelpers['removeFault'];
	resetFaults: FaultHelpers['resetFaults'];
	faultReport: FaultHelpers['faultReport'];
	/**
	 * A certification run (docs/certify.md): `certify({capabilities, onStep})`, where `onStep`
	 * performs each step with the POS's own code; resolves with the report.
	 */
	certify: CertifyHelpers['certify'];
	certifyReport: CertifyHelpers['certifyReport'];
}

export type ScreenJson = ReturnType<typeof screenJson>;

/** The integrator routes `sendHttp` knows, by name. */
export type HttpRoute = keyof typeof HTTP_ROUTES;

const HTTP_ROUTES = {
	create: ['POST', '/integrators/kds-orders'],
	update: ['PUT', '/integrators/kds-orders'],
	partial: ['PUT', '/integrators/kds-orders/partial'],
	cancel: ['PUT', '/integrators/kds-orders/cancel'],
	active: ['GET', '/integrators/kds-orders/active'],
	'customer-arrived': ['POST', '/integrators/kds-notifications/customer-arrived'],
	'estimated-arrival-update': ['POST', '/integrators/kds-notifications/estimated-arrival-update'],
	'send-message': ['POST', '/integrators/kds-notifications/send-message']
} as const;

/** The Node the simulator itself needs (package.json's engines: node:sqlite, SvelteKit 3). */
export const SIMULATOR_NODE = [22, 17] as const;

/**
 * Where `startSimulator` runs the simulator: `process` (this test process: the agent imported,
 * its objects at hand) on Node 22.17 or newer, else `child` (the package's `kds-sim` command as a
 * child process, re-run on Node 24 by the command's own bootstrap, bin/ensure-node.js).
 * `KDS_SIM_RUN=child` asks for the child process on any Node.
 */
export function simulatorRuns(
	version: string = process.versions.node,
	env: NodeJS.ProcessEnv = process.env
): 'process' | 'child' {
	if (env.KDS_SIM_RUN === 'child') return 'child';
	const [major, minor] = version.split('.').map(Number);
	const [needMajor, needMinor] = SIMULATOR_NODE;
	return major > needMajor || (major === needMajor && minor >= needMinor) ? 'process' : 'child';
}

/**
 * Start a simulator with test defaults (in memory, OS-chosen ports) and the Simulator shortcuts:
 * in this process on Node 22.17+, else as a child process (simulatorRuns).
 */
export async function startSimulator(options: AgentOptions = {}): Promise<Simulator> {
	if (simulatorRuns() === 'child') return childSimulator(options);
	const { startAgent } = await import('../../agent/app.ts');
	const agent = await startAgent({ memory: true, httpPort: 0, tcpPort: 0, ...options });
	return withShortcuts(agent);
}

/** sendTcp, screenUrl and sendHttp, for a simulator at `httpUrl` with these screens and config. */
function shortcuts(target: Pick<Simulator, 'httpUrl' | 'screens' | 'config'>) {
	return {
		...faultHelpers(target.httpUrl),
		...certifyHelpers(target.httpUrl),
		sendTcp(screenId: string, payload: string | object) {
			const screen = target.screens.find((s) => s.id === screenId);
			if (!screen)
				throw new Error(
					`No screen ${screenId}; screens: ${target.screens.map((s) => s.id).join(', ')}`
				);
			return sendTcp(screen.tcp.host, screen.tcp.port, payload);
		},
		screenUrl(screenId: string, options: { kiosk?: boolean } = {}) {
			return `${target.httpUrl}/screens/${encodeURIComponent(screenId)}${options.kiosk ? '?kiosk' : ''}`;
		},
		async sendHttp(
			route: HttpRoute,
			body?: object,
			options: { devices?: string; location?: string; token?: string } = {}
		) {
			const [method, path] = HTTP_ROUTES[route];
			const brand = target.config.brands[0];
			const res = await fetch(`${target.httpUrl}${path}`, {
				method,
				headers: {
					...(body ? { 'content-type': 'application/json' } : {}),
					'x-integration-token': options.token ?? brand.token,
					'x-location-id': options.location ?? brand.locations[0]?.id ?? '',
					'x-device-ids': options.devices ?? 'all'
				},
				body: body ? JSON.stringify(body) : undefined
			});
			const text = await res.text();
			return { status: res.status, body: text ? JSON.parse(text) : undefined };
		}
	};
}

export function withShortcuts(agent: RunningAgent): Simulator {
	return Object.assign(agent, {
		...shortcuts(agent),
		async screenJson(screenId: string) {
			const screen = agent.engine.screen(screenId);
			if (!screen) throw new Error(`No screen ${screenId}`);
			await agent.engine.settled();
			const view = await import('../../agent/inspector/screen-view.ts');
			return view.screenJson(agent.engine, screen, { sms: agent.sms, messages: agent.messages });
		}
	});
}

/** The members of a RunningAgent that are objects of the agent's own process. */
const IN_PROCESS_ONLY = [
	'engine',
	'http',
	'relay',
	'notifications',
	'holds',
	'cook',
	'autoClear',
	'sms',
	'faults',
	'messages',
	'webhooks',
	'discovery',
	'remotes',
	'discovered'
] as const;

/**
 * A simulator run as a child process (an older Node's test runner): the documented members
 * (docs/testing.md) over its ports and admin API; the agent's own objects (`engine`, `faults`, …)
 * say, when read, that they need the simulator in this process.
 */
async function childSimulator(options: AgentOptions): Promise<Simulator> {
	const { ready, stop } = await startChild(options);
	const httpUrl = ready.http.url;
	const admin = async (method: string, path: string, body?: object) => {
		const res = await fetch(`${httpUrl}${path}`, {
			method,
			headers: body ? { 'content-type': 'application/json' } : {},
			body: body ? JSON.stringify(body) : undefined
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	};
	let integration: {
		brands: Array<{
			name: string;
			token: string;
			locations: Array<{ id: string; name: string; screens: Array<{ id: string; name: string }> }>;
		}>;
	};
	try {
		integration = await admin('GET', '/api/admin/integration');
	} catch (err) {
		await stop();
		throw err;
	}
	const simulator = {
		httpUrl,
		token: ready.brands[0]?.token ?? '',
		// Brands, locations and screens as the running simulator reports them.
		config: integration as unknown as SimConfig,
		screens: ready.screens.map((s) => ({ ...s, name: s.name })),
		async reset(screenId?: string) {
			await admin('POST', '/api/admin/reset', screenId ? { screen: screenId } : {});
		},
		async screenJson(screenId: string) {
			return (await admin(
				'GET',
				`/api/admin/screens/${encodeURIComponent(screenId)}`
			)) as ScreenJson;
		},
		close: stop
	};
	Object.assign(simulator, shortcuts(simulator as unknown as Simulator));
	for (const name of IN_PROCESS_ONLY)
		Object.defineProperty(simulator, name, {
			enumerable: false,
			get() {
				throw new Error(
					`kds-sim/testing: simulator.${name} is the agent's own object, there only when the simulator runs in the test's process (Node 22.17+); on Node ${process.versions.node} it runs as a child process: use the documented members (docs/testing.md) or run Playwright on Node 22.17+.`
				);
			}
		});
	Object.defineProperty(simulator, 'runsIn', { value: 'child', enumerable: false });
	return simulator as unknown as Simulator;
}

/**
 * `simulator`: a fresh agent per test (memory store, OS-chosen ports), closed after it.
 * `simulatorOptions` configures it: `test.use({ simulatorOptions: { config, clock } })` in a file
 * or a `describe` block gives those tests your own brands, locations, screens or a ManualClock.
 */
export const test = base.extend<{ simulator: Simulator; simulatorOptions: AgentOptions }>({
	simulatorOptions: [{}, { option: true }],
	simulator: async ({ simulatorOptions }, use) => {
		const simulator = await startSimulator(simulatorOptions);
		try {
			await use(simulator);
		} finally {
			// No fault outlives its test, whatever the test did (docs/faults.md); a child process
			// takes its faults with it.
			if (!('runsIn' in simulator)) simulator.faults.reset();
			await simulator.close();
		}
	},
	// The browser: the launch options your config gives, and where they name no browser,
	// Playwright's own Chromium or the one KDS_SIM_CHROMIUM names (tests/helpers/browser.ts).
	launchOptions: [
		async ({ launchOptions, browserName }, use) => {
			await use(
				browserName === 'chromium' ? launchOptionsWithBrowser(launchOptions) : launchOptions
			);
		},
		{ scope: 'worker' }
	]
});

/** Open a screen's page and wait until it is connected to the agent. */
export async function screenPage(
	page: Page,
	simulator: Pick<Simulator, 'screenUrl'>,
	screenId: string,
	options: { kiosk?: boolean } = {}
): Promise<Page> {
	await page.goto(simulator.screenUrl(screenId, options));
	await expectConnection(page, 'Connected');
	return page;
}

/** The connection indicator says `state`: Connected, Connecting, Reconnecting or Offline. */
export async function expectConnection(page: Page, state: string, timeout?: number): Promise<void> {
	await expect(page.getByRole('status', { name: `Connection: ${state}` })).toBeVisible({ timeout });
}

export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A name to match whole (a string), or any accessible name a RegExp matches. */
export type NameMatch = string | RegExp;

/**
 * The card of an order by its display name (name, then ` #checkNumber`, then ` · originSource`).
 * A string matches a whole name: `card(page, 'Table 1')` finds `Table 1`, `Table 1 #88` and
 * `Table 1 · DoorDash`, never `Table 11`; the full title (`Table 1 #88`) works too. A RegExp is
 * matched against the whole title as it stands: `card(page, /^Table 1/)` also finds `Table 11`.
 */
export function card(page: Page | Locator, orderName: NameMatch): Locator {
	const name =
		orderName instanceof RegExp ? orderName : new RegExp(`^${escapeRegExp(orderName)}(?:$| #| · )`);
	return page.getByRole('article', { name });
}

/** The card of an order by its order id (`order.id` as sent), whatever its name. */
export function cardById(page: Page | Locator, orderId: string): Locator {
	return page.getByRole('article').and(page.locator(`[data-order-id=${cssString(orderId)}]`));
}

/** A CSS string literal of any text (quotes, backslashes and line breaks escaped). */
function cssString(text: string): string {
	return `"${text.replace(/[\\"]/g, '\\$&').replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/** Every card on the screen. */
export function cards(page: Page | Locator): Locator {
	return page.getByRole('article');
}

/** The display names of the cards, in queue order (including cards on other pages). */
export async function cardTitles(page: Page): Promise<string[]> {
	const titles = await cards(page).getByRole('heading', { level: 2 }).allTextContents();
	return titles.map((t) => t.trim());
}

/**
 * An item line of a card, deleted or not, by its item name. Accessible names read
 * `2 × Ribeye (Medium rare, 2 × Peppercorn sauce)`, and `Deleted: …` for removed items. A string
 * matches the whole item name (`Fries` is not `Sweet Potato Fries`); a RegExp is matched against
 * the accessible name as it stands.
 */
export function item(cardLocator: Locator, itemName: NameMatch): Locator {
	const name =
		itemName instanceof RegExp
			? itemName
			: new RegExp(`^(?:Deleted: )?\\d+ × ${escapeRegExp(itemName)}(?:$| \\()`);
	return cardLocator.getByRole('listitem', { name });
}

/**
 * A live (not deleted) item line, by its whole item name (a string), or any live line whose
 * accessible name (`2 × Ribeye (Medium rare)`) a RegExp matches.
 */
export function liveItem(cardLocator: Locator, itemName: NameMatch): Locator {
	if (itemName instanceof RegExp) {
		return cardLocator
			.getByRole('listitem', { name: itemName })
			.and(cardLocator.getByRole('listitem', { name: /^\d+ × / }));
	}
	return cardLocator.getByRole('listitem', {
		name: new RegExp(`^\\d+ × ${escapeRegExp(itemName)}(?:$| \\()`)
	});
}

/** An itemGroup box, by the group name. */
export function itemGroup(cardLocator: Locator, groupName: string): Locator {
	return cardLocator.getByRole('group', { name: groupName, exact: true });
}

/** A course section by its label: `Course 2`, or with status `Course 2 — on hold`. */
export function course(cardLocator: Locator, label: string): Locator {
	return cardLocator.getByRole('group', { name: new RegExp(`^${escapeRegExp(label)}`) });
}

/** A badge on a card: Priority, Loyalty member, Recalled, Cancelled. */
export function badge(cardLocator: Locator, label: string): Locator {
	return cardLocator.getByLabel(label, { exact: true });
}

/** The item is still on the card, flagged deleted and drawn struck through. */
export async function expectItemStruckThrough(
	cardLocator: Locator,
	itemName: string
): Promise<void> {
	const line = cardLocator.getByRole('listitem', {
		name: new RegExp(`^Deleted: \\d+ × ${escapeRegExp(itemName)}(?:$| \\()`)
	});
	await expect(line).toBeVisible();
	const struck = line.locator('del').first();
	await expect(struck).toHaveText(itemName);
	await expect(struck).toHaveCSS('text-decoration-line', /line-through/);
}

/** The item is shown and highlighted as added (`New`) or changed (`Changed`) by an update. */
export async function expectItemHighlighted(
	cardLocator: Locator,
	itemName: string,
	change: 'New' | 'Changed'
): Promise<void> {
	const line = liveItem(cardLocator, itemName);
	await expect(line).toBeVisible();
	await expect(line).toContainText(change);
}

/** Parse `rgb(r, g, b)` / `rgba(r, g, b, a)`. */
export function parseRgb(css: string): [number, number, number] {
	const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
	if (!m) throw new Error(`not an rgb colour: ${css}`);
	return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Red dominates: r well above g and b. */
export function isReddish(css: string): boolean {
	const [r, g, b] = parseRgb(css);
	return r >= 50 && r > 2 * g && r > 2 * b;
}

/**
 * The card reads as cancelled, and unlike a late ticket: the "Cancelled" banner, a dashed frame,
 * its name struck through, and a header in none of the timer colours (late is red).
 */
export async function expectCancelledLook(cardLocator: Locator): Promise<void> {
	await expect(badge(cardLocator, 'Cancelled')).toHaveText(/cancelled/i);
	const look = await cardLocator.evaluate((el) => {
		const head = el.querySelector('header');
		const title = el.querySelector('h2');
		return {
			frame: getComputedStyle(el).borderTopStyle,
			head: head ? getComputedStyle(head).backgroundColor : '',
			title: title ? getComputedStyle(title).textDecorationLine : ''
		};
	});
	expect(look.frame, 'dashed frame').toBe('dashed');
	expect(look.title, 'name struck through').toContain('line-through');
	expect(isReddish(look.head), `header ${look.head} is not a timer's red`).toBe(false);
}

/** The element is drawn in one piece: not broken across columns or pages. */
export async function expectInOnePiece(locator: Locator): Promise<void> {
	await expect
		.poll(() => locator.evaluate((el) => el.getClientRects().length), {
			message: 'element is drawn in one fragment'
		})
		.toBe(1);
}
