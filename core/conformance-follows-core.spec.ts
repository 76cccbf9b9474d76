/**
 * A finding about what the screen did cannot disagree with what the screen did.
 *
 * One table of partial and full updates is driven through the core (decide, then the screen as
 * it is after) and through checkConformance. Each finding about an ignored or cleared part is
 * checked against the screen itself, by looking at the card after the message: an itemsToAdd
 * entry is "ignored" exactly when the card does not show it, and so on. Then the core's rule is
 * changed in one place (itemsToAdd with a lineId already on the order overwrites the item instead
 * of being ignored; a full update keeps the fields it leaves out) and the same table runs again:
 * the core does something else, and the findings follow. A conformance check that kept its own
 * copy of the rule would still say "ignored" (or "cleared") and fail here.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Content from './content.ts';
import { checkConformance, type Finding } from './conformance.ts';
import type { OrderRecord } from './order-machine.ts';
import { applyChanges, createRecord, createScreenState, decide } from './screen.ts';
import type { KdsItem, Order, OrderCommand, PartialOrder } from './order-schema.ts';

/** The rule changes the table runs under; set per test. */
const mutation = vi.hoisted(() => ({ addOverwrites: false, updateKeepsFields: false }));

vi.mock('./content.ts', async (importOriginal) => {
	const real = await importOriginal<typeof Content>();
	return {
		...real,
		applyPartialUpdate: (prev: Content.OrderContent, patch: PartialOrder, at: number) => {
			if (!mutation.addOverwrites) return real.applyPartialUpdate(prev, patch, at);
			// The mutant rule: an itemsToAdd entry whose lineId is on the order replaces that item.
			const live = new Set(prev.items.filter((i) => !i.deleted).map((i) => i.lineId));
			const adds = patch.itemsToAdd ?? [];
			return real.applyPartialUpdate(
				prev,
				{
					...patch,
					itemsToAdd: adds.filter((i) => !live.has(i.lineId)),
					itemsToUpdate: [...adds.filter((i) => live.has(i.lineId)), ...(patch.itemsToUpdate ?? [])]
				},
				at
			);
		},
		applyFullUpdate: (prev: Content.OrderContent, order: Order, at: number) => {
			const next = real.applyFullUpdate(prev, order, at);
			if (!mutation.updateKeepsFields) return next;
			// The mutant rule: a field left out of a full update keeps its value.
			return { ...next, fields: { ...prev.fields, ...definedOnly(next.fields) } };
		}
	};
});

function definedOnly(fields: object): object {
	return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

const T0 = 1_795_338_000_000;

const item = (lineId: string, name = `Item ${lineId}`): KdsItem => ({
	lineId,
	name,
	qty: 1,
	mods: []
});

const ORDER: Order = {
	id: 'R-1',
	name: 'Robin',
	time: '2026-11-22T18:00:00Z',
	mode: 'ToGo',
	phoneNumber: '+14155550123',
	specialInstructions: 'No onions',
	items: [item('1'), item('2'), item('3')]
};

/** The order on the screen, line 3 already struck through. */
function onScreen(): OrderRecord {
	const created = createRecord({ order: ORDER, at: T0, seq: 1 });
	const screen = createScreenState([created]);
	const patch = { id: 'R-1', itemsToRemove: ['3'] };
	const decision = decide(screen, { command: 'partial-update-order', order: patch }, T0 + 1);
	if (!decision.ok) throw new Error('setup');
	applyChanges(screen, decision.changes);
	return screen.orders.get('R-1') as OrderRecord;
}

/** The table: partial updates touching every list entry kind, and full updates. */
const PATCHES: Array<[string, PartialOrder]> = [
	['add a new line', { id: 'R-1', itemsToAdd: [item('4')] }],
	['add a line already on the order', { id: 'R-1', itemsToAdd: [item('1', 'Burger')] }],
	['add back a struck-through line', { id: 'R-1', itemsToAdd: [item('3', 'Shake')] }],
	['update a line on the order', { id: 'R-1', itemsToUpdate: [item('2', 'Fries')] }],
	['update a line not on the order', { id: 'R-1', itemsToUpdate: [item('9')] }],
	[
		'update a line added by the same message',
		{
			id: 'R-1',
			itemsToAdd: [item('5')],
			itemsToUpdate: [item('5', 'Large 5')]
		}
	],
	['remove a line on the order', { id: 'R-1', itemsToRemove: ['2'] }],
	['remove a line not on the order', { id: 'R-1', itemsToRemove: ['8'] }],
	['remove a struck-through line', { id: 'R-1', itemsToRemove: ['3'] }],
	[
		'remove a line added by the same message',
		{
			id: 'R-1',
			itemsToAdd: [item('6')],
			itemsToRemove: ['6']
		}
	],
	[
		'everything at once',
		{
			id: 'R-1',
			itemsToAdd: [item('1', 'Burger'), item('7'), item('2', 'Fries')],
			itemsToUpdate: [item('9'), item('1', 'Double')],
			itemsToRemove: ['8', '7', '3']
		}
	]
];

const FULL_UPDATES: Array<[string, Order]> = [
	[
		'a full update leaving out two fields',
		{ ...ORDER, phoneNumber: undefined, specialInstructions: undefined }
	],
	['a full update restating every field', ORDER]
];

/** What the core does with the command: the card after it. */
function cardAfter(before: OrderRecord, command: OrderCommand): OrderRecord {
	const screen = createScreenState([before]);
	const decision = decide(screen, command, before.context.updatedAt + 1);
	if (!decision.ok) throw new Error(decision.code);
	applyChanges(screen, decision.changes);
	return screen.orders.get(command.order.id) as OrderRecord;
}

function findingsFor(before: OrderRecord, command: OrderCommand): Finding[] {
	const raw = JSON.parse(JSON.stringify(command.order)) as unknown;
	return checkConformance({ interface: 'http', command: command.command, raw, existing: before });
}

const shown = (card: OrderRecord, lineId: string) =>
	card.context.items.find((i) => i.lineId === lineId);

const sameAs = (a: KdsItem | undefined, b: KdsItem) =>
	a !== undefined && a.name === b.name && a.qty === b.qty;

/**
 * The paths the findings must name, read off the cards the core shows (never from a rule): after
 * the patch's adds alone, an add of a line on the order that the card does not show; after its
 * adds and updates, an update the card does not show; after it all, a remove that struck nothing
 * through.
 */
function ignoredOnTheCard(before: OrderRecord, patch: PartialOrder): string[] {
	const paths: string[] = [];
	const { id, itemsToAdd, itemsToUpdate } = patch;
	const run = (part: PartialOrder) =>
		cardAfter(before, { command: 'partial-update-order', order: part });
	const added = run({ id, itemsToAdd });
	const updated = run({ id, itemsToAdd, itemsToUpdate });
	const done = run(patch);
	const at = done.context.updatedAt;
	const live = (card: OrderRecord, lineId: string) => {
		const now = shown(card, lineId);
		return now && !now.deleted ? now : undefined;
	};
	(patch.itemsToAdd ?? []).forEach((sent, i) => {
		const now = live(added, sent.lineId);
		const taken = sameAs(now, sent) && now?.changedAt === at;
		if (!taken && live(before, sent.lineId)) paths.push(`itemsToAdd[${i}].lineId`);
	});
	(patch.itemsToUpdate ?? []).forEach((sent, i) => {
		if (!sameAs(live(updated, sent.lineId), sent)) paths.push(`itemsToUpdate[${i}].lineId`);
	});
	(patch.itemsToRemove ?? []).forEach((lineId, i) => {
		const now = shown(done, lineId);
		if (!(now?.deleted && now.changedAt === at)) paths.push(`itemsToRemove[${i}]`);
	});
	return paths.sort();
}

const IGNORED_CODES = new Set(['KDS-LINEID-EXISTS', 'KDS-LINEID-UNKNOWN']);

function ignoredFindings(findings: Finding[]): string[] {
	return findings
		.filter((f) => IGNORED_CODES.has(f.code))
		.map((f) => f.path)
		.sort();
}

function clearedOnTheCard(before: OrderRecord, after: OrderRecord): string[] {
	const was = before.context.fields as Record<string, unknown>;
	const now = after.context.fields as Record<string, unknown>;
	return Object.keys(was)
		.filter((key) => was[key] !== undefined && now[key] === undefined)
		.sort();
}

function clearedFindings(findings: Finding[]): string[] {
	return findings
		.filter((f) => f.code === 'KDS-UPDATE-FIELD-CLEARED')
		.map((f) => f.path)
		.sort();
}

describe.each([
	['the core as it is', false],
	[
		'the core changed: itemsToAdd of an existing lineId overwrites, a full update keeps fields',
		true
	]
])('findings name exactly what %s did', (_label, mutated) => {
	beforeEach(() => {
		mutation.addOverwrites = mutated;
		mutation.updateKeepsFields = mutated;
	});

	it.each(PATCHES)('%s', (_name, patch) => {
		const before = onScreen();
		const command: OrderCommand = { command: 'partial-update-order', order: patch };
		expect(ignoredFindings(findingsFor(before, command))).toEqual(ignoredOnTheCard(before, patch));
	});

	it.each(FULL_UPDATES)('%s', (_name, order) => {
		const before = onScreen();
		const command: OrderCommand = { command: 'update-order', order };
		const after = cardAfter(before, command);
		expect(clearedFindings(findingsFor(before, command))).toEqual(clearedOnTheCard(before, after));
	});
});

describe('the mutation changes what the screen does, and the finding with it', () => {
	it('itemsToAdd with lineId 1 already on the order: ignored, then overwritten', () => {
		const patch: PartialOrder = { id: 'R-1', itemsToAdd: [item('1', 'Burger')] };
		const command: OrderCommand = { command: 'partial-update-order', order: patch };
		const seen = [false, true].map((mutated) => {
			mutation.addOverwrites = mutated;
			const before = onScreen();
			return {
				name: shown(cardAfter(before, command), '1')?.name,
				codes: findingsFor(before, command).map((f) => f.code)
			};
		});
		mutation.addOverwrites = false;
		expect(seen).toEqual([
			{ name: 'Item 1', codes: ['KDS-LINEID-EXISTS'] },
			{ name: 'Burger', codes: [] }
		]);
	});

	it('a full update without phoneNumber: cleared, then kept', () => {
		const order = { ...ORDER, phoneNumber: undefined };
		const command: OrderCommand = { command: 'update-order', order };
		const seen = [false, true].map((mutated) => {
			mutation.updateKeepsFields = mutated;
			const before = onScreen();
			return {
				phone: cardAfter(before, command).context.fields.phoneNumber,
				codes: findingsFor(before, command).map((f) => f.code)
			};
		});
		mutation.updateKeepsFields = false;
		expect(seen).toEqual([
			{ phone: undefined, codes: ['KDS-UPDATE-FIELD-CLEARED'] },
			{ phone: '+14155550123', codes: [] }
		]);
	});
});
