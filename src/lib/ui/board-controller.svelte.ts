/**
 * The screen's controller (issue 47 part 8): what is selected, which page shows, the Undo of the
 * last bump, the bump bar's keys and the switch between the cards and the takeout view. The
 * decisions are the pure functions of board-controller.ts; this class holds the state they act
 * on and applies them through what it is given (ScreenView gives the session's actions and
 * notices, the cook's marks, CardBoard's layoutNow and SvelteKit's goto), so the whole of it is
 * tested under Vitest (board-controller.svelte.spec.ts) and ScreenView only wires components.
 *
 * No effects of its own: ScreenView runs `settle()` and `keepInView()` from its effects (the
 * queue, the layout or the page changed), and the Undo offer times out on a plain timer.
 */
import { displayName } from '#core/view/format';
import { actionForKey, type KeyAction, type Keymap } from './keymap.ts';
import {
	arrowSelection,
	inView,
	numberedTarget,
	settledSelection,
	toggledView,
	turnedPage,
	undoneBump,
	UNDO_MS,
	type BoardView,
	type KeyLayout,
	type UndoOffer
} from './board-controller.ts';
import type { CookMarks } from './cook-marks.svelte.ts';
import type { OrderEntry } from './orders.svelte.ts';

/** The tickets on the board (the session's OrderBoard). */
export interface Tickets {
	/** In queue order. */
	readonly queue: readonly OrderEntry[];
	get(id: string): OrderEntry | undefined;
}

/** What the controller acts through: ScreenView gives the real ones, the specs record them. */
export interface BoardControllerDeps<L extends KeyLayout> {
	tickets: Tickets;
	/** Send a bump or a recall (session.act; recall without an id: the last bumped). False: not sent. */
	act: (action: 'bump' | 'recall', orderId?: string) => boolean;
	/** A short message for the cook (session.notify). */
	notify: (text: string) => void;
	/** The cook's marks: the bump bar's item cursor, item toggle and "started". */
	cook: Pick<CookMarks, 'move' | 'toggleAtCursor' | 'toggleStarted'>;
	/** The cook moved the selection off this card: it has been seen (its NEW / CHANGED marks go). */
	seen: (orderId: string) => void;
	/** The board as it is drawn now (CardBoard's layoutNow); undefined before the board is there. */
	layoutNow: () => L | undefined;
	/** The screen's bump bar keys. */
	keymap: () => Keymap;
	/** A pop-up is open: it takes the keys until OK. */
	modal: () => boolean;
	/** The page's URL, and a shallow replace of it that keeps the view (?view=takeout). */
	url: () => { readonly href: string };
	navigate: (url: URL) => void;
	/** The view to start in (viewOf the page's URL). */
	view?: BoardView;
}

/** The part of a KeyboardEvent the keys read (a bump bar is a keyboard). */
export interface KeyPress {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
	target: EventTarget | null;
	preventDefault(): void;
}

/** The nearest element around the key's target matching `selector` (none off the DOM). */
function closest(target: EventTarget | null, selector: string): boolean {
	const el = target as { closest?: (s: string) => unknown } | null;
	return typeof el?.closest === 'function' && el.closest(selector) !== null;
}

export class BoardController<L extends KeyLayout = KeyLayout> {
	/** The page shown (bound to CardBoard, which keeps it within its pages). */
	page = $state(0);
	/** The board as last laid out (bound to CardBoard). */
	layout: L | undefined = $state.raw();
	selectedId: string | null = $state(null);
	/** An undone bump of the selected card: selected again once it is back on the screen. */
	reselect: string | null = $state(null);
	/** The last bump, offered for Undo for UNDO_MS. */
	undo: UndoOffer | null = $state.raw(null);
	/** The cards, or the takeout board. */
	view: BoardView = $state('orders');
	/** The All Day view over the cards (header button, bump bar `a`). */
	allDayOpen = $state(false);

	/** Where the selected ticket was in the queue: its place goes to the next one if it leaves. */
	#selectedIndex = 0;
	/** The selection just moved (a bump, Undo): its page comes into view once laid out. */
	#follow = false;
	#undoTimer: ReturnType<typeof setTimeout> | undefined;
	readonly #deps: BoardControllerDeps<L>;

	constructor(deps: BoardControllerDeps<L>) {
		this.#deps = deps;
		this.view = deps.view ?? 'orders';
	}

	/** The Undo timer goes with the screen. */
	dispose(): void {
		clearTimeout(this.#undoTimer);
	}

	/** A part of the ticket is drawn on the page shown (board-controller.ts). */
	inView(orderId: string | null): orderId is string {
		return inView(this.layout, this.page, orderId);
	}

	// ---- The selection as the board changes (ScreenView's effects call these) ----

	/**
	 * The queue changed: when the selected card left, the card that takes its place is selected
	 * (and its page shown once laid out); an undone bump's card, once back, is selected again.
	 */
	settle(): void {
		if (this.reselect === null && this.selectedId === null) return;
		const next = settledSelection(
			this.#deps.tickets.queue.map((e) => e.id),
			{ selectedId: this.selectedId, selectedIndex: this.#selectedIndex, reselect: this.reselect }
		);
		this.#selectedIndex = next.selectedIndex;
		if (next.reselect !== this.reselect) this.reselect = next.reselect;
		if (next.selectedId !== this.selectedId) this.selectedId = next.selectedId;
		if (next.follow) this.#follow = true;
	}

	/**
	 * The layout or the page changed. The selection is always on a card in view, so Enter never
	 * bumps a card nobody sees: a selection the board just moved (a bump, Undo) takes the page
	 * along; a selected card that the cards coming in push to another page, or a page turned away
	 * from it, leaves nothing selected.
	 */
	keepInView(): void {
		const { layout, selectedId } = this;
		if (!layout || selectedId === null) return;
		const shown = layout.pageOf(selectedId);
		if (shown === undefined) return;
		if (this.#follow) {
			this.#follow = false;
			if (!this.inView(selectedId)) this.page = shown;
		} else if (!this.inView(selectedId)) {
			this.selectedId = null;
		}
	}

	// ---- Touch ----

	/**
	 * The cook moves the selection (a tap, the bump bar's arrows): the card they leave has been
	 * seen, so its NEW / CHANGED marks go. A bump is not "seen": Undo brings the marks back.
	 */
	choose(orderId: string | null): void {
		this.reselect = null;
		if (this.selectedId !== null && this.selectedId !== orderId) this.#deps.seen(this.selectedId);
		this.selectedId = orderId;
	}

	/** Bump a ticket; once sent, it is offered for Undo. */
	bump(orderId: string): void {
		const entry = this.#deps.tickets.get(orderId);
		const selected = this.selectedId === orderId;
		if (this.#deps.act('bump', orderId)) {
			this.#offer({
				id: orderId,
				title: entry ? displayName(entry.context.fields) : orderId,
				selected
			});
		}
	}

	/**
	 * A bump by touch (a second tap, the card's bump button): after it nothing is selected, so the
	 * card that slides into its place needs its own two taps. (The bump bar's Enter moves the
	 * selection on to that card instead: settle.)
	 */
	touchBump(orderId: string): void {
		this.bump(orderId);
		if (this.selectedId === orderId) this.selectedId = null;
	}

	/** A tap on a card selects it; a tap on the selected card bumps it. */
	tap(orderId: string): void {
		if (this.selectedId === orderId) this.touchBump(orderId);
		else this.choose(orderId);
	}

	/** Recall a ticket (without an id: the last bumped); the Undo offer goes. */
	recall(orderId?: string): void {
		this.#deps.act('recall', orderId);
		this.#offer(null);
	}

	/** Undo a bump: the card comes back as it was, selected again if it was (its marks kept). */
	undoBump(bumped: UndoOffer): void {
		const { recall: id, reselect: again } = undoneBump(bumped);
		this.recall(id);
		if (again !== null) this.reselect = again;
	}

	#offer(offer: UndoOffer | null): void {
		clearTimeout(this.#undoTimer);
		this.undo = offer;
		if (offer) this.#undoTimer = setTimeout(() => (this.undo = null), UNDO_MS);
	}

	// ---- Pages and views ----

	/** Page Up / Page Down, the pager's arrows: one page on, within the pages. */
	turnPage(direction: number): void {
		this.showPage(turnedPage(this.page, direction, this.layout?.pageCount ?? 1));
	}

	/** Another page: a selection left behind on the page before goes (keepInView: out of view). */
	showPage(target: number): void {
		if (target === this.page) return;
		this.#follow = false;
		this.page = target;
	}

	/**
	 * Bring a ticket into view, selected (a cancel toast tapped, the inspector's ?order= link):
	 * its page as the board is drawn now, or once it is laid out.
	 */
	show(orderId: string): void {
		if (!this.#deps.tickets.queue.some((e) => e.id === orderId)) return;
		this.layout = this.#deps.layoutNow() ?? this.layout;
		this.choose(orderId);
		const target = this.layout?.pageOf(orderId);
		if (target !== undefined) this.page = target;
		else this.#follow = true;
	}

	/** Orders or takeout; the URL keeps it (?view=takeout), so a reload or a kiosk URL shows it. */
	toggleView(): void {
		const next = toggledView(this.view, this.#deps.url());
		this.view = next.view;
		this.#deps.navigate(next.url);
	}

	toggleAllDay(): void {
		this.allDayOpen = !this.allDayOpen;
	}

	// ---- The bump bar ----

	/** An arrow: the next or previous ticket, its page shown. */
	select(direction: -1 | 1): void {
		const ids = this.#deps.tickets.queue.map((e) => e.id);
		const next = arrowSelection(ids, this.selectedId, this.layout, direction);
		if (next === null) return;
		this.choose(ids[next]);
		this.#selectedIndex = next;
		const target = this.layout?.pageOf(ids[next]);
		if (target !== undefined) this.page = target;
	}

	/** What a bump bar key does (keymap.ts), on the board as drawn. */
	run(action: KeyAction): void {
		const { notify, cook, tickets } = this.#deps;
		switch (action.type) {
			case 'bump': {
				// The card that shows the number (a part carried over from the page before included);
				// a key that names no card (3 with two cards shown, a key map's bump:5) says so.
				const target = numberedTarget(this.layout, action.position);
				if (target) this.bump(target);
				else notify(`No card ${action.position} on this page`);
				break;
			}
			case 'bump-selected':
				// Only a card in view: the selection is never left on another page (keepInView).
				if (this.inView(this.selectedId)) this.bump(this.selectedId);
				else notify('No card selected');
				break;
			case 'select':
				this.select(action.direction);
				break;
			case 'recall':
				this.recall();
				break;
			case 'page':
				this.turnPage(action.direction);
				break;
			case 'allday':
				this.toggleAllDay();
				break;
			case 'item':
			case 'item-toggle':
			case 'start': {
				// On the selected card in view, like bump-selected.
				const entry = this.inView(this.selectedId) ? tickets.get(this.selectedId) : undefined;
				if (!entry) notify('No card selected');
				else if (action.type === 'item') cook.move(entry, action.direction);
				else if (action.type === 'start') {
					if (!cook.toggleStarted(entry)) notify('That ticket cannot be marked started');
				} else if (!cook.toggleAtCursor(entry)) notify('No item to mark on that ticket');
				break;
			}
		}
	}

	/**
	 * A key pressed on the screen (the window's keydown). Returns whether it was a bump bar action
	 * (its default prevented). Keys with Ctrl, ⌘ or Alt, typing in a field, Enter or Space on a
	 * focused button (they press the button), keys while a pop-up is open (Enter presses its OK)
	 * and in the takeout view (no cards) are left alone.
	 */
	key(event: KeyPress): boolean {
		if (event.ctrlKey || event.metaKey || event.altKey) return false;
		const { target } = event;
		if ((event.key === 'Enter' || event.key === ' ') && closest(target, 'button, a, input'))
			return false;
		if (closest(target, 'input, textarea, select')) return false;
		if (this.#deps.modal() || this.view === 'takeout') return false;
		const action = actionForKey(this.#deps.keymap(), event.key);
		if (!action) return false;
		event.preventDefault();
		// The cards as drawn now, not as the last frame measured them: a key pressed just after new
		// cards came (before the next frame, late on a loaded machine) bumps the card it names.
		this.layout = this.#deps.layoutNow() ?? this.layout;
		this.run(action);
		return true;
	}
}
