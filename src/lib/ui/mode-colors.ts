/**
 * The colour of each order mode on a card (its header strip and mode chip), so a cook tells a
 * drive-thru ticket from a dine-in one across the kitchen. Screen setting `modeColors` overrides
 * any of them (`#rgb` or `#rrggbb`); the text on a colour is black or white, whichever reads.
 * The defaults keep clear of the timer's yellow and red and of the priority and recall colours.
 */
import type { OrderMode } from '#core/order-schema';
import { HEX_COLOR, type ScreenSettings } from '#core/relay';

export const DEFAULT_MODE_COLORS: Readonly<Record<OrderMode, string>> = {
	'For Here': '#e5e5e5',
	ToGo: '#f9a8d4',
	Pickup: '#93c5fd',
	DriveThru: '#c4b5fd',
	Delivery: '#86efac',
	Curbside: '#5eead4'
};

export function modeColor(settings: Pick<ScreenSettings, 'modeColors'> | undefined, mode: string) {
	const custom = settings?.modeColors?.[mode];
	if (custom && HEX_COLOR.test(custom)) return custom;
	return DEFAULT_MODE_COLORS[mode as OrderMode] ?? '#e5e5e5';
}

/** Black or white text on `hex`, by its relative luminance. */
export function textOn(hex: string): '#000' | '#fff' {
	let digits = hex.slice(1);
	if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
	const [r, g, b] = [0, 2, 4].map((i) => {
		const c = parseInt(digits.slice(i, i + 2), 16) / 255;
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	});
	const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
	return luminance > 0.179 ? '#000' : '#fff';
}
