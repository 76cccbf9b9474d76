import { describe, expect, it } from 'vitest';
import { alertMatcher, DEFAULT_ALERT_WORDS } from './alerts.ts';

describe('alertMatcher with the default list', () => {
	const alert = alertMatcher();
	it.each([
		// [line, drawn bold on red]
		['Nut allergy', true],
		['No nuts, no sesame: severe allergy (seat 4)', true],
		['No onion', true],
		['no ice', true],
		['» no pickles', true],
		['NO MAYO', true],
		['Without cheese', true],
		['Gluten-free bread', true],
		['Peanut sauce on the side', true],
		['🥜 ピーナッツアレルギー', true],
		['Shellfish', true],
		['Extra cheese', false],
		['Medium rare', false],
		['Nutella crepe', false],
		['Donut', false],
		['Know your server', false],
		['Nothing on top', false],
		['Snow peas', false],
		['', false],
		[undefined, false]
	])('%s → %s', (line, red) => {
		expect(alert(line)).toBe(red);
	});
});

describe('alertMatcher with a screen’s own list', () => {
	it.each([
		[['shrimp'], 'Shrimp free please', true],
		[['shrimp'], 'Nut allergy', false],
		[['light …'], 'Light ice', true],
		[['light...'], 'Extra light', false],
		[['tree nut'], 'TREE   NUT allergy', true],
		[['えび'], 'えびアレルギー', true],
		[[], 'Nut allergy', false],
		[['  '], 'anything', false]
	] as const)('%j: %s → %s', (words, line, red) => {
		expect(alertMatcher(words)(line)).toBe(red);
	});

	it('the default list is the one a screen without the setting uses', () => {
		expect(alertMatcher(undefined)('No onion')).toBe(true);
		expect(DEFAULT_ALERT_WORDS).toContain('no …');
	});
});
