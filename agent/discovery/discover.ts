/**
 * `kds-sim discover`: listen for screens announcing themselves (UDP 28000) for a few seconds and
 * list them, as a POS's screen picker would. Only listens: sends nothing.
 */
import { createSocket } from 'node:dgram';
import {
	DISCOVERED_TCP_PORT,
	DISCOVERY_PORT,
	decodeAnnouncement,
	type Announcement
} from '#core/discovery';
import { readCommandLine, UsageError } from '../command-line.ts';

export const DISCOVER_HELP = `kds-sim discover: list the screens announcing themselves on the LAN

Usage: kds-sim discover [options]

Listens for the screens' discovery datagrams and prints each screen heard once: name, address,
version, identifier. A POS sends orders to a discovered screen at <address>:${DISCOVERED_TCP_PORT}.

Options:
  --port <port>      UDP port to listen on (default ${DISCOVERY_PORT}; 0 = any free port)
  --bind <addr>      address to listen on (default 0.0.0.0, which hears broadcasts)
  --seconds <s>      how long to listen (default 5)
  --json             print a JSON array (one object per screen) instead of a table
  -h, --help         this text
`;

export interface DiscoverOptions {
	port: number;
	bind: string;
	seconds: number;
	json: boolean;
}

export interface HeardScreen extends Announcement {
	/** Where the datagram came from (`host:port`). */
	from: string;
}

export function readDiscoverArgs(argv: string[]): DiscoverOptions {
	const { values } = readCommandLine(
		{
			args: argv,
			options: {
				port: { type: 'string' },
				bind: { type: 'string' },
				seconds: { type: 'string' },
				json: { type: 'boolean' }
			},
			allowPositionals: false
		},
		{ before: 'kds-sim discover: ', after: '. See --help.' }
	);
	const port = values.port ?? String(DISCOVERY_PORT);
	if (!/^\d+$/.test(port) || Number(port) > 65535) {
		throw new UsageError(
			`kds-sim discover: invalid --port "${port}" (expected a port number 0-65535)`
		);
	}
	const seconds = values.seconds ?? '5';
	if (!/^\d+(\.\d+)?$/.test(seconds) || Number(seconds) <= 0 || Number(seconds) > 3600) {
		throw new UsageError(
			`kds-sim discover: invalid --seconds "${seconds}" (expected a number of seconds, up to 3600)`
		);
	}
	return {
		port: Number(port),
		bind: values.bind ?? '0.0.0.0',
		seconds: Number(seconds),
		json: values.json === true
	};
}

/**
 * Listen for `seconds` and resolve with the screens heard, once each (by identifier and
 * address), in the order first heard. `onListening` gets the UDP port (useful with port 0).
 */
export function discover(
	options: DiscoverOptions,
	onListening: (port: number) => void = () => {}
): Promise<{ screens: HeardScreen[]; ignored: number }> {
	const socket = createSocket({ type: 'udp4', reuseAddr: true });
	const heard = new Map<string, HeardScreen>();
	let ignored = 0;
	socket.on('message', (bytes, from) => {
		const decoded = decodeAnnouncement(bytes);
		if (!decoded.ok) {
			ignored += 1;
			return;
		}
		const key = `${decoded.value.identifier}\0${decoded.value.address}`;
		const { name, address, version, identifier } = decoded.value;
		if (!heard.has(key))
			heard.set(key, { name, address, version, identifier, from: `${from.address}:${from.port}` });
	});
	return new Promise((resolve, reject) => {
		socket.once('error', (err: NodeJS.ErrnoException) => {
			socket.close();
			reject(
				new Error(
					`cannot listen on UDP ${options.bind}:${options.port}: ${err.code ?? err.message}`
				)
			);
		});
		socket.bind(options.port, options.bind, () => {
			onListening(socket.address().port);
			setTimeout(() => {
				socket.close();
				resolve({ screens: [...heard.values()], ignored });
			}, options.seconds * 1000);
		});
	});
}

export function formatScreens(screens: HeardScreen[], ignored: number): string {
	if (screens.length === 0) {
		return `No screen heard.${ignored ? ` (${ignored} datagrams that are not announcements were ignored.)` : ''}\n`;
	}
	const rows = [
		['NAME', 'ADDRESS', 'VERSION', 'IDENTIFIER'],
		...screens.map((s) => [s.name, s.address, s.version, s.identifier])
	];
	const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
	const table = rows.map((r) =>
		r
			.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c])))
			.join('  ')
			.trimEnd()
	);
	return `${table.join('\n')}\n`;
}
