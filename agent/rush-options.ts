/**
 * The rush's numeric options, once (`kds-sim rush` and POST /api/admin/rush): each one's range,
 * default and words. The command's help text and parser (rush/rush.ts), the admin API's body
 * schema (http/admin-api.ts) and the admin API's controller (rush/control.ts) all read this table.
 * A tool of every room: it imports none.
 */
import * as z from 'zod';

interface RushNumber {
	min: number;
	max: number;
	/** A whole number. */
	int?: true;
	/** The default; null: none (orders: run for the duration). */
	fallback: number | null;
	/** The help text's argument name and its words, then the admin API's description. */
	arg: string;
	help: string;
	describe: string;
}

/** A fresh random seed, when none is given (printed, so a rush can be run again). */
export const randomSeed = () => Math.floor(Math.random() * 2 ** 31);

export const RUSH_NUMBERS = {
	rate: {
		min: 0.1,
		max: 60_000,
		fallback: 30,
		arg: '<n>',
		help: 'orders per minute (default 30)',
		describe: 'Orders a minute (default 30).'
	},
	duration: {
		min: 0.1,
		max: 86_400,
		fallback: 60,
		arg: '<s>',
		help: 'seconds to run (default 60); Ctrl-C stops sooner',
		describe: 'Seconds (default 60).'
	},
	orders: {
		min: 1,
		max: 1_000_000,
		int: true,
		fallback: null,
		arg: '<n>',
		help: 'stop after this many orders instead',
		describe: 'Stop after this many orders instead.'
	},
	seed: {
		min: 0,
		max: 2 ** 32 - 1,
		int: true,
		fallback: null,
		arg: '<n>',
		help: 'the same seed sends the same orders (default: random, printed)',
		describe: 'The same seed sends the same orders.'
	},
	tcp: {
		min: 0,
		max: 1,
		fallback: 0.5,
		arg: '<share>',
		help: 'share of orders sent over TCP, 0-1 (default 0.5; the rest over HTTP)',
		describe: 'Share sent over TCP (default 0.5).'
	},
	updates: {
		min: 0,
		max: 1,
		fallback: 0.2,
		arg: '<share>',
		help: 'share of orders updated after they are sent (default 0.2)',
		describe: 'Share updated (default 0.2).'
	},
	cancels: {
		min: 0,
		max: 1,
		fallback: 0.05,
		arg: '<share>',
		help: 'share of orders cancelled after they are sent (default 0.05)',
		describe: 'Share cancelled (default 0.05).'
	}
} as const satisfies Record<string, RushNumber>;

export type RushNumberName = keyof typeof RUSH_NUMBERS;

/** The screens option's words (a list of ids, default every screen). */
export const RUSH_SCREENS = {
	help: 'target screens, comma-separated (default: every screen)',
	describe: 'Target screen ids (default: every screen).'
};

/** The zod schema of one numeric option, as the admin API's body takes it. */
export function rushNumberSchema(name: RushNumberName) {
	const o: RushNumber = RUSH_NUMBERS[name];
	const base = o.int ? z.int() : z.number();
	return base.min(o.min).max(o.max).optional().describe(o.describe);
}

/** The help text's line of an option: `  --name <arg>` padded to 23 characters, then its words. */
export function rushHelpLine(name: string, arg: string, help: string): string {
	return `  ${`--${name} ${arg}`.padEnd(21)}${help}`;
}
