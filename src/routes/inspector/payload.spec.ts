import { describe, expect, it } from 'vitest';
import type { Finding } from '#core/conformance';
import { findingsByLine, lineOfPath, parentPath, prettyPayload } from './payload';

const warning = (code: string, path: string): Finding => ({
	severity: 'warning',
	code,
	path,
	message: `${path}: ${code}`
});
const error = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'error'
});
const info = (code: string, path: string): Finding => ({
	...warning(code, path),
	severity: 'info'
});

const message = {
	command: 'create-order',
	order: {
		id: '1042',
		tableColour: 'blue',
		items: [
			{ lineId: '1', name: 'Burger', qty: 1, mods: ['No onion'] },
			{ lineId: '2', name: 'Fries', qty: 'two', mods: [] }
		],
		costs: {}
	}
};

describe('prettyPayload', () => {
	it('prints JSON exactly as JSON.stringify with two spaces', () => {
		const raw = JSON.stringify(message);
		const { json, lines } = prettyPayload(raw);
		expect(json).toBe(true);
		expect(lines.map((l) => l.text).join('\n')).toBe(JSON.stringify(message, null, 2));
	});

	it('knows the field each line starts', () => {
		const { lines } = prettyPayload(JSON.stringify(message));
		const at = (text: string) => lines.find((l) => l.text.trim().startsWith(text))?.path;
		expect(lines[0].path).toBe('');
		expect(at('"tableColour"')).toBe('order.tableColour');
		expect(at('"qty": "two"')).toBe('order.items[1].qty');
		expect(at('"No onion"')).toBe('order.items[0].mods[0]');
		expect(at('"costs": {}')).toBe('order.costs');
		expect(lines.at(-1)).toEqual({ text: '}', path: null });
	});

	it('shows a payload that is not JSON as it came', () => {
		const { json, lines } = prettyPayload('{"command": "create-order",\r\n  oops');
		expect(json).toBe(false);
		expect(lines).toEqual([
			{ text: '{"command": "create-order",', path: null },
			{ text: '  oops', path: null }
		]);
	});

	it('shows a payload nested past what the edges accept as it came, on one line', () => {
		const deep = `{"order":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
		expect(JSON.parse(deep)).toHaveProperty('order');
		expect(prettyPayload(deep)).toEqual({ json: false, lines: [{ text: deep, path: null }] });
	});

	it('prints scalars and empty containers at the top level', () => {
		expect(prettyPayload('"just text"').lines).toEqual([{ text: '"just text"', path: '' }]);
		expect(prettyPayload('[]').lines).toEqual([{ text: '[]', path: '' }]);
	});
});

describe('lineOfPath', () => {
	const { lines } = prettyPayload(JSON.stringify(message));
	const textOf = (path: string) => lines[lineOfPath(lines, path)]?.text.trim();

	it('points a finding at the line of its field', () => {
		expect(textOf('order.tableColour')).toBe('"tableColour": "blue",');
		expect(textOf('order.items[1].qty')).toBe('"qty": "two",');
		expect(textOf('order.items[0].mods')).toBe('"mods": [');
		expect(textOf('command')).toBe('"command": "create-order",');
	});

	it('points a missing field at the nearest enclosing one', () => {
		expect(textOf('order.items[1].seat')).toBe('{');
		expect(lineOfPath(lines, 'order.items[1].seat')).toBe(lineOfPath(lines, 'order.items[1]'));
		expect(textOf('order.time')).toBe('"order": {');
	});

	it('points nowhere for the whole message or text that is not JSON', () => {
		expect(lineOfPath(lines, '')).toBe(-1);
		expect(lineOfPath(prettyPayload('nope').lines, 'order.id')).toBe(-1);
		expect(lineOfPath(lines, 'nothing.here')).toBe(-1);
	});

	it('walks up a path one field at a time', () => {
		expect(parentPath('order.items[1].qty')).toBe('order.items[1]');
		expect(parentPath('order.items[1]')).toBe('order.items');
		expect(parentPath('order')).toBe('');
		expect(parentPath('items[0]')).toBe('items');
	});

	it('groups findings by line', () => {
		const byLine = findingsByLine(lines, [
			warning('KDS-FIELD-UNKNOWN', 'order.tableColour'),
			error('KDS-INTEGER-INVALID', 'order.items[1].qty'),
			info('KDS-TCP-BARE-ORDER', '')
		]);
		expect([...byLine.values()].map((fs) => fs.map((f) => f.code))).toEqual([
			['KDS-FIELD-UNKNOWN'],
			['KDS-INTEGER-INVALID']
		]);
	});
});

describe('a payload that is not JSON', () => {
	it('shows control characters as \\xNN, tabs and text as they came', () => {
		const { json, lines } = prettyPayload('\u0000\u0001\t<a>\u001b\uFFFD\u007f\r\nhello\r');
		expect(json).toBe(false);
		expect(lines.map((l) => l.text)).toEqual(['\\x00\\x01\t<a>\\x1b\uFFFD\\x7f', 'hello\\x0d']);
	});
});
