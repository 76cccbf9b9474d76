import { describe, expect, it } from 'vitest';
import { actionForKey, parseKeyAction, resolveKeymap } from './keymap';

describe('keymap', () => {
	it('uses the defaults when the screen map is empty', () => {
		const map = resolveKeymap({});
		expect(actionForKey(map, '3')).toEqual({ type: 'bump', position: 3 });
		expect(actionForKey(map, 'ArrowRight')).toEqual({ type: 'select', direction: 1 });
		expect(actionForKey(map, 'Enter')).toEqual({ type: 'bump-selected' });
		expect(actionForKey(map, 'R')).toEqual({ type: 'recall' });
		expect(actionForKey(map, 'Backspace')).toEqual({ type: 'recall' });
		expect(actionForKey(map, 'PageDown')).toEqual({ type: 'page', direction: 1 });
		expect(actionForKey(map, 'A')).toEqual({ type: 'allday' });
		expect(actionForKey(map, 'i')).toEqual({ type: 'item', direction: 1 });
		expect(actionForKey(map, 'u')).toEqual({ type: 'item', direction: -1 });
		expect(actionForKey(map, 'D')).toEqual({ type: 'item-toggle' });
		expect(actionForKey(map, 's')).toEqual({ type: 'start' });
		expect(actionForKey(map, 'x')).toBeUndefined();
	});

	it('replaces the defaults with the screen map and drops unknown actions', () => {
		const map = resolveKeymap({ a: 'bump:1', b: 'select:prev', F12: 'recall', z: 'explode' });
		expect(actionForKey(map, 'a')).toEqual({ type: 'bump', position: 1 });
		expect(actionForKey(map, 'b')).toEqual({ type: 'select', direction: -1 });
		expect(actionForKey(map, 'F12')).toEqual({ type: 'recall' });
		expect(actionForKey(map, 'z')).toBeUndefined();
		expect(actionForKey(map, '1')).toBeUndefined();
	});

	it('parses every documented action', () => {
		expect(parseKeyAction('bump:9')).toEqual({ type: 'bump', position: 9 });
		expect(parseKeyAction('bump:0')).toBeNull();
		expect(parseKeyAction('bump:selected')).toEqual({ type: 'bump-selected' });
		expect(parseKeyAction('select:next')).toEqual({ type: 'select', direction: 1 });
		expect(parseKeyAction('page:prev')).toEqual({ type: 'page', direction: -1 });
		expect(parseKeyAction('item:next')).toEqual({ type: 'item', direction: 1 });
		expect(parseKeyAction('item:toggle')).toEqual({ type: 'item-toggle' });
		expect(parseKeyAction('start')).toEqual({ type: 'start' });
	});
});
