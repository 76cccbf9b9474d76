/**
 * Which Chromium the `kds-sim/testing` fixture launches, the way teams expect:
 *
 * 1. the browser your Playwright config names (`launchOptions.executablePath` or a `channel`);
 * 2. else the Chromium the one setting `KDS_SIM_CHROMIUM` names (a system Chromium:
 *    `KDS_SIM_CHROMIUM=/usr/bin/chromium`), when set;
 * 3. else Playwright's own Chromium, where `npx playwright install chromium` put it;
 * 4. else one line naming both ways.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromium, type LaunchOptions } from '@playwright/test';

/** The setting that names a system Chromium. */
export const CHROMIUM_SETTING = 'KDS_SIM_CHROMIUM';

/** Whether Playwright's own Chromium (or its headless shell, which headless runs use) is there. */
export function playwrightChromiumInstalled(
	executablePath: () => string = () => chromium.executablePath()
): boolean {
	let path: string;
	try {
		path = executablePath();
	} catch {
		return false;
	}
	if (existsSync(path)) return true;
	// <browsers>/chromium-<rev>/chrome-linux/chrome: the headless shell is a sibling folder.
	const browsers = dirname(dirname(dirname(path)));
	try {
		return readdirSync(browsers).some((name) => name.startsWith('chromium_headless_shell-'));
	} catch {
		return false;
	}
}

/** The launch options with a browser chosen as above; throws the one-line error when none. */
export function launchOptionsWithBrowser<T extends LaunchOptions>(
	options: T,
	env: NodeJS.ProcessEnv = process.env,
	installed: () => boolean = playwrightChromiumInstalled
): T {
	if (options.executablePath || options.channel) return options;
	const named = env[CHROMIUM_SETTING];
	if (named) {
		if (!existsSync(named))
			throw new Error(
				`kds-sim/testing: ${CHROMIUM_SETTING}=${named} names no file: set it to a Chromium (e.g. /usr/bin/chromium), or unset it and run \`npx playwright install chromium\`.`
			);
		return {
			...options,
			executablePath: named,
			args: [...(options.args ?? []), '--disable-gpu']
		};
	}
	if (installed()) return options;
	throw new Error(
		`kds-sim/testing: no browser: Playwright's Chromium is not installed (\`npx playwright install chromium\`) and ${CHROMIUM_SETTING} names no system Chromium (e.g. ${CHROMIUM_SETTING}=/usr/bin/chromium).`
	);
}
