import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfigFile, parseConfig, withTcpOverrides } from './config.ts';
import { readSettings } from './cli/settings.ts';

describe('config', () => {
	it('embedded defaults: one brand, one active location, two screens on 9104 and 9105', () => {
		const config = parseConfig(DEFAULT_CONFIG);
		expect(config.brands).toHaveLength(1);
		const [location] = config.brands[0].locations;
		expect(location.activeSubscription).toBe(true);
		expect(location.screens.map((s) => [s.id, s.tcp.host, s.tcp.port])).toEqual([
			['kds-1', '127.0.0.1', 9104],
			['kds-2', '127.0.0.1', 9105]
		]);
		expect(location.screens[0].settings.timers).toEqual({ warnAfter: 300, lateAfter: 480 });
	});

	it('needs only ids, names, each brand token and TCP ports: every other field has a default', () => {
		const minimal = {
			brands: [
				{
					id: 'b1',
					name: 'Brand',
					token: 'brand-token-1',
					locations: [
						{
							id: 'l1',
							name: 'First',
							screens: [{ id: 's1', name: 'Grill', tcp: { port: 9200 } }]
						},
						{ id: 'l2', name: 'Second', screens: [] }
					]
				}
			]
		};
		const config = parseConfig(minimal);
		const [first, second] = config.brands[0].locations;
		expect({ ...first, screens: undefined }).toEqual({
			id: 'l1',
			number: '1',
			name: 'First',
			address: { line1: '', line2: null, city: '', state: '', zip: '' },
			timezone: 'UTC',
			activeSubscription: true,
			adoptDiscovered: false,
			screens: undefined
		});
		expect(second.number).toBe('2');
		expect(first.screens[0]).toMatchObject({
			type: 'android',
			version: '2.21.30',
			tcp: { host: '127.0.0.1', port: 9200 },
			deleted: false,
			settings: { autoHoldFutureOrders: false, keymap: {} }
		});
		// A part of an address is filled in too; what is given is kept.
		minimal.brands[0].locations[1] = {
			...minimal.brands[0].locations[1],
			number: '77',
			address: { city: 'Springfield' }
		} as (typeof minimal.brands)[0]['locations'][1];
		const partial = parseConfig(minimal).brands[0].locations[1];
		expect([partial.number, partial.address]).toEqual([
			'77',
			{ line1: '', line2: null, city: 'Springfield', state: '', zip: '' }
		]);
	});

	it('names the setting, the value and what is expected', () => {
		const bad = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<{ tcp: { port: unknown } }> }> }>;
		};
		bad.brands[0].locations[0].screens[1].tcp.port = 'x';
		expect(() => parseConfig(bad, 'config file kds.json')).toThrow(
			'Invalid config file kds.json: brands[0].locations[0].screens[1].tcp.port: expected a port number 0-65535, got "x"'
		);
	});

	it('screen settings scale and modeColors: taken when good, refused with the setting named', () => {
		const good = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<{ settings?: unknown }> }> }>;
		};
		good.brands[0].locations[0].screens[0].settings = {
			scale: 1.25,
			modeColors: { DriveThru: '#f0a', Delivery: '#22c55e' }
		};
		const settings = parseConfig(good).brands[0].locations[0].screens[0].settings;
		expect(settings.scale).toBe(1.25);
		expect(settings.modeColors).toEqual({ DriveThru: '#f0a', Delivery: '#22c55e' });

		good.brands[0].locations[0].screens[0].settings = { scale: 5 };
		expect(() => parseConfig(good)).toThrow(
			'brands[0].locations[0].screens[0].settings.scale: expected a scale from 0.5 to 3'
		);
		good.brands[0].locations[0].screens[0].settings = { modeColors: { Pickup: 'blue' } };
		expect(() => parseConfig(good)).toThrow(
			'brands[0].locations[0].screens[0].settings.modeColors.Pickup: expected a colour as #rgb or #rrggbb'
		);
		good.brands[0].locations[0].screens[0].settings = { modeColors: { Dinner: '#fff' } };
		expect(() => parseConfig(good)).toThrow(
			'settings.modeColors.Dinner: expected an order mode (For Here, ToGo, Pickup, DriveThru, Delivery, Curbside), got "Dinner"'
		);
	});

	it('screen setting alertWords: a list of words taken (trimmed), absent by default, refused with the entry named', () => {
		const config = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<{ settings?: unknown }> }> }>;
		};
		const screen = config.brands[0].locations[0].screens[0];
		const parsed = () => parseConfig(config).brands[0].locations[0].screens[0].settings;
		expect(parsed().alertWords).toBeUndefined();
		screen.settings = { alertWords: [' shrimp ', 'no …', 'アレルギー'] };
		expect(parsed().alertWords).toEqual(['shrimp', 'no …', 'アレルギー']);
		screen.settings = { alertWords: [] };
		expect(parsed().alertWords).toEqual([]);
		for (const [bad, message] of [
			['nuts', 'settings.alertWords: expected a list of words, got "nuts"'],
			[['nut', ''], 'settings.alertWords[1]: expected a word or phrase, got an empty string'],
			[['nut', 7], 'settings.alertWords[1]: expected a word or phrase, got 7'],
			[
				['x'.repeat(61)],
				'settings.alertWords[0]: expected a word or phrase of at most 60 characters'
			],
			[Array(201).fill('nut'), 'settings.alertWords: expected at most 200 words']
		] as const) {
			screen.settings = { alertWords: bad };
			expect(() => parseConfig(config), JSON.stringify(bad).slice(0, 40)).toThrow(message);
		}
	});

	it('screen setting changeMarks: "seen" or seconds above 0, else refused with the setting named', () => {
		const config = structuredClone(DEFAULT_CONFIG) as {
			brands: Array<{ locations: Array<{ screens: Array<{ settings?: unknown }> }> }>;
		};
		const screen = config.brands[0].locations[0].screens[0];
		const parsed = () => parseConfig(config).brands[0].locations[0].screens[0].settings;
		expect(parsed().changeMarks).toBeUndefined();
		screen.settings = { changeMarks: 'seen' };
		expect(parsed().changeMarks).toBe('seen');
		screen.settings = { changeMarks: 45 };
		expect(parsed().changeMarks).toBe(45);
		for (const [bad, shown] of [
			[0, '0'],
			[-5, '-5'],
			['30', '"30"'],
			['forever', '"forever"'],
			[null, 'null']
		] as const) {
			screen.settings = { changeMarks: bad };
			expect(() => parseConfig(config), String(bad)).toThrow(
				`brands[0].locations[0].screens[0].settings.changeMarks: expected "seen" or a number of seconds above 0, got ${shown}`
			);
		}
	});

	it('refuses two screens on one TCP endpoint, duplicate screen ids and shared tokens', () => {
		const sameEndpoint = structuredClone(DEFAULT_CONFIG);
		sameEndpoint.brands[0].locations[0].screens[1].tcp.port = 9104;
		expect(() => parseConfig(sameEndpoint)).toThrow(
			'TCP endpoint 127.0.0.1:9104 is given to two screens'
		);
		const sameId = structuredClone(DEFAULT_CONFIG);
		sameId.brands[0].locations[0].screens[1].id = 'kds-1';
		expect(() => parseConfig(sameId)).toThrow('screen id "kds-1" is used twice');
		const twoBrands = {
			brands: [DEFAULT_CONFIG.brands[0], { ...DEFAULT_CONFIG.brands[0], id: 'b2', locations: [] }]
		};
		expect(() => parseConfig(twoBrands)).toThrow('two brands share a token');
	});

	it('a config file that is not JSON, or missing, is refused with its path', () => {
		const dir = mkdtempSync(join(tmpdir(), 'kds-config-'));
		writeFileSync(join(dir, 'bad.json'), '{ nope');
		expect(() => loadConfigFile(join(dir, 'bad.json'))).toThrow(
			/^Invalid config file .*bad\.json: not valid JSON/
		);
		expect(() => loadConfigFile(join(dir, 'missing.json'))).toThrow(
			/^Cannot read config file .*missing\.json/
		);
	});

	it('TCP overrides: one host for all, ports counting up, 0 for any free port', () => {
		const config = withTcpOverrides(parseConfig(DEFAULT_CONFIG), '127.0.0.2', 7000);
		expect(config.brands[0].locations[0].screens.map((s) => `${s.tcp.host}:${s.tcp.port}`)).toEqual(
			['127.0.0.2:7000', '127.0.0.2:7001']
		);
		const any = withTcpOverrides(parseConfig(DEFAULT_CONFIG), undefined, 0);
		expect(any.brands[0].locations[0].screens.map((s) => s.tcp.port)).toEqual([0, 0]);
	});

	it('TCP overrides that count past port 65535, or give two screens one endpoint, are refused', () => {
		expect(() => withTcpOverrides(parseConfig(DEFAULT_CONFIG), undefined, 65535)).toThrow(
			"Invalid TCP settings: screen kds-2 would listen on port 65536; the screens' ports count up from 65535 and must stay within 0-65535"
		);
		// Two screens on one port of two addresses: one host for all puts them on one endpoint.
		const twoHosts = structuredClone(DEFAULT_CONFIG) as typeof DEFAULT_CONFIG;
		const [a, b] = twoHosts.brands[0].locations[0].screens;
		Object.assign(a, { tcp: { host: '127.0.0.1', port: 9104 } });
		Object.assign(b, { tcp: { host: '127.0.0.2', port: 9104 } });
		expect(() => withTcpOverrides(parseConfig(twoHosts), '0.0.0.0')).toThrow(
			'Invalid TCP settings: TCP endpoint 0.0.0.0:9104 is given to two screens'
		);
	});
});

describe('command-line settings', () => {
	it('flags win over the environment', () => {
		const s = readSettings(['--http-port', '9000'], {
			KDS_HTTP_PORT: '8000',
			KDS_TCP_PORT: '7000'
		});
		expect(s.httpPort).toBe(9000);
		expect(s.tcpPort).toBe(7000);
	});

	it.each([
		[
			['--http-port', 'abc'],
			{},
			'Invalid value for --http-port (KDS_HTTP_PORT): "abc" (expected a port number 0-65535)'
		],
		[
			[],
			{ KDS_TCP_PORT: '70000' },
			'Invalid value for --tcp-port (KDS_TCP_PORT): "70000" (expected a port number 0-65535)'
		],
		[
			['--sync', 'sometimes'],
			{},
			'Invalid value for --sync (KDS_SYNC): "sometimes" (expected normal or full)'
		],
		[[], { KDS_LOG_LEVEL: 'loud' }, 'Invalid value for --log-level (KDS_LOG_LEVEL): "loud"'],
		[[], { KDS_MEMORY: 'yes' }, 'Invalid value for --memory (KDS_MEMORY): "yes" (expected 1 or 0)'],
		[
			['--host', 'not a host'],
			{},
			'Invalid value for --host (KDS_HOST): "not a host" (expected an IP address or host name)'
		],
		[
			['--admin-token', 'short'],
			{},
			'Invalid value for --admin-token (KDS_ADMIN_TOKEN): "short" (expected a token of at least 8 characters)'
		],
		[
			[],
			{ KDS_INSPECTOR_RETENTION: '0' },
			'Invalid value for --inspector-retention (KDS_INSPECTOR_RETENTION): "0" (expected a whole number of messages, 1-1000000)'
		],
		[
			['--pending-budget-mb', '0'],
			{},
			'Invalid value for --pending-budget-mb (KDS_PENDING_BUDGET_MB): "0" (expected a whole number of MiB, 1-65536)'
		],
		[
			[],
			{ KDS_MESSAGE_TIMEOUT: '30s' },
			'Invalid value for --message-timeout (KDS_MESSAGE_TIMEOUT): "30s" (expected a number of seconds, 0.1-3600)'
		],
		[['--bogus'], {}, "Unknown option '--bogus'"],
		[
			['--memory', '--data-dir', 'data'],
			{},
			'--memory and --data-dir contradict each other: --memory writes nothing to disk. Give one of them.'
		]
	])('refuses %j %j with one sentence', (argv, env, message) => {
		expect(() => readSettings(argv as string[], env)).toThrow(message);
	});
});

describe('the limits on unfinished messages', () => {
	it('are read in MiB and seconds, from flags or the environment', () => {
		const fromFlags = readSettings(['--pending-budget-mb', '32', '--message-timeout', '2.5'], {});
		expect([fromFlags.pendingBudgetBytes, fromFlags.messageTimeoutMs]).toEqual([
			32 * 1024 * 1024,
			2500
		]);
		const fromEnv = readSettings([], { KDS_PENDING_BUDGET_MB: '8', KDS_MESSAGE_TIMEOUT: '10' });
		expect([fromEnv.pendingBudgetBytes, fromEnv.messageTimeoutMs]).toEqual([
			8 * 1024 * 1024,
			10_000
		]);
		const byDefault = readSettings([], {});
		expect([byDefault.pendingBudgetBytes, byDefault.messageTimeoutMs]).toEqual([
			undefined,
			undefined
		]);
	});
});

describe('webhook endpoints (brands[].webhooks)', () => {
	const withHooks = (webhooks: unknown[]) => {
		const config = structuredClone(DEFAULT_CONFIG) as unknown as {
			brands: Array<Record<string, unknown>>;
		};
		config.brands[0].webhooks = webhooks;
		return config;
	};

	it("the portal's defaults: every event, every location, 3 attempts 30 minutes apart; an id given", () => {
		const [endpoint] = parseConfig(withHooks([{ url: 'https://pos.example/hook' }])).brands[0]
			.webhooks;
		expect(endpoint).toEqual({
			id: 'brand-1-webhook-1',
			url: 'https://pos.example/hook',
			triggers: [
				'KDS Order Created',
				'KDS Order Bumped',
				'Device Created',
				'Device Updated',
				'Device Deleted'
			],
			locations: [],
			attempts: 3,
			secondsBetweenAttempts: 1800
		});
		const fast = parseConfig(
			withHooks([{ url: 'http://127.0.0.1:9/h', secondsBetweenAttempts: 2, attempts: 5 }])
		);
		expect(fast.brands[0].webhooks[0]).toMatchObject({ secondsBetweenAttempts: 2, attempts: 5 });
	});

	it('refuses, naming the field: a bad URL, an unknown trigger, both schedules, an unknown location', () => {
		expect(() => parseConfig(withHooks([{ url: 'pos.example/hook' }]))).toThrow(
			/brands\[0\]\.webhooks\[0\]\.url: expected an http:\/\/ or https:\/\/ URL/
		);
		expect(() =>
			parseConfig(withHooks([{ url: 'http://a.b/h', triggers: ['Order Created'] }]))
		).toThrow(/webhooks\[0\]\.triggers\[0\]: expected one of KDS Order Created/);
		expect(() =>
			parseConfig(
				withHooks([{ url: 'http://a.b/h', minutesBetweenAttempts: 1, secondsBetweenAttempts: 1 }])
			)
		).toThrow(/secondsBetweenAttempts: give minutesBetweenAttempts or secondsBetweenAttempts/);
		expect(() => parseConfig(withHooks([{ url: 'http://a.b/h', locations: ['loc-9'] }]))).toThrow(
			/webhooks\[0\]\.locations: "loc-9" is not a location of brand brand-1/
		);
	});
});
