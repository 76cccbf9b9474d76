/**
 * Lines a cook must not miss: allergies and "no …" (issue 47). A modifier, an item's or a
 * group's instruction, or the order's note that matches the screen's `alertWords` setting is
 * drawn bold on red (CardItem, OrderCard). Pure, so what matches is tested without a browser.
 *
 * An entry is a word or phrase, matched case-insensitively as whole words anywhere in the line
 * ("nut" matches "Nut allergy", not "Donut" nor "nuts": list both forms); an entry that ends in
 * "…" (or "...") matches a line that starts with it ("no …": "No onion", "» no ice", not
 * "Nothing"); an entry in a script written without spaces (CJK: "アレルギー") or an emoji
 * matches anywhere in the line.
 *
 * Two levels, so red keeps meaning danger on a card full of "no …" modifiers: a line with a word
 * or phrase of the list (an allergy, an allergen: "Nut allergy", "No nuts", "Gluten-free bread")
 * is `danger`, white on bright red, the loudest line on the card; a line that only starts with a
 * "…" entry ("No onion", "Without cheese") is `caution`, still bold on red but a dark red, calmer
 * than an allergy. A line that is both is `danger`.
 */

/** The list a screen uses when its settings give none (docs/configuration.md). */
export const DEFAULT_ALERT_WORDS: readonly string[] = [
	'allergy',
	'allergies',
	'allergic',
	'allergen',
	'anaphylaxis',
	'anaphylactic',
	'epipen',
	'nut',
	'nuts',
	'peanut',
	'peanuts',
	'tree nut',
	'gluten',
	'celiac',
	'coeliac',
	'shellfish',
	'sesame',
	'dairy free',
	'lactose',
	'no …',
	'without …',
	'アレルギー',
	'过敏',
	'알레르기',
	'🥜'
];

/** The longest list and entry the setting takes (agent/config.ts validates it). */
export const MAX_ALERT_WORDS = 200;
export const MAX_ALERT_WORD_LENGTH = 60;

const PREFIX = /\s*(?:…|\.\.\.)$/u;
/** Leading marks a line may carry before its words: "» ", "– ", quotes, bullets. */
const LEAD = /^[\s\p{P}\p{S}]*/u;
const SPACELESS =
	/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Extended_Pictographic}]/u;

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How loud a matching line is drawn: `danger` (a word or phrase of the list: an allergy) or
 * `caution` (only a "…" entry's start: "No onion").
 */
export type AlertLevel = 'danger' | 'caution';

/** How loud a line is, or null when it matches nothing: built once per list. */
export type AlertMatcher = (line: string | undefined) => AlertLevel | null;

export function alertMatcher(
	words: readonly string[] | undefined = DEFAULT_ALERT_WORDS
): AlertMatcher {
	const dangers: RegExp[] = [];
	const cautions: RegExp[] = [];
	for (const raw of words) {
		const entry = raw.trim().toLocaleLowerCase();
		if (!entry) continue;
		if (PREFIX.test(entry)) {
			const head = entry.replace(PREFIX, '').trim();
			if (head) cautions.push(new RegExp(`^${escape(head)}(?![\\p{L}\\p{N}])`, 'u'));
			continue;
		}
		const body = escape(entry).replace(/\s+/g, '\\s+');
		dangers.push(
			SPACELESS.test(entry)
				? new RegExp(body, 'u')
				: new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u')
		);
	}
	if (dangers.length === 0 && cautions.length === 0) return () => null;
	return (line) => {
		if (!line) return null;
		const text = line.toLocaleLowerCase();
		if (dangers.some((p) => p.test(text))) return 'danger';
		const words = text.replace(LEAD, '');
		return cautions.some((p) => p.test(words)) ? 'caution' : null;
	};
}
