/**
 * How this project launches Chromium, for Playwright's config and the UI benchmark: Debian's
 * /usr/bin/chromium when it is there (Playwright cannot download a browser here), without the
 * sandbox (containers, CI) and without anything that talks to the network on its own.
 */
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export const chromiumLaunchOptions = {
	...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
	args: [
		'--no-sandbox',
		'--disable-gpu',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--no-first-run'
	]
};
