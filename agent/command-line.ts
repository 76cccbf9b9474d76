/**
 * The command line of every `kds-sim` command (the simulator's settings, `send`, `discover`,
 * `fleet-config`), read one way: Node's own `util.parseArgs`, strict (an unknown flag, a missing
 * value or a stray argument is refused), its refusal turned into a UsageError worded for the
 * command. A module of its own, importing nothing but Node: the CLI's entry (cli/cli.ts) needs
 * UsageError before it knows which command runs, and must not load any schema before
 * `zod/compile` is installed.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line the CLI cannot run (a bad flag or value): printed as it is, exit code 2. */
export class UsageError extends Error {}

/** How a refusal of `util.parseArgs` is worded: `${before}${its message}${after}`. */
export interface Wording {
	before?: string;
	after: string;
}

/** `util.parseArgs(config)`, strict; its refusal as a UsageError in the command's words. */
export function readCommandLine<T extends Omit<ParseArgsConfig, 'strict'>>(
	config: T,
	wording: Wording
): ReturnType<typeof parseArgs<T & { strict: true }>> {
	try {
		return parseArgs({ ...config, strict: true });
	} catch (err) {
		throw new UsageError(`${wording.before ?? ''}${(err as Error).message}${wording.after}`);
	}
}
