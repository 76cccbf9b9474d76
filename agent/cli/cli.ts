/**
 * The `kds-sim` command: `kds-sim send …` sends one message (see agent/cli/send.ts); `kds-sim
 * discover` lists the screens announcing themselves (agent/discovery/discover.ts); `kds-sim
 * fleet-config` writes a fleet's configs (agent/fleet/generate.ts); `kds-sim rush` sends realistic
 * orders to a running simulator (agent/rush/rush.ts); `kds-sim replay` sends a recorded session
 * again (agent/cli/replay.ts); `kds-sim certify` grades a POS through a running simulator's
 * certification run (agent/cli/certify.ts); `kds-sim start`, or no command, starts the
 * simulator (agent/cli/main.ts); another word is refused with the commands' names.
 *
 * Each command's module is imported when that command runs: in the bundle each is a chunk of its
 * own, so starting the simulator loads none of the others' code (npm run bench -- start).
 */
// First, before any module builds a schema (see agent/app.ts): the build bundles zod into
// dist/agent.js, where modules run in the order this entry imports them.
import 'zod/compile';
import { readFileSync } from 'node:fs';
import { UsageError } from '../command-line.ts';

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** The command's own failure: a usage error as it is, anything else after the command's name. */
function fail(command: string, err: unknown, prefixed = true): never {
	const message =
		err instanceof UsageError || !prefixed
			? (err as Error).message
			: `kds-sim ${command}: ${(err as Error).message}`;
	process.stderr.write(`${message}\n`);
	process.exit(2);
}

async function sendCommand(args: string[]): Promise<void> {
	const { formatOutcome, send, SEND_HELP } = await import('./send.ts');
	if (wantsHelp(args)) {
		process.stdout.write(SEND_HELP);
		return;
	}
	try {
		const outcome = await send(args, () => readFileSync(0, 'utf8'));
		process.stdout.write(formatOutcome(outcome));
		process.exit(outcome.ok ? 0 : 1);
	} catch (err) {
		fail('send', err);
	}
}

async function discoverCommand(args: string[]): Promise<void> {
	const { discover, DISCOVER_HELP, formatScreens, readDiscoverArgs } =
		await import('../discovery/discover.ts');
	if (wantsHelp(args)) {
		process.stdout.write(DISCOVER_HELP);
		return;
	}
	try {
		const options = readDiscoverArgs(args);
		const { screens, ignored } = await discover(options, (port) =>
			process.stderr.write(`Listening on UDP ${options.bind}:${port} for ${options.seconds} s\n`)
		);
		process.stdout.write(
			options.json ? `${JSON.stringify(screens, null, 2)}\n` : formatScreens(screens, ignored)
		);
	} catch (err) {
		fail('discover', err);
	}
}

async function fleetConfigCommand(args: string[]): Promise<void> {
	const { fleetConfig, FLEET_CONFIG_HELP, readFleetArgs } = await import('../fleet/generate.ts');
	if (wantsHelp(args)) {
		process.stdout.write(FLEET_CONFIG_HELP);
		return;
	}
	try {
		process.stdout.write(`${JSON.stringify(fleetConfig(readFleetArgs(args)), null, '\t')}\n`);
	} catch (err) {
		fail('fleet-config', err, false);
	}
}

async function rushCommand(args: string[]): Promise<void> {
	const { formatSummary, readRushArgs, rush, RUSH_HELP } = await import('../rush/rush.ts');
	if (wantsHelp(args)) {
		process.stdout.write(RUSH_HELP);
		return;
	}
	try {
		const options = readRushArgs(args);
		const stop = new AbortController();
		process.once('SIGINT', () => stop.abort());
		process.stderr.write(
			`Rush: ${options.rate} orders/min to ${options.url}, seed ${options.seed}\n`
		);
		const summary = await rush(options, stop.signal, (line) => process.stdout.write(`${line}\n`));
		process.stdout.write(formatSummary(summary));
		process.exit(summary.refused === 0 ? 0 : 1);
	} catch (err) {
		fail('rush', err);
	}
}

async function replayCommand(args: string[]): Promise<void> {
	const { formatReplaySummary, loadSession, readReplayArgs, replay, REPLAY_HELP } =
		await import('./replay.ts');
	if (wantsHelp(args)) {
		process.stdout.write(REPLAY_HELP);
		return;
	}
	try {
		const options = readReplayArgs(args);
		const session = loadSession(options.file);
		const stop = new AbortController();
		process.once('SIGINT', () => stop.abort());
		const pace =
			options.speed === Infinity
				? 'as fast as replies come'
				: options.speed === 1
					? 'at the recorded pace'
					: `${options.speed}× the recorded pace`;
		process.stderr.write(
			`Replay: ${session.messages.length} messages to ${options.url}, ${pace}\n`
		);
		const summary = await replay(
			options,
			session,
			(line) => process.stdout.write(`${line}\n`),
			stop.signal
		);
		process.stdout.write(formatReplaySummary(summary, session));
		process.exit(
			summary.differ.length === 0 && summary.messages === session.messages.length ? 0 : 1
		);
	} catch (err) {
		fail('replay', err);
	}
}

async function certifyCommand(args: string[]): Promise<void> {
	const { certify, CERTIFY_HELP, readCertifyArgs, stdinLines } = await import('./certify.ts');
	if (wantsHelp(args)) {
		process.stdout.write(CERTIFY_HELP);
		return;
	}
	try {
		const options = readCertifyArgs(args);
		const ask = options.exec ? async () => null : stdinLines();
		const verdict = await certify(options, {
			out: (line) => process.stdout.write(`${line}\n`),
			err: (line) => process.stderr.write(`${line}\n`),
			ask
		});
		if (verdict === 'WARN') process.stderr.write('WARN: passed, with warnings (see the report)\n');
		process.exit(verdict === 'FAIL' ? 1 : 0);
	} catch (err) {
		fail('certify', err);
	}
}

// The commands `kds-sim --help` lists (agent/cli/settings.ts); anything else that is not a flag is
// refused with their names, before the simulator's own parser calls it a stray argument.
const COMMANDS = ['start', 'send', 'discover', 'fleet-config', 'rush', 'replay', 'certify'];

const [command, ...args] = process.argv.slice(2);
if (command === 'send') await sendCommand(args);
else if (command === 'discover') await discoverCommand(args);
else if (command === 'fleet-config') await fleetConfigCommand(args);
else if (command === 'rush') await rushCommand(args);
else if (command === 'replay') await replayCommand(args);
else if (command === 'certify') await certifyCommand(args);
else if (command !== undefined && !command.startsWith('-') && !COMMANDS.includes(command)) {
	fail(
		command,
		new UsageError(
			`Unknown command '${command}': the commands are ${COMMANDS.join(', ')} (kds-sim --help lists them and the options).`
		)
	);
} else {
	if (command === 'start') process.argv.splice(2, 1);
	await import('./main.ts');
}
