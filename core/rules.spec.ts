import { describe, expect, it } from 'vitest';
import { countBySeverity, RULES, SEVERITIES, severityRank, worstSeverity } from './rules.ts';

describe('severities', () => {
	it('are ranked worst first, and every rule has one of them', () => {
		expect([...SEVERITIES].sort((a, b) => severityRank(a) - severityRank(b))).toEqual([
			'error',
			'warning',
			'info'
		]);
		for (const rule of Object.values(RULES)) expect(SEVERITIES).toContain(rule.severity);
	});

	it('count and pick the worst of some findings', () => {
		const found = [{ severity: 'info' as const }, { severity: 'warning' as const }];
		expect(countBySeverity(found)).toEqual({ error: 0, warning: 1, info: 1 });
		expect(worstSeverity(found)).toBe('warning');
		expect(worstSeverity([...found, { severity: 'error' }])).toBe('error');
		expect(worstSeverity([])).toBeNull();
	});
});
