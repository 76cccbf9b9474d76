/**
 * Simulator configuration: brands (token), locations, screens (TCP endpoint, settings).
 * Embedded defaults when no file is given; a JSON file replaces them; flags and environment
 * variables override the listening addresses and storage. Every bad value is refused at
 * start-up with one sentence naming the setting, the value and what is expected. The schema is
 * ./config-schema.ts; this reads a config with it.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { communicationProblems } from '#core/expo';
import { formatErrors, parseWith } from '#core/parse';
import {
	ConfigSchema,
	type LocationConfig,
	type ScreenConfig,
	type SimConfig
} from './config-schema.ts';

export {
	CommunicationSchema,
	ConfigSchema,
	WebhookEndpointSchema,
	type BrandConfig,
	type LocationConfig,
	type ScreenConfig,
	type ScreenSettings,
	type SimConfig,
	type SimConfigInput,
	type WebhookEndpointConfig
} from './config-schema.ts';

export const DEFAULT_TOKEN = 'kds-demo-token';
export const DEFAULT_HTTP_PORT = 8104;
/** Where orders and the inspector's log are kept when no --data-dir is given (relative to the working directory). */
export const DEFAULT_DATA_DIR = 'data';
export const DEFAULT_TCP_PORT = 9104;

/** One brand, one active location, two screens on TCP 9104 and 9105. */
export const DEFAULT_CONFIG = {
	brands: [
		{
			id: 'brand-1',
			name: 'Demo Brand',
			token: DEFAULT_TOKEN,
			/** SMS is off unless a config turns it on; the demo turns it on to show the outbox. */
			sms: { enabled: true },
			locations: [
				{
					id: 'loc-1',
					number: '1',
					name: 'Demo Kitchen',
					address: {
						line1: '1 Main Street',
						line2: null,
						city: 'Springfield',
						state: 'IL',
						zip: '62701'
					},
					timezone: 'America/Chicago',
					activeSubscription: true,
					screens: [
						{
							id: 'kds-1',
							name: 'Grill',
							type: 'android',
							version: '2.21.30',
							tcp: { port: 9104 }
						},
						{ id: 'kds-2', name: 'Expo', type: 'android', version: '2.21.30', tcp: { port: 9105 } }
					]
				}
			]
		}
	]
};

export class ConfigError extends Error {
	readonly code = 'KDS_ERR_CONFIG';
}

/** Validate a config object; `source` names it in the error ("config file kds.json"). */
export function parseConfig(input: unknown, source = 'config'): SimConfig {
	// With zod's runtime parser, not a compiled one: the config is parsed once or twice at start,
	// and compiling its schema (zod/compile does on a first parse) cost more start-up time than
	// anything else the agent does before it answers (npm run bench -- start).
	const { jitless } = z.config();
	z.config({ jitless: true });
	let parsed: ReturnType<typeof parseWith<typeof ConfigSchema>>;
	try {
		parsed = parseWith(ConfigSchema, input, [], { keepNulls: true });
	} finally {
		z.config({ jitless });
	}
	if (!parsed.ok) throw new ConfigError(`Invalid ${source}: ${formatErrors(parsed.errors)}`);
	return checkAcross(parsed.value, source);
}

/** What the schema cannot see field by field: tokens, screen ids and TCP endpoints unique. */
function checkAcross(config: SimConfig, source: string): SimConfig {
	const screenIds = new Set<string>();
	const tokens = new Set<string>();
	const endpoints = new Set<string>();
	const webhookIds = new Set<string>();
	config.brands.forEach((brand, b) =>
		brand.locations.forEach((location, l) =>
			checkCommunication(location, `brands[${b}].locations[${l}]`, source)
		)
	);
	for (const brand of config.brands) {
		const locationIds = new Set(brand.locations.map((l) => l.id));
		brand.webhooks.forEach((endpoint, i) => {
			endpoint.id ??= `${brand.id}-webhook-${i + 1}`;
			if (webhookIds.has(endpoint.id))
				throw new ConfigError(`Invalid ${source}: webhook id "${endpoint.id}" is used twice`);
			webhookIds.add(endpoint.id);
			for (const id of endpoint.locations) {
				if (!locationIds.has(id))
					throw new ConfigError(
						`Invalid ${source}: brands[${config.brands.indexOf(brand)}].webhooks[${i}].locations: "${id}" is not a location of brand ${brand.id}`
					);
			}
		});
		if (tokens.has(brand.token))
			throw new ConfigError(`Invalid ${source}: two brands share a token`);
		tokens.add(brand.token);
		for (const location of brand.locations) {
			for (const screen of location.screens) {
				if (location.autoBump && !screen.settings.autoBump)
					screen.settings.autoBump = location.autoBump;
				if (screenIds.has(screen.id)) {
					throw new ConfigError(`Invalid ${source}: screen id "${screen.id}" is used twice`);
				}
				screenIds.add(screen.id);
				const endpoint = `${screen.tcp.host}:${screen.tcp.port}`;
				// A remote screen's endpoint is where another simulator listens, not this one.
				if (screen.tcp.port !== 0 && !screen.deleted && !screen.remote) {
					if (endpoints.has(endpoint)) {
						throw new ConfigError(
							`Invalid ${source}: TCP endpoint ${endpoint} is given to two screens`
						);
					}
					endpoints.add(endpoint);
				}
			}
		}
	}
	return config;
}

/** A location's communication rules (core/expo.ts), the first problem named by its field path. */
function checkCommunication(location: LocationConfig, path: string, source: string): void {
	const live = location.screens.filter((s) => !s.deleted);
	const [problem] = communicationProblems(live.map(communicatingScreen));
	if (!problem) return;
	const k = location.screens.findIndex((s) => s.id === problem.screen);
	const field =
		problem.index === null ? 'communication' : `communication.bumpsTo[${problem.index}]`;
	throw new ConfigError(`Invalid ${source}: ${path}.screens[${k}].${field}: ${problem.message}`);
}

/** A screen as the communication rules read it. */
export function communicatingScreen(screen: ScreenConfig) {
	return { id: screen.id, role: screen.role, bumpsTo: screen.communication?.bumpsTo ?? [] };
}

export function loadConfigFile(path: string): SimConfig {
	let raw: string;
	try {
		raw = readFileSync(path, 'utf8');
	} catch (err) {
		throw new ConfigError(`Cannot read config file ${path}: ${(err as Error).message}`);
	}
	let json: unknown;
	try {
		json = JSON.parse(raw);
	} catch (err) {
		throw new ConfigError(
			`Invalid config file ${path}: not valid JSON (${(err as Error).message})`
		);
	}
	return parseConfig(json, `config file ${path}`);
}

const isLoopbackHost = (host: string) =>
	host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The demo token is public: HTTP on an address other hosts reach must have a token of its own. */
export function refuseDemoTokenOffLoopback(config: SimConfig, httpHost: string): void {
	if (isLoopbackHost(httpHost) || !config.brands.some((b) => b.token === DEFAULT_TOKEN)) return;
	throw new ConfigError(
		`Refusing to serve the demo integration token ${DEFAULT_TOKEN} on ${httpHost}, where other hosts can use it: set a token of your own with --token <at least 8 characters> (KDS_TOKEN) or in the config file (brands[].token).`
	);
}

/** Every screen of the config with its place, in config order. */
export function allScreens(config: SimConfig) {
	return config.brands.flatMap((brand) =>
		brand.locations.flatMap((location) =>
			location.screens.map((screen) => ({ brand, location, screen }))
		)
	);
}

/**
 * Override every screen's TCP endpoint: `host` for all, and ports from `port` upwards in config
 * order (port 0: the OS picks a free port for each).
 */
export function withTcpOverrides(config: SimConfig, host?: string, port?: number): SimConfig {
	if (host === undefined && port === undefined) return config;
	const copy: SimConfig = structuredClone(config);
	let next = port;
	for (const { screen } of allScreens(copy)) {
		if (screen.remote) continue; // another simulator's endpoint: not ours to move
		if (host !== undefined) screen.tcp.host = host;
		if (next !== undefined) {
			if (next > 65535) {
				throw new ConfigError(
					`Invalid TCP settings: screen ${screen.id} would listen on port ${next}; the screens' ports count up from ${port} and must stay within 0-65535`
				);
			}
			screen.tcp.port = next;
			if (next !== 0) next += 1;
		}
	}
	// The config was valid and the settings are (readSettings): only what they change is checked
	// again, not the whole schema (a second parse was a tenth of the start-up before TCP opens).
	return checkAcross(copy, 'TCP settings');
}
