/**
 * Command-line flags and environment variables, checked at start-up: every bad value is refused
 * with one sentence naming the setting, the value and what is expected.
 */
import { DEFAULT_DATA_DIR, DEFAULT_HTTP_PORT } from '../config.ts';
import { DEFAULT_DISCOVERY_INTERVAL_S, parseTargets } from '../discovery/discovery.ts';
import { LOG_LEVELS, type LogLevel } from '../log.ts';
import { readCommandLine, UsageError } from '../command-line.ts';

export const HELP = `kds-sim: a kitchen screen simulator for the KDS integrator interface

Usage: kds-sim [options]      (in a clone: npm start -- [options])
       kds-sim <command> [options]

Commands (each has its own --help):
  start                 start the simulator (the default: kds-sim alone does the same)
  send                  send one order message to a screen over TCP or HTTP, print the reply
  discover              list the screens announcing themselves on the LAN (UDP 28000)
  fleet-config          print a config with many locations and screens (for --config)
  rush                  send a lunch rush of realistic orders to a running simulator (TCP and HTTP)
  replay                send a recorded session (the inspector's Export) again to a running simulator
  certify               grade a POS scenario by scenario on a running simulator; writes the report

Options of start (each also settable by the environment variable shown):
  --config <file>       KDS_CONFIG       JSON config: brands, locations, screens (default: embedded demo)
  --data-dir <dir>      KDS_DATA_DIR     where orders are stored (default: ./${DEFAULT_DATA_DIR})
  --memory              KDS_MEMORY=1     keep orders in memory only; nothing is written to disk
  --sync <mode>         KDS_SYNC         normal (survives kill -9; default) or full (also power loss)
  --host <addr>         KDS_HOST         HTTP listen address (default 127.0.0.1; 0.0.0.0 for the LAN)
  --http-port <port>    KDS_HTTP_PORT    HTTP port for the UI and APIs (default ${DEFAULT_HTTP_PORT}; 0 = any free port)
  --tcp-host <addr>     KDS_TCP_HOST     TCP listen address of every screen (default: per screen, 127.0.0.1)
  --tcp-port <port>     KDS_TCP_PORT     TCP port of the first screen; the next screens count up (0 = any free)
  --token <t>           KDS_TOKEN        integration token of the first brand (required off loopback: the demo token is refused there)
  --discovery           KDS_DISCOVERY=1  announce each screen on port 9104 over UDP 28000 so a POS can find it (default off)
  --discovery-to <list> KDS_DISCOVERY_TO where: broadcast (each interface's broadcast address; default) or host:port,…
  --discovery-interval <s>  KDS_DISCOVERY_INTERVAL  seconds between announcements (default ${DEFAULT_DISCOVERY_INTERVAL_S})
  --listen-discovery    KDS_LISTEN_DISCOVERY=1  list the screens heard on UDP 28000 on the home page (default off)
  --adopt-discovered    KDS_ADOPT_DISCOVERED=1  add the screens heard as remote screens of a location (docs/fleet.md)
  --listen-discovery-on <host:port>  KDS_LISTEN_DISCOVERY_ON  where to listen (default 0.0.0.0:28000)
  --adopt-http-port <port>  KDS_ADOPT_HTTP_PORT  HTTP port of the simulators heard (default ${DEFAULT_HTTP_PORT})
  --admin-token <t>     KDS_ADMIN_TOKEN  token for the admin API and customer data from other hosts; a browser signs in at /access (default: loopback only)
  --inspector-retention <n>  KDS_INSPECTOR_RETENTION  messages the inspector keeps (default 2000)
  --pending-budget-mb <n>  KDS_PENDING_BUDGET_MB  MiB all unfinished messages (TCP and HTTP) may hold at once (default 64)
  --message-timeout <s>  KDS_MESSAGE_TIMEOUT  seconds a message (TCP, or HTTP body) may take to arrive whole (default 30)
  --ready-file <file>   KDS_READY_FILE   once every port listens, write where (JSON: HTTP URL, each screen's TCP host:port); - prints it as one line on stdout
  --faults <list>       KDS_FAULTS       fault profiles on from the start: name or name@screen, comma-separated (flaky-wifi, wifi-down, cloud-trouble, or the config's own; docs/faults.md)
  --log-level <level>   KDS_LOG_LEVEL    ${LOG_LEVELS.join(', ')} (default info)
  -h, --help            this text
`;

export { DEFAULT_DATA_DIR, UsageError };

function invalid(name: string, env: string, value: string, expected: string): never {
	throw new UsageError(`Invalid value for ${name} (${env}): "${value}" (expected ${expected})`);
}

function portSetting(name: string, env: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value) || Number(value) > 65535)
		invalid(name, env, value, 'a port number 0-65535');
	return Number(value);
}

function hostSetting(name: string, env: string, value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	const ok =
		/^(\d{1,3}\.){3}\d{1,3}$/.test(value) || value.includes(':') || /^[a-z0-9.-]+$/i.test(value);
	if (!ok || value === '') invalid(name, env, value, 'an IP address or host name');
	return value;
}

const BOOLEAN_ENV = ['0', '1', 'true', 'false'];

/** --discovery and its two settings; null when discovery is off. */
function discoverySettings(
	flag: boolean,
	env: string | undefined,
	pick: (flag: 'discovery-to' | 'discovery-interval', env: string) => string | undefined
) {
	if (env !== undefined && env !== '' && !BOOLEAN_ENV.includes(env))
		invalid('--discovery', 'KDS_DISCOVERY', env, '1 or 0');
	const to = pick('discovery-to', 'KDS_DISCOVERY_TO');
	const targets = to === undefined ? 'broadcast' : parseTargets(to);
	if (targets === null) {
		invalid(
			'--discovery-to',
			'KDS_DISCOVERY_TO',
			to!,
			'broadcast, or IPv4 host:port targets separated by commas'
		);
	}
	const interval = pick('discovery-interval', 'KDS_DISCOVERY_INTERVAL');
	const seconds = interval === undefined ? DEFAULT_DISCOVERY_INTERVAL_S : Number(interval);
	if (!/^\d+(\.\d+)?$/.test(interval ?? '1') || seconds < 0.05 || seconds > 3600) {
		invalid(
			'--discovery-interval',
			'KDS_DISCOVERY_INTERVAL',
			interval!,
			'a number of seconds, 0.05-3600'
		);
	}
	if (!flag && env !== '1' && env !== 'true') return null;
	return { targets, intervalMs: Math.round(seconds * 1000) };
}

const isOn = (flag: unknown, env: string | undefined, name: string, envName: string) => {
	if (env !== undefined && env !== '' && !BOOLEAN_ENV.includes(env))
		invalid(name, envName, env, '1 or 0');
	return flag === true || env === '1' || env === 'true';
};

/** --listen-discovery, --adopt-discovered and their two settings (docs/fleet.md); null: off. */
function listenSettings(
	parsed: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
	pick: (flag: 'listen-discovery-on' | 'adopt-http-port', env: string) => string | undefined
) {
	const listen = isOn(
		parsed['listen-discovery'],
		env.KDS_LISTEN_DISCOVERY,
		'--listen-discovery',
		'KDS_LISTEN_DISCOVERY'
	);
	const adopt = isOn(
		parsed['adopt-discovered'],
		env.KDS_ADOPT_DISCOVERED,
		'--adopt-discovered',
		'KDS_ADOPT_DISCOVERED'
	);
	const on = pick('listen-discovery-on', 'KDS_LISTEN_DISCOVERY_ON');
	const target = on === undefined ? null : parseTargets(on);
	if (on !== undefined && (target === null || target === 'broadcast' || target.length !== 1))
		invalid('--listen-discovery-on', 'KDS_LISTEN_DISCOVERY_ON', on, 'one IPv4 host:port');
	const httpPort = portSetting(
		'--adopt-http-port',
		'KDS_ADOPT_HTTP_PORT',
		pick('adopt-http-port', 'KDS_ADOPT_HTTP_PORT')
	);
	if (!listen && !adopt) return null;
	const where = target && target !== 'broadcast' ? target[0] : undefined;
	return { adopt, httpPort, bind: where?.host, port: where?.port };
}

/** `--faults`: profile names, `name` or `name@screen`, comma-separated (checked at start). */
function faultProfiles(value: string | undefined): string[] | undefined {
	if (value === undefined) return undefined;
	const list = value.split(',').map((entry) => entry.trim());
	if (list.some((entry) => !/^[\w.-]+(@[\w.-]+)?$/.test(entry)))
		invalid(
			'--faults',
			'KDS_FAULTS',
			value,
			'profile names, name or name@screen, separated by commas'
		);
	return list;
}

export function readSettings(argv: string[], env: NodeJS.ProcessEnv) {
	const { values: parsed } = readCommandLine(
		{
			args: argv,
			options: {
				config: { type: 'string' },
				'data-dir': { type: 'string' },
				memory: { type: 'boolean' },
				sync: { type: 'string' },
				host: { type: 'string' },
				'http-port': { type: 'string' },
				'tcp-host': { type: 'string' },
				'tcp-port': { type: 'string' },
				'log-level': { type: 'string' },
				'admin-token': { type: 'string' },
				token: { type: 'string' },
				discovery: { type: 'boolean' },
				'discovery-to': { type: 'string' },
				'discovery-interval': { type: 'string' },
				'inspector-retention': { type: 'string' },
				'listen-discovery': { type: 'boolean' },
				'adopt-discovered': { type: 'boolean' },
				'listen-discovery-on': { type: 'string' },
				'adopt-http-port': { type: 'string' },
				'pending-budget-mb': { type: 'string' },
				'message-timeout': { type: 'string' },
				'ready-file': { type: 'string' },
				faults: { type: 'string' },
				help: { type: 'boolean', short: 'h' }
			},
			allowPositionals: false
		},
		{ after: '. See --help.' }
	);
	const pick = (flag: keyof typeof parsed, name: string) => {
		const v = parsed[flag];
		return typeof v === 'string'
			? v
			: env[name] !== undefined && env[name] !== ''
				? env[name]
				: undefined;
	};
	const sync = pick('sync', 'KDS_SYNC');
	if (sync !== undefined && sync !== 'normal' && sync !== 'full')
		invalid('--sync', 'KDS_SYNC', sync, 'normal or full');
	const logLevel = pick('log-level', 'KDS_LOG_LEVEL');
	if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel)) {
		invalid('--log-level', 'KDS_LOG_LEVEL', logLevel, LOG_LEVELS.join(', '));
	}
	const memoryEnv = env.KDS_MEMORY;
	if (
		memoryEnv !== undefined &&
		memoryEnv !== '' &&
		!['0', '1', 'true', 'false'].includes(memoryEnv)
	) {
		invalid('--memory', 'KDS_MEMORY', memoryEnv, '1 or 0');
	}
	if (parsed.memory === true && parsed['data-dir'] !== undefined) {
		throw new UsageError(
			'--memory and --data-dir contradict each other: --memory writes nothing to disk. Give one of them.'
		);
	}
	const adminToken = pick('admin-token', 'KDS_ADMIN_TOKEN');
	if (adminToken !== undefined && adminToken.length < 8) {
		invalid('--admin-token', 'KDS_ADMIN_TOKEN', adminToken, 'a token of at least 8 characters');
	}
	const retention = pick('inspector-retention', 'KDS_INSPECTOR_RETENTION');
	if (
		retention !== undefined &&
		(!/^\d+$/.test(retention) || Number(retention) < 1 || Number(retention) > 1_000_000)
	) {
		invalid(
			'--inspector-retention',
			'KDS_INSPECTOR_RETENTION',
			retention,
			'a whole number of messages, 1-1000000'
		);
	}
	const token = pick('token', 'KDS_TOKEN');
	if (token !== undefined && token.length < 8) {
		invalid('--token', 'KDS_TOKEN', token, 'a token of at least 8 characters');
	}
	const budgetMb = pick('pending-budget-mb', 'KDS_PENDING_BUDGET_MB');
	if (
		budgetMb !== undefined &&
		(!/^\d+$/.test(budgetMb) || Number(budgetMb) < 1 || Number(budgetMb) > 65536)
	) {
		invalid(
			'--pending-budget-mb',
			'KDS_PENDING_BUDGET_MB',
			budgetMb,
			'a whole number of MiB, 1-65536'
		);
	}
	const messageTimeout = pick('message-timeout', 'KDS_MESSAGE_TIMEOUT');
	if (
		messageTimeout !== undefined &&
		(!/^\d+(\.\d+)?$/.test(messageTimeout) ||
			Number(messageTimeout) < 0.1 ||
			Number(messageTimeout) > 3600)
	) {
		invalid(
			'--message-timeout',
			'KDS_MESSAGE_TIMEOUT',
			messageTimeout,
			'a number of seconds, 0.1-3600'
		);
	}
	return {
		help: parsed.help === true,
		discoveryListen: listenSettings(parsed, env, pick),
		token,
		discovery: discoverySettings(parsed.discovery === true, env.KDS_DISCOVERY, pick),
		pendingBudgetBytes: budgetMb === undefined ? undefined : Number(budgetMb) * 1024 * 1024,
		messageTimeoutMs:
			messageTimeout === undefined ? undefined : Math.round(Number(messageTimeout) * 1000),
		adminToken,
		inspectorRetention: retention === undefined ? undefined : Number(retention),
		configPath: pick('config', 'KDS_CONFIG'),
		readyFile: pick('ready-file', 'KDS_READY_FILE'),
		faultProfiles: faultProfiles(pick('faults', 'KDS_FAULTS')),
		dataDir: pick('data-dir', 'KDS_DATA_DIR'),
		memory: parsed.memory === true || memoryEnv === '1' || memoryEnv === 'true',
		sync: sync as 'normal' | 'full' | undefined,
		httpHost: hostSetting('--host', 'KDS_HOST', pick('host', 'KDS_HOST')),
		httpPort: portSetting('--http-port', 'KDS_HTTP_PORT', pick('http-port', 'KDS_HTTP_PORT')),
		tcpHost: hostSetting('--tcp-host', 'KDS_TCP_HOST', pick('tcp-host', 'KDS_TCP_HOST')),
		tcpPort: portSetting('--tcp-port', 'KDS_TCP_PORT', pick('tcp-port', 'KDS_TCP_PORT')),
		logLevel: (logLevel ?? 'info') as LogLevel
	};
}
