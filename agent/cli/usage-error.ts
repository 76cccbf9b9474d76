/**
 * A command line the CLI cannot run (a bad flag or value): printed as it is, exit code 2.
 * A module of its own, importing nothing: the CLI's entry (cli.ts) needs it before it knows which
 * command runs, and must not load any schema before `zod/compile` is installed.
 */
export class UsageError extends Error {}
