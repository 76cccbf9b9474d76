import { describe, expect, it } from 'vitest';
import { alertMatcher, DEFAULT_ALERT_WORDS } from './alerts.ts';

describe('alertMatcher with the default list', () => {
	const alert = alertMatcher();
	it.each([
		// [line, how loud: danger (an allergy, bright red), caution ("no …", dark red), or none]
		['Nut allergy', 'danger'],
		['No nuts, no sesame: severe allergy (seat 4)', 'danger'],
		['No nuts', 'danger'],
		['Without gluten', 'danger'],
		['Gluten-free bread', 'danger'],
		['Peanut sauce on the side', 'danger'],
		['🥜 ピーナッツアレルギー', 'danger'],
		['Shellfish', 'danger'],
		['No onion', 'caution'],
		['no ice', 'caution'],
		['» no pickles', 'caution'],
		['NO MAYO', 'caution'],
		['Without cheese', 'caution'],
		['Extra cheese', null],
		['Medium rare', null],
		['Nutella crepe', null],
		['Donut', null],
		['Know your server', null],
		['Nothing on top', null],
		['Snow peas', null],
		['', null],
		[undefined, null]
	])('%s → %s', (line, level) => {
		expect(alert(line)).toBe(level);
	});
});

describe('alertMatcher with a screen’s own list', () => {
	it.each([
		[['shrimp'], 'Shrimp free please', 'danger'],
		[['shrimp'], 'Nut allergy', null],
		[['light …'], 'Light ice', 'caution'],
		[['light...'], 'Extra light', null],
		[['no …', 'shrimp'], 'No shrimp', 'danger'],
		[['no …'], 'No nuts', 'caution'],
		[['tree nut'], 'TREE   NUT allergy', 'danger'],
		[['えび'], 'えびアレルギー', 'danger'],
		[[], 'Nut allergy', null],
		[['  '], 'anything', null]
	] as const)('%j: %s → %s', (words, line, level) => {
		expect(alertMatcher(words)(line)).toBe(level);
	});

	it('the default list is the one a screen without the setting uses', () => {
		expect(alertMatcher(undefined)('No onion')).toBe('caution');
		expect(alertMatcher(undefined)('Nut allergy')).toBe('danger');
		expect(DEFAULT_ALERT_WORDS).toContain('no …');
	});
});
