/**
 * A late next frame, on demand: what a loaded machine (or a throttled tab) does to a page. The
 * page's `requestAnimationFrame` callbacks are held while `holdFrames` is on, and run at the next
 * real frame after `releaseFrames`. The browser goes on drawing (the DOM, ResizeObservers and
 * timers all run): only the page's own frame callbacks wait, so a test can act in the gap
 * between "drawn" and "the next frame" that a busy CI machine opens by chance.
 */
import type { Page } from '@playwright/test';

interface FrameGate {
	hold(): void;
	release(): number;
}

declare global {
	interface Window {
		__kdsFrameGate?: FrameGate;
	}
}

/** Install the gate before the page loads (call before `page.goto`). */
export async function installFrameGate(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const request = window.requestAnimationFrame.bind(window);
		const cancel = window.cancelAnimationFrame.bind(window);
		// Held callbacks get ids of their own, far above the browser's, so cancel finds them.
		const held = new Map<number, FrameRequestCallback>();
		let nextHeld = 1_000_000_000;
		let holding = false;
		window.requestAnimationFrame = (callback) => {
			if (!holding) return request(callback);
			held.set(++nextHeld, callback);
			return nextHeld;
		};
		window.cancelAnimationFrame = (id) => {
			if (!held.delete(id)) cancel(id);
		};
		window.__kdsFrameGate = {
			hold() {
				holding = true;
			},
			release() {
				holding = false;
				const waiting = [...held.values()];
				held.clear();
				for (const callback of waiting) request(callback);
				return waiting.length;
			}
		};
	});
}

/** From now on the page's frame callbacks wait (the page must have been loaded after `installFrameGate`). */
export async function holdFrames(page: Page): Promise<void> {
	await page.evaluate(() => window.__kdsFrameGate!.hold());
}

/** Run the held frame callbacks at the next frame; resolves with how many there were. */
export async function releaseFrames(page: Page): Promise<number> {
	return page.evaluate(() => window.__kdsFrameGate!.release());
}
