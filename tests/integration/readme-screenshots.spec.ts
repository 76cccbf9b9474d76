/**
 * The README's screenshots (written by `npm run screenshots`) are there, are the WebP images at
 * the sizes the README names, and stay small.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', ROOT), 'utf8');

/** Width and height of a WebP file (lossy VP8, lossless VP8L or extended VP8X). */
function webpSize(bytes: Buffer): { width: number; height: number } {
	if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WEBP')
		throw new Error('not a WebP file');
	const chunk = bytes.toString('ascii', 12, 16);
	if (chunk === 'VP8 ') {
		return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
	}
	if (chunk === 'VP8L') {
		const bits = bytes.readUInt32LE(21);
		return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8X') {
		return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
	}
	throw new Error(`unknown WebP chunk ${chunk}`);
}

describe('README screenshots', () => {
	const images = [...readme.matchAll(/docs\/screenshots\/([\w-]+)-(\d+)x(\d+)\.webp/g)];
	const names = [...new Set(images.map((m) => m[0]))];

	it('shows a busy screen at 1920x1080, kiosks at 800x480 and 1024x600, and the inspector', () => {
		expect(names).toEqual(
			expect.arrayContaining([
				'docs/screenshots/busy-1920x1080.webp',
				'docs/screenshots/busy-1280x720.webp',
				'docs/screenshots/kiosk-1024x600.webp',
				'docs/screenshots/kiosk-800x480.webp',
				'docs/screenshots/inspector-1280x720.webp'
			])
		);
	});

	it('each is a WebP image of the size its name says, a few hundred KB in all', () => {
		let total = 0;
		for (const name of names) {
			const [, width, height] = /-(\d+)x(\d+)\.webp$/.exec(name)!;
			const bytes = readFileSync(new URL(name, ROOT));
			expect(webpSize(bytes), name).toEqual({ width: Number(width), height: Number(height) });
			total += bytes.length;
		}
		expect(total).toBeLessThan(600 * 1024);
	});
});

describe('docs/screens.md screenshots of the three-screen kitchen', () => {
	const screens = readFileSync(new URL('docs/screens.md', ROOT), 'utf8');
	const names = [...new Set([...screens.matchAll(/screenshots\/([\w-]+-\d+x\d+)\.webp/g)])].map(
		(m) => m[1]
	);

	it('embeds the expo, All Day and tracker pictures npm run screenshots takes, at their sizes', () => {
		expect(names).toEqual(
			expect.arrayContaining([
				'expo-1920x1080',
				'expo-800x480',
				'all-day-1920x1080',
				'all-day-800x480',
				'tracker-1920x1080'
			])
		);
		for (const name of names) {
			const [, width, height] = /-(\d+)x(\d+)$/.exec(name)!;
			const bytes = readFileSync(new URL(`docs/screenshots/${name}.webp`, ROOT));
			expect(webpSize(bytes), name).toEqual({ width: Number(width), height: Number(height) });
		}
	});
});
