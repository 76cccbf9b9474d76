/**
 * The `kds-sim` command: `kds-sim send …` sends one message (see agent/cli/send.ts); `kds-sim
 * discover` lists the screens announcing themselves (agent/discovery/discover.ts); anything else starts the
 * simulator (agent/cli/main.ts).
 */
// First, before any module builds a schema (see agent/app.ts): the build bundles zod into
// dist/agent.js, where modules run in the order this entry imports them.
import 'zod/compile';
import { readFileSync } from 'node:fs';
import { discover, DISCOVER_HELP, formatScreens, readDiscoverArgs } from '../discovery/discover.ts';
import { fleetConfig, FLEET_CONFIG_HELP, readFleetArgs } from '../fleet/generate.ts';
import { formatOutcome, send, SEND_HELP } from './send.ts';
import { UsageError } from './settings.ts';

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

if (process.argv[2] === 'send' && wantsHelp(process.argv.slice(3))) {
	process.stdout.write(SEND_HELP);
} else if (process.argv[2] === 'send') {
	send(process.argv.slice(3), () => readFileSync(0, 'utf8'))
		.then((outcome) => {
			process.stdout.write(formatOutcome(outcome));
			process.exit(outcome.ok ? 0 : 1);
		})
		.catch((err) => {
			process.stderr.write(
				`${err instanceof UsageError ? err.message : `kds-sim send: ${(err as Error).message}`}\n`
			);
			process.exit(2);
		});
} else if (process.argv[2] === 'discover' && wantsHelp(process.argv.slice(3))) {
	process.stdout.write(DISCOVER_HELP);
} else if (process.argv[2] === 'discover') {
	try {
		const options = readDiscoverArgs(process.argv.slice(3));
		const { screens, ignored } = await discover(options, (port) =>
			process.stderr.write(`Listening on UDP ${options.bind}:${port} for ${options.seconds} s\n`)
		);
		process.stdout.write(
			options.json ? `${JSON.stringify(screens, null, 2)}\n` : formatScreens(screens, ignored)
		);
	} catch (err) {
		process.stderr.write(
			`${err instanceof UsageError ? err.message : `kds-sim discover: ${(err as Error).message}`}\n`
		);
		process.exit(2);
	}
} else if (process.argv[2] === 'fleet-config' && wantsHelp(process.argv.slice(3))) {
	process.stdout.write(FLEET_CONFIG_HELP);
} else if (process.argv[2] === 'fleet-config') {
	try {
		process.stdout.write(
			`${JSON.stringify(fleetConfig(readFleetArgs(process.argv.slice(3))), null, '\t')}\n`
		);
	} catch (err) {
		process.stderr.write(`${(err as Error).message}\n`);
		process.exit(2);
	}
} else {
	if (process.argv[2] === 'start') process.argv.splice(2, 1);
	await import('./main.ts');
}
