import { describe, expect, it } from 'vitest';
import { entry, warning } from '../../../../tests/doubles/inspector-agent.ts';
import { filterFromParams, filterQuery, matchesFilter } from './filter';

describe('filters', () => {
	it('read and write the URL query, dropping empty and unknown values', () => {
		const filter = filterFromParams(new URLSearchParams('order=1042&severity=loud&screen=kds-1'));
		expect(filter).toEqual({ screen: 'kds-1', order: '1042', severity: '', result: '' });
		expect(filterFromParams(new URLSearchParams('result=refused')).result).toBe('refused');
		expect(filterFromParams(new URLSearchParams('result=maybe')).result).toBe('');
		expect(filterQuery({ screen: 'kds-1', order: '', severity: '', result: 'refused' })).toBe(
			'screen=kds-1&result=refused'
		);
		expect(filterQuery({ ...filter, severity: 'error' })).toBe(
			'screen=kds-1&order=1042&severity=error'
		);
		expect(filterQuery({ screen: '', order: '', severity: '' })).toBe('');
	});

	it('match entries as the agent does', () => {
		const bad = entry(1, { findings: [warning('KDS-FIELD-UNKNOWN', 'x')] });
		expect(matchesFilter(bad, { screen: 'kds-1', order: 'o-1', severity: 'warning' })).toBe(true);
		expect(matchesFilter(bad, { screen: 'kds-2', order: '', severity: '' })).toBe(false);
		expect(matchesFilter(bad, { screen: '', order: 'o-2', severity: '' })).toBe(false);
		expect(matchesFilter(bad, { screen: '', order: '', severity: 'error' })).toBe(false);
	});

	it('Refused matches every refusal, findings or none; Accepted the rest', () => {
		const refused = entry(2, { ok: false, findings: [] });
		const accepted = entry(3, { findings: [warning('KDS-FIELD-UNKNOWN', 'x')] });
		const only = (result: 'refused' | 'accepted') => ({
			screen: '',
			order: '',
			severity: '' as const,
			result
		});
		expect(matchesFilter(refused, only('refused'))).toBe(true);
		expect(matchesFilter(accepted, only('refused'))).toBe(false);
		expect(matchesFilter(accepted, only('accepted'))).toBe(true);
		expect(matchesFilter(refused, only('accepted'))).toBe(false);
	});
});
