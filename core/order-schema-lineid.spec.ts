/**
 * Items without lineId (field notes: older clients, an npm order builder, a food-truck POS bridge)
 * over the schema, seeded: any mix of items with and without a lineId, with and without an extra
 * `notes`, over TCP and HTTP, is accepted; every item ends up with a line id unique in the order,
 * those given kept as sent; each item without one gets exactly one KDS-LINEID-MISSING warning
 * naming the id it was given, and each `notes` one KDS-FIELD-UNKNOWN.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConformance } from './conformance.ts';
import { HttpOrderSchema } from './order-schema.ts';
import { parseWith } from './parse.ts';
import { parseTcpValue } from './tcp-message.ts';

const item = fc.record(
	{
		lineId: fc.oneof(
			fc.constant(undefined),
			fc.constant(null),
			fc.string({ minLength: 1, maxLength: 4 }),
			fc.constantFrom('#1', '#2', '#2.2', '#3')
		),
		name: fc.string({ maxLength: 10 }),
		qty: fc.integer({ min: 1, max: 9 }),
		mods: fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.record({ name: fc.string() })), {
			maxLength: 2
		}),
		notes: fc.option(fc.string({ maxLength: 8 }), { nil: undefined })
	},
	{ requiredKeys: ['name', 'qty', 'mods'] }
);

/** Items whose given lineIds are unique (two equal given ids are refused, a rule of its own). */
const items = fc
	.array(item, { maxLength: 8 })
	.filter((list) => {
		const given = list.map((i) => i.lineId).filter((id) => typeof id === 'string');
		return new Set(given).size === given.length;
	})
	.map((list) =>
		list.map((i) => {
			const out: Record<string, unknown> = { ...i };
			for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
			return out;
		})
	);

const order = (list: object[]) => ({
	id: 'P-1',
	name: 'Prop',
	time: '2026-11-24T12:00:00Z',
	mode: 'ToGo',
	items: list
});

describe('items without lineId, over the schema (seeded)', () => {
	it('accepted over TCP and HTTP, unique line ids, one warning per item without one', () => {
		fc.assert(
			fc.property(items, fc.boolean(), (list, overTcp) => {
				const raw = overTcp ? { command: 'create-order', order: order(list) } : order(list);
				const parsed = overTcp ? parseTcpValue(raw) : parseWith(HttpOrderSchema, raw);
				expect(parsed.ok).toBe(true);
				if (!parsed.ok) return;
				const out =
					'command' in parsed.value
						? (parsed.value as { order: { items: Array<{ lineId: string }> } }).order.items
						: (parsed.value as { items: Array<{ lineId: string }> }).items;
				const ids = out.map((i) => i.lineId);
				expect(new Set(ids).size).toBe(ids.length);
				list.forEach((sent, i) => {
					if (typeof sent.lineId === 'string') expect(ids[i]).toBe(sent.lineId);
					else expect(ids[i]).toMatch(/^#\d+(\.\d+)?$/);
				});
				const findings = checkConformance({
					interface: overTcp ? 'tcp' : 'http',
					command: 'create-order',
					raw,
					schemaValid: true
				});
				const prefix = overTcp ? 'order.' : '';
				const missing = findings.filter((f) => f.code === 'KDS-LINEID-MISSING');
				const expected = list.flatMap((sent, i) =>
					typeof sent.lineId === 'string' ? [] : [`${prefix}items[${i}].lineId`]
				);
				expect(missing.map((f) => f.path)).toEqual(expected);
				missing.forEach((f) => {
					const i = Number(/items\[(\d+)\]/.exec(f.path)![1]);
					expect(f.message).toContain(JSON.stringify(ids[i]));
					expect(f.severity).toBe('warning');
				});
				const notes = findings.filter((f) => f.path.endsWith('.notes'));
				expect(notes.map((f) => f.code)).toEqual(
					list.flatMap((sent) => ('notes' in sent ? ['KDS-FIELD-UNKNOWN'] : []))
				);
			}),
			{ seed: 2525, numRuns: 300 }
		);
	});
});
