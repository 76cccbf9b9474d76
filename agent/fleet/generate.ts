/**
 * `kds-sim fleet-config`: a config with many locations and screens, for trying how many screens
 * one agent holds (npm run bench -- fleet) and for labs: `--locations` × `--screens`, TCP ports
 * counting up from `--tcp-port` (0: every screen on a port the OS picks), on `--tcp-host`.
 */
import { DEFAULT_TOKEN, type SimConfigInput } from '../config.ts';
import { readCommandLine, UsageError } from '../command-line.ts';

export const FLEET_CONFIG_HELP = `kds-sim fleet-config: print a config with many locations and screens

Usage: kds-sim fleet-config [options] > fleet.json; then npm start -- --config fleet.json

Options:
  --locations <n>    locations (default 100), loc-1 … loc-n, one brand
  --screens <n>      screens per location (default 10), kds-<location>-<screen>
  --tcp-port <port>  TCP port of the first screen, the next count up (default 0: the OS picks each)
  --tcp-host <addr>  TCP address of every screen (default 127.0.0.1)
  --token <t>        the brand's integration token (default ${DEFAULT_TOKEN})
  -h, --help         this text
`;

export interface FleetShape {
	locations: number;
	screens: number;
	tcpPort: number;
	tcpHost: string;
	token: string;
}

export function fleetConfig(shape: FleetShape): SimConfigInput {
	let port = shape.tcpPort;
	const locations = [];
	for (let l = 1; l <= shape.locations; l++) {
		const screens = [];
		for (let s = 1; s <= shape.screens; s++) {
			screens.push({
				id: `kds-${l}-${s}`,
				name: `Station ${s}`,
				tcp: { host: shape.tcpHost, port }
			});
			if (port !== 0) port += 1;
		}
		locations.push({ id: `loc-${l}`, name: `Kitchen ${l}`, screens });
	}
	return { brands: [{ id: 'brand-1', name: 'Fleet Brand', token: shape.token, locations }] };
}

const count = (name: string, value: string | undefined, fallback: number, max: number) => {
	if (value === undefined) return fallback;
	if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
		throw new UsageError(`kds-sim fleet-config: invalid ${name} "${value}" (expected 1-${max})`);
	return Number(value);
};

export function readFleetArgs(argv: string[]): FleetShape {
	const { values } = readCommandLine(
		{
			args: argv,
			options: {
				locations: { type: 'string' },
				screens: { type: 'string' },
				'tcp-port': { type: 'string' },
				'tcp-host': { type: 'string' },
				token: { type: 'string' }
			},
			allowPositionals: false
		},
		{ before: 'kds-sim fleet-config: ', after: '. See --help.' }
	);
	const shape = {
		locations: count('--locations', values.locations, 100, 10_000),
		screens: count('--screens', values.screens, 10, 1000),
		tcpPort: 0,
		tcpHost: values['tcp-host'] ?? '127.0.0.1',
		token: values.token ?? DEFAULT_TOKEN
	};
	const port = values['tcp-port'];
	if (port !== undefined) {
		const last = Number(port) + shape.locations * shape.screens - 1;
		if (!/^\d+$/.test(port) || (Number(port) !== 0 && last > 65535))
			throw new UsageError(
				`kds-sim fleet-config: invalid --tcp-port "${port}" (expected 0, or a first port that leaves room for ${shape.locations * shape.screens} ports up to 65535)`
			);
		shape.tcpPort = Number(port);
	}
	return shape;
}
