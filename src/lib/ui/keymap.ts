/**
 * Bump bar keys. Bump bars are USB keyboards; the screen setting `keymap` maps a
 * KeyboardEvent.key to an action. An empty map means the defaults below.
 */

export type KeyAction =
	| { type: 'bump'; position: number }
	| { type: 'select'; direction: -1 | 1 }
	| { type: 'bump-selected' }
	| { type: 'recall' }
	| { type: 'page'; direction: -1 | 1 }
	/** Open or close the All Day view. */
	| { type: 'allday' }
	/** The item cursor on the selected card: next or previous item (a cook's marks). */
	| { type: 'item'; direction: -1 | 1 }
	/** Mark the item under the cursor done, or not done (without a cursor: the first not done). */
	| { type: 'item-toggle' }
	/** Mark the selected ticket started, or not started. */
	| { type: 'start' };

/**
 * Digits 1-9 bump the card showing that number on the page (core/view/bump-numbers.ts), arrows move the selection, Enter bumps the selected
 * card, R or Backspace recalls the last bumped order, Page Up/Down turn pages, A opens and closes
 * the All Day view. On the selected card: I and U move an item cursor down and up, D marks the
 * item under it done (again: not done; with no cursor, the first item not done), S marks the
 * ticket started (again: not started).
 */
export const DEFAULT_KEYMAP: Readonly<Record<string, string>> = {
	...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [String(i + 1), `bump:${i + 1}`])),
	ArrowLeft: 'select:prev',
	ArrowUp: 'select:prev',
	ArrowRight: 'select:next',
	ArrowDown: 'select:next',
	Enter: 'bump:selected',
	' ': 'bump:selected',
	r: 'recall',
	Backspace: 'recall',
	PageUp: 'page:prev',
	PageDown: 'page:next',
	a: 'allday',
	i: 'item:next',
	u: 'item:prev',
	d: 'item:toggle',
	s: 'start'
};

/** `bump:3` → {type:'bump', position: 3}; null for anything unknown. */
export function parseKeyAction(text: string): KeyAction | null {
	const bump = /^bump:([1-9])$/.exec(text);
	if (bump) return { type: 'bump', position: Number(bump[1]) };
	switch (text) {
		case 'bump:selected':
			return { type: 'bump-selected' };
		case 'select:prev':
			return { type: 'select', direction: -1 };
		case 'select:next':
			return { type: 'select', direction: 1 };
		case 'recall':
			return { type: 'recall' };
		case 'page:prev':
			return { type: 'page', direction: -1 };
		case 'page:next':
			return { type: 'page', direction: 1 };
		case 'allday':
			return { type: 'allday' };
		case 'item:next':
			return { type: 'item', direction: 1 };
		case 'item:prev':
			return { type: 'item', direction: -1 };
		case 'item:toggle':
			return { type: 'item-toggle' };
		case 'start':
			return { type: 'start' };
		default:
			return null;
	}
}

export type Keymap = Map<string, KeyAction>;

/** The screen's keymap, or the defaults when it is empty or missing. Unknown actions are dropped. */
export function resolveKeymap(map: Record<string, string> | undefined): Keymap {
	const source = map && Object.keys(map).length > 0 ? map : DEFAULT_KEYMAP;
	const out: Keymap = new Map();
	for (const [key, text] of Object.entries(source)) {
		const action = parseKeyAction(text);
		if (action) out.set(key, action);
	}
	return out;
}

/** The action for a key press; single letters match either case. */
export function actionForKey(keymap: Keymap, key: string): KeyAction | undefined {
	return keymap.get(key) ?? (key.length === 1 ? keymap.get(key.toLowerCase()) : undefined);
}
