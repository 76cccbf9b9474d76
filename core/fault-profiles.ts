/**
 * Fault profiles (docs/faults.md): named sets of faults for a screen, built in or the config
 * file's own (its `faults` section), and what `name` or `name@screen` stands for (`--faults`, the
 * admin API, a certification step). Each fault is read by ./fault-kinds.ts parseFaultSpec.
 */
import * as z from 'zod';
import { parseFaultSpec, type FaultSpecInput } from './fault-kinds.ts';

/** Named sets of faults for one screen (config `faultProfiles`, `--faults <name>`). */
export const BUILT_IN_PROFILES: Record<string, (screen: string) => FaultSpecInput[]> = {
	/** A kitchen's Wi-Fi that drops now and then: lost replies, slow replies, short outages. */
	'flaky-wifi': (screen) => [
		{ kind: 'lost-reply', screen, probability: 0.1, seed: 1, label: 'flaky-wifi' },
		{
			kind: 'slow-reply',
			screen,
			delayMs: 200,
			maxDelayMs: 2000,
			probability: 0.2,
			seed: 2,
			label: 'flaky-wifi'
		},
		{ kind: 'down', screen, probability: 0.05, seed: 3, label: 'flaky-wifi' }
	],
	/** The screen's Wi-Fi is off: TCP refused, and offline from the cloud. */
	'wifi-down': (screen) => [
		{ kind: 'down', screen, label: 'wifi-down' },
		{ kind: 'cloud-offline', screen, label: 'wifi-down' }
	],
	/** The vendor's cloud is struggling: some 503s, some slow answers, a 429 now and then. */
	'cloud-trouble': () => [
		{
			kind: 'http-status',
			status: 503,
			retryAfter: 2,
			probability: 0.2,
			seed: 4,
			label: 'cloud-trouble'
		},
		{
			kind: 'http-status',
			status: 429,
			retryAfter: 1,
			probability: 0.1,
			seed: 5,
			label: 'cloud-trouble'
		},
		{ kind: 'http-delay', delayMs: 1500, probability: 0.2, seed: 6, label: 'cloud-trouble' }
	]
};

/**
 * The config file's `faults` section (docs/faults.md): profiles of its own (named lists of
 * faults), and the profiles on from the start (`name` or `name@screen`, as `--faults` takes).
 */
export const FaultsConfigSchema = z.strictObject(
	{
		profiles: z
			.record(
				z.string().min(1),
				z.array(
					// Each fault read as the admin API reads it: the same words for the same mistakes.
					z.unknown().transform((input, ctx) => {
						const parsed = parseFaultSpec(input);
						if (parsed.ok) return parsed.value;
						for (const e of parsed.errors)
							ctx.addIssue({ code: 'custom', path: e.path ? [e.path] : [], message: e.message });
						return z.NEVER;
					})
				)
			)
			.default({}),
		on: z.array(z.string().min(1)).default([])
	},
	{
		error: (issue) =>
			issue.code === 'unrecognized_keys'
				? `unknown field ${issue.keys.join(', ')} (faults has profiles and on)`
				: undefined
	}
);
export type FaultsConfig = z.output<typeof FaultsConfigSchema>;

/**
 * The faults that `name` or `name@screen` stands for: a profile of the config (as written), or
 * a built-in one for that screen, or for each of `screens` when none is named. Throws a sentence
 * naming the profiles there are.
 */
export function resolveProfile(
	entry: string,
	own: Record<string, FaultSpecInput[]>,
	screens: readonly string[]
): FaultSpecInput[] {
	const at = entry.indexOf('@');
	const name = at < 0 ? entry : entry.slice(0, at);
	const screen = at < 0 ? undefined : entry.slice(at + 1);
	const mine = own[name];
	if (mine !== undefined)
		return screen === undefined ? mine : mine.map((f) => ({ ...f, screen }) as FaultSpecInput);
	const make = BUILT_IN_PROFILES[name];
	if (make === undefined)
		throw new Error(
			`Unknown fault profile "${name}" (profiles: ${[...Object.keys(own), ...Object.keys(BUILT_IN_PROFILES)].join(', ')})`
		);
	if (screen !== undefined) return make(screen);
	const first = make(screens[0] ?? '');
	// A profile that names no screen (cloud-trouble) is added once.
	if (!JSON.stringify(first).includes('"screen"')) return first;
	return screens.flatMap((id) => make(id));
}
