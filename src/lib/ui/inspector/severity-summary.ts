/** Findings summed up by severity: the counts on a log row, the worst of a set. */
import type { Finding, Severity } from '#core/conformance';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
	const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
	for (const f of findings) counts[f.severity] += 1;
	return counts;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The worst severity of some findings. */
export function worstSeverity(findings: readonly Finding[]): Severity | null {
	let worst: Severity | null = null;
	for (const f of findings) {
		if (worst === null || SEVERITY_RANK[f.severity] < SEVERITY_RANK[worst]) worst = f.severity;
	}
	return worst;
}
