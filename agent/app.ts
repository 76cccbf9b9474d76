/**
 * Start a whole simulator in this process: store, engine, one TCP listener per screen, and the
 * HTTP port (UI, WebSocket relay, APIs). Used by the CLI (agent/cli/main.ts) and by test fixtures,
 * which start isolated simulators on OS-chosen ports with an in-memory store.
 */
// First, before any module builds a schema: zod compiles each schema into one function on its
// first parse (a 10-item HTTP order: +7% requests/s, npm run bench:http). Only for schemas built
// after this import; the UI does without it (it would add 92 KB to the screen's bundle).
import 'zod/compile';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import {
	DEFAULT_CONFIG,
	DEFAULT_DATA_DIR,
	DEFAULT_HTTP_PORT,
	parseConfig,
	refuseDemoTokenOffLoopback,
	withTcpOverrides,
	type SimConfig
} from './config.ts';
import type { Clock } from './clock.ts';
import {
	ipv4Interfaces,
	planDiscovery,
	startAnnouncer,
	type Announcer,
	type DiscoveryPlan,
	type DiscoveryTargets
} from './discovery/discovery.ts';
import { ByteBudget, DEFAULT_PENDING_BUDGET_BYTES } from './byte-budget.ts';
import { lockDataDir } from './store/data-lock.ts';
import { Engine } from './engine/engine.ts';
import { startHoldReleases, type HoldReleases } from './engine/hold-releases.ts';
import { startAutoClear, type AutoClear } from './engine/auto-clear.ts';
import { startAutoCook, type AutoCook } from './engine/auto-cook.ts';
import { RushControl } from './rush/control.ts';
import { SmsOutbox } from './notify/sms.ts';
import { Webhooks } from './notify/webhooks.ts';
import { DEFAULT_PAYLOAD_BUDGET, DEFAULT_RETENTION, MessageLog } from './inspector/message-log.ts';
import { MessageFile } from './store/message-file.ts';
import { Notifications } from './notify/notification-state.ts';
import { RemoteScreens, type RemoteScreensOptions } from './fleet/remote-screens.ts';
import { adoptionTarget, DEFAULT_STALE_MS, DiscoveryListener } from './fleet/adopt.ts';
import type { ScreenListener } from './http/health.ts';
import { createLogger, loadLogger, type Logger, type LogLevel } from './log.ts';
import type { Relay } from './ws/browser-relay.ts';
import { Store, type SyncMode } from './store/store.ts';
import { tcpMessageHandler } from './tcp/messages.ts';
import { ScreenListeners } from './tcp/listeners.ts';
import { MessageRecorder } from './inspector/recorder.ts';
import { DEFAULT_MESSAGE_TIMEOUT_MS } from './tcp/server.ts';
import { MemorySettle, type MemorySettleOptions } from './memory-settle.ts';
import { Faults } from './faults/registry.ts';
import { wireScreenEffects } from './faults/screen-effects.ts';
import type { FaultSpecInput } from '#core/fault-kinds';

export const DEFAULT_UI_DIR = fileURLToPath(new URL('../build', import.meta.url));

export interface AgentOptions {
	/** A config object (validated here); default: the embedded defaults. */
	config?: unknown;
	/** Keep orders in memory only (tests). */
	memory?: boolean;
	/** Directory of the SQLite store; default ./data. */
	dataDir?: string;
	sync?: SyncMode;
	httpHost?: string;
	/** 0 lets the OS pick. */
	httpPort?: number;
	/** Override every screen's TCP host. */
	tcpHost?: string;
	/** First screen's TCP port, the next screens count up; 0 lets the OS pick for each. */
	tcpPort?: number;
	/** Integration token of the first brand, replacing the config's. */
	token?: string;
	/** Announce the screens on UDP (off when absent); see agent/discovery/discovery.ts. */
	discovery?: { targets: DiscoveryTargets; intervalMs: number } | null;
	/**
	 * Admin token for requests not from loopback (none: loopback only): the admin API, customer
	 * data (screen state, texts, notifications), screen actions and the WebSocket relay.
	 */
	adminToken?: string;
	/** Trust loopback requests to the admin API without a token (default true). */
	trustLoopback?: boolean;
	/** How many received messages the inspector keeps (memory and disk). */
	inspectorRetention?: number;
	/** Directory of the built UI; null serves none. */
	uiDir?: string | null;
	logLevel?: LogLevel;
	logger?: Logger;
	/**
	 * Bytes all unfinished messages may hold at once, TCP and HTTP together (default 64 MiB); past
	 * it, the connection whose message started last is closed first.
	 */
	pendingBudgetBytes?: number;
	/** A message (TCP, or an HTTP body) must be whole this long after its first byte (ms). */
	messageTimeoutMs?: number;
	/** The clock every rule and timer reads; tests pass a ManualClock. */
	clock?: Clock;
	/**
	 * Listen for screens announcing themselves (docs/fleet.md): list them, and adopt them as remote
	 * screens when `adopt` is set or a location of the config says `adoptDiscovered`. Off when
	 * absent (unless a location says `adoptDiscovered`: then on 0.0.0.0:28000).
	 */
	discoveryListen?: {
		bind?: string;
		port?: number;
		adopt?: boolean;
		/** HTTP port of the simulators heard (default 8104). */
		httpPort?: number;
		/** TCP port of the screens heard (default 9104, what the datagram stands for). */
		tcpPort?: number;
		staleMs?: number;
	} | null;
	/** How long a webhook receiver has to answer one attempt (default 5 s; tests shorten it). */
	webhookTimeoutMs?: number;
	/** Timeouts and backoff of the links to remote screens (tests shorten them). */
	remoteLink?: RemoteScreensOptions['link'];
	/**
	 * Give back the young generation V8 grew during a burst of orders once it is over (one
	 * memory-reducing collection; agent/memory-settle.ts). The CLI turns it on; off by default, so
	 * that an agent started inside a test runner runs no full collections of the runner's heap.
	 * Options (tests): when and how it settles.
	 */
	settleMemory?: boolean | MemorySettleOptions;
	/** Faults on from the start (docs/faults.md). */
	faults?: FaultSpecInput[];
	/**
	 * Fault profiles on from the start (`--faults`): `name` or `name@screen`, the config's own or
	 * built in; with the config's `faults.on`.
	 */
	faultProfiles?: string[];
}

export interface RunningScreen {
	id: string;
	name: string;
	locationId: string;
	tcp: { host: string; port: number };
}

export interface RunningAgent {
	httpUrl: string;
	/** The first brand's integration token. */
	token: string;
	config: SimConfig;
	screens: RunningScreen[];
	engine: Engine;
	http: FastifyInstance;
	relay: Relay;
	/** Takeout notifications (queued, retried, called back) and pop-ups. */
	notifications: Notifications;
	/** Release timers of held orders. */
	holds: HoldReleases;
	/** The self-working cook's bump timers (screens with settings.autoBump). */
	cook: AutoCook;
	/** Auto Clear: each location's daily clear, and "clear now". */
	autoClear: AutoClear;
	/** The simulated customer SMS outbox. */
	sms: SmsOutbox;
	/** The faults on cue (docs/faults.md): add, list, remove, reset. */
	faults: Faults;
	/** The inspector's log of every message received. */
	messages: MessageLog;
	/** The brands' webhook endpoints, their events and delivery logs (docs/webhooks.md). */
	webhooks: Webhooks;
	/** What discovery announces and what not (null: discovery is off). */
	discovery: DiscoveryPlan | null;
	/** The links to screens other simulators host (docs/fleet.md). */
	remotes: RemoteScreens;
	/** Screens heard on the network (null: not listening); `port` is the UDP port listened on. */
	discovered: { listener: DiscoveryListener; port: number } | null;
	/**
	 * Start clean: forget the orders, texts, takeout statuses, pop-ups and queued notifications of
	 * one screen, or of every screen (then also the inspector's message log).
	 */
	reset(screenId?: string): Promise<void>;
	close(): Promise<void>;
}

export async function startAgent(options: AgentOptions = {}): Promise<RunningAgent> {
	const logger = options.logger ?? createLogger(options.logLevel ?? 'warn', { lazy: true });
	const config = withTcpOverrides(
		options.config === undefined
			? parseConfig(DEFAULT_CONFIG, 'embedded defaults')
			: parseConfig(options.config),
		options.tcpHost,
		options.tcpPort
	);
	if (options.token !== undefined) {
		config.brands[0].token = options.token;
		parseConfig(config, 'config with --token');
	}
	refuseDemoTokenOffLoopback(config, options.httpHost ?? '127.0.0.1');
	const dataDir = options.memory ? null : (options.dataDir ?? DEFAULT_DATA_DIR);
	// One simulator per data directory: taken before the store is opened, released after it closes.
	const lock = dataDir ? lockDataDir(dataDir) : null;
	let store: Store;
	try {
		store = new Store({
			dataDir,
			sync: options.sync,
			onWalFlushError: (err) =>
				logger.warn(
					{ err },
					"cannot flush the order store's WAL in the background; checkpoints take longer"
				)
		});
	} catch (err) {
		lock?.release();
		throw err;
	}
	const retention = options.inspectorRetention ?? DEFAULT_RETENTION;
	// The inspector's log on disk: JSON lines in the data directory, written in batches.
	const messageFile = dataDir
		? new MessageFile(dataDir, logger, { retention, payloadBudget: DEFAULT_PAYLOAD_BUDGET })
		: null;
	const saved = messageFile?.load() ?? [];
	const messages = new MessageLog({ disk: messageFile, saved, retention });
	const closeStore = async () => {
		messages.flush();
		messageFile?.close();
		store.close();
		lock?.release();
	};
	const engine = new Engine({ config, store, logger, clock: options.clock });
	const settle = options.settleMemory
		? new MemorySettle({
				logger,
				...(typeof options.settleMemory === 'object' ? options.settleMemory : {})
			})
		: null;
	if (settle) engine.onCommitEnd(() => settle.touch());
	// The inspector's recorder, on the agent's clock, handed to both transports.
	const recorder = new MessageRecorder(messages, engine.clock);
	const handleTcp = tcpMessageHandler(engine, recorder);
	const faults = new Faults({
		clock: engine.clock,
		isScreen: (id) => engine.liveScreen(id) !== undefined,
		isLocation: (id) => [...engine.screens.values()].some((s) => s.location.id === id),
		// The config's own profiles work through the admin API too.
		profiles: config.faults?.profiles ?? {},
		screens: () =>
			[...engine.screens.values()]
				.filter((s) => !s.config.deleted && !s.config.remote)
				.map((s) => s.config.id)
	});
	const holds = startHoldReleases(engine, logger);
	const cook = startAutoCook(engine, logger);
	const autoClear = startAutoClear(engine, logger);
	// The admin API's rush: kds-sim rush against this simulator's own HTTP address (set once listening).
	let ownUrl = '';
	const rushControl = new RushControl(() => ownUrl);
	const sms = new SmsOutbox(engine, store.database, logger);
	const webhooks = new Webhooks(engine, store.database, logger, {
		timeoutMs: options.webhookTimeoutMs
	});

	// One budget for the unfinished messages of every TCP listener and the HTTP port.
	const budget = new ByteBudget(options.pendingBudgetBytes ?? DEFAULT_PENDING_BUDGET_BYTES);
	const messageTimeoutMs = options.messageTimeoutMs ?? DEFAULT_MESSAGE_TIMEOUT_MS;
	let announcer: Announcer | undefined;
	let http: FastifyInstance | undefined;
	let relay: Relay | undefined;
	const remotes = new RemoteScreens({
		engine,
		logger,
		link: options.remoteLink,
		onUnreachable: (screenId) => relay?.disconnect(screenId)
	});
	// A screen removed at run time (DELETE /api/admin/screens/:id): its TCP port closes (a POS
	// connected there sees the connection end, as when a real screen is taken away) and its
	// browsers are let go (they reconnect, and are told the screen is unknown).
	engine.onScreenRemoved((screen) => {
		const id = screen.config.id;
		relay?.disconnect(id);
		logger.info({ screen: id }, `screen ${id} removed`);
	});
	// Rules changed at run time: the screen drops its connection and re-establishes it, as the
	// vendor's does (its browsers are let go and kept out for a while: engine.reconnectingUntil).
	engine.onReconfigured((screen) => relay?.disconnect(screen.config.id));
	const listen = options.discoveryListen ?? null;
	const adoptInto = adoptionTarget(config.brands, listen?.adopt === true);
	const listener =
		listen || adoptInto
			? new DiscoveryListener(
					{
						bind: listen?.bind ?? '0.0.0.0',
						port: listen?.port ?? 28000,
						adoptInto,
						httpPort: listen?.httpPort ?? DEFAULT_HTTP_PORT,
						tcpPort: listen?.tcpPort,
						staleMs: listen?.staleMs ?? DEFAULT_STALE_MS
					},
					{ engine, remotes, logger }
				)
			: null;
	let listenerPort = 0;
	// Notifications learn from the engine's fan-out when a browser opens a screen; the relay
	// (attached below, after HTTP) only joins browsers to it and hands pop-up acknowledgements in.
	const notifications = new Notifications({ engine, database: store.database, logger });
	// "Ready for pickup" on a Take Out view sends the "ready" text (when that trigger is on).
	notifications.onReady((screenId, orderId) => sms.ready(screenId, orderId));
	// Start clean: the engine's reset, which the SMS outbox and the notifications follow
	// (engine.onReset); a whole reset also empties the inspector's log and the faults' record.
	const reset = async (screenId?: string): Promise<void> => {
		await engine.settled();
		engine.reset(screenId);
		if (screenId === undefined) {
			messages.clear();
			faults.forgetTouches();
		}
	};
	// The screens' TCP ports (tcp/listeners.ts).
	const tcp = new ScreenListeners({
		engine,
		logger,
		budget,
		messageTimeoutMs,
		handleTcp,
		recorder,
		faults
	});
	// A correct retry after a fault is the expected answer, not a refusal (core expectedRetry).
	recorder.judgeRefusal = (entry) => faults.markExpected(entry);
	// The faults that act on a screen as a whole (agent/faults/screen-effects.ts).
	const rebooting = wireScreenEffects(faults, {
		engine,
		webhooks,
		logger,
		letBrowsersGo: (id) => relay?.disconnect(id),
		dropConnections: (id) => tcp.reboot(id, () => closed === undefined)
	});
	try {
		// The TCP listeners open first, once everything a reply needs is loaded and warm (the order
		// path's schema compiled): a POS's first order is the first thing a screen must answer. The
		// HTTP stack (Fastify and its plugins, most of the start-up time) loads after, in steps
		// that yield to the event loop, so an order that comes meanwhile waits for one step at most,
		// not for the whole stack (npm run bench -- start measures start -> first reply).
		await tcp.openAll();
		faults.addAtStart(
			[...(config.faults?.on ?? []), ...(options.faultProfiles ?? [])],
			options.faults ?? []
		);
		// The HTTP stack is a chunk of its own in the bundle: loaded, compiled and run only now,
		// after pino (a lazy logger's pino loads a part per turn of the event loop).
		const httpLogger = await loadLogger(logger);
		const { startHttpStack } = await import('./http-stack.ts');
		({ http, relay } = await startHttpStack({
			engine,
			config,
			logger: httpLogger,
			messages,
			recorder,
			sendTcp: handleTcp,
			autoClear,
			rush: rushControl,
			remotes,
			sms,
			webhooks,
			notifications,
			limits: { budget, messageTimeoutMs },
			faults,
			rebooting,
			adminToken: options.adminToken,
			trustLoopback: options.trustLoopback,
			listeners: (): ScreenListener[] => tcp.health(),
			discovered: { listener, adoptingInto: adoptInto?.location.id ?? null },
			reset,
			uiDir: options.uiDir === undefined ? DEFAULT_UI_DIR : options.uiDir,
			host: options.httpHost ?? '127.0.0.1',
			port: options.httpPort ?? DEFAULT_HTTP_PORT
		}));
		// Start-up is a burst of its own (the stored orders read back, the HTTP stack loaded): it
		// settles like one once nothing comes for a while.
		settle?.touch();
		notifications.start();
		remotes.attachConfigured();
		if (listener) listenerPort = await listener.start();
		if (options.discovery) {
			const { targets, intervalMs } = options.discovery;
			// Made again every interval: the live screens whose TCP listener is up, as it is bound.
			const listening = () => tcp.bound();
			announcer = await startAnnouncer(
				() => planDiscovery(listening(), targets, ipv4Interfaces()),
				intervalMs,
				logger
			);
		}
	} catch (err) {
		await announcer?.close();
		listener?.close();
		remotes.close();
		notifications.close();
		relay?.close();
		await http?.close();
		await tcp.close();
		holds.close();
		cook.close();
		autoClear.close();
		sms.close();
		webhooks.close();
		settle?.close();
		await closeStore();
		throw err;
	}

	const address = http.server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	const hostForUrl = (options.httpHost ?? '127.0.0.1').includes(':')
		? `[${options.httpHost}]`
		: (options.httpHost ?? '127.0.0.1');
	const finalRelay = relay;
	const finalHttp = http;
	let closed: Promise<void> | undefined;
	ownUrl = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${port}`;
	return {
		httpUrl: ownUrl,
		token: config.brands[0].token,
		config,
		screens: [...engine.screens.values()]
			.filter((s) => !s.config.deleted)
			.map((s) => ({
				id: s.config.id,
				name: s.config.name,
				locationId: s.location.id,
				tcp: engine.tcpEndpoint(s.config.id)
			})),
		engine,
		http: finalHttp,
		relay: finalRelay,
		notifications,
		holds,
		cook,
		autoClear,
		sms,
		messages,
		webhooks,
		faults,
		discovery: announcer?.plan ?? null,
		remotes,
		discovered: listener ? { listener, port: listenerPort } : null,
		reset,
		close() {
			closed ??= (async () => {
				await announcer?.close();
				listener?.close();
				remotes.close();
				notifications.close();
				holds.close();
				cook.close();
				faults.close();
				autoClear.close();
				rushControl.close();
				finalRelay.close();
				await tcp.close();
				await finalHttp.close();
				sms.close();
				webhooks.close();
				settle?.close();
				// A commit still in flight (an API order a fault had queued, applied as it ended).
				await engine.settled();
				await closeStore();
			})();
			return closed;
		}
	};
}
