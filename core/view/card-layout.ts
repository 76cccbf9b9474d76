/**
 * How a card's items are arranged: by course (with the course's status), and inside a course the
 * members of an itemGroup boxed together. Pure, so the rules are tested without a browser.
 */
import type { ItemView } from '../content.ts';
import type { CourseStatus, ItemGroup } from '../order-schema.ts';

export type CardEntry =
	{ kind: 'item'; item: ItemView } | { kind: 'group'; group: ItemGroup; items: ItemView[] };

export interface CourseSection {
	/** Stable key for keyed rendering. */
	key: string;
	/** The course as sent (`"2"`, `"Starters"`); undefined for items without a course. */
	course?: string;
	/** The status every live item of the section shares; undefined when none or mixed. */
	status?: CourseStatus;
	/** True when live items disagree on courseStatus: each item then shows its own. */
	mixed: boolean;
	entries: CardEntry[];
}

/**
 * A course's state in words no button uses: the Fire button fires a course `on hold`, which then
 * reads `cooking`, never "fire" (a state and a button with one word were misread).
 */
export const COURSE_STATUS_LABELS: Record<CourseStatus, string> = {
	hold: 'on hold',
	fire: 'cooking',
	pickup: 'pickup',
	straightFire: 'cook now'
};

/** `Course 2`, or the course name when it is not a number. */
export function courseTitle(course: string | undefined): string {
	if (course === undefined) return 'Items';
	return /^\d+$/.test(course.trim()) ? `Course ${course.trim()}` : course;
}

/** The accessible and visible name of a section: `Course 2 — on hold`. */
export function sectionLabel(section: CourseSection): string {
	const title = courseTitle(section.course);
	return section.status ? `${title} — ${COURSE_STATUS_LABELS[section.status]}` : title;
}

/**
 * Split items into course sections. Items without a course come first, then numbered courses in
 * numeric order, then named courses in order of appearance. The members of one itemGroup stay
 * together at the place of the first member (in that member's course), even if the POS broke the
 * contract's rule that they share course and status.
 */
export function layoutItems(items: readonly ItemView[]): CourseSection[] {
	const entries: CardEntry[] = [];
	const groups = new Map<string, Extract<CardEntry, { kind: 'group' }>>();
	for (const item of items) {
		const group = item.itemGroup;
		if (!group) {
			entries.push({ kind: 'item', item });
			continue;
		}
		const existing = groups.get(group.id);
		if (existing) {
			existing.items.push(item);
		} else {
			const entry: Extract<CardEntry, { kind: 'group' }> = { kind: 'group', group, items: [item] };
			groups.set(group.id, entry);
			entries.push(entry);
		}
	}

	const sections = new Map<string, CourseSection>();
	for (const entry of entries) {
		const first = entry.kind === 'item' ? entry.item : entry.items[0];
		const course = first.course?.trim() || undefined;
		const key = course === undefined ? '' : `c:${course}`;
		let section = sections.get(key);
		if (!section) {
			section = { key, course, mixed: false, entries: [] };
			sections.set(key, section);
		}
		section.entries.push(entry);
	}

	const ordered = [...sections.values()];
	const rank = (s: CourseSection) =>
		s.course === undefined ? -Infinity : /^\d+$/.test(s.course) ? Number(s.course) : Infinity;
	ordered.sort((a, b) => rank(a) - rank(b)); // stable: named courses keep their order

	for (const section of ordered) {
		const statuses = new Set<CourseStatus | undefined>();
		for (const entry of section.entries) {
			const list = entry.kind === 'item' ? [entry.item] : entry.items;
			for (const item of list) if (!item.deleted) statuses.add(item.courseStatus);
		}
		if (statuses.size === 1) section.status = [...statuses][0];
		else section.mixed = statuses.size > 1;
	}
	return ordered;
}

/** A line for screen readers and tests: `2 × Ribeye (Medium rare, 2 × Peppercorn sauce)`. */
export function itemLabel(item: ItemView): string {
	const mods = item.mods.map((m) => (m.qty && m.qty > 1 ? `${m.qty} × ${m.name}` : m.name));
	const text = `${item.qty} × ${item.name}${mods.length ? ` (${mods.join(', ')})` : ''}`;
	return item.deleted ? `Deleted: ${text}` : text;
}

export type CardBlock =
	| { kind: 'list'; key: string; items: ItemView[] }
	| { kind: 'group'; key: string; group: ItemGroup; items: ItemView[] };

/**
 * Consecutive single items form one list; each group is a block of its own. Keys are unique
 * even when the data repeats a lineId (stored data, older versions): a repeated key gets `#n`.
 */
export function blocksOf(entries: readonly CardEntry[]): CardBlock[] {
	const blocks: CardBlock[] = [];
	const keys = new Map<string, number>();
	const unique = (key: string) => {
		const seen = keys.get(key) ?? 0;
		keys.set(key, seen + 1);
		return seen === 0 ? key : `${key}#${seen}`;
	};
	for (const entry of entries) {
		if (entry.kind === 'group') {
			blocks.push({
				kind: 'group',
				key: unique(`g:${entry.group.id}`),
				group: entry.group,
				items: entry.items
			});
			continue;
		}
		const last = blocks.at(-1);
		if (last?.kind === 'list') last.items.push(entry.item);
		else blocks.push({ kind: 'list', key: unique(`l:${entry.item.lineId}`), items: [entry.item] });
	}
	return blocks;
}
