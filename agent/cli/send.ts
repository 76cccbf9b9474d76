/**
 * `kds-sim send`: send one JSON message to a screen over TCP or to the HTTP integrator API, and
 * print the reply and what in the message breaks or bends the contract. For quick manual QA.
 */
import { readFileSync } from 'node:fs';
import { checkConformance, type Finding } from '#core/conformance';
import { TCP_COMMANDS, UNABLE_TO_PARSE, type TcpCommandName } from '#core/tcp-message';
import { REJECT_CODES } from '#core/screen';
import { sendTcp } from '../tcp/client.ts';
import { DEFAULT_TOKEN } from '../config.ts';
import { ORDER_ROUTES } from '../http/integrators/paths.ts';
import { readCommandLine, UsageError } from '../command-line.ts';

export const SEND_HELP = `Usage:
  kds-sim send <file.json | -> --tcp <host:port>
  kds-sim send <file.json | -> --http <base_url> [--route create|update|partial|cancel]
        [--token <t>] [--location <id>] [--devices <ids|all>]
  either form: [--time-zone <IANA name>]

Sends the message, prints the reply and the findings (what breaks or bends the contract).
Exit code: 0 accepted, 1 refused, 2 usage or connection error.
HTTP defaults: --route create, --token ${DEFAULT_TOKEN}, --location loc-1, --devices all.
--time-zone: the screen location's zone, in which a time with no offset is read for the
findings (default UTC; the screen itself reads it in its own location's zone).
Findings that depend on what the screen holds (duplicate or unknown ids, lineIds) are left to
the simulator's inspector; this command checks the message alone.
`;

const ROUTES: Record<string, (typeof ORDER_ROUTES)[keyof typeof ORDER_ROUTES]> = ORDER_ROUTES;

/** Codes whose verdict needs the screen's state, which a message alone cannot give. */
const STATE_DEPENDENT = new Set([
	'KDS-ORDER-UNKNOWN',
	'KDS-ORDER-DUPLICATE',
	'KDS-LINEID-EXISTS',
	'KDS-LINEID-UNKNOWN',
	'KDS-CANCEL-IGNORED',
	'KDS-UPDATE-FIELD-CLEARED',
	'KDS-ORDER-COMBINED'
]);

/** The replies of a screen that refused the message (anything else is the order's id). */
const TCP_FAILURES = new Set<string>([UNABLE_TO_PARSE, ...REJECT_CODES]);

export interface SendOutcome {
	ok: boolean;
	reply: string;
	findings: Finding[];
}

/** The findings of one message, from the message alone. */
export function messageFindings(
	iface: 'tcp' | 'http',
	command: TcpCommandName,
	raw: unknown,
	timeZone?: string
): Finding[] {
	return checkConformance({ interface: iface, command, raw, timeZone }).filter(
		(f) => !STATE_DEPENDENT.has(f.code)
	);
}

function parseHostPort(value: string): { host: string; port: number } {
	const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
	if (!match || Number(match[2]) > 65535) {
		throw new UsageError(`Invalid value for --tcp: "${value}" (expected host:port)`);
	}
	return { host: match[1].replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

export async function send(argv: string[], readStdin: () => string): Promise<SendOutcome> {
	const { values, positionals } = readCommandLine(
		{
			args: argv,
			allowPositionals: true,
			options: {
				tcp: { type: 'string' },
				http: { type: 'string' },
				route: { type: 'string' },
				token: { type: 'string' },
				location: { type: 'string' },
				devices: { type: 'string' },
				'time-zone': { type: 'string' }
			}
		},
		{ after: `\n\n${SEND_HELP}` }
	);
	if (positionals.length !== 1)
		throw new UsageError(`Give one file, or - for standard input.\n\n${SEND_HELP}`);
	if (!values.tcp === !values.http)
		throw new UsageError(`Give either --tcp or --http.\n\n${SEND_HELP}`);
	const tcpTarget = values.tcp ? parseHostPort(values.tcp) : null;
	const timeZone = values['time-zone'];
	const file = positionals[0];
	let text: string;
	try {
		text = file === '-' ? readStdin() : readFileSync(file, 'utf8');
	} catch (err) {
		throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}

	if (tcpTarget) {
		const named = (json as { command?: unknown } | null)?.command;
		const command = (TCP_COMMANDS as readonly unknown[]).includes(named)
			? (named as TcpCommandName)
			: 'create-order';
		const reply = await sendTcp(tcpTarget.host, tcpTarget.port, text);
		const bare = reply.trim();
		return {
			ok: !TCP_FAILURES.has(bare),
			reply: bare,
			findings: json === undefined ? [] : messageFindings('tcp', command, json, timeZone)
		};
	}

	const route = ROUTES[values.route ?? 'create'];
	if (!route) {
		throw new UsageError(
			`Invalid value for --route: "${values.route}" (expected create, update, partial or cancel)`
		);
	}
	let base: URL;
	try {
		base = new URL(values.http!);
	} catch {
		throw new UsageError(
			`Invalid value for --http: "${values.http}" (expected a URL such as http://127.0.0.1:8104)`
		);
	}
	const res = await fetch(new URL(route.path, base), {
		method: route.method,
		headers: {
			'content-type': 'application/json',
			'x-integration-token': values.token ?? DEFAULT_TOKEN,
			'x-location-id': values.location ?? 'loc-1',
			'x-device-ids': values.devices ?? 'all'
		},
		body: text
	});
	const body = await res.text();
	return {
		ok: res.ok,
		reply: `${res.status} ${body}`,
		findings: json === undefined ? [] : messageFindings('http', route.command, json, timeZone)
	};
}

export function formatOutcome(outcome: SendOutcome): string {
	const lines = [outcome.reply];
	if (outcome.findings.length === 0) lines.push('findings: none');
	for (const f of outcome.findings) {
		lines.push(`${f.severity.padEnd(7)} ${f.code}  ${f.path || '(message)'}: ${f.message}`);
	}
	return `${lines.join('\n')}\n`;
}
