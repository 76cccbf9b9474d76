import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScreenInfo } from '#core/relay';
import type { KdsItem } from '#core/order-schema';
import { createRecord } from '#core/screen';
import { BoardController, type Tickets } from './board-controller.svelte';
import { UNDO_MS, type KeyLayout } from './board-controller';
import { resolveKeymap } from './keymap';
import { OrderBoard, type OrderEntry } from './orders.svelte';

/**
 * The screen's controller driven as ScreenView drives it: keys pressed, cards tapped, and the
 * board's effects (the queue changed: settle; the layout or the page changed: keepInView) run
 * after each change. The board is a real OrderBoard holding tickets a…g ("Table a" …); the
 * layout is the one CardBoard would measure for these pages:
 *
 *   page 0: a b c      (c is tall: it continues onto page 1)
 *   page 1: c d e      (c's carried-over part shows 1, d 2, e 3)
 *   page 2: f g
 */
const PAGES = [
	['a', 'b', 'c'],
	['c', 'd', 'e'],
	['f', 'g']
];
const T0 = 1_795_338_000_000;
const SCREEN: ScreenInfo = {
	id: 'kds-1',
	name: 'Grill',
	locationId: 'loc-1',
	locationName: 'Demo Kitchen',
	timezone: 'UTC',
	settings: { timers: { warnAfter: 300, lateAfter: 480 }, autoHoldFutureOrders: false, keymap: {} }
};
const item = (lineId: string, name: string): KdsItem => ({ lineId, name, qty: 1, mods: [] });

/** The tickets as the board holds them (queue order a…g); `queue` is replaced as cards come and go. */
function ticketsOf(ids: readonly string[]): Tickets & { queue: OrderEntry[]; all: OrderEntry[] } {
	const board = new OrderBoard();
	board.receive({
		type: 'snapshot',
		seq: 0,
		screen: SCREEN,
		now: T0,
		records: ids.map((id, i) =>
			createRecord({
				order: {
					id,
					name: `Table ${id}`,
					time: new Date(T0 + i * 1000).toISOString(),
					mode: 'For Here',
					items: [item('1', 'Burger'), item('2', 'Fries')]
				},
				at: T0 + i * 1000,
				seq: i + 1
			})
		)
	});
	const all = ids.map((id) => board.get(id)!);
	return { all, queue: [...all], get: (id) => board.get(id) };
}

/** The layout CardBoard measures on `page`: the pages above, less the tickets no longer there. */
function layoutOf(pages: readonly string[][], page: number, present: readonly string[]): KeyLayout {
	const drawn = pages.map((p) => p.filter((id) => present.includes(id)));
	const starts = new Map<string, number>();
	drawn.forEach((p, n) => p.forEach((id) => starts.has(id) || starts.set(id, n)));
	return {
		pageCount: drawn.length,
		onPage: present.filter((id) => starts.get(id) === page),
		numbered: [...new Set(drawn[page] ?? [])],
		pageOf: (id) => starts.get(id)
	};
}

function screen(options: { pages?: string[][]; connected?: boolean } = {}) {
	const pages = options.pages ?? PAGES;
	const tickets = ticketsOf([...new Set(pages.flat())]);
	const sent: string[] = [];
	const notices: string[] = [];
	const seen: string[] = [];
	const marks: string[] = [];
	let modal = false;
	let url = new URL('http://127.0.0.1:25000/screens/kds-1?kiosk&cols=3');
	const ids = () => tickets.queue.map((e) => e.id);
	const ctl: BoardController = new BoardController({
		tickets,
		act: (action, orderId) => {
			sent.push(orderId ? `${action} ${orderId}` : action);
			return options.connected ?? true;
		},
		notify: (text) => notices.push(text),
		cook: {
			move: (entry, direction) => void marks.push(`move ${entry?.id} ${direction}`),
			toggleAtCursor: (entry) => (marks.push(`toggle ${entry.id}`), true),
			toggleStarted: (entry) => (marks.push(`start ${entry.id}`), true)
		},
		seen: (orderId) => seen.push(orderId),
		layoutNow: () => layoutOf(pages, ctl.page, ids()),
		keymap: () => resolveKeymap(undefined),
		modal: () => modal,
		url: () => url,
		navigate: (next) => (url = next)
	});
	/** ScreenView's effects: the board laid out again, the selection kept on a card in view. */
	const settle = () => {
		ctl.settle();
		ctl.layout = layoutOf(pages, ctl.page, ids());
		ctl.keepInView();
		ctl.layout = layoutOf(pages, ctl.page, ids());
	};
	let prevented = 0;
	/** A key on the window; the target is what had focus (none: the page). */
	const press = (
		key: string,
		target: EventTarget | null = null,
		mods: { ctrlKey?: boolean } = {}
	) => {
		const handled = ctl.key({
			key,
			ctrlKey: mods.ctrlKey ?? false,
			metaKey: false,
			altKey: false,
			target,
			preventDefault: () => void prevented++
		});
		settle();
		return handled;
	};
	/** Tickets leave the board (bumped, as the agent relays it). */
	const leave = (...gone: string[]) => {
		tickets.queue = tickets.queue.filter((e) => !gone.includes(e.id));
		settle();
	};
	/** A ticket comes back to its place (recalled). */
	const back = (id: string) => {
		const order = tickets.all.map((e) => e.id);
		tickets.queue = tickets.all.filter((e) => e.id === id || tickets.queue.includes(e));
		expect(tickets.queue.map((e) => e.id)).toEqual(
			order.filter((o) => ids().includes(o) || o === id)
		);
		settle();
	};
	const tap = (id: string) => {
		ctl.tap(id);
		settle();
	};
	/** A cancel toast tapped, or the inspector's ?order= link. */
	const show = (id: string) => {
		ctl.show(id);
		settle();
	};
	settle();
	return {
		ctl,
		sent,
		notices,
		seen,
		marks,
		press,
		leave,
		back,
		tap,
		show,
		url: () => url,
		prevented: () => prevented,
		setModal: (open: boolean) => (modal = open)
	};
}

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('digit keys bump the ticket showing that number', () => {
	it.each([
		// [page, key, ticket bumped or the notice]
		[0, '1', 'a'],
		[0, '3', 'c'],
		[0, '4', 'No card 4 on this page'],
		[1, '1', 'c'], // the part carried over from page 0 shows 1
		[1, '2', 'd'],
		[1, '3', 'e'],
		[1, '4', 'No card 4 on this page'],
		[2, '2', 'g'],
		[2, '9', 'No card 9 on this page']
	])('page %i, key %s: %s', (page, key, outcome) => {
		const s = screen();
		for (let p = 0; p < page; p++) s.press('PageDown');
		expect(s.ctl.page).toBe(page);
		expect(s.press(key)).toBe(true);
		if (outcome.startsWith('No card')) {
			expect(s.sent).toEqual([]);
			expect(s.notices).toEqual([outcome]);
			expect(s.ctl.undo).toBeNull();
		} else {
			expect(s.sent).toEqual([`bump ${outcome}`]);
			expect(s.notices).toEqual([]);
			expect(s.ctl.undo).toEqual({ id: outcome, title: `Table ${outcome}`, selected: false });
		}
	});

	it('a bump not sent (no connection) offers no Undo', () => {
		const s = screen({ connected: false });
		s.press('2');
		expect(s.sent).toEqual(['bump b']);
		expect(s.ctl.undo).toBeNull();
	});
});

describe('Enter bumps only a selected ticket in view', () => {
	it.each([
		// [what the cook did first (taps and keys), the bump key, what it sends, the notice]
		[[], 'Enter', [], ['No card selected']],
		[['tap b'], 'Enter', ['bump b'], []],
		[['tap b', 'PageDown'], 'Enter', [], ['No card selected']], // b left behind on page 0
		// c continues onto page 1: still in view there, and Enter bumps it
		[['tap c', 'PageDown'], 'Enter', ['bump c'], []],
		[['tap c', 'PageDown', 'PageDown'], 'Enter', [], ['No card selected']],
		[['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight'], ' ', ['bump e'], []]
	])('%j, then %j: sends %j', (steps, key, sends, notices) => {
		const s = screen();
		for (const step of steps) {
			if (step.startsWith('tap ')) s.tap(step.slice(4));
			else s.press(step);
		}
		expect(s.press(key)).toBe(true);
		expect(s.sent).toEqual(sends);
		expect(s.notices).toEqual(notices);
	});
});

describe('arrows move the selection across pages', () => {
	it('→ from nothing takes the first ticket of the page; on past its end turns the page', () => {
		const s = screen();
		s.press('PageDown');
		const path: string[] = [];
		for (const key of [
			'ArrowRight',
			'ArrowRight',
			'ArrowRight',
			'ArrowDown',
			'ArrowDown',
			'ArrowLeft',
			'ArrowUp',
			'ArrowUp',
			'ArrowUp',
			'ArrowUp'
		]) {
			s.press(key);
			path.push(`${s.ctl.selectedId}@${s.ctl.page}`);
		}
		expect(path).toEqual([
			'd@1', // the first ticket that starts on page 1 (c's part there started on page 0)
			'e@1',
			'f@2', // the page turns with the selection
			'g@2',
			'g@2', // never past the last
			'f@2',
			'e@1',
			'd@1',
			'c@0', // c starts on page 0: its page is shown
			'b@0'
		]);
		// Each card the cook moved off has been seen (its NEW / CHANGED marks go).
		expect(s.seen).toEqual(['d', 'e', 'f', 'g', 'f', 'e', 'd', 'c']);
	});

	it('← from nothing takes the last ticket starting on the page', () => {
		const s = screen();
		s.press('ArrowLeft');
		expect(s.ctl.selectedId).toBe('c');
	});
});

describe('Page keys turn pages', () => {
	it.each([
		// [keys, page shown]
		[['PageDown'], 1],
		[['PageDown', 'PageDown', 'PageDown'], 2], // never past the last
		[['PageUp'], 0], // nor before the first
		[['PageDown', 'PageDown', 'PageUp'], 1]
	])('%j: page %i', (keys, page) => {
		const s = screen();
		for (const key of keys) s.press(key);
		expect(s.ctl.page).toBe(page);
		expect(s.notices).toEqual([]);
	});

	it('drop a selection left behind, and keep one still in view', () => {
		const s = screen();
		s.tap('a');
		s.press('PageDown');
		expect(s.ctl.selectedId).toBeNull();
		s.press('PageUp');
		expect(s.ctl.selectedId).toBeNull(); // not brought back
		s.tap('c');
		s.press('PageDown'); // c's carried-over part is on page 1
		expect(s.ctl.selectedId).toBe('c');
		s.press('PageDown');
		expect(s.ctl.selectedId).toBeNull();
	});

	it('the pager turns to a page as the kiosk bar asks (showPage)', () => {
		const s = screen();
		s.tap('b');
		s.ctl.showPage(2);
		expect(s.ctl.page).toBe(2);
		s.press('Enter');
		expect(s.sent).toEqual([]);
	});
});

describe('a bump offers Undo', () => {
	it(`for ${UNDO_MS} ms, a later bump starting it again`, () => {
		const s = screen();
		s.press('1');
		expect(s.ctl.undo).toMatchObject({ id: 'a', title: 'Table a' });
		vi.advanceTimersByTime(UNDO_MS - 1);
		expect(s.ctl.undo).not.toBeNull();
		s.leave('a');
		s.press('1'); // b now shows 1
		expect(s.ctl.undo).toMatchObject({ id: 'b' });
		vi.advanceTimersByTime(UNDO_MS - 1);
		expect(s.ctl.undo).toMatchObject({ id: 'b' });
		vi.advanceTimersByTime(1);
		expect(s.ctl.undo).toBeNull();
	});

	it('Undo recalls the ticket and selects it again once it is back, on its page', () => {
		const s = screen();
		s.tap('d');
		expect(s.ctl.page).toBe(0); // a tap selects, never turns
		s.ctl.showPage(1);
		s.tap('d');
		s.press('Enter');
		expect(s.sent).toEqual(['bump d']);
		const offer = s.ctl.undo!;
		expect(offer).toEqual({ id: 'd', title: 'Table d', selected: true });
		s.leave('d');
		expect(s.ctl.selectedId).toBe('e'); // the bump bar's Enter moves on to the next card
		s.ctl.showPage(2); // the cook looks on
		s.ctl.undoBump(offer);
		expect(s.sent).toEqual(['bump d', 'recall d']);
		expect(s.ctl.undo).toBeNull();
		s.back('d');
		expect(s.ctl.selectedId).toBe('d');
		expect(s.ctl.page).toBe(1); // its page comes into view
		expect(s.ctl.reselect).toBeNull();
	});

	it('Undo of a ticket that was not selected leaves the selection alone; Recall ends the offer', () => {
		const s = screen();
		s.tap('b');
		s.press('1');
		s.leave('a');
		s.ctl.undoBump(s.ctl.undo!);
		s.back('a');
		expect(s.ctl.selectedId).toBe('b');
		s.press('3');
		expect(s.ctl.undo).toMatchObject({ id: 'c' });
		s.press('r');
		expect(s.sent).toEqual(['bump a', 'recall a', 'bump c', 'recall']);
		expect(s.ctl.undo).toBeNull();
	});
});

describe('the selection as tickets leave', () => {
	it.each([
		// [selected, tickets that leave, selected after, page after]
		['b', ['b'], 'c', 0], // the next card takes its place
		['c', ['c'], 'd', 1], // …and its page comes into view
		['g', ['g'], 'f', 2], // the last: the new last
		['e', ['e', 'f'], 'g', 2], // two leave: the one at its place
		['f', ['a', 'b', 'c', 'd', 'e', 'f', 'g'], null, 2]
	])('%s selected, %j leave: %s on page %i', (selected, gone, after, page) => {
		const s = screen();
		s.show(selected);
		s.leave(...gone);
		expect(s.ctl.selectedId).toBe(after);
		expect(s.ctl.page).toBe(page);
	});

	it('a tap selects, a tap on the selected card bumps it and selects nothing', () => {
		const s = screen();
		s.tap('b');
		s.tap('c');
		expect(s.seen).toEqual(['b']);
		s.tap('c');
		expect(s.sent).toEqual(['bump c']);
		expect(s.ctl.selectedId).toBeNull();
		s.leave('c');
		expect(s.ctl.selectedId).toBeNull();
		expect(s.seen).toEqual(['b']); // a bump is not "seen": Undo brings the marks back
	});

	it('a cancel toast shows its ticket on its page, selected', () => {
		const s = screen();
		s.show('g');
		expect([s.ctl.selectedId, s.ctl.page]).toEqual(['g', 2]);
		s.show('gone');
		expect(s.ctl.selectedId).toBe('g');
	});
});

describe('the selected ticket keys (a cook’s marks)', () => {
	it.each([
		['i', 'move b 1'],
		['u', 'move b -1'],
		['d', 'toggle b'],
		['s', 'start b']
	])('%s on the selected card: %s; with none selected, a notice', (key, mark) => {
		const s = screen();
		s.press(key);
		expect(s.marks).toEqual([]);
		expect(s.notices).toEqual(['No card selected']);
		s.tap('b');
		s.press(key);
		expect(s.marks).toEqual([mark]);
	});
});

describe('views and what takes the keys', () => {
	const BOARD_KEYS = ['1', 'Enter', ' ', 'ArrowRight', 'PageDown', 'r', 'a', 'd'];

	it('the takeout view swallows the board keys; the URL keeps the view', () => {
		const s = screen();
		s.tap('b');
		s.ctl.toggleView();
		expect(s.ctl.view).toBe('takeout');
		expect(s.url().search).toBe('?kiosk=&cols=3&view=takeout');
		for (const key of BOARD_KEYS) expect(s.press(key), key).toBe(false);
		expect([s.sent, s.notices, s.marks, s.ctl.page, s.ctl.allDayOpen]).toEqual([
			[],
			[],
			[],
			0,
			false
		]);
		expect(s.prevented()).toBe(0);
		s.ctl.toggleView();
		expect(s.ctl.view).toBe('orders');
		expect(s.url().searchParams.has('view')).toBe(false);
		expect(s.press('Enter')).toBe(true);
		expect(s.sent).toEqual(['bump b']);
	});

	it('starts in the view the URL names', () => {
		const ctl = new BoardController({ ...depsStub(), view: 'takeout' });
		expect(ctl.view).toBe('takeout');
	});

	it.each([
		// [why, key, target, with Ctrl]
		['a pop-up is open', '1', null, false],
		['Ctrl held', '1', null, true],
		['Enter on a focused button presses it', 'Enter', target('button'), false],
		['typing in a field', '2', target('input'), false],
		['a key the map has not', 'x', null, false]
	])('%s: the key is left alone', (why, key, on, ctrlKey) => {
		const s = screen();
		s.tap('a');
		if (why.startsWith('a pop-up')) s.setModal(true);
		expect(s.press(key, on, { ctrlKey })).toBe(false);
		expect(s.sent).toEqual([]);
		expect(s.prevented()).toBe(0);
	});

	it('a digit on a focused button is still the bump bar’s', () => {
		const s = screen();
		expect(s.press('2', target('button'))).toBe(true);
		expect(s.sent).toEqual(['bump b']);
		expect(s.prevented()).toBe(1);
	});

	it('A opens and closes All Day', () => {
		const s = screen();
		s.press('a');
		expect(s.ctl.allDayOpen).toBe(true);
		s.press('A');
		expect(s.ctl.allDayOpen).toBe(false);
	});
});

/** A focused element of this kind (what KeyboardEvent.target's closest() finds). */
function target(kind: 'button' | 'input'): EventTarget {
	const el = {
		closest: (selector: string) => (selector.split(', ').includes(kind) ? el : null)
	};
	return el as unknown as EventTarget;
}

function depsStub() {
	return {
		tickets: { queue: [], get: () => undefined },
		act: () => true,
		notify: () => {},
		cook: { move: () => {}, toggleAtCursor: () => true, toggleStarted: () => true },
		seen: () => {},
		layoutNow: () => undefined,
		keymap: () => resolveKeymap(undefined),
		modal: () => false,
		url: () => new URL('http://127.0.0.1:25000/screens/kds-1'),
		navigate: () => {}
	};
}
