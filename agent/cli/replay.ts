/**
 * `kds-sim replay <file>`: send a session file (core/session.ts: the inspector's export, a
 * certification run's transcript) again to a running simulator, message by message in the
 * recorded order, at the recorded pace (or N times faster, or as fast as each reply comes), so
 * anyone can watch on a kitchen screen what the POS did. Where to send: the simulator's admin API
 * (`GET /api/admin/integration`: each screen's TCP host and port, each location's brand token),
 * or flags. Each message waits for its reply before the next goes, as the recording's did. At the
 * end a summary: what was sent, and each reply that differs from the recording's.
 */
import { readFileSync } from 'node:fs';
import { formatSessionErrors, readSession, type Session, type SessionMessage } from '#core/session';
import { readCommandLine, UsageError } from '../command-line.ts';
import type { Integration } from '../http/simulator-bodies.ts';
import { sendTcp } from '../tcp/client.ts';

export const REPLAY_HELP = `kds-sim replay: send a recorded session again to a running simulator

Usage: kds-sim replay <session.jsonl | -> [options]

Sends each message of the file (the inspector's Export, GET /api/admin/messages/session, or a
certification run's transcript) in its order, over TCP to its screen or to its HTTP route, and
prints each reply, then a summary. Exit code: 0 every reply as recorded, 1 some differ (listed),
2 a bad file (each problem named by line and field), bad usage or no connection.

Options:
  --url <url>            the simulator's HTTP address (default http://127.0.0.1:8104); its admin
                         API gives each screen's TCP port and each location's token
  --speed <n>            n times the recorded pace (default 1: as recorded)
  --fast                 no waiting: each message as soon as the one before is answered
  --tcp <id=host:port>   where a screen's TCP port is (repeat for each screen); default: asked
  --token <t>            the x-integration-token for HTTP (default: each location's brand token)
  --admin-token <t>      the simulator's admin token, when it is not on this host
  --quiet                only the summary
  -h, --help             this text
`;

export interface ReplayOptions {
	file: string;
	url: string;
	/** How many times faster than recorded; Infinity: --fast. */
	speed: number;
	tcp: Map<string, { host: string; port: number }>;
	token?: string;
	adminToken?: string;
	quiet: boolean;
}

/** A session file that cannot be replayed: each problem by line and field (exit code 2). */
export class SessionFileError extends UsageError {}

function hostPort(value: string): { id: string; host: string; port: number } {
	const match = /^([^=]+)=(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
	if (!match || Number(match[3]) > 65535)
		throw new UsageError(
			`kds-sim replay: invalid --tcp "${value}" (expected screen=host:port, e.g. kds-1=127.0.0.1:9104)`
		);
	return { id: match[1], host: match[2].replace(/^\[|\]$/g, ''), port: Number(match[3]) };
}

export function readReplayArgs(argv: string[]): ReplayOptions {
	const { values, positionals } = readCommandLine(
		{
			args: argv,
			allowPositionals: true,
			options: {
				url: { type: 'string' },
				speed: { type: 'string' },
				fast: { type: 'boolean' },
				tcp: { type: 'string', multiple: true },
				token: { type: 'string' },
				'admin-token': { type: 'string' },
				quiet: { type: 'boolean' }
			}
		},
		{ before: 'kds-sim replay: ', after: '. See --help.' }
	);
	if (positionals.length !== 1)
		throw new UsageError(
			'kds-sim replay: give one session file, or - for standard input. See --help.'
		);
	const url = values.url ?? 'http://127.0.0.1:8104';
	if (!/^https?:\/\/[^/]+/.test(url))
		throw new UsageError(`kds-sim replay: invalid --url "${url}" (expected http://host:port)`);
	let speed = 1;
	if (values.speed !== undefined) {
		speed = Number(values.speed);
		if (values.speed.trim() === '' || !Number.isFinite(speed) || speed <= 0 || speed > 1e6)
			throw new UsageError(
				`kds-sim replay: invalid --speed "${values.speed}" (expected a number above 0, e.g. 2 for twice as fast)`
			);
	}
	if (values.fast) {
		if (values.speed !== undefined)
			throw new UsageError('kds-sim replay: give --speed or --fast, not both');
		speed = Infinity;
	}
	const tcp = new Map<string, { host: string; port: number }>();
	for (const value of values.tcp ?? []) {
		const { id, host, port } = hostPort(value);
		tcp.set(id, { host, port });
	}
	return {
		file: positionals[0],
		url: url.replace(/\/+$/, ''),
		speed,
		tcp,
		token: values.token,
		adminToken: values['admin-token'],
		quiet: values.quiet ?? false
	};
}

/** The session in a file, checked; a SessionFileError naming each problem's line and field. */
export function loadSession(
	file: string,
	readStdin: () => string = () => readFileSync(0, 'utf8')
): Session {
	let text: string;
	try {
		text = file === '-' ? readStdin() : readFileSync(file, 'utf8');
	} catch (err) {
		throw new UsageError(`kds-sim replay: cannot read ${file}: ${(err as Error).message}`);
	}
	const read = readSession(text);
	if (!read.ok) {
		const name = file === '-' ? 'stdin' : file;
		throw new SessionFileError(
			`kds-sim replay: ${name} is not a session file it can replay:\n${formatSessionErrors(read.errors, name)}`
		);
	}
	return read.session;
}

interface Target {
	tcp: Map<string, { host: string; port: number }>;
	tokens: Map<string, string>;
}

/** Where each screen listens and each location's token: the simulator's admin API, then the flags. */
async function targetOf(options: ReplayOptions, session: Session): Promise<Target> {
	const target: Target = { tcp: new Map(), tokens: new Map() };
	const needsTcp = session.messages.some(
		(m) => m.transport === 'tcp' && !options.tcp.has(m.screen)
	);
	const needsToken = !options.token && session.messages.some((m) => m.transport === 'http');
	if (needsTcp || needsToken) {
		let res: Response;
		try {
			res = await fetch(`${options.url}/api/admin/integration`, {
				headers: options.adminToken ? { 'x-admin-token': options.adminToken } : {}
			});
		} catch (err) {
			throw new Error(`no simulator at ${options.url} (${(err as Error).message})`, { cause: err });
		}
		if (!res.ok)
			throw new Error(
				`${options.url}/api/admin/integration answered ${res.status}: ${(await res.text()).slice(0, 300)}${res.status === 403 ? ' (give --admin-token, or --tcp and --token)' : ''}`
			);
		const body = (await res.json()) as Integration;
		for (const brand of body.brands)
			for (const location of brand.locations) {
				target.tokens.set(location.id, brand.token);
				for (const screen of location.screens) target.tcp.set(screen.id, screen.tcp);
			}
	}
	for (const [id, endpoint] of options.tcp) target.tcp.set(id, endpoint);
	const missing = [
		...new Set(
			session.messages
				.filter((m) => m.transport === 'tcp' && !target.tcp.has(m.screen))
				.map((m) => (m as { screen: string }).screen)
		)
	];
	if (missing.length > 0)
		throw new UsageError(
			`kds-sim replay: the simulator at ${options.url} has no screen ${missing.join(', ')} (give --tcp ${missing[0]}=host:port, or start it with the recording's config)`
		);
	return target;
}

export interface ReplayedMessage {
	seq: number;
	/** Its line in the file. */
	line: number;
	transport: 'tcp' | 'http';
	/** The reply as `send` prints it: TCP the string (trimmed); HTTP `<status> <body>`. */
	reply: string;
	recorded: string | undefined;
	/** Same as the recording's (TCP: the reply; HTTP: the status). Undefined: none recorded. */
	same: boolean | undefined;
}

export interface ReplaySummary {
	messages: number;
	tcp: number;
	http: number;
	/** Replies that differ from the recording's. */
	differ: ReplayedMessage[];
	/** Wall-clock ms the replay took. */
	ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sameReply(m: SessionMessage, reply: string): boolean | undefined {
	if (m.reply === undefined) return undefined;
	if (m.transport === 'tcp') return m.reply.trim() === reply;
	return m.reply.split(' ')[0] === reply.split(' ')[0];
}

function label(m: SessionMessage): string {
	if (m.transport === 'tcp') {
		let command: string;
		try {
			const json = JSON.parse(m.text) as {
				command?: unknown;
				order?: { id?: unknown };
				id?: unknown;
			};
			const id = json.order?.id ?? json.id;
			command = `${typeof json.command === 'string' ? json.command : 'order'}${id !== undefined ? ` ${String(id)}` : ''}`;
		} catch {
			command = 'bytes that are not JSON';
		}
		return `TCP  ${m.screen} ${command}`;
	}
	return `HTTP ${m.method} ${m.route}`;
}

/** Send each message of the session; `onLine` gets a line per message (unless quiet). */
export async function replay(
	options: ReplayOptions,
	session: Session,
	onLine: (line: string) => void = () => {},
	signal?: AbortSignal
): Promise<ReplaySummary> {
	const target = await targetOf(options, session);
	const started = Date.now();
	const summary: ReplaySummary = { messages: 0, tcp: 0, http: 0, differ: [], ms: 0 };
	for (const [i, m] of session.messages.entries()) {
		const line = i + 2;
		if (signal?.aborted) break;
		if (options.speed !== Infinity) {
			const wait = started + m.offsetMs / options.speed - Date.now();
			if (wait > 0) await sleep(wait);
		}
		let reply: string;
		if (m.transport === 'tcp') {
			const { host, port } = target.tcp.get(m.screen)!;
			try {
				reply = (await sendTcp(host, port, m.text)).trim();
			} catch (err) {
				throw new Error(
					`line ${line}: TCP ${host}:${port} (${m.screen}): ${(err as Error).message}`,
					{ cause: err }
				);
			}
			summary.tcp++;
		} else {
			const headers: Record<string, string> = {};
			if (m.contentType !== null) headers['content-type'] = m.contentType;
			const token = options.token ?? (m.location ? target.tokens.get(m.location) : undefined);
			if (token) headers['x-integration-token'] = token;
			if (m.location) headers['x-location-id'] = m.location;
			if (m.devices.length > 0) headers['x-device-ids'] = m.devices.join(',');
			let res: Response;
			try {
				res = await fetch(`${options.url}${m.route}`, {
					method: m.method,
					headers,
					body: m.method === 'GET' ? undefined : m.text
				});
			} catch (err) {
				throw new Error(
					`line ${line}: ${m.method} ${options.url}${m.route}: ${(err as Error).message}`,
					{ cause: err }
				);
			}
			reply = `${res.status} ${await res.text()}`;
			summary.http++;
		}
		summary.messages++;
		const same = sameReply(m, reply);
		const done: ReplayedMessage = {
			seq: m.seq,
			line,
			transport: m.transport,
			reply,
			recorded: m.reply,
			same
		};
		if (same === false) summary.differ.push(done);
		if (!options.quiet) {
			const shown = reply.length > 120 ? `${reply.slice(0, 117)}...` : reply;
			const note = same === false ? `  (recorded: ${m.reply?.trim().slice(0, 80)})` : '';
			onLine(
				`#${String(m.seq).padEnd(4)} +${(m.offsetMs / 1000).toFixed(1).padStart(6)} s  ${label(m)} → ${shown}${note}`
			);
		}
	}
	summary.ms = Date.now() - started;
	return summary;
}

export function formatReplaySummary(summary: ReplaySummary, session: Session): string {
	const lines = [
		`Replayed ${summary.messages} of ${session.messages.length} messages (${summary.tcp} TCP, ${summary.http} HTTP) in ${(summary.ms / 1000).toFixed(1)} s; recorded by kds-sim ${session.header.simulator} at ${session.header.createdAt}${session.header.redacted ? ', customer data redacted' : ''}.`
	];
	if (summary.differ.length === 0) lines.push('Every reply as recorded.');
	else {
		lines.push(`${summary.differ.length} replies differ from the recording:`);
		for (const d of summary.differ)
			lines.push(
				`  #${d.seq} (line ${d.line}): got ${d.reply.trim().slice(0, 100)}, recorded ${d.recorded?.trim().slice(0, 100)}`
			);
	}
	return `${lines.join('\n')}\n`;
}
