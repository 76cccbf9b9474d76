import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConformance, REPLACEMENT_CHARACTER, type CheckContext } from './conformance.ts';

const FFFD = REPLACEMENT_CHARACTER;
const notUtf8 = (ctx: CheckContext) =>
	checkConformance(ctx).filter((f) => f.code === 'KDS-TEXT-NOT-UTF8');
const order = (name: string, item = 'Soup') => ({
	id: 'T1',
	name,
	time: '2026-11-26T12:00:00Z',
	mode: 'Pickup',
	items: [{ lineId: '1', name: item, qty: 1, mods: [{ name: `no ${item}` }] }]
});

describe('KDS-TEXT-NOT-UTF8', () => {
	it('names each text holding U+FFFD by its path, values and keys, HTTP and TCP', () => {
		const http = notUtf8({
			interface: 'http',
			command: 'create-order',
			raw: { ...order(`M${FFFD}ller`, `Cr${FFFD}me`), [`not${FFFD}e`]: 'x' }
		});
		expect(http.map((f) => [f.path, f.severity])).toEqual([
			['name', 'warning'],
			['items[0].name', 'warning'],
			['items[0].mods[0].name', 'warning'],
			[`not${FFFD}e`, 'warning']
		]);
		expect(http[0].message).toBe(
			`the text "M${FFFD}ller" holds �: bytes that are not UTF-8 (ISO-8859-1 or Windows-1252?) were read as U+FFFD and show so; send the text as UTF-8`
		);
		expect(http[3].message).toMatch(/^the key /);
		const tcp = notUtf8({
			interface: 'tcp',
			command: 'create-order',
			raw: { command: 'create-order', order: order(`M${FFFD}ller`) }
		});
		expect(tcp.map((f) => f.path)).toEqual(['order.name']);
	});

	it('is not searched for when the edge says the text holds none', () => {
		const raw = order(`M${FFFD}ller`);
		expect(
			notUtf8({ interface: 'http', command: 'create-order', raw, replacementChar: false })
		).toEqual([]);
		expect(
			notUtf8({ interface: 'http', command: 'create-order', raw, replacementChar: true })
		).toHaveLength(1);
	});

	it('names the first ten, however many there are', () => {
		const items = Array.from({ length: 40 }, (_, i) => ({
			lineId: `${i}`,
			name: `x${FFFD}`,
			qty: 1
		}));
		const found = notUtf8({
			interface: 'http',
			command: 'create-order',
			raw: { ...order('A'), items }
		});
		expect(found.map((f) => f.path)).toEqual(
			Array.from({ length: 10 }, (_, i) => `items[${i}].name`)
		);
	});

	it('any JSON: a finding exactly when a string or key holds U+FFFD, one per such string up to ten (seeded)', () => {
		const text = fc.string({ unit: fc.constantFrom('a', 'é', FFFD, '🍕', ' ') });
		const json = fc.letrec((tie) => ({
			value: fc.oneof(
				{ depthSize: 'small' },
				text,
				fc.integer(),
				fc.boolean(),
				fc.constant(null),
				fc.array(tie('value'), { maxLength: 4 }),
				fc.dictionary(text, tie('value'), { maxKeys: 4 })
			)
		})).value;
		fc.assert(
			fc.property(json, (raw) => {
				let holding = 0;
				const count = (v: unknown): void => {
					if (typeof v === 'string') holding += v.includes(FFFD) ? 1 : 0;
					else if (Array.isArray(v)) v.forEach(count);
					else if (v !== null && typeof v === 'object')
						for (const [k, x] of Object.entries(v)) {
							holding += k.includes(FFFD) ? 1 : 0;
							count(x);
						}
				};
				count(raw);
				const found = notUtf8({ interface: 'http', command: 'create-order', raw });
				// One per path: a key and its value at one path are one finding.
				expect(found.length > 0).toBe(holding > 0);
				expect(found.length).toBeLessThanOrEqual(Math.min(10, holding));
			}),
			{ seed: 20261126, numRuns: 500 }
		);
	});
});
