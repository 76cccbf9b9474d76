/**
 * The relay's schemas over generated input (seeded): arbitrary JSON never throws, it parses or
 * gets one line of field errors; every valid message, either way, survives the wire unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCREEN_ACTIONS } from './screen.ts';
import {
	parseClientMessage,
	parseServerMessage,
	type ClientMessage,
	type OrderRecordSchema,
	type ServerMessage
} from './relay.ts';
import type * as z from 'zod';

const SEED = 2727;
const num = fc.double({ noNaN: true, noDefaultInfinity: true });
const time = fc.integer({ min: 0, max: 2 ** 45 });
const id = fc.string({ unit: 'grapheme', maxLength: 12 });

const clientMessage: fc.Arbitrary<ClientMessage> = fc.oneof(
	fc.constant({ type: 'resync' as const }),
	fc.constant({ type: 'ping' as const }),
	fc.record(
		{
			type: fc.constant('action' as const),
			action: fc.constantFrom(...SCREEN_ACTIONS),
			orderId: id,
			course: fc.string()
		},
		{ requiredKeys: ['type', 'action'] }
	),
	fc.record({ type: fc.constant('popup.ack' as const), id })
);

const order = fc.record({
	id,
	name: fc.string(),
	mode: fc.constant('ToGo'),
	items: fc.constant([])
});
const record = fc.record({
	state: fc.constantFrom('held', 'active', 'cancelled', 'bumped'),
	context: fc.record({
		id,
		seq: time,
		receivedAt: time,
		queuedAt: time,
		updatedAt: time,
		items: fc.constant([])
	})
}) as unknown as fc.Arbitrary<z.output<typeof OrderRecordSchema>>;
const notifications = {
	takeout: fc.array(
		fc.record({ orderId: id, arrivedAt: time, etaAt: time }, { requiredKeys: ['orderId'] }),
		{ maxLength: 3 }
	),
	popups: fc.array(fc.record({ id, message: fc.string(), at: time }), { maxLength: 3 })
};
const timers = fc.record({ warnAfter: num, lateAfter: num });
const change = fc.oneof(
	fc.record({
		type: fc.constant('order.created' as const),
		id,
		input: fc.record(
			{ order, at: time, seq: time, held: fc.boolean() },
			{ requiredKeys: ['order', 'at', 'seq'] }
		)
	}),
	fc.record({
		type: fc.constant('order.event' as const),
		id,
		event: fc.oneof(
			fc.record({ type: fc.constant('order.updated' as const), order, at: time }),
			fc.record({
				type: fc.constant('order.patched' as const),
				patch: fc.record({ id }),
				at: time
			}),
			fc.record({
				type: fc.constantFrom(
					'order.cancelled' as const,
					'order.bumped' as const,
					'order.recalled' as const
				),
				at: time
			}),
			fc.record({ type: fc.constant('order.fired' as const), at: time, seq: time }),
			fc.record({ type: fc.constant('course.fired' as const), course: fc.string(), at: time })
		)
	}),
	fc.record({ type: fc.constant('order.removed' as const), id })
);
const serverMessage = fc.oneof(
	fc.record(
		{
			type: fc.constant('snapshot' as const),
			seq: time,
			now: time,
			records: fc.array(record, { maxLength: 3 }),
			notifications: fc.record(notifications),
			screen: fc.record({
				id,
				name: fc.string(),
				locationId: id,
				locationName: fc.string(),
				timezone: fc.constant('America/Chicago'),
				settings: fc.record(
					{
						timers: fc.record(
							{
								warnAfter: num,
								lateAfter: num,
								byMode: fc.dictionary(fc.string(), timers, { maxKeys: 2 })
							},
							{ requiredKeys: ['warnAfter', 'lateAfter'] }
						),
						autoHoldFutureOrders: fc.boolean(),
						keymap: fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
						scale: num,
						modeColors: fc.dictionary(fc.string(), fc.constantFrom('#fff', '#12ab34'), {
							maxKeys: 2
						}),
						autoBump: fc.record(
							{
								afterSeconds: num,
								jitterSeconds: num,
								byMode: fc.dictionary(fc.string(), num, { maxKeys: 2 })
							},
							{ requiredKeys: ['afterSeconds'] }
						)
					},
					{ requiredKeys: ['timers', 'autoHoldFutureOrders', 'keymap'] }
				)
			})
		},
		{ requiredKeys: ['type', 'seq', 'now', 'records', 'screen'] }
	),
	fc.record({ type: fc.constant('change' as const), seq: time, now: time, change }),
	fc.record({ type: fc.constant('pong' as const), now: time }),
	fc.record({ type: fc.constant('error' as const), code: fc.string(), message: fc.string() }),
	fc.record({ type: fc.constant('notifications' as const), now: time, ...notifications })
) as fc.Arbitrary<ServerMessage>;

/** JSON's own view of a value: what arrives on the other side of the socket. */
const onTheWire = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('relay schemas (seeded)', () => {
	it('arbitrary JSON never throws: it parses or gets a non-empty error line', () => {
		fc.assert(
			fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
				for (const parse of [parseClientMessage, parseServerMessage]) {
					const result = parse(text);
					if (!result.ok) expect(result.error).toMatch(/\S/);
				}
			}),
			{ seed: SEED, numRuns: 2000 }
		);
	});

	it('arbitrary objects with a known type never throw either, and errors name a path', () => {
		const types = fc.constantFrom(
			'snapshot',
			'change',
			'pong',
			'error',
			'notifications',
			'resync',
			'ping',
			'action',
			'popup.ack'
		);
		fc.assert(
			fc.property(
				types,
				fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
				(type, rest) => {
					const text = JSON.stringify({ ...rest, type });
					for (const parse of [parseClientMessage, parseServerMessage]) {
						const result = parse(text);
						if (!result.ok) expect(result.error).toMatch(/^[\w.[\]"]+: /);
					}
				}
			),
			{ seed: SEED, numRuns: 2000 }
		);
	});

	it('every valid message survives the wire unchanged, both ways', () => {
		fc.assert(
			fc.property(clientMessage, (message) => {
				expect(parseClientMessage(JSON.stringify(message))).toEqual({
					ok: true,
					message: onTheWire(message)
				});
			}),
			{ seed: SEED, numRuns: 500 }
		);
		fc.assert(
			fc.property(serverMessage, (message) => {
				expect(parseServerMessage(JSON.stringify(message))).toEqual({
					ok: true,
					message: onTheWire(message)
				});
			}),
			{ seed: SEED, numRuns: 500 }
		);
	});
});
