/**
 * How big a kitchen screen draws its cards: the root font size (every card size is in rem) and
 * the number of card columns, from the window size, the screen's `scale` and `?cols=`. Pure, so
 * the sizes are tested without a browser (and measured as rendered in tests/e2e/readable.e2e.ts).
 *
 * Sized per panel, read from 1.5-2 m: a 7-inch panel's type follows its height (15 px root at
 * 800x480, items 19.5 px, three columns of six ordinary tickets; 18.75 px at 1024x600, three
 * columns), 1280x720 keeps 17 px and four columns, 1920x1080 20 px and five, and big screens
 * grow with their height. (A 20 px root at 800x480, as on the TV, showed two tickets of three
 * lines a column and left half the panel black: tests/e2e/rush.e2e.ts holds the numbers.) A
 * column is at least COLUMN_REM wide, so a larger `scale` gives fewer columns rather than
 * cramped ones; `?cols=` fixes the count, and fewer columns than would fit enlarge the type to
 * use the width (at most MAX_FILL times).
 */
import { MAX_SCALE, MIN_SCALE } from '#core/relay';

/** The narrowest column, in rem: a card title and a modifier line fit without much wrapping. */
export const COLUMN_REM = 17;
/** How far `?cols=` may enlarge the type to fill wide columns. */
export const MAX_FILL = 1.5;

export interface ScreenMetrics {
	/** Root font size, CSS px. */
	fontPx: number;
	cols: number;
}

/** The root font size for a window before any scale. */
export function baseFontPx(width: number, height: number): number {
	if (width >= 1600) return Math.max(20, Math.min(32, height / 54));
	if (width >= 1100) return 17;
	// 7-inch panels (and narrow portrait screens): the rows a panel has decide, 37.5 rem high.
	return round(Math.max(14, Math.min(20, height / 37.5)));
}

export function clampScale(scale: number | null | undefined): number {
	if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) return 1;
	return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

export function screenMetrics(
	width: number,
	height: number,
	options: { scale?: number | null; cols?: number | null } = {}
): ScreenMetrics {
	const font = baseFontPx(width, height) * clampScale(options.scale);
	const fit = Math.max(1, Math.floor(width / (COLUMN_REM * font)));
	const cols = options.cols && options.cols > 0 ? Math.floor(options.cols) : null;
	if (cols === null) return { fontPx: round(font), cols: fit };
	// Fewer columns than fit: wider columns, so larger type (up to MAX_FILL and the column width).
	const fill = cols < fit ? Math.min(MAX_FILL, fit / cols) : 1;
	return { fontPx: round(font * fill), cols };
}

function round(px: number): number {
	return Math.round(px * 100) / 100;
}
