import { describe, expect, it } from 'vitest';
import { clampScale, screenMetrics } from './screen-metrics';

describe('screenMetrics', () => {
	it('sizes the 7-inch panels by their height: 14 px in 3 columns at 800x480, 16 px in 3 at 1024x600', () => {
		expect(screenMetrics(800, 480)).toEqual({ fontPx: 14, cols: 3 });
		expect(screenMetrics(1024, 600)).toEqual({ fontPx: 16, cols: 3 });
		// A tall portrait panel keeps the 20 px root, in 2 columns.
		expect(screenMetrics(720, 1280)).toEqual({ fontPx: 20, cols: 2 });
	});

	it('keeps 1280x720 at 17 px in 4 columns and 1920x1080 at 20 px in 5', () => {
		expect(screenMetrics(1280, 720)).toEqual({ fontPx: 17, cols: 4 });
		expect(screenMetrics(1920, 1080)).toEqual({ fontPx: 20, cols: 5 });
	});

	it('grows big screens with their height', () => {
		const m = screenMetrics(2560, 1440);
		expect(m.fontPx).toBeGreaterThan(26);
		expect(m.cols).toBe(5);
	});

	it('scale enlarges the type and takes columns away rather than squeezing them', () => {
		expect(screenMetrics(800, 480, { scale: 1.25 })).toEqual({ fontPx: 17.5, cols: 2 });
		expect(screenMetrics(1920, 1080, { scale: 1.5 })).toEqual({ fontPx: 30, cols: 3 });
		expect(screenMetrics(1920, 1080, { scale: 0.8 })).toEqual({ fontPx: 16, cols: 7 });
	});

	it('?cols= fixes the columns; fewer than fit enlarge the type, at most 1.5 times', () => {
		expect(screenMetrics(1920, 1080, { cols: 2 })).toEqual({ fontPx: 30, cols: 2 });
		expect(screenMetrics(1280, 720, { cols: 3 })).toEqual({ fontPx: 22.67, cols: 3 });
		expect(screenMetrics(800, 480, { cols: 4 })).toEqual({ fontPx: 14, cols: 4 });
	});

	it('ignores scales that are not numbers and clamps the rest to 0.5-3', () => {
		expect(clampScale(undefined)).toBe(1);
		expect(clampScale(Number.NaN)).toBe(1);
		expect(clampScale(-2)).toBe(1);
		expect(clampScale(9)).toBe(3);
		expect(clampScale(0.1)).toBe(0.5);
	});
});
