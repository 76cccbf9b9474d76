import type { Severity } from '#core/conformance';

/** Glyphs that the kitchen's fonts all have (no colour emoji needed). */
export const SEVERITY_ICONS: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };

export const SEVERITY_LABELS: Record<Severity, string> = {
	error: 'Error',
	warning: 'Warning',
	info: 'Info'
};

/** `1 error`, `2 warnings`. */
export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
